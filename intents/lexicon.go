package intents

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
)

// Lexicons: named sets of words and short phrases (lexicon.yaml, extended per home by
// home.lexicon) that the family frames read a sentence with. Matching is by whole words on
// the normalized transcript, longest phrase first; nothing here is a regular expression.

//go:embed lexicon.yaml
var lexiconYAML []byte

// maxPhraseWords bounds a lexicon entry: a phrase, not a sentence.
const maxPhraseWords = 5

// phraseSet is one lexicon entry: its phrases indexed by their first word.
type phraseSet struct {
	name    string
	byFirst map[string][][]string // first word -> phrases (longest first)
	// shapes holds, by a first word's first byte, a bit for its length (31: longer): a word
	// of a shape no phrase starts with is looked up nowhere. lasts holds the same by a first
	// word's last byte: a word must pass both.
	shapes, lasts [256]uint32
}

// may reports whether w can be the first word of one of the set's phrases: false means it is
// not (two loads each, no hashing).
func (s *phraseSet) may(w string) bool {
	return w != "" && s.shapes[w[0]]&wordShape(w) != 0 && s.lasts[w[len(w)-1]]&wordShape(w) != 0
}

// wordShape is the bit of a word's length in phraseSet.shapes.
func wordShape(w string) uint32 { return 1 << min(len(w), 31) }

// lexicon is every set of a table, by name.
type lexicon map[string]*phraseSet

// lexHit is where a phrase of a set was found.
type lexHit struct {
	set    string
	phrase string
	at, n  int // first token and number of tokens
}

// newLexicon builds the table's lexicon: the built-in sets, plus a home's words for them.
// A home may only extend a set the router reads.
func newLexicon(home map[string][]string, file string) (lexicon, error) {
	base, err := decodeStrict[map[string][]string](lexiconYAML, "lexicon.yaml")
	if err != nil {
		return nil, fmt.Errorf("built-in lexicon: %w", err)
	}
	lx := lexicon{}
	for name, words := range base {
		if err := lx.add(name, words, "lexicon.yaml"); err != nil {
			return nil, err
		}
	}
	for _, name := range sortedKeys(home) {
		if _, ok := lx[name]; !ok {
			return nil, fmt.Errorf("%s: home: lexicon: %q is not a set the router reads (known: %s)", file, name, strings.Join(sortedKeys(lx), ", "))
		}
		if err := lx.add(name, home[name], file); err != nil {
			return nil, err
		}
	}
	for _, s := range lx {
		for _, ps := range s.byFirst {
			sort.SliceStable(ps, func(i, j int) bool { return len(ps[i]) > len(ps[j]) })
		}
	}
	return lx, nil
}

func (lx lexicon) add(name string, words []string, file string) error {
	s := lx[name]
	if s == nil {
		s = &phraseSet{name: name, byFirst: map[string][][]string{}}
		lx[name] = s
	}
	for _, w := range words {
		toks := strings.Fields(normalizeVocab(w))
		if len(toks) == 0 || len(toks) > maxPhraseWords {
			return fmt.Errorf("%s: lexicon %s: %q must be one to %d words", file, name, w, maxPhraseWords)
		}
		s.byFirst[toks[0]] = append(s.byFirst[toks[0]], toks)
		s.shapes[toks[0][0]] |= wordShape(toks[0])
		s.lasts[toks[0][len(toks[0])-1]] |= wordShape(toks[0])
	}
	return nil
}

// at reports the length of the longest phrase of the set that starts at toks[i] (0: none).
func (s *phraseSet) at(toks []string, i int) int {
	if s == nil || !s.may(toks[i]) {
		return 0
	}
	for _, p := range s.byFirst[toks[i]] {
		if hasPrefix(toks[i:], p) {
			return len(p)
		}
	}
	return 0
}

// find returns the first (leftmost, longest) phrase of the named set in toks.
func (lx lexicon) find(toks []string, name string) (lexHit, bool) {
	s := lx[name]
	for i := range toks {
		if l := s.at(toks, i); l > 0 {
			return lexHit{set: name, phrase: strings.Join(toks[i:i+l], " "), at: i, n: l}, true
		}
	}
	return lexHit{}, false
}

// findSaid is t.vocab.lex.find(toks, name) for toks among the words whose mentions' lexicon
// bits are lex: a phrase of the set holds its key word (lexIndex), so without the set's bit
// in lex there is none, and the words are not scanned.
func (t *Table) findSaid(lex uint64, toks []string, name string) (lexHit, bool) {
	if lex&t.vocab.lexIx.bit[name] == 0 {
		return lexHit{}, false
	}
	return t.vocab.lex.find(toks, name)
}

// has reports whether a phrase of the named set is in toks.
func (lx lexicon) has(toks []string, name string) bool {
	_, ok := lx.find(toks, name)
	return ok
}

// cover marks in used the tokens covered by phrases of the named sets (longest first at each
// position) and returns the hits.
func (lx lexicon) cover(toks []string, used []bool, names ...string) []lexHit {
	var hits []lexHit
	var buf [8]*phraseSet
	sets := buf[:0] // looked up once, not at every word
	for _, name := range names {
		sets = append(sets, lx[name])
	}
	for i := 0; i < len(toks); i++ {
		if used[i] {
			continue
		}
		best, bestSet := 0, ""
		for k, s := range sets {
			if l := s.at(toks, i); l > best {
				best, bestSet = l, names[k]
			}
		}
		if best == 0 {
			continue
		}
		for k := i; k < i+best; k++ {
			used[k] = true
		}
		hits = append(hits, lexHit{set: bestSet, phrase: strings.Join(toks[i:i+best], " "), at: i, n: best})
		i += best - 1
	}
	return hits
}

// alternation is a set as a regular-expression alternation, for a home's own patterns
// ({lex:NAME}): longest phrase first, every phrase quoted.
func (lx lexicon) alternation(name string) (string, bool) {
	s, ok := lx[name]
	if !ok {
		return "", false
	}
	var all []string
	for _, ps := range s.byFirst {
		for _, p := range ps {
			all = append(all, strings.Join(p, " "))
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if len(all[i]) != len(all[j]) {
			return len(all[i]) > len(all[j])
		}
		return all[i] < all[j]
	})
	for i, p := range all {
		all[i] = quoteMeta(p)
	}
	return "(?:" + strings.Join(all, "|") + ")", true
}

func quoteMeta(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hitWords lists the phrases of hits, for an explanation ("game.simon: simon says").
func hitWords(hits ...lexHit) string {
	var out []string
	for _, h := range hits {
		if h.n > 0 {
			out = append(out, fmt.Sprintf("%s %q", h.set, h.phrase))
		}
	}
	return strings.Join(out, ", ")
}

// lexIndex says, for each word, which sets have a phrase that holds it as its key word (one
// bit per set; a phrase's key is its longest word, the last of equals: "police" for "the
// police", "game" for "a game"), so a sentence's words are looked up once and a frame whose
// sets the sentence cannot hold is never read.
type lexIndex struct {
	first map[string]uint64 // word -> sets with a phrase keyed by it
	bit   map[string]uint64
}

func newLexIndex(lx lexicon) lexIndex {
	ix := lexIndex{first: map[string]uint64{}, bit: map[string]uint64{}}
	for i, name := range sortedKeys(lx) {
		b := uint64(1) << (uint(i) % 64) // more than 64 sets share bits: a gate may open needlessly, never wrongly shut
		ix.bit[name] = b
		for _, ps := range lx[name].byFirst {
			for _, p := range ps {
				key := p[0]
				for _, w := range p[1:] {
					if len(w) >= len(key) {
						key = w
					}
				}
				ix.first[key] |= b
			}
		}
	}
	return ix
}

// mask is the bits of the named sets.
func (ix lexIndex) mask(names ...string) uint64 {
	var m uint64
	for _, n := range names {
		m |= ix.bit[n]
	}
	return m
}

// lexGates are the sets each family frame needs one of, as bits.
type lexGates struct {
	remind, emergency, secrets, call, privacy, quiet, game, world, farewell, faults, stop, stopWords, calendar, help uint64
	// social: the sets socialStart reads (vocab.socialStarts, and social.bed): a sentence
	// with no key word of them does not start small talk.
	social uint64
}

func newLexGates(ix lexIndex) lexGates {
	return lexGates{
		remind:    ix.mask("timer.remind", "timer.clock", "timer.alarm"),
		emergency: ix.mask("emergency.services", "emergency.events", "emergency.self"),
		secrets:   ix.mask("house.secrets"),
		call:      ix.mask("call.verbs", "call.reach", "call.ask", "call.give"),
		privacy:   ix.mask("privacy.names", "privacy.calls"),
		quiet:     ix.mask("quiet.verbs"),
		game:      ix.mask("game.rps", "game.animal", "game.simon", "game.freeze", "game.hide", "game.any", "game.quit"),
		world:     ix.mask("world.words", "world.leads"),
		farewell:  ix.mask("farewell.bye", "farewell.night", "farewell.thanks"),
		faults:    ix.mask("house.faults"),
		stop:      ix.mask("stop.foreign"),
		stopWords: ix.mask("stop.words"),
		calendar:  ix.mask("calendar.asks"),
		help:      ix.mask("help.asks"),
		social:    ix.mask(append(append([]string(nil), socialSets[:len(vocab{}.socialStarts)]...), "social.bed")...),
	}
}
