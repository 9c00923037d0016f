package intents

import (
	"reflect"
	"strings"
)

// The package's word sets, and their filters: a set words2set makes keeps its words'
// shapes, found by the set's identity, so anyOf and only turn away most words of a sentence
// with two loads instead of hashing them (a lookup in a Go map hashes the whole word).

// wordSet is a closed list of words.
type wordSet map[string]bool

// words2set makes a package-level set (it is called only while the package is initialized,
// never after): its words' filter is kept for anyOf and only (word_sets.go).
func words2set(s string) wordSet {
	out := wordSet{}
	for _, w := range strings.Fields(s) {
		out[w] = true
	}
	registerSet(out)
	return out
}

// only reports whether every word of toks is in one of the sets, or is core.
func only(toks []string, sets ...wordSet) bool {
	var buf [8]*wordFilter
	filters := buf[:0] // each set's filter (nil: none kept), looked up once
	if len(toks) > 1 && len(sets) <= len(buf) {
		for _, s := range sets {
			filters = append(filters, filterOf(s))
		}
	}
	for _, w := range toks {
		ok := false
		for k, s := range sets {
			if k < len(filters) && filters[k] != nil && !filters[k].may(w) {
				continue // not in s: no lookup
			}
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

func anyOf(toks []string, s wordSet) bool {
	if len(toks) > 2 {
		if f := filterOf(s); f != nil {
			for _, w := range toks {
				if f.may(w) && s[w] {
					return true
				}
			}
			return false
		}
	}
	for _, w := range toks {
		if s[w] {
			return true
		}
	}
	return false
}

// wordFilter holds a set's words' shapes (wordShapes: by first byte, a bit for the length).
type wordFilter = wordShapes

// setEntry is a set kept in setTable, with its filter.
type setEntry struct {
	id     uintptr
	set    wordSet
	filter *wordFilter
}

// setTable holds the sets words2set made, by their identity (setID), open-addressed: written
// only while the package is initialized, read without locks after.
var setTable [1 << setTableBits]setEntry

const setTableBits = 10

// setID is a set's identity: the same map, not equal contents (a set is never changed after
// it is made).
func setID(s wordSet) uintptr { return reflect.ValueOf(s).Pointer() }

// setSlot is where the probe for a set's identity starts.
func setSlot(id uintptr) int { return int(uint64(id>>4) * 0x9E3779B97F4A7C15 >> (64 - setTableBits)) }

// registerSet keeps s and its words' filter (package initialization only).
func registerSet(s wordSet) {
	f := new(wordFilter)
	for w := range s {
		f.add(w)
	}
	id := setID(s)
	for k, n := setSlot(id), 0; n < len(setTable)/2; k, n = (k+1)&(len(setTable)-1), n+1 {
		if setTable[k].id == 0 || setTable[k].id == id {
			setTable[k] = setEntry{id, s, f}
			return
		}
	}
	panic("word_sets.go: more sets than setTable holds")
}

// filterOf returns the filter of a set words2set made, or nil (a literal, a set of a home).
func filterOf(s wordSet) *wordFilter {
	id := setID(s)
	for k := setSlot(id); ; k = (k + 1) & (len(setTable) - 1) {
		switch setTable[k].id {
		case id:
			return setTable[k].filter
		case 0:
			return nil
		}
	}
}
