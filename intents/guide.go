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

	kind    Kind
	handler string // the handler type: a broker that has none for it cannot do it
}

func buildGuide(t *Table) []GuideEntry {
	var out []GuideEntry
	for _, in := range t.intents {
		if len(in.Examples) == 0 || in.Name == IntentDeepAsk {
			continue
		}
		out = append(out, GuideEntry{Intent: in.Name, Scope: in.Scope, Description: in.Description, Examples: slices.Clone(in.Examples),
			kind: in.Kind, handler: in.Handler.Type})
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
func (t *Table) SpokenGuide(scopes []string) string { return t.SpokenGuideFor(scopes, nil) }

// SpokenGuideFor is SpokenGuide for a broker that can carry out only the handler types
// available reports (nil: all): it never offers what this home has not configured — "is mom
// busy" without a calendar, "just ask me a question" without an agent. Small talk, the
// greeting and help itself are not listed.
func (t *Table) SpokenGuideFor(scopes []string, available func(handler string) bool) string {
	var phrases []string
	ask := false
	for _, g := range t.Guide(scopes) {
		if available != nil && !available(g.handler) {
			continue
		}
		switch {
		case g.Intent == IntentGeneralAsk:
			ask = true
		case g.kind != KindMeta:
			phrases = append(phrases, fmt.Sprintf("%q", g.Examples[0]))
		}
	}
	var s string
	switch {
	case len(phrases) > 0:
		s = "You can say things like " + spokenList(phrases, "or") + "."
		if ask {
			s += " Or just ask me a question."
		}
	case ask:
		s = "Just ask me a question."
	default:
		s = "I can't do much here yet: ask whoever looks after me to set me up."
	}
	return strings.ReplaceAll(s, `"`, "")
}
