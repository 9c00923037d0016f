package intents

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"strings"
)

// Case is one line of an intent test file: `sentence => intent {"arg": "value"}`.
// Without the JSON object only the intent is checked. For clarify the object holds the
// pending intent and the missing argument: {"pending": "house.light.set", "missing": "room"}.
type Case struct {
	Sentence string
	Intent   string
	Args     map[string]string // nil: not checked
	Line     int
}

// ParseCases reads a test file; name is used in error messages.
func ParseCases(r io.Reader, name string) ([]Case, error) {
	var out []Case
	sc := bufio.NewScanner(r)
	ln := 0
	for sc.Scan() {
		ln++
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
		c := Case{Sentence: strings.TrimSpace(sentence), Intent: intent, Line: ln}
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

// CheckCase routes the case's sentence and reports what differs from the expectation
// (empty when it passes).
func (t *Table) CheckCase(c Case, ctx Context) (Decision, string) {
	d := t.Route(c.Sentence, ctx)
	got := Comparable(d)
	switch {
	case d.Intent != c.Intent:
		return d, fmt.Sprintf("routed to %s %s, want %s", d.Intent, mustJSON(got), c.Intent)
	case c.Args != nil && !maps.Equal(got, c.Args):
		return d, fmt.Sprintf("arguments %s, want %s", mustJSON(got), mustJSON(c.Args))
	}
	return d, ""
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
