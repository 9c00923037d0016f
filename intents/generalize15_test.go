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
