package intents

import (
	"reflect"
	"slices"
	"testing"
)

// More of the router's shortcuts held to the plain computation they stand for (see
// perf_equivalence_test.go): the shapes anyOf reads a set's words by, and the word index's
// entries a sentence's memo shares with its clauses.

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

// TestWordInfosSharedAsLookedUp: the word index's entries a memo gives a sentence and each
// of its clauses (and each part's) are those looked up word by word, in any order, and
// mentions reads the same with the memo as without it.
func TestWordInfosSharedAsLookedUp(t *testing.T) {
	tb := demo(t)
	for _, s := range append(corpusSentences(t), "turn on the light and set a timer, then stop", "it's dark in here, lights on please") {
		n := normalize(s, tb.vocab.wake)
		all := append(tb.clauses(n), n) // clauses first: they ask before their sentence
		all = append(all, tb.partsOf(n)...)
		for round := 0; round < 2; round++ {
			for _, c := range all {
				toks := c.tokens()
				got := tb.wordInfos(c, toks, nil)
				want := make([]wordInfo, 0, len(toks))
				for _, w := range toks {
					want = append(want, tb.vocab.words[w])
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%q, clause %q: shared entries differ from the index's", s, c.Text)
				}
				plain := c
				plain.memo = nil
				if m, p := tb.mentions(c), tb.mentions(plain); !reflect.DeepEqual(m, p) {
					t.Fatalf("%q, clause %q: mentions %+v with the memo, %+v without", s, c.Text, m, p)
				}
			}
		}
	}
}
