package intents

import (
	"errors"
	"strings"
	"testing"
)

// TestMinusSignIsNotASeparator: a minus sign or the word "minus" keeps its number negative in
// normalization, so the router never reads "-20" as 20 and typed values are refused; a range
// ("10-20") and a subtraction ("10 minus 3") are left alone.
func TestMinusSignIsNotASeparator(t *testing.T) {
	for in, want := range map[string]string{
		"set the ac to -20":              "set the ac to -20",
		"set the ac to - 20":             "set the ac to -20",
		"set the ac to \u221220":         "set the ac to -20",
		"set the ac to minus 20":         "set the ac to -20",
		"set the ac to minus twenty two": "set the ac to -22",
		"set the ac to negative twenty":  "set the ac to -20",
		"timer for minus five minutes":   "timer for -5 minutes",
		"what is 10 minus 3":             "what is 10 minus 3",
		"pages 10-20":                    "pages 10 20",
		"an x-ray":                       "an x ray",
	} {
		if got := normalize(in, wakeMatcher{}).Text; got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func TestNegativeTypedValuesAreRefused(t *testing.T) {
	tb := demo(t)
	set := mustLookup(t, tb, "house.ac.set")
	start := mustLookup(t, tb, "timer.start")
	for _, bad := range []struct {
		in   *Intent
		args map[string]string
	}{
		{set, map[string]string{"room": "bedroom", "temperature": "-20"}},
		{set, map[string]string{"room": "bedroom", "temperature": "- 20"}},
		{set, map[string]string{"room": "bedroom", "temperature": "\u221220"}},
		{start, map[string]string{"duration": "-60 seconds"}},
		{start, map[string]string{"duration": "- 60 seconds"}},
		{start, map[string]string{"duration": "-1 minute"}},
		{start, map[string]string{"duration": "\u221210 minutes"}},
	} {
		_, err := tb.Validate(bad.in, bad.args, Context{})
		if !errors.Is(err, ErrInvalidArgs) || !strings.Contains(err.Error(), "between") {
			t.Errorf("%v: err %v, want out of range", bad.args, err)
		}
	}
}

func TestNegativeNumbersInTranscriptsNeverAct(t *testing.T) {
	tb := demo(t)
	for _, s := range []string{
		"set the bedroom ac to minus 20", "set the bedroom ac to -20 degrees", "set the bedroom ac to negative 20",
		"set a timer for -60 seconds", "set a timer for minus 60 seconds", "set a timer for minus five minutes",
	} {
		d := tb.Route(s, Context{DeviceRoom: "living room"})
		if d.Intent == "house.ac.set" || d.Intent == "timer.start" {
			t.Errorf("%q routes to %s %v", s, d.Intent, d.Args)
		}
	}
}
