package intents

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/reachy-broker/reachy-broker/redact"
)

// Call is what a handler receives: an allowlisted intent with validated arguments.
type Call struct {
	Intent *Intent
	Args   map[string]string
	Device string
	Room   string   // the device's room
	Scopes []string // the caller's scopes (the help guide shows only what they allow)
	Table  *Table
	// Partial, when set, receives each complete sentence of a streamed answer as it arrives,
	// so the broker can start speaking before the whole answer is in. The Answer's Reply is
	// still the whole text, and it alone is authoritative.
	Partial func(sentence string)
	// Available reports whether the broker can carry out a handler type (one it has a
	// handler for: a calendar, an agent, the house); nil: every type. The help guide offers
	// only those.
	Available func(handler string) bool
	// Callable reports whether a person of the home takes calls (an owner of the console):
	// the help guide offers calls only to them. nil: nobody is offered.
	Callable func(person string) bool
	// MaxReply is the reply length cap (the redactor's); 0: redact's default. The help guide
	// fits it, so it is never cut.
	MaxReply int
}

// Answer is what a handler returns. Reply is untrusted until the broker's redactor has
// passed it.
type Answer struct {
	Reply      string
	Expression string // one of the Expressions the hub knows
	FollowUp   bool
	// Calendar, when set, is rendered by the broker's redactor into the reply: a calendar
	// handler hands over a coarse typed status, never a sentence of its own.
	Calendar *redact.CalendarStatus
	// Outcome says how it went when the reply is an apology rather than an error: "" (it
	// was done), OutcomeFailed, OutcomePartial or OutcomeUnknown. The audit and the metrics
	// record it, so a "the light isn't answering" is never counted as ok.
	Outcome string
	// Code, with an Outcome, names why in a closed code the audit records (CodeNotConfigured);
	// "" lets the broker name it after the handler and the outcome.
	Code string
}

// Outcomes a handler reports in Answer.Outcome.
const (
	OutcomeFailed  = "failed"  // nothing was done
	OutcomePartial = "partial" // some of it was done
	OutcomeUnknown = "unknown" // a write was sent; whether it landed is not known
)

// CodeNotConfigured is the closed code of an answer about a device (or other target) this
// home has not set up: the table knows it, the configuration connects nothing to it.
const CodeNotConfigured = "not_configured"

// Handler carries out one kind of intent. Implementations get their network clients
// injected; Handle must honour ctx's deadline.
type Handler interface {
	Handle(ctx context.Context, c Call) (Answer, error)
}

// ArgChecker is implemented by a handler whose arguments depend on one another (an AC's
// state and set point). The broker calls CheckArgs after Validate and before the audit
// record and the handler: an error (an *ArgError) refuses the call as invalid_args, and the
// returned arguments — completed, never contradicting what was asked — are what the handler
// is given and what the audit records.
type ArgChecker interface {
	CheckArgs(in *Intent, args map[string]string) (map[string]string, error)
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx context.Context, c Call) (Answer, error)

// Handle calls f.
func (f HandlerFunc) Handle(ctx context.Context, c Call) (Answer, error) { return f(ctx, c) }

// Expressions the broker may send besides the home's own (dance, nod, ...).
const (
	ExpressionNeutral  = "neutral"
	ExpressionHappy    = "happy"
	ExpressionCurious  = "curious"
	ExpressionConfused = "confused"
	ExpressionSorry    = "sad"
	ExpressionStop     = "stop"
)

// ErrInvalidArgs is returned by Validate for arguments outside the closed vocabularies.
var ErrInvalidArgs = errors.New("invalid arguments")

// Validate checks a typed call's arguments against the intent's declarations and the home's
// vocabularies, and returns them in canonical form.
func (t *Table) Validate(in *Intent, args map[string]string, ctx Context) (map[string]string, error) {
	for k, v := range args {
		spec, ok := in.Arg(k)
		if !ok {
			// Name the problem, never the caller's bytes: the unknown name is not echoed.
			return nil, &ArgError{Why: "one argument is not an argument of " + in.Name}
		}
		if spec.Type == ArgText {
			if len(v) == 0 || len(v) > maxTranscript {
				return nil, &ArgError{Arg: k, Why: "must be 1 to " + strconv.Itoa(maxTranscript) + " bytes"}
			}
		}
	}
	var text map[string]string
	captured := map[string]string{}
	for k, v := range args {
		spec, _ := in.Arg(k)
		if spec.Type == ArgText {
			if text == nil {
				text = map[string]string{}
			}
			text[k] = v
			continue
		}
		if spec.Type == ArgDuration && isDigits(v) {
			v += " seconds" // the canonical form: whole seconds
		}
		captured[k] = normalizeVocab(v)
	}
	b := t.bind(in, captured, ctx)
	if b.notApplicable {
		return nil, &ArgError{Arg: "", Why: "values are not words of the home's vocabulary"}
	}
	for _, p := range b.problems {
		if p.why == "missing" {
			if spec, _ := in.Arg(p.arg); spec.Type == ArgText {
				if _, ok := text[p.arg]; ok {
					continue
				}
			}
		}
		return nil, &ArgError{Arg: p.arg, Why: describeProblem(p, t, in)}
	}
	for k, v := range text {
		b.args[k] = v
	}
	return b.args, nil
}

// ArgError says which argument is wrong and why. Arg is always a declared argument name
// (or empty), never a name the caller sent.
type ArgError struct{ Arg, Why string }

func (e *ArgError) Error() string {
	if e.Arg == "" {
		return "invalid arguments: " + e.Why
	}
	return "argument " + e.Arg + " " + e.Why
}

// Unwrap makes errors.Is(err, ErrInvalidArgs) true.
func (e *ArgError) Unwrap() error { return ErrInvalidArgs }

func describeProblem(p problem, t *Table, in *Intent) string {
	spec, _ := in.Arg(p.arg)
	switch p.why {
	case "missing":
		return "is required"
	case "out_of_range":
		if spec.Type == ArgDuration {
			return "must be between " + strconv.Itoa(MinTimerSeconds) + " and " + strconv.Itoa(MaxTimerSeconds) + " seconds"
		}
		return "must be between " + strconv.Itoa(t.Home.ACRange.Min) + " and " + strconv.Itoa(t.Home.ACRange.Max)
	case "no_device":
		return "names a room without " + deviceWord(spec.Device)
	case "no_device_room":
		return `"here" needs the device's room, and none is configured`
	}
	return "is not one of the allowed values"
}

// AllowedValues lists an argument's closed vocabulary (for GET /v1/intents).
func (t *Table) AllowedValues(spec ArgSpec) []string {
	switch spec.Type {
	case ArgRoom:
		var out []string
		for _, r := range t.Home.Rooms {
			if spec.Device == "" || slices.Contains(r.Devices, spec.Device) {
				out = append(out, r.Name)
			}
		}
		return append(out, "here", "all")
	case ArgState:
		return []string{"on", "off"}
	case ArgPerson:
		var out []string
		for _, p := range t.Home.People {
			out = append(out, p.Name)
		}
		return out
	case ArgExpression:
		return sortedKeys(t.Home.Expressions)
	case ArgTemperature:
		return []string{strconv.Itoa(t.Home.ACRange.Min) + ".." + strconv.Itoa(t.Home.ACRange.Max)}
	case ArgTopic:
		return slices.Clone(unclearTopics)
	case ArgDuration:
		return []string{strconv.Itoa(MinTimerSeconds) + ".." + strconv.Itoa(MaxTimerSeconds) + " (seconds)"}
	case ArgLabel:
		out := slices.Clone(t.Home.TimerLabels)
		if spec.All {
			out = append(out, "all")
		}
		return out
	}
	return nil
}

// Vocabulary is a short phrase of the home's words (rooms, devices, people, wake phrases),
// given to speech-to-text as a hint so it spells them the way the table expects.
func (t *Table) Vocabulary() string {
	var words []string
	words = append(words, t.Home.WakePhrases...)
	for _, r := range t.Home.Rooms {
		words = append(words, r.Name)
	}
	words = append(words, "light", "AC")
	for _, p := range t.Home.People {
		words = append(words, p.Name)
	}
	return "Turn on the kitchen light. " + joinComma(words) + "."
}

func joinComma(ws []string) string {
	out := ""
	for i, w := range ws {
		if i > 0 {
			out += ", "
		}
		out += w
	}
	return out
}
