package intents

import (
	"fmt"
	"slices"
	"strings"
)

// GuideEntry is one line of the command guide: what an intent does and how to say it.
type GuideEntry struct {
	Intent      string   `json:"intent"`
	Scope       string   `json:"scope,omitempty"`
	Description string   `json:"description"`
	Examples    []string `json:"examples"`
}

func buildGuide(t *Table) []GuideEntry {
	var out []GuideEntry
	for _, in := range t.intents {
		if len(in.Examples) == 0 || in.Name == IntentDeepAsk {
			continue
		}
		out = append(out, GuideEntry{Intent: in.Name, Scope: in.Scope, Description: in.Description, Examples: slices.Clone(in.Examples)})
	}
	return out
}

// Guide returns the command guide for a caller holding scopes (nil: everything). Every phrase
// in it is an example the table has routed to its own intent, so the guide can never
// advertise a sentence the router does not understand.
func (t *Table) Guide(scopes []string) []GuideEntry {
	var out []GuideEntry
	for _, g := range t.guide {
		if scopes == nil || g.Scope == "" || slices.Contains(scopes, g.Scope) {
			out = append(out, g)
		}
	}
	return out
}

// SpokenGuide is the help reply: a short sentence with one example per intent.
func (t *Table) SpokenGuide(scopes []string) string {
	var phrases []string
	for _, g := range t.Guide(scopes) {
		if g.Intent == IntentGeneralAsk || g.Intent == IntentGreeting || g.Intent == "help" {
			continue
		}
		phrases = append(phrases, fmt.Sprintf("%q", g.Examples[0]))
	}
	s := "You can say things like " + spokenList(phrases, "or") + "."
	if slices.ContainsFunc(t.Guide(scopes), func(g GuideEntry) bool { return g.Intent == IntentGeneralAsk }) {
		s += " Or just ask me a question."
	}
	return strings.ReplaceAll(s, `"`, "")
}
