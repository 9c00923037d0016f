package intents

import (
	"slices"
	"testing"
)

// Round 10: classes of phrasing the round's development sets (fresh-38 … 41) showed, each
// proven on sentences written for the class — none of them a corpus row.

// TestSpelledLettersAreNoSentenceEnds: a recogniser writes spelled-out letters with dots
// ("u. s. d.", "i. b. m.") and titles keep theirs ("mrs. patel"); neither ends a sentence,
// so such an utterance is read as one sentence, not cut into pieces and read piece by piece.
func TestSpelledLettersAreNoSentenceEnds(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"if i have five u. s. d. how much is that in a. u. d.", nil},
		{"what is i. b. m. stock at", nil},
		{"can you ask mrs. patel if dr. singh is coming", nil},
		{"Turn off the light. I. Am. Tired.", []string{"Turn off the light.", "I.", "Am.", "Tired."}},
		{"Turn the lights on. Thanks!", []string{"Turn the lights on.", "Thanks!"}},
		{"what's 2.5 times 4? just curious", []string{"what's 2.5 times 4?", "just curious"}},
	} {
		if got := splitSentences(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("splitSentences(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestAReasonAfterARequestLeavesItOne: a statement said after a request that says how
// things are — with a thing named in it ("the baby monitor is going", "there's someone at
// the door"), someone the home did not name ("harold can't settle"), "the little one", or
// words read off a packet — is the request's reason, not a second request: the request is
// done. A part that names a light or the AC, says on or off, or reports someone's words
// still asks for one thing at a time or is not done.
func TestAReasonAfterARequestLeavesItOne(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"switch off the kitchen light, the baby monitor is going", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"can you turn the bedroom light on, my little one is scared of the dark", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"turn off the office light, there's someone at the door", "house.light.set", map[string]string{"room": "office", "state": "off"}},
		{"put the bedroom ac on please, it is like a sauna up there and harold cannot settle", "house.ac.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"start a timer for twelve minutes, the packet says", "timer.start", map[string]string{"duration": "720"}},
		{"put a timer on for eight minutes for the rice, it says on the bag", "timer.start", map[string]string{"duration": "480", "label": "rice"}},
		{"set a laundry timer for an hour then ill hang it out", "timer.start", map[string]string{"duration": "3600", "label": "laundry"}},
		{"call mum, theyre asking for her at the door", "teleport.call", map[string]string{"person": "mom"}},
	})
	checkNothingDone(t, tb, []string{
		"turn off the kitchen light, mum says",
		"turn off the kitchen light, the tv says",
		"turn off the kitchen light, harold said so",
		"turn off the kitchen light, the bedroom light is on too",
		"turn off the kitchen light and the bedroom one",
		"turn the office light on, the kids room one off",
		"turn the living room lights off and the bedroom ones on",
		"turn off the lights in the bedroom and the kids room",
		"set the bedroom ac to 20, the living room one is fine",
		"turn off the kitchen light, totally forgot about it",
		"my teacher said set a timer for ten minutes and then totally forgot about it",
	})
}
