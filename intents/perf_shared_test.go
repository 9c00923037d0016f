package intents

import (
	"slices"
	"testing"
)

// More of the router's shortcuts held to the plain computation they stand for (see
// perf_equivalence_test.go): the shapes anyOf reads a set's words by.

// plainAnyOf is anyOf without the shapes: one lookup per word.
func plainAnyOf(toks []string, s wordSet) bool {
	return slices.ContainsFunc(toks, func(w string) bool { return s[w] })
}

// TestSetShapesAdmitTheirWords: every set words2set made is known by its identity, its
// shapes admit each of its words, and anyOf answers as the plain loop does for every corpus
// sentence and clause, and every set.
func TestSetShapesAdmitTheirWords(t *testing.T) {
	tb := demo(t)
	if len(setShapes) < 50 {
		t.Fatalf("only %d sets have shapes", len(setShapes))
	}
	for id, e := range setShapes {
		if setID(e.set) != id {
			t.Fatalf("a set is kept under another's identity")
		}
		for w := range e.set {
			if !e.shapes.may(w) {
				t.Fatalf("shapes turn away %q, a word of the set", w)
			}
		}
	}
	for _, s := range corpusSentences(t) {
		n := normalize(s, tb.vocab.wake)
		for _, c := range append([]Normalized{n}, tb.clauses(n)...) {
			toks := append(slices.Clone(c.tokens()), "", "a", "stop")
			for _, e := range setShapes {
				for k := range len(toks) + 1 {
					if got, want := anyOf(toks[:k], e.set), plainAnyOf(toks[:k], e.set); got != want {
						t.Fatalf("%q: anyOf(%q) = %v, the plain loop %v", s, toks[:k], got, want)
					}
				}
			}
			if got, want := quotedOrTakenBack(c.tokens()), slices.ContainsFunc(c.tokens(), func(w string) bool {
				return speechVerbs[w] || quoteNouns[w] || takeBacks[w]
			}); got != want {
				t.Fatalf("%q: quotedOrTakenBack = %v, the plain loop %v", c.Text, got, want)
			}
		}
	}
}
