package intents

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Case is one line of an intent test file, in either of two formats:
//
//   - `sentence => intent {"arg": "value"}`: without the JSON object only the intent is
//     checked. For clarify the object holds the pending intent and the missing argument:
//     {"pending": "house.light.set", "missing": "room"}.
//   - tab-separated `sentence<TAB>accepted intents<TAB>expected args<TAB>category` (the
//     outside corpora, see /work/shared/corpora/README.md): a comma list of accepted intents,
//     the first preferred; "!write" accepts anything that does not act (see Acting). The args
//     (JSON) are checked when the first accepted intent is the one routed, and only the keys
//     they list; "duration_s" (the corpora's name, in seconds) is this table's "duration".
type Case struct {
	Sentence string
	Intent   string            // the expected (first accepted) intent; "" with only "!write"
	Accepted []string          // further accepted intents (TSV)
	NotWrite bool              // "!write": anything that does not act (Acting) passes
	Args     map[string]string // nil: not checked
	ArgKeys  bool              // TSV: only the keys Args lists are checked; a key it leaves out is free
	Category string            // TSV: what the row exercises; "=>" files: "corpus"
	Line     int
}

// ParseCases reads a test file; name is used in error messages. Each line is either format.
func ParseCases(r io.Reader, name string) ([]Case, error) {
	var out []Case
	sc := bufio.NewScanner(r)
	ln := 0
	for sc.Scan() {
		ln++
		if strings.Contains(sc.Text(), "\t") && !strings.HasPrefix(sc.Text(), "#") {
			c, err := parseTSVCase(sc.Text(), name, ln)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
			continue
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sentence, rest, ok := strings.Cut(line, "=>")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want `sentence => intent {args}`", name, ln)
		}
		rest = strings.TrimSpace(rest)
		intent, argText, _ := strings.Cut(rest, " ")
		c := Case{Sentence: strings.TrimSpace(sentence), Intent: intent, Line: ln, Category: "corpus"}
		if c.Sentence == "" || c.Intent == "" {
			return nil, fmt.Errorf("%s:%d: empty sentence or intent", name, ln)
		}
		if argText = strings.TrimSpace(argText); argText != "" {
			dec := json.NewDecoder(strings.NewReader(argText))
			if err := dec.Decode(&c.Args); err != nil {
				return nil, fmt.Errorf("%s:%d: arguments must be a JSON object of strings: %v", name, ln, err)
			}
			if c.Args == nil {
				c.Args = map[string]string{}
			}
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

func parseTSVCase(line, name string, ln int) (Case, error) {
	f := strings.Split(line, "\t")
	if len(f) != 4 {
		return Case{}, fmt.Errorf("%s:%d: want 4 tab-separated fields (sentence, accepted intents, args, category), got %d", name, ln, len(f))
	}
	c := Case{Sentence: strings.TrimSpace(f[0]), Category: strings.TrimSpace(f[3]), Line: ln}
	for _, a := range strings.Split(f[1], ",") {
		switch a = strings.TrimSpace(a); {
		case a == "!write", strings.HasPrefix(a, "!write-"):
			// "!write-on" (held-routes.tsv: "turn on the kitchen light turn it off") is read as
			// "!write": anything that does not act passes, the strictest reading of it
			c.NotWrite = true
		case a == "":
		case c.Intent == "" && !c.NotWrite:
			c.Intent = a
		default:
			c.Accepted = append(c.Accepted, a)
		}
	}
	if c.Sentence == "" || c.Intent == "" && !c.NotWrite {
		return Case{}, fmt.Errorf("%s:%d: empty sentence or no accepted intent", name, ln)
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(f[2])), &raw); err != nil {
		return Case{}, fmt.Errorf("%s:%d: expected args must be a JSON object: %v", name, ln, err)
	}
	if len(raw) > 0 {
		c.Args, c.ArgKeys = map[string]string{}, true
		for k, v := range raw {
			if k == "duration_s" {
				k = "duration" // the corpora's name for the duration in seconds
			}
			switch v := v.(type) {
			case string:
				c.Args[k] = v
			case float64:
				c.Args[k] = strconv.FormatFloat(v, 'f', -1, 64)
			default:
				return Case{}, fmt.Errorf("%s:%d: argument %s must be a string or a number", name, ln, k)
			}
		}
	}
	return c, nil
}

// Acting reports whether a decision acts on the world in a way a row must accept: a house
// write, a timer started or cancelled, a call placed, privacy mode or quiet time switched, a
// game started, a call hung up. Stopping, an expression, ending a game and a game's own
// answer are not counted: they undo or only move.
func Acting(d Decision) bool {
	if d.Kind == KindWrite {
		return true
	}
	if d.Kind != KindRobot {
		return false
	}
	switch d.Intent {
	case "robot.stop", "robot.expression", "play.stop", IntentPlayAnswer:
		return false
	}
	return true
}

// CheckCase routes the case's sentence and reports what differs from the expectation
// (empty when it passes).
func (t *Table) CheckCase(c Case, ctx Context) (Decision, string) {
	d := t.Route(c.Sentence, ctx)
	got := Comparable(d)
	accepted := d.Intent == c.Intent || slices.Contains(c.Accepted, d.Intent) || c.NotWrite && !Acting(d)
	want := strings.Join(append([]string{c.Intent}, c.Accepted...), " or ")
	if c.NotWrite {
		want = strings.TrimPrefix(want+" or anything that does not act", " or ")
	}
	switch {
	case !accepted:
		return d, fmt.Sprintf("routed to %s %s, want %s", d.Intent, mustJSON(got), want)
	case d.Intent == c.Intent && c.Args != nil && !argsMatch(got, c):
		return d, fmt.Sprintf("arguments %s, want %s", mustJSON(got), mustJSON(c.Args))
	}
	return d, ""
}

// argsMatch compares a decision's arguments with a case's: all of them for a "=>" case, the
// keys it lists for a TSV case (the outside corpora check only those).
func argsMatch(got map[string]string, c Case) bool {
	if !c.ArgKeys {
		return maps.Equal(got, c.Args)
	}
	for k, v := range c.Args {
		if g, ok := got[k]; !ok || g != v {
			return false
		}
	}
	return true
}

// Report is the outcome of a test file, overall and per category.
type Report struct {
	Total, Passed  int
	UnwantedWrites int // house writes a row did not accept (wrong room or state included)
	// UnwantedActions counts every action (Acting) a row did not accept — house writes
	// included, and timers, calls, privacy, quiet, games and hang-ups.
	UnwantedActions int
	Categories      map[string]*CategoryReport
	Failures        []Failure
}

// CategoryReport counts one category's rows.
type CategoryReport struct{ Total, Passed, UnwantedWrites, UnwantedActions int }

// Failure is one row that did not pass.
type Failure struct {
	Case     Case
	Why      string
	Decision Decision
	Unwanted bool // the failure is a house write the row did not accept
	// UnwantedAction: the failure acts (Acting) in a way the row did not accept.
	UnwantedAction bool
}

// Accuracy is the share of rows that passed, 0..1.
func (r Report) Accuracy() float64 {
	if r.Total == 0 {
		return 0
	}
	return float64(r.Passed) / float64(r.Total)
}

// RunCases checks every case and counts per category.
func (t *Table) RunCases(cases []Case, ctx Context) Report {
	r := Report{Categories: map[string]*CategoryReport{}}
	for _, c := range cases {
		cat := r.Categories[c.Category]
		if cat == nil {
			cat = &CategoryReport{}
			r.Categories[c.Category] = cat
		}
		r.Total++
		cat.Total++
		d, diff := t.CheckCase(c, ctx)
		if diff == "" {
			r.Passed++
			cat.Passed++
			continue
		}
		unwanted := houseWrite(d)
		if unwanted {
			r.UnwantedWrites++
			cat.UnwantedWrites++
		}
		action := Acting(d)
		if action {
			r.UnwantedActions++
			cat.UnwantedActions++
		}
		r.Failures = append(r.Failures, Failure{Case: c, Why: diff, Decision: d, Unwanted: unwanted, UnwantedAction: action})
	}
	return r
}

// houseWrite reports whether a decision changes the house.
func houseWrite(d Decision) bool {
	return d.Kind == KindWrite && d.Scope == ScopeHouseWrite
}

// Comparable is the argument map a test file compares against.
func Comparable(d Decision) map[string]string {
	if d.Intent == IntentClarify {
		m := map[string]string{}
		if d.Pending != nil {
			m["pending"], m["missing"] = d.Pending.Intent, d.Pending.Missing
		}
		return m
	}
	if d.Intent == IntentGeneralAsk || d.Intent == IntentDeepAsk {
		return map[string]string{} // the question text is free and not compared
	}
	return d.Args
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
