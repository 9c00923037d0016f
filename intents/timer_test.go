package intents

import (
	"errors"
	"strings"
	"testing"
)

func TestTimerIntentsRoute(t *testing.T) {
	tb := demo(t)
	for _, tc := range []struct {
		said, intent string
		args         map[string]string
	}{
		{"set a timer for ten minutes", "timer.start", map[string]string{"duration": "600"}},
		{"Hey Reachy, set a pasta timer for 10 min.", "timer.start", map[string]string{"duration": "600", "label": "pasta"}},
		{"could you set a timer for an hour and a half for the laundry", "timer.start", map[string]string{"duration": "5400", "label": "laundry"}},
		{"start an egg timer for 4 minutes", "timer.start", map[string]string{"duration": "240", "label": "eggs"}},
		{"set a 20 minute cookies timer", "timer.start", map[string]string{"duration": "1200", "label": "cookies"}},
		{"timer for a minute", "timer.start", map[string]string{"duration": "60"}},
		// A wake-up, an alarm or a reminder in a length of time is a timer.
		{"wake me up in twenty minutes", "timer.start", map[string]string{"duration": "1200"}},
		{"can you wake us in an hour", "timer.start", map[string]string{"duration": "3600"}},
		{"set an alarm for 10 minutes", "timer.start", map[string]string{"duration": "600"}},
		{"remind me in 10 minutes to check the pasta", "timer.start", map[string]string{"duration": "600", "label": "pasta"}},
		// At a clock time, said of someone else, or not asked for, it is not.
		{"wake me up at 7", "unclear", map[string]string{"topic": "timer"}}, // said plainly: timers run for a length
		{"remind me at 5 o'clock to call grandma", "unclear", map[string]string{"topic": "timer"}},
		{"remind me in half an hour to take the laundry out", "timer.start", map[string]string{"duration": "1800", "label": "laundry"}},
		{"ring me in forty five seconds", "timer.start", map[string]string{"duration": "45"}},
		{"give me five minutes on the clock for the bath", "timer.start", map[string]string{"duration": "300", "label": "bath"}},
		{"she told me to wake her up in 20 minutes", "general.ask", map[string]string{"question": "she told me to wake her up in 20 minutes"}},
		{"did you wake me up in 20 minutes", "general.ask", map[string]string{"question": "did you wake me up in 20 minutes"}},
		{"how much time is left on the pasta timer?", "timer.status", map[string]string{"label": "pasta"}},
		{"how long is left", "timer.status", map[string]string{}},
		{"what timers are running", "timer.status", map[string]string{}},
		{"cancel the timer", "timer.cancel", map[string]string{}},
		{"stop the pasta timer", "timer.cancel", map[string]string{"label": "pasta"}},
		{"cancel all the timers", "timer.cancel", map[string]string{"label": "all"}},
		{"hang up", "session.end", map[string]string{}},
		{"end the call", "session.end", map[string]string{}},
		{"stop the call", "session.end", map[string]string{}},
		{"stop", "robot.stop", map[string]string{}},
		{"stop it", "robot.stop", map[string]string{}},
	} {
		d := tb.Route(tc.said, Context{})
		if d.Intent != tc.intent || !equalArgs(d.Args, tc.args) {
			t.Errorf("%q: %s %v, want %s %v (doctrine: %s)", tc.said, d.Intent, d.Args, tc.intent, tc.args, strings.Join(d.Doctrine, "; "))
		}
	}
}

func equalArgs(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestUnknownTimerLabelNeverBecomesText: a label outside the home's list starts an
// unlabelled timer (or, for cancel, asks which), and the word is never carried or echoed.
func TestUnknownTimerLabelNeverBecomesText(t *testing.T) {
	tb := demo(t)
	d := tb.Route("set a hunter2 timer for ten minutes", Context{})
	if d.Intent != "timer.start" || d.Args["duration"] != "600" || d.Args["label"] != "" {
		t.Fatalf("unknown label: %s %v", d.Intent, d.Args)
	}
	d = tb.Route("set a timer for 5 minutes for the secret diary", Context{})
	if d.Intent != "timer.start" || len(d.Args) != 1 {
		t.Fatalf("unknown label: %s %v", d.Intent, d.Args)
	}
	d = tb.Route("cancel the banana timer", Context{})
	if d.Intent != IntentClarify || d.Pending == nil || d.Pending.Missing != "label" || strings.Contains(d.Prompt, "banana") {
		t.Fatalf("cancel with an unknown label: %+v", d)
	}
	for _, dd := range []Decision{d, tb.Route("set a hunter2 timer for ten minutes", Context{})} {
		if strings.Contains(strings.Join(dd.Doctrine, " "), "hunter2") || strings.Contains(dd.Prompt, "hunter2") {
			t.Fatalf("the unknown word was echoed: %+v", dd)
		}
	}
	// The follow-up answer completes the cancel.
	got, ok := tb.Complete(*d.Pending, "the pasta one", Context{})
	if !ok || got.Intent != "timer.cancel" || got.Args["label"] != "pasta" {
		t.Fatalf("answer: %v %s %v", ok, got.Intent, got.Args)
	}
	if _, ok := tb.Complete(*d.Pending, "banana", Context{}); ok {
		t.Fatal("an unknown label completed the cancel")
	}
}

// TestTimerDurationsOutsideLimitsAreRefused: 0 s and more than 24 h are a spoken refusal
// that asks again, never a timer; "a while" asks how long.
func TestTimerDurationsOutsideLimitsAreRefused(t *testing.T) {
	tb := demo(t)
	for said, wantPrompt := range map[string]string{
		"set a timer for 25 hours":     "one second to 24 hours",
		"set a timer for zero seconds": "one second to 24 hours",
		"set a timer for a while":      "How long",
		"set a timer":                  "How long",
		"set a timer for ten":          "How long",
	} {
		d := tb.Route(said, Context{})
		if d.Intent != IntentClarify || d.Pending == nil || d.Pending.Missing != "duration" || !strings.Contains(d.Prompt, wantPrompt) {
			t.Errorf("%q: %s %q %+v", said, d.Intent, d.Prompt, d.Pending)
			continue
		}
		got, ok := tb.Complete(*d.Pending, "ten minutes", Context{})
		if !ok || got.Intent != "timer.start" || got.Args["duration"] != "600" {
			t.Errorf("%q then \"ten minutes\": %v %s %v", said, ok, got.Intent, got.Args)
		}
	}
}

func TestTimerTypedCallsValidate(t *testing.T) {
	tb := demo(t)
	start := mustLookup(t, tb, "timer.start")
	args, err := tb.Validate(start, map[string]string{"duration": "600", "label": "pasta"}, Context{})
	if err != nil || args["duration"] != "600" || args["label"] != "pasta" {
		t.Fatalf("%v %v", args, err)
	}
	for _, bad := range []map[string]string{
		{"duration": "0"}, {"duration": "86401"}, {"duration": "ten"}, {"duration": "600", "label": "banana"},
		{"label": "pasta"}, {"duration": "600", "label": "all"}, {"duration": "-5"},
	} {
		if _, err := tb.Validate(start, bad, Context{}); !errors.Is(err, ErrInvalidArgs) {
			t.Errorf("%v: err %v, want invalid args", bad, err)
		}
	}
	cancel := mustLookup(t, tb, "timer.cancel")
	if args, err := tb.Validate(cancel, map[string]string{"label": "all"}, Context{}); err != nil || args["label"] != "all" {
		t.Fatalf("cancel all: %v %v", args, err)
	}
	if got := tb.AllowedValues(ArgSpec{Type: ArgLabel, All: true}); len(got) != 13 || got[12] != "all" {
		t.Fatalf("allowed labels: %v", got)
	}
}

func TestTimerLabelsAreConfigurable(t *testing.T) {
	cfg := strings.Replace(string(DemoConfig()), "  rooms:\n", "  timer_labels: [Bread, bath time]\n  rooms:\n", 1)
	tb, err := Parse([]byte(cfg), "home.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if d := tb.Route("set a bath time timer for 20 minutes", Context{}); d.Args["label"] != "bath time" {
		t.Fatalf("%s %v", d.Intent, d.Args)
	}
	if d := tb.Route("set a pasta timer for 20 minutes", Context{}); d.Intent != "timer.start" || d.Args["label"] != "" {
		t.Fatalf("a default label outside this home's list: %s %v", d.Intent, d.Args)
	}
	for _, bad := range []string{"[all]", "[pasta, Pasta]", "['']"} {
		cfg := strings.Replace(string(DemoConfig()), "  rooms:\n", "  timer_labels: "+bad+"\n  rooms:\n", 1)
		if _, err := Parse([]byte(cfg), "home.yaml"); err == nil || !strings.Contains(err.Error(), "timer_labels") {
			t.Errorf("%s: err %v", bad, err)
		}
	}
}

// TestNewIntentScopesAndKinds: timers need scope timer and hanging up needs only turn, but a
// home's own intents cannot borrow those scopes to write or move.
func TestNewIntentScopesAndKinds(t *testing.T) {
	tb := demo(t)
	for name, want := range map[string]struct {
		kind  Kind
		scope string
	}{"timer.start": {KindWrite, ScopeTimer}, "timer.cancel": {KindWrite, ScopeTimer}, "timer.status": {KindRead, ScopeTimer}, "session.end": {KindRobot, ScopeTurn}} {
		in := mustLookup(t, tb, name)
		if in.Kind != want.kind || in.Scope != want.scope || in.Handler.Type != name {
			t.Errorf("%s: kind %s scope %s handler %s", name, in.Kind, in.Scope, in.Handler.Type)
		}
	}
	for _, y := range []string{
		"intents:\n  - name: a.b\n    kind: write\n    scope: timer\n    handler: {type: home.service, service: s.x}\n    patterns: ['x y z']\n    examples: ['x y z']\n",
		"intents:\n  - name: a.b\n    kind: robot\n    scope: turn\n    handler: {type: robot.expression, expression: dance}\n    patterns: ['x y z']\n    examples: ['x y z']\n",
	} {
		if _, err := Parse([]byte(y), "home.yaml"); err == nil || !strings.Contains(err.Error(), "needs scope") {
			t.Errorf("custom intent borrowed a built-in scope: %v", err)
		}
	}
}

// TestClarificationsNeverEchoUnrecognisedWords (#10.2): whatever was said in place of a room,
// a person or a timer label, the question back names only the home's own words.
func TestClarificationsNeverEchoUnrecognisedWords(t *testing.T) {
	tb := demo(t)
	secret := []string{"hunter2", "secret", "diary", "correct", "horse"}
	for _, said := range []string{
		"turn on the hunter2 secret diary light",
		"turn off the lights in the correct horse battery",
		"switch the secret diary ac on",
		"set the hunter2 ac to 22",
		"is hunter2 busy",
		"where is correct horse",
		"cancel the hunter2 timer",
		"set a timer for hunter2 secret diary",
	} {
		d := tb.Route(said, Context{})
		if d.Intent != IntentClarify {
			continue // not a question back: nothing to echo
		}
		for _, w := range secret {
			if strings.Contains(strings.ToLower(d.Prompt), w) {
				t.Errorf("%q: the prompt %q echoes %q", said, d.Prompt, w)
			}
		}
	}
	d := tb.Route("turn on the hunter2 secret diary light", Context{})
	if d.Intent != IntentClarify || !strings.HasPrefix(d.Prompt, "I don't know that room — I can do the kitchen, ") {
		t.Fatalf("unknown room: %s %q", d.Intent, d.Prompt)
	}
	if d := tb.Route("is hunter2 busy", Context{}); !strings.HasPrefix(d.Prompt, "I don't know that person — I can check mom or dad") {
		t.Fatalf("unknown person: %s %q", d.Intent, d.Prompt)
	}
}
