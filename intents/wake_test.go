package intents

import (
	"strings"
	"testing"
)

// TestWakePhraseAsWhisperSpellsIt: the name as whisper writes it, opening the sentence or
// set off by punctuation anywhere, wakes the broker and is taken off the sentence.
func TestWakePhraseAsWhisperSpellsIt(t *testing.T) {
	tb := demo(t)
	for said, intent := range map[string]string{
		"Hey Richie, what's the time?":           "time.now",
		"hey ritchie what time is it":            "time.now",
		"Hey Reechy, what time is it?":           "time.now",
		"hey reachie what time is it":            "time.now",
		"Hey Reachey. What time is it?":          "time.now",
		"What's the time, Reachy?":               "time.now",
		"What time is it, Richie?":               "time.now",
		"Can you, Reachy, tell me the time?":     "time.now",
		"Hey, Reachy, what time is it?":          "time.now",
		"OK Reachy, turn on the kitchen light.":  "house.light.set",
		"Reachy, turn on the kitchen light.":     "house.light.set",
		"Turn on the kitchen light, Reachy.":     "house.light.set",
		"Hey Jeeves, what time is it?":           "time.now",
		"hey geeves what time is it":             "time.now",
		"Good evening, Reachy.":                  "greeting",
		"Hey Reachy.":                            "greeting",
		"Richie!":                                "greeting",
		"Hey Reachy, is the kitchen light on?":   "house.light.get",
		"hey reachy set a timer for ten minutes": "timer.start",
	} {
		d := tb.Route(said, Context{})
		if !d.Normalized.Wake || d.Intent != intent {
			t.Errorf("%q: wake=%v %s (heard %q), want wake and %s", said, d.Normalized.Wake, d.Intent, d.Normalized.Text, intent)
		}
		if strings.Contains(d.Normalized.Text, "reach") || strings.Contains(d.Normalized.Text, "rich") {
			t.Errorf("%q: the name was left in %q", said, d.Normalized.Text)
		}
	}
}

// TestWhatIsNotTheWakePhrase: sound-alike words that are other names or real words never
// wake the broker — a false wake sends a stray sentence into the house. "hey ricky" is
// refused on purpose: Ricky is somebody's name.
func TestWhatIsNotTheWakePhrase(t *testing.T) {
	tb := demo(t)
	for _, said := range []string{
		"hey ricky what time is it", "they reach the shelf", "reach me the salt", "hey reach turn on the light",
		"Are you ready? Turn on the light.", "that's peachy", "he is preachy", "the rich get richer",
		"who made reachy", "tell me about reachy", "what time is it", "hey what time is it", "okay okay stop",
		"Richard, turn on the kitchen light.", "hey archie what time is it", "hey jeeps", "they achieve it",
	} {
		if d := tb.Route(said, Context{}); d.Normalized.Wake {
			t.Errorf("%q woke the broker (heard %q)", said, d.Normalized.Text)
		}
	}
}

func TestWakeMatchingIsConfigurable(t *testing.T) {
	strict := strings.Replace(string(DemoConfig()), "  wake_phrases:", "  wake_fuzzy: false\n  wake_spellings: [reachee]\n  wake_phrases:", 1)
	tb, err := Parse([]byte(strict), "home.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if d := tb.Route("hey richie what time is it", Context{}); d.Normalized.Wake {
		t.Fatal("fuzzy matching off, yet richie woke the broker")
	}
	for _, s := range []string{"hey reachy what time is it", "hey reachee what time is it"} {
		if d := tb.Route(s, Context{}); !d.Normalized.Wake || d.Intent != "time.now" {
			t.Fatalf("%q: wake=%v %s", s, d.Normalized.Wake, d.Intent)
		}
	}
}

func TestSpellingKey(t *testing.T) {
	same := [][]string{{"reachy", "richie", "ritchie", "reechy", "reachie", "reachey", "ritchey"}, {"jeeves", "geeves"}}
	for _, group := range same {
		for _, w := range group[1:] {
			if spellingKey(w) != spellingKey(group[0]) {
				t.Errorf("%s keys %q, %s keys %q", w, spellingKey(w), group[0], spellingKey(group[0]))
			}
		}
	}
	for _, w := range []string{"ricky", "ready", "reach", "peachy", "preachy", "richer", "archie", "reaches"} {
		if spellingKey(w) == spellingKey("reachy") {
			t.Errorf("%s keys like reachy (%q)", w, spellingKey(w))
		}
	}
}
