package intents

// wordInfo is what mentions looks up about one word, from the lists it reads word by word:
// its word classes (wordClasses), the lexicon sets a phrase of which it may start
// (lexIx.first), whether it names a person of the home (people) or may start a room's name
// (roomStarts), and whether it is a gerund or a home's own expression word. A table keeps
// it for every word on any of those lists (wordIndex), so reading a word costs one lookup
// instead of one per list; a word on none of them is the zero wordInfo, which is what each
// list says of it.
type wordInfo struct {
	cls       wordClass
	lex       uint64
	person    string // the person's name; isPerson: the word is a key of people
	isPerson  bool
	roomStart bool
	gerund    bool
	frameWord bool
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
	for w, p := range v.people {
		set(w, func(wi *wordInfo) { wi.person, wi.isPerson = p, true })
	}
	for w, ok := range v.roomStarts {
		set(w, func(wi *wordInfo) { wi.roomStart = ok })
	}
	for w, ok := range gerunds {
		set(w, func(wi *wordInfo) { wi.gerund = ok })
	}
	for w, ok := range v.frameWords {
		set(w, func(wi *wordInfo) { wi.frameWord = ok })
	}
	return out
}
