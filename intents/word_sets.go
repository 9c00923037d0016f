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
