package home

import (
	"maps"

	"github.com/reachy-broker/reachy-broker/intents"
)

// CheckArgs makes an AC write say exactly one thing (intents.ArgChecker). A set point
// turns the AC on, so {"temperature": 22} is completed to state "on" and the audit says so;
// "off" with a set point contradicts itself and a write with neither says nothing to do:
// both are refused rather than guessed at. Lights and reads pass unchanged.
func (h Handler) CheckArgs(in *intents.Intent, args map[string]string) (map[string]string, error) {
	if h.Kind != "ac" || in == nil || in.Kind != intents.KindWrite {
		return args, nil
	}
	state, temp := args["state"], args["temperature"]
	switch {
	case state == "off" && temp != "":
		return nil, &intents.ArgError{Arg: "temperature", Why: `cannot be set while turning the AC off; send state "off" alone`}
	case state == "" && temp == "":
		return nil, &intents.ArgError{Arg: "state", Why: `or temperature is required: say "on", "off" or a set point`}
	case state != "" && state != "on" && state != "off":
		return nil, &intents.ArgError{Arg: "state", Why: "is not one of the allowed values"}
	}
	out := maps.Clone(args)
	if state == "" {
		out["state"] = "on"
	}
	return out, nil
}
