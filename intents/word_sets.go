package intents

import "strings"

// The package's word sets: closed lists of words, and the tests read with them.

// wordSet is a closed list of words.
type wordSet map[string]bool

// words2set makes a set of the words of s.
func words2set(s string) wordSet {
	out := wordSet{}
	for _, w := range strings.Fields(s) {
		out[w] = true
	}
	return out
}

// only reports whether every word of toks is in one of the sets.
func only(toks []string, sets ...wordSet) bool {
	for _, w := range toks {
		ok := false
		for _, s := range sets {
			if s[w] {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// anyOf reports whether a word of toks is in s.
func anyOf(toks []string, s wordSet) bool {
	for _, w := range toks {
		if s[w] {
			return true
		}
	}
	return false
}

// wordUnion is the union of some word sets, with its words' shapes: a test for a word of
// any of them is one pass over the words, and a word of no listed shape is turned away
// without a lookup. It is built from the sets when the package loads and never written.
type wordUnion struct {
	shapes wordShapes
	set    wordSet
}

// unionOf makes the union of the sets.
func unionOf(sets ...wordSet) *wordUnion {
	u := &wordUnion{set: wordSet{}}
	for _, s := range sets {
		for w, ok := range s {
			if ok {
				u.set[w] = true
				u.shapes.add(w)
			}
		}
	}
	return u
}

// any reports whether a word of toks is in one of the sets.
func (u *wordUnion) any(toks []string) bool {
	for _, w := range toks {
		if u.shapes.may(w) && u.set[w] {
			return true
		}
	}
	return false
}

// has reports whether w is in one of the sets.
func (u *wordUnion) has(w string) bool {
	return u.shapes.may(w) && u.set[w]
}
