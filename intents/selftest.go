package intents

import (
	"fmt"
	"strings"
)

// selfTest routes every example and fails the load if one lands elsewhere.
func (t *Table) selfTest() error {
	ctx := Context{DeviceRoom: t.vocab.deviceRoom}
	for _, in := range t.intents {
		for _, ex := range in.Examples {
			d := t.Route(ex, ctx)
			if d.Intent != in.Name {
				how := "no rule"
				if d.Rule != nil {
					how = fmt.Sprintf("pattern %d of %s at %s", d.Rule.Index, d.Rule.Intent, d.Rule.Where)
					if d.Rule.Index < 0 {
						how = fmt.Sprintf("the frame router for %s (%s)", d.Rule.Intent, d.Rule.Where)
					}
				}
				if len(d.Doctrine) > 0 {
					how += "; " + strings.Join(d.Doctrine, "; ")
				}
				return fmt.Errorf("example %q of intent %s routes to %s instead (%s)", ex, in.Name, d.Intent, how)
			}
		}
	}
	return nil
}

// LintIssue is one finding of Lint.
type LintIssue struct {
	Intent  string `json:"intent"`
	Where   string `json:"where,omitempty"`
	Message string `json:"message"`
}

// Lint reports patterns no example exercises (shadowed by an earlier rule, or missing an
// example) and examples listed twice. Loading already guarantees every example routes home.
func (t *Table) Lint() []LintIssue {
	var issues []LintIssue
	ctx := Context{DeviceRoom: t.vocab.deviceRoom}
	seen := map[string]string{}
	for _, in := range t.intents {
		if in.Unavailable {
			continue
		}
		used := make([]bool, len(in.patterns))
		for _, ex := range in.Examples {
			n := normalizeVocab(ex)
			if prev, ok := seen[n]; ok {
				issues = append(issues, LintIssue{Intent: in.Name, Message: fmt.Sprintf("example %q is also an example of %s", ex, prev)})
			}
			seen[n] = in.Name
			d := t.Route(ex, ctx)
			if d.Rule != nil && d.Rule.Intent == in.Name && d.Rule.Index >= 0 {
				used[d.Rule.Index] = true
			}
		}
		for i, u := range used {
			if !u {
				issues = append(issues, LintIssue{Intent: in.Name, Where: in.patterns[i].where,
					Message: fmt.Sprintf("pattern %d %q routes none of the examples: an earlier rule shadows it, or it needs an example", i, in.patterns[i].source)})
			}
		}
	}
	return issues
}
