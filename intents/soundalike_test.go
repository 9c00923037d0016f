package intents

import (
	"strings"
	"testing"
)

// TestASmallChildIsHeard: a small child's words as a recogniser writes them (w for r and l,
// a dropped r, a lisp, "da" for "the", sounds swapped) are read against the table's own
// words — none of these sentences is a corpus row. What does not switch anything in the
// house is done; a house change is asked first, and a yes does it.
func TestASmallChildIsHeard(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"wet's pway wock paper scissors", "play.rps", nil},
		{"i wanna pway fweeze dance wobot", "play.freeze", nil},
		{"wet's pway hide and theek", "play.hide", nil},
		{"pway da aminal guessing game pwease", "play.animal", nil},
		{"wobot do a dance pwease", "robot.expression", map[string]string{"expression": "dance"}},
		{"wobot be quiet fow an houw", "robot.quiet", nil},
	})
	for said, want := range map[string]map[string]string{
		"wobot tun the kitchen wight off":     {"room": "kitchen", "state": "off"},
		"tun on da wight in da office pwease": {"room": "office", "state": "on"},
	} {
		d := tb.Route(said, Context{})
		if d.Intent != IntentClarify || d.Pending == nil || d.Pending.Missing != MissingConfirm || !equalArgs(d.Pending.Args, want) {
			t.Errorf("%q: %s %+v, want a question whether to do house.light.set %v (why: %s)", said, d.Intent, d.Pending, want, strings.Join(d.Doctrine, "; "))
			continue
		}
		if !strings.Contains(d.Prompt, "light") || !strings.HasPrefix(d.Prompt, "Do you want me to") {
			t.Errorf("%q: asks %q", said, d.Prompt)
		}
		for _, yes := range []string{"yes", "yeah please", "yes pwease", "ok"} {
			got, ok := tb.Complete(*d.Pending, yes, Context{})
			if !ok || got.Intent != "house.light.set" || !equalArgs(Comparable(got), want) {
				t.Errorf("%q then %q: %v %s %v, want house.light.set %v", said, yes, ok, got.Intent, got.Args, want)
			}
		}
		for _, no := range []string{"no", "no thank you", "yes no wait", "what is a wight"} {
			if got, ok := tb.Complete(*d.Pending, no, Context{}); ok {
				t.Errorf("%q then %q: %s %v, want the answer routed as a new sentence", said, no, got.Intent, got.Args)
			}
		}
	}
	// Words that are real words, readings that disagree, and sentences that were never
	// requests stay as they were.
	for said, want := range map[string]string{
		"what is a wombat":                        IntentGeneralAsk,
		"who were the wright brothers":            IntentGeneralAsk,
		"tell me about the white witch of narnia": IntentGeneralAsk,
		"how do owls see at night":                IntentGeneralAsk,
	} {
		if d := tb.Route(said, Context{}); d.Intent != want {
			t.Errorf("%q: %s %v, want %s (why: %s)", said, d.Intent, d.Args, want, strings.Join(d.Doctrine, "; "))
		}
	}
	for _, said := range []string{
		"mummy said tun off da wight",
		"don't tun off da wight",
		"i tuwned off da kitchen wight",
		"da wight is on in da kitchen",
	} {
		if d := tb.Route(said, Context{}); actsOrWouldAct(tb, d) {
			t.Errorf("%q: %s %v acts (why: %s)", said, d.Intent, d.Args, strings.Join(d.Doctrine, "; "))
		}
	}
}

// TestChildWordsAreHeardAgainstTheTable: a word is heard as a known word only by the sound
// changes of a child's speech, and a word the table knows is never changed.
func TestChildWordsAreHeardAgainstTheTable(t *testing.T) {
	tb := demo(t)
	for w, want := range map[string]string{
		"wobot": "robot", "pway": "play", "fweeze": "freeze", "aminal": "animal", "tun": "turn",
		"da": "the", "sizzors": "scissors", "thimon": "simon",
	} {
		if got := tb.sound.heardAs(w); !contains(got, want) {
			t.Errorf("heardAs(%q) = %v, want it to hold %q", w, got, want)
		}
	}
	for _, w := range []string{"light", "play", "turn", "what", "wombat", "zebra"} {
		if r := tb.sound.childReadings([]string{"the", w}); r != nil {
			t.Errorf("childReadings(the %s) = %v, want none", w, r)
		}
	}
}
