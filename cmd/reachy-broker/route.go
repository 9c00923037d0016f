package main

import (
	"encoding/json"
	"fmt"

	"github.com/reachy-broker/reachy-broker/intents"
)

// demoRouter routes typed sentences through the demo home's table.
func demoRouter() (func(string) string, error) {
	t, err := intents.LoadDemo()
	if err != nil {
		return nil, err
	}
	return func(s string) string {
		d := t.Route(s, intents.Context{})
		args, _ := json.Marshal(d.Args)
		out := fmt.Sprintf("%s %s", d.Intent, args)
		if d.Prompt != "" {
			out += " asks: " + d.Prompt
		}
		return out
	}, nil
}
