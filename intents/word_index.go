package intents

import "strings"

// wordInfo is what mentions looks up about one word, from the lists it reads word by word:
// its word classes (wordClasses), the lexicon sets a phrase of which it may start
// (lexIx.first), whether it names a person of the home (people) or may start a room's name
// (roomStarts), and whether it is a gerund or a home's own expression word. A table keeps
// it for every word on any of those lists (wordIndex), so reading a word costs one lookup
// instead of one per list; a word on none of them is the zero wordInfo, which is what each
// list says of it.
type wordInfo struct {
	cls      wordClass
	lex      uint64
	person   string // the person's name; isPerson: the word is a key of people
	isPerson bool
	// roomSpan: which of mentions' room lookups starting at the word can find a room: bit
	// l-1 (l = 1..3) when a room's name or alias is l words starting with it, roomJoined when
	// it is a proper prefix of a name of one word (the words after it closed up: "bed room").
	roomSpan  uint8
	gerund    bool
	frameWord bool
}

// roomJoined: see wordInfo.roomSpan.
const roomJoined = 1 << 3

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
	for w, p := range v.people {
		set(w, func(wi *wordInfo) { wi.person, wi.isPerson = p, true })
	}
	for k := range v.rooms {
		words := strings.Fields(k)
		if len(words) <= 3 {
			set(words[0], func(wi *wordInfo) { wi.roomSpan |= 1 << (len(words) - 1) })
		}
		if len(words) == 1 {
			for i := 1; i < len(k); i++ {
				set(k[:i], func(wi *wordInfo) { wi.roomSpan |= roomJoined })
			}
		}
	}
	for w, ok := range gerunds {
		set(w, func(wi *wordInfo) { wi.gerund = ok })
	}
	for w, ok := range v.frameWords {
		set(w, func(wi *wordInfo) { wi.frameWord = ok })
	}
	return out
}
