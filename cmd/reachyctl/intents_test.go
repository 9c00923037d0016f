package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRouteExplainsMentionsAndForm: the explanation names what the frame router found, the
// sentence's form, the doctrine step, and the table entry that decided.
func TestRouteExplainsMentionsAndForm(t *testing.T) {
	_, out, _ := ctl(t, "route", "Hey Richie, can you tell me if the AC is on in the bedroom?")
	for _, want := range []string{"(wake phrase", "house.ac.get", "mentions:  device=ac rooms=bedroom", "form:      indirect",
		"frame router", "builtin.yaml:", "an indirect question, not a request"} {
		if !strings.Contains(out, want) {
			t.Errorf("explanation lacks %q:\n%s", want, out)
		}
	}
}

// TestRouteSaysWhyASentenceDidNotAct: a sentence that speaks of an action without asking for
// it now says why nothing was done.
func TestRouteSaysWhyASentenceDidNotAct(t *testing.T) {
	for _, tc := range []struct{ sentence, why string }{
		{"It's 30 degrees in the bedroom.", "not acted: a statement, not a request"},
		{"Yesterday you turned off the bedroom light.", "not acted: past tense, not a request"},
		{"No need to turn on the study light.", "not acted: a negated command"},
		{"Put the bedroom AC on fan mode.", "not acted: a mode or setting this home does not have"},
		{"Mum said to turn off the kitchen light.", "not acted: reported speech, not a request"},
		{"I'll switch the lounge light on later.", "not acted: future tense, not a request"},
	} {
		_, out, _ := ctl(t, "route", tc.sentence)
		if !strings.Contains(out, tc.why) {
			t.Errorf("%q: explanation lacks %q:\n%s", tc.sentence, tc.why, out)
		}
	}
}

// TestIntentsTestReadsTheOutsideFormat: a tab-separated corpus gives accuracy per category,
// the failures, the unwanted writes and the unwanted actions (a timer started, a call placed
// ...), and reads the corpora's "duration_s" as the duration.
func TestIntentsTestReadsTheOutsideFormat(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "corpus.tsv")
	rows := "# sentence\taccepted\targs\tcategory\n" +
		"turn on the kitchen light\thouse.light.set\t{\"room\":\"kitchen\",\"state\":\"on\"}\tlight-on\n" +
		"turn on the bedroom light\thouse.light.set\t{\"room\":\"bedroom\",\"state\":\"on\"}\tlight-on\n" +
		"what time is it\ttime.now\t{}\ttime\n" +
		"turn on the office light\t!write\t{}\ttraps\n" +
		"set a timer for ten minutes\ttimer.start\t{\"duration_s\":600}\ttimer\n" +
		"call dad\t!write\t{}\ttraps\n"
	if err := os.WriteFile(f, []byte(rows), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ := ctl(t, "intents", "test", f)
	for _, want := range []string{"light-on            2/2", "time                1/1", "traps               0/2", "unwanted writes 1, actions 2",
		"timer               1/1", "FAIL (unwanted write) " + f + ":5 [traps]", "FAIL (unwanted action) " + f + ":7 [traps]",
		"4 passed, 2 failed (66.7%), 1 unwanted writes, 2 unwanted actions"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code != 1 {
		t.Fatalf("exit %d with a failure", code)
	}
	if code, out, _ := ctl(t, "intents", "test", "../../intents/testdata/ha-intents-en.tsv"); code != 0 || !strings.Contains(out, "0 unwanted writes") {
		t.Fatalf("outside corpus: exit %d\n%s", code, out)
	}
}
