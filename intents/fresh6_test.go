package intents

import (
	"fmt"
	"testing"
)

// The classes the fresh-6 corpus (/work/fresh/released/fresh-6.tsv, issue 37) found acting
// where it must not: a number the recogniser broke off and the speaker said again, a
// learner's "no <verb>" for "don't", and a command said to another voice assistant.

// TestBrokenNumberTakesTheNumberSaidAgain: "twenty fi uh twenty six" is 26, never the
// cut-off 20; a number broken off with nothing said after it is not acted on.
func TestBrokenNumberTakesTheNumberSaidAgain(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"set the bedroom air to twenty fi uh twenty six", "house.ac.set", map[string]string{"room": "bedroom", "temperature": "26"}},
		{"set the bedroom AC to twenty tw no twenty four", "house.ac.set", map[string]string{"room": "bedroom", "temperature": "24"}},
		{"set the bedroom ac to twenty uh twenty two", "house.ac.set", map[string]string{"room": "bedroom", "temperature": "22"}},
		{"set the bedroom ac to twenty uh six", "house.ac.set", map[string]string{"room": "bedroom", "temperature": "26"}}, // said slowly
		{"set a timer for fif uh fifteen minutes", "timer.start", map[string]string{"duration": "900"}},
		{"set a timer for ten twe uh twelve minutes", "timer.start", map[string]string{"duration": "720"}},
		{"set a timer for five fi um eight minutes", "timer.start", map[string]string{"duration": "480"}},
		{"set a timer for twenty tw i mean thirty minutes", "timer.start", map[string]string{"duration": "1800"}},
		// unchanged: a number said once, and the corrections that already worked
		{"set the bedroom ac to twenty six", "house.ac.set", map[string]string{"room": "bedroom", "temperature": "26"}},
		{"set a timer for 5 no wait 10 minutes", "timer.start", map[string]string{"duration": "600"}},
	})
	for _, s := range []string{"set the bedroom air to twenty fi", "set a timer for twenty tw minutes",
		"set the bedroom air to twenty si degrees"} {
		d := tb.Route(s, Context{})
		if d.Intent == "house.ac.set" && d.Args["temperature"] == "20" || d.Intent == "timer.start" && d.Args["duration"] == "1200" {
			t.Errorf("%q: %s %v acts on the broken-off 20 (why: %v)", s, d.Intent, d.Args, d.Doctrine)
		}
		if Acting(d) {
			t.Errorf("%q: %s %v acts on a number it could not read", s, d.Intent, d.Args)
		}
	}
}

// TestLearnersNoVerbNeverActs: "no call mama now" is a learner's "don't call mama now"; "no,
// call dad" (a pause after the no) refuses something else and then asks.
func TestLearnersNoVerbNeverActs(t *testing.T) {
	tb := demo(t)
	for _, s := range []string{"no call mama now, she is working", "no turn off the light", "no play the game now",
		"no turn on the kitchen light", "no set a timer", "no call dad", "no ring grandma she is sleeping",
		"no cancel the timer", "okay no switch off the bedroom ac", "no start simon says"} {
		if d := tb.Route(s, Context{}); actsOrWouldAct(tb, d) {
			t.Errorf("%q: %s %v acts (why: %v)", s, d.Intent, d.Args, d.Doctrine)
		}
	}
	checkRoutes(t, tb, []routeCase{
		{"no, call dad", "teleport.call", map[string]string{"person": "dad"}},
		{"call mom no wait call dad", "teleport.call", map[string]string{"person": "dad"}},
		{"turn on the uh no off the kitchen light", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"no speak for thirty minutes", "robot.quiet", map[string]string{"state": "on", "duration": "1800"}},
		{"no stop", "robot.stop", nil},
	})
}

// TestCommandToAnotherAssistantNeverActs: "Siri, set a timer for ten minutes" is said to
// Siri; the robot offers, it does not act.
func TestCommandToAnotherAssistantNeverActs(t *testing.T) {
	tb := demo(t)
	commands := []string{"set a timer for ten minutes", "switch on the kitchen light", "turn off all the lights",
		"call dad", "cancel all timers", "set the bedroom ac to 21"}
	for _, name := range []string{"Siri, %s", "siri %s", "Alexa, %s", "hey alexa %s", "OK Google, %s", "hey google %s",
		"Cortana %s", "Bixby, %s", "hey siri can you %s"} {
		for _, c := range commands {
			if d := tb.Route(c, Context{}); !Acting(d) {
				t.Fatalf("%q does not act on its own (%s): the cross proves nothing", c, d.Intent)
			}
			s := fmt.Sprintf(name, c)
			if d := tb.Route(s, Context{}); actsOrWouldAct(tb, d) {
				t.Errorf("%q: %s %v acts (why: %v)", s, d.Intent, d.Args, d.Doctrine)
			}
		}
	}
	// The robot's own name still acts, and "google" as a verb is still a question.
	checkRoutes(t, tb, []routeCase{
		{"Reachy, set a timer for ten minutes", "timer.start", map[string]string{"duration": "600"}},
		{"google the word serendipity", "general.ask", nil},
	})
}
