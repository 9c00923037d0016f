package intents

import "testing"

// TestDurationPhrasings: durations as people say them (and as whisper writes them), each
// read through the same normalizer a transcript goes through. 0 means "refused": either not
// understood (the router asks how long) or outside 1 s..24 h (a spoken refusal).
func TestDurationPhrasings(t *testing.T) {
	const refused = 0
	for _, tc := range []struct {
		said string
		secs int
	}{
		{"ten minutes", 600},
		{"10 minutes", 600},
		{"10 min", 600},
		{"10 mins", 600},
		{"5 mins", 300},
		{"10min", 600},
		{"a minute", 60},
		{"one minute", 60},
		{"1 minute", 60},
		{"minute", 60},
		{"an hour", 3600},
		{"one hour", 3600},
		{"2 hours", 7200},
		{"two hours", 7200},
		{"1 hr", 3600},
		{"3 hrs", 10800},
		{"90 seconds", 90},
		{"ninety seconds", 90},
		{"30 secs", 30},
		{"45 sec", 45},
		{"90s", 90},
		{"1 second", 1},
		{"an hour and a half", 5400},
		{"one and a half hours", 5400},
		{"1.5 hours", 5400},
		{"a minute and a half", 90},
		{"two and a half minutes", 150},
		{"2.5 minutes", 150},
		{"half an hour", 1800},
		{"a half hour", 1800},
		{"half hour", 1800},
		{"half a minute", 30},
		{"a quarter of an hour", 900},
		{"quarter of an hour", 900},
		{"a quarter hour", 900},
		{"three quarters of an hour", 2700},
		{"1 hour 20", 4800},
		{"an hour 15", 4500},
		{"1 hour and 20 minutes", 4800},
		{"one hour, twenty minutes", 4800},
		{"3 minutes 30", 210},
		{"3 minutes and 30 seconds", 210},
		{"2 hours 30 minutes and 15 seconds", 9015},
		{"twenty-five minutes", 1500},
		{"twenty five minutes", 1500},
		{"a couple of minutes", 120},
		{"couple of hours", 7200},
		{"about ten minutes", 600},
		{"another 5 minutes", 300},
		{"exactly 3 minutes", 180},
		{"10 minutes from now", 600},
		{"a hundred seconds", 100},
		{"one hundred and twenty seconds", 120},
		{"24 hours", 86400},
		{"a day", 86400},
		{"1 day", 86400},
		{"eleven minutes", 660},
		{"forty five minutes", 2700},
		{"15 minutes", 900},
		{"seven seconds", 7},
		// Refusals: not understood, or outside 1 s..24 h.
		{"0 seconds", refused},
		{"zero minutes", refused},
		{"25 hours", refused},
		{"2 days", refused},
		{"a while", refused},
		{"a bit", refused},
		{"a few minutes", refused},
		{"some minutes", refused},
		{"10", refused},
		{"ten", refused},
		{"half a second", refused},
		{"minutes", refused}, // "pasta timer ate minutes": how many was not heard — asked, never one
		{"hours", refused},
		{"hour", 3600},
		{"and", refused},
		{"10 and", refused},
		{"a", refused},
		{"1 hour 20 30", refused},
		{"99999999999 hours", refused},
		{"1.2.3 minutes", refused},
		{"", refused},
	} {
		got, outcome := parseDuration(normalizeVocab(tc.said))
		if tc.secs == refused {
			if outcome == durationOK {
				t.Errorf("%q: became a timer of %d s, want a refusal", tc.said, got)
			}
			continue
		}
		if outcome != durationOK || got != tc.secs {
			t.Errorf("%q: %d s (outcome %d), want %d s", tc.said, got, outcome, tc.secs)
		}
	}
}

func TestDurationOutOfRangeIsToldApartFromNonsense(t *testing.T) {
	for _, s := range []string{"0 seconds", "25 hours", "2 days", "half a second"} {
		if _, o := parseDuration(normalizeVocab(s)); o != durationOutOfRange {
			t.Errorf("%q: outcome %d, want out of range", s, o)
		}
	}
	for _, s := range []string{"a while", "a few minutes", "10"} {
		if _, o := parseDuration(normalizeVocab(s)); o != durationUnknown {
			t.Errorf("%q: outcome %d, want unknown", s, o)
		}
	}
}

func TestSpokenDuration(t *testing.T) {
	for secs, want := range map[int]string{600: "10 minutes", 5400: "1 hour and 30 minutes", 90: "1 minute and 30 seconds", 1: "1 second", 86400: "24 hours", 3661: "1 hour, 1 minute and 1 second"} {
		if got := spokenDuration(secs); got != want {
			t.Errorf("%d: %q, want %q", secs, got, want)
		}
	}
}

// TestQuartersAndHalvesAfterAUnit: a quarter or a half said after hours is a fraction of
// the hour, not of a minute ("an hour and a quarter" was 1 h 0 min 15 s).
func TestQuartersAndHalvesAfterAUnit(t *testing.T) {
	for phrase, want := range map[string]int{
		"an hour and a quarter": 4500, "1 hour and a quarter": 4500, "2 hours and 3 quarters": 9900,
		"an hour and 3 quarters": 6300, "1 and a quarter hours": 4500, "a minute and a quarter": 75,
		"an hour and a half": 5400, "1 hour 20": 4800, "a quarter of an hour": 900, "3 quarters of an hour": 2700,
	} {
		if got, outcome := parseDuration(phrase); outcome != durationOK || got != want {
			t.Errorf("%q: %d s (outcome %d), want %d s", phrase, got, outcome, want)
		}
	}
}
