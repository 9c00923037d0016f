package intents

import (
	"slices"
	"strings"
)

// wordInfo is what mentions looks up about one word, from the lists it reads word by word:
// its word classes (wordClasses), the lexicon sets a phrase of which it may start
// (lexIx.first), whether it names a person of the home (people) or may start a room's name
// (roomStarts), and whether it is a gerund or a home's own expression word. A table keeps
// it for every word on any of those lists (wordIndex), so reading a word costs one lookup
// instead of one per list; a word on none of them is the zero wordInfo, which is what each
// list says of it.
//
// It is 24 bytes (a name is an index), so the index and a sentence's copy of it stay small.
type wordInfo struct {
	lex uint64
	cls wordClass
	// person: 1 + the index in vocab.personNames of the person the word names (people[word]);
	// 0 when the word is no key of people.
	person uint32
	// roomSpan: which of mentions' room lookups starting at the word can find a room: bit
	// l-1 (l = 1..maxRoomWords) when a room's name, alias or owner's phrase is l words
	// starting with it, roomJoined when it is a proper prefix of a name of one word (the words
	// after it closed up: "bed room").
	roomSpan uint8
	flags    uint8 // wiGerund, wiFrameWord
}

const (
	maxRoomWords = 7      // the longest room phrase the index (and mentions) reads
	roomJoined   = 1 << 7 // see wordInfo.roomSpan

	wiGerund    = 1 << 0 // on gerunds
	wiFrameWord = 1 << 1 // on the home's vocab.frameWords
)

// personName is people[word] for the word wi is of ("" when it names no one).
func (v *vocab) personName(wi wordInfo) string {
	if wi.person == 0 {
		return ""
	}
	return v.personNames[wi.person-1]
}

// newWordIndex builds a table's word index from its vocabularies (after its lexicon index)
// and the package's word lists. Nothing writes to either once the table is built.
func newWordIndex(v *vocab) map[string]wordInfo {
	out := make(map[string]wordInfo, len(wordClasses)+len(v.lexIx.first)+len(v.people))
	set := func(w string, f func(*wordInfo)) {
		wi := out[w]
		f(&wi)
		out[w] = wi
	}
	for w, c := range wordClasses {
		set(w, func(wi *wordInfo) { wi.cls = c })
	}
	for w, l := range v.lexIx.first {
		set(w, func(wi *wordInfo) { wi.lex = l })
	}
	v.personNames = nil
	for _, w := range sortedKeys(v.people) {
		p := v.people[w]
		k := slices.Index(v.personNames, p)
		if k < 0 {
			k = len(v.personNames)
			v.personNames = append(v.personNames, p)
		}
		set(w, func(wi *wordInfo) { wi.person = uint32(k + 1) })
	}
	for k := range v.rooms {
		words := strings.Fields(k)
		if len(words) <= maxRoomWords {
			set(words[0], func(wi *wordInfo) { wi.roomSpan |= 1 << (len(words) - 1) })
		}
		if len(words) == 1 {
			for i := 1; i < len(k); i++ {
				set(k[:i], func(wi *wordInfo) { wi.roomSpan |= roomJoined })
			}
		}
	}
	for w, ok := range gerunds {
		if ok {
			set(w, func(wi *wordInfo) { wi.flags |= wiGerund })
		}
	}
	for w, ok := range v.frameWords {
		if ok {
			set(w, func(wi *wordInfo) { wi.flags |= wiFrameWord })
		}
	}
	return out
}

// wordInfos appends the word-index entries of toks to out (a caller's buffer).
func (t *Table) wordInfos(out []wordInfo, toks []string) []wordInfo {
	for _, w := range toks {
		out = append(out, t.vocab.words[w])
	}
	return out
}

// runInfo is the entries of c's words when they are a run of toks (the same words, not equal
// ones: a clause of a sentence without parts), given info, the entries of toks; nil otherwise.
func runInfo(info []wordInfo, toks, c []string) []wordInfo {
	if info == nil || len(c) == 0 || len(info) != len(toks) {
		return nil
	}
	for k := 0; k+len(c) <= len(toks); k++ {
		if &toks[k] == &c[0] {
			return info[k : k+len(c)]
		}
	}
	return nil
}

// lexOf is the lexicon bits of toks' words (as mentions gathers them into Mentions.lex).
func (t *Table) lexOf(toks []string) uint64 {
	var lex uint64
	for _, w := range toks {
		lex |= t.vocab.words[w].lex
	}
	return lex
}
