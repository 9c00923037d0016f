package intents

import (
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
)

func loadCases(t testing.TB, path string) []Case {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := ParseCases(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestOutsideCorpusThreshold holds the router to sentences nobody on this project wrote:
// Home Assistant's English intent tests and the development split of SLURP (crowd-sourced
// commands as a recogniser writes them), both converted to this project's intents, the four
// earlier held-out sets and the fresh sets (written by people who had not seen the router).
// Each must be at least 97% right, with not one action the row did not accept (a house
// write, a timer started or cancelled, a call, privacy, quiet, a game, a hang-up).
func TestOutsideCorpusThreshold(t *testing.T) {
	for _, tc := range []struct {
		file    string
		minRows int
	}{
		{"ha-intents-en.tsv", 350},
		{"slurp-devel-en.tsv", 750},
		{"held-routes.tsv", 110},
		{"held-routes2.tsv", 210},
		{"held-routes3.tsv", 190},
		{"held-routes4.tsv", 250},
		{"fresh-5.tsv", 350},
		{"paraphrases-round4.tsv", 220},
	} {
		t.Run(tc.file, func(t *testing.T) { checkOutsideCorpus(t, tc.file, tc.minRows) })
	}
}

func checkOutsideCorpus(t *testing.T, file string, minRows int) {
	tb := demo(t)
	cases := loadCases(t, "testdata/"+file)
	if len(cases) < minRows {
		t.Fatalf("only %d rows read", len(cases))
	}
	r := tb.RunCases(cases, Context{})
	cats := make([]string, 0, len(r.Categories))
	for c := range r.Categories {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for _, c := range cats {
		cr := r.Categories[c]
		t.Logf("%-18s %3d/%-3d unwanted writes %d", c, cr.Passed, cr.Total, cr.UnwantedWrites)
	}
	for _, f := range r.Failures {
		t.Logf("%s:%d %q: %s", file, f.Case.Line, f.Case.Sentence, f.Why)
	}
	t.Logf("%s: %d/%d (%.1f%%), %d unwanted writes, %d unwanted actions", file, r.Passed, r.Total, 100*r.Accuracy(), r.UnwantedWrites, r.UnwantedActions)
	if r.UnwantedWrites != 0 || r.UnwantedActions != 0 {
		t.Errorf("%d unwanted house writes, %d unwanted actions", r.UnwantedWrites, r.UnwantedActions)
	}
	if acc := r.Accuracy(); acc < 0.97 {
		t.Errorf("accuracy %.1f%%, want at least 97%%", 100*acc)
	}
}

// The round's fresh sets are below the 97% bar or just at their first look, but nothing in
// them may act where a row does not accept an action, and each score may only go up from
// where it stands (testdata/README.md has their first looks).
//   - fresh-6: the second fresh set (first look 75.8%), 89.0% after the generalization round.
//   - fresh-7: the third (first look 78.2% at 3ca33cc), 95.0% after its classes were fixed.
//   - fresh-8: the sealed set (first look 364/383, 95.0%, at a4a000f).
//   - fresh-9: the next round's first set (first look 298/359, 83.0%, at 8556e56), 98.9%
//     after its classes were fixed.
//   - fresh-10: that round's sealed set (first look 301/338, 89.1%, at 70b1975).
//   - fresh-11 … 35: later rounds' sets; testdata/README.md has each first look (round 8's
//     sealed sets fresh-26 and 27: 92.8% and 87.7% at 40db6e8; round 9's fresh-32 and 33:
//     94.7% and 97.2% at fb585bf).
func TestFreshSetsActOnlyWhenAsked(t *testing.T) {
	tb := demo(t)
	for _, f := range []struct {
		file         string
		rows, passes int
		// known: rows of a sealed set that act at its first look and are left, each with its
		// reason in testdata/README.md; any other row that acts fails the test
		known []int
	}{
		{"fresh-6.tsv", 320, 315, nil},
		{"fresh-7.tsv", 370, 371, nil},
		{"fresh-8.tsv", 380, 378, nil},
		{"fresh-9.tsv", 350, 355, nil},
		{"fresh-10.tsv", 330, 327, nil},
		{"fresh-11.tsv", 340, 320, nil},
		{"fresh-12.tsv", 330, 325, nil},
		{"fresh-13.tsv", 340, 335, nil},
		{"fresh-14.tsv", 320, 311, nil},
		{"fresh-15.tsv", 330, 320, nil},
		{"fresh-16.tsv", 340, 330, nil},
		{"fresh-17.tsv", 340, 332, nil},
		{"fresh-18.tsv", 360, 357, nil},
		{"fresh-19.tsv", 350, 339, nil},
		{"fresh-20.tsv", 330, 318, nil},
		{"fresh-21.tsv", 330, 320, nil},
		{"fresh-22.tsv", 330, 323, nil},
		{"fresh-23.tsv", 330, 324, nil},
		{"fresh-24.tsv", 330, 328, nil},
		{"fresh-26.tsv", 330, 319, nil},
		{"fresh-27.tsv", 340, 314, nil},
		{"fresh-28.tsv", 340, 338, nil},
		{"fresh-29.tsv", 340, 301, nil},
		{"fresh-30.tsv", 340, 335, nil},
		{"fresh-31.tsv", 340, 329, nil},
		{"fresh-32.tsv", 340, 328, nil},
		{"fresh-33.tsv", 350, 347, nil},
		{"fresh-34.tsv", 340, 315, nil},
		{"fresh-35.tsv", 350, 335, nil},
		{"fresh-36.tsv", 360, 346, nil},
		{"fresh-37.tsv", 350, 307, []int{63, 97}},
		{"fresh-38.tsv", 360, 311, nil},
		{"fresh-39.tsv", 350, 294, nil},
		{"fresh-40.tsv", 350, 351, nil},
		{"fresh-41.tsv", 350, 326, nil},
	} {
		cases := loadCases(t, "testdata/"+f.file)
		if len(cases) < f.rows {
			t.Fatalf("%s: only %d rows read", f.file, len(cases))
		}
		r := tb.RunCases(cases, Context{})
		t.Logf("%s: %d/%d (%.1f%%), %d unwanted writes, %d unwanted actions", f.file, r.Passed, r.Total, 100*r.Accuracy(), r.UnwantedWrites, r.UnwantedActions)
		for _, fl := range r.Failures {
			if (fl.Unwanted || fl.UnwantedAction) && !slices.Contains(f.known, fl.Case.Line) {
				t.Errorf("%s:%d %q acts: %s", f.file, fl.Case.Line, fl.Case.Sentence, fl.Why)
			}
		}
		if r.Passed < f.passes {
			t.Errorf("%s fell to %d rows passing, want at least %d", f.file, r.Passed, f.passes)
		}
	}
}

func TestTSVCasesParse(t *testing.T) {
	tb := demo(t)
	for _, tc := range []struct {
		row  string
		pass bool
	}{
		{"turn on the kitchen light\thouse.light.set\t{\"room\":\"kitchen\",\"state\":\"on\"}\tx", true},
		{"turn on the kitchen light\thouse.light.set\t{\"room\":\"bedroom\",\"state\":\"on\"}\tx", false},
		{"set the bedroom ac to 22\thouse.ac.set\t{\"room\":\"bedroom\",\"temperature\":22}\tx", true},
		{"turn on the light in the garage\t!write\t{}\tx", true},
		{"turn on the kitchen light\t!write\t{}\tx", false},
		{"turn on the kitchen light turn it off\t!write-on\t{}\tx", true}, // read as "!write"
		{"turn on the kitchen light\t!write-on\t{}\tx", false},
		{"turn on the light\thouse.light.set,clarify\t{\"room\":\"living room\",\"state\":\"on\"}\tx", true},
	} {
		cases, err := ParseCases(stringsReader(tc.row), "t.tsv")
		if err != nil || len(cases) != 1 {
			t.Fatalf("%q: %v", tc.row, err)
		}
		if _, diff := tb.CheckCase(cases[0], Context{}); (diff == "") != tc.pass {
			t.Errorf("%q: diff %q, want pass=%v", tc.row, diff, tc.pass)
		}
	}
	r := tb.RunCases(mustParse(t, "turn on the kitchen light\t!write\t{}\tcat"), Context{})
	if r.UnwantedWrites != 1 || r.Categories["cat"].UnwantedWrites != 1 || r.UnwantedActions != 1 {
		t.Fatalf("unwanted write not counted: %+v", r)
	}
	// Every action counts, not only house writes; "!write" accepts no action at all.
	r = tb.RunCases(mustParse(t, "call dad\t!write\t{}\tcat\ncancel all timers\tgeneral.ask\t{}\tcat\nlet's play simon says\tplay.invite\t{}\tcat\nstop\t!write\t{}\tcat"), Context{})
	if r.UnwantedWrites != 0 || r.UnwantedActions != 3 || r.Passed != 1 {
		t.Fatalf("unwanted actions: %+v", r)
	}
	// The corpora's "duration_s" is this table's duration.
	if _, diff := tb.CheckCase(mustParse(t, "set a timer for ten minutes\ttimer.start\t{\"duration_s\":600}\tx")[0], Context{}); diff != "" {
		t.Fatalf("duration_s: %s", diff)
	}
	if _, err := ParseCases(stringsReader("a\tb\tnot json\tc"), "t.tsv"); err == nil {
		t.Fatal("bad args accepted")
	}
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

func mustParse(t *testing.T, s string) []Case {
	t.Helper()
	c, err := ParseCases(stringsReader(s), "t.tsv")
	if err != nil {
		t.Fatal(err)
	}
	return c
}
