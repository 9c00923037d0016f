package intents

// A small child's words as a recogniser writes them: "wichie tun the wight on in my woom",
// "pway da aminal game", "wock paper sizzors". Young children glide r and l into w, drop an
// r after a vowel, lisp s as th, say d or f for th and swap sounds within a word; whisper
// writes what it hears. When a sentence reaches nobody (the agent, or unclear) and holds
// such a word the table does not know, each word the table does not know is heard again
// through those sound changes against the table's own words, and the sentence is routed
// again as read. The reading is taken only when every way of reading it that the table
// understands agrees; a reading that would switch something in the house is asked first
// ("Do you want me to turn on the kitchen light?"), never done on a guess.

import (
	"regexp"
	"strings"
)

// soundAlike is what the sound-change reading compares against, built once per table.
type soundAlike struct {
	known map[string]bool     // every word the table's lists and patterns hold
	keys  map[string][]string // spelling key -> the known words of three letters or more with that key
	wake  wakeMatcher         // the robot's names, heard as the wake phrase hears them
	lex   lexicon             // phrases of two words or more tell the better of two readings
}

// childWords are whole words a small child says for a word the table knows.
var childWords = map[string]string{
	"da": "the", "dat": "that", "dis": "this", "dese": "these", "dem": "them", "dere": "there",
	"wif": "with", "fank": "thank", "fanks": "thanks", "fankyou": "thank you", "nuffin": "nothing",
	"pwetty": "pretty", "wanna": "want to",
}

// childWordShapes are the shapes of childWords' words: glideHeard looks up only a word of one.
var childWordShapes = func() (out wordShapes) {
	for w := range childWords {
		out.add(w)
	}
	return out
}()

var patternWord = regexp.MustCompile(`\\.|[a-z]+`)

// newSoundAlike gathers the table's words: the word lists the router reads, the lexicons,
// rooms, people, expressions, timer labels, wake names and every literal word of a pattern.
func newSoundAlike(v *vocab, intents []*Intent) soundAlike {
	s := soundAlike{known: map[string]bool{}, keys: map[string][]string{}, wake: v.wake, lex: v.lex}
	add := func(phrase string) {
		for _, w := range strings.Fields(phrase) {
			s.known[w] = true
		}
	}
	for w := range v.words {
		add(w)
	}
	for _, set := range v.lex {
		for _, ps := range set.byFirst {
			for _, p := range ps {
				add(strings.Join(p, " "))
			}
		}
	}
	for _, m := range []map[string]string{v.people, v.expressions, v.labels} {
		for k := range m {
			add(k)
		}
	}
	for k := range v.rooms {
		add(k)
	}
	for w := range v.wake.names {
		add(w)
	}
	for w := range wordExpansions {
		add(w)
	}
	for _, in := range intents {
		for _, p := range in.patterns {
			for _, w := range patternWord.FindAllString(p.source, -1) {
				if !strings.HasPrefix(w, `\`) {
					add(w)
				}
			}
		}
	}
	for w := range s.known {
		if len(w) >= 3 {
			k := childKey(w)
			if !contains(s.keys[k], w) {
				s.keys[k] = append(s.keys[k], w)
			}
		}
	}
	return s
}

// childKey writes a word as it sounds, keeping its vowels (finer than the wake names' spellingKey): c, ck, k and q are k (s before e, i, y),
// z and s are s, ph is f, doubled letters are one. "sizzors" and "scissors" key alike.
func childKey(w string) string {
	var b strings.Builder
	var last byte
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch c {
		case 'c':
			c = 'k'
			if i+1 < len(w) && (w[i+1] == 'e' || w[i+1] == 'i' || w[i+1] == 'y') {
				c = 's'
			}
		case 'q':
			c = 'k'
		case 'z':
			c = 's'
		case 'p':
			if i+1 < len(w) && w[i+1] == 'h' {
				c = 'f'
				i++
			}
		}
		if c == last {
			continue
		}
		b.WriteByte(c)
		last = c
	}
	return b.String()
}

func isVowel(c byte) bool { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' }

// glided reports whether a word the table does not know shows a child's gliding: a w for an
// r or an l ("wight", "pway", "fweeze", "houw"; not the w of "wh").
func glided(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] == 'w' && (i+1 == len(w) || w[i+1] != 'h') {
			return true
		}
	}
	return false
}

// heardAs is the known words an unknown word may be, by the sound changes of a small
// child's speech: the glides undone (each w an r or an l), then at most one more change —
// an r after a vowel ("tun"), s for th ("thimon"), th for a leading d or f, for a final f
// ("baff") or for a v ("muvver"), two consonants swapped ("aminal") — compared letter for
// letter or by spelling key; a change more is tried only when fewer find nothing. At most four.
func (s *soundAlike) heardAs(w string) []string {
	if to, ok := childWords[w]; ok {
		return []string{to}
	}
	if len(w) < 3 || len(w) > 12 {
		return nil
	}
	var out []string
	found := func(v string) {
		if len(out) >= 4 {
			return
		}
		if v != w && (s.known[v] || s.wake.isName(v)) {
			if !contains(out, v) {
				out = append(out, v)
			}
			return
		}
		if ks := s.keys[childKey(v)]; len(ks) == 1 && !contains(out, ks[0]) {
			out = append(out, ks[0])
		}
	}
	// The fewest changes that make a known word win: "wock" is rock or lock (a glide undone),
	// never "work" (a glide kept and an r added).
	glides := unglide(w)
	for _, g := range glides {
		found(g)
	}
	if len(out) > 0 {
		return out
	}
	for _, g := range glides {
		for _, v := range oneChange(g) {
			found(v)
		}
	}
	return out
}

// phraseCover counts the words of a reading inside a lexicon phrase of two words or more:
// "rock paper scissors" is one, "lock paper scissors" none.
func (s *soundAlike) phraseCover(toks []string) int {
	covered := 0
	for i := 0; i < len(toks); {
		longest := 0
		for _, set := range s.lex {
			longest = max(longest, set.at(toks, i))
		}
		if longest >= 2 {
			covered += longest
			i += longest
			continue
		}
		i++
	}
	return covered
}

// unglide is a word with each of its (at most three) glide w's read as w, r or l.
func unglide(w string) []string {
	out := []string{w}
	n := 0
	for i := 0; i < len(w) && n < 3; i++ {
		if w[i] != 'w' || i+1 < len(w) && w[i+1] == 'h' {
			continue
		}
		n++
		for _, prev := range out {
			out = append(out, prev[:i]+"r"+prev[i+1:], prev[:i]+"l"+prev[i+1:])
		}
	}
	return out
}

// oneChange is a word after one more sound change of a child's speech.
func oneChange(w string) []string {
	var out []string
	for i := 0; i < len(w); i++ {
		if isVowel(w[i]) && (i+1 == len(w) || w[i+1] != 'r') {
			out = append(out, w[:i+1]+"r"+w[i+1:]) // "tun" -> "turn"
		}
	}
	if i := strings.Index(w, "th"); i >= 0 {
		out = append(out, w[:i]+"s"+w[i+2:]) // "thimon" -> "simon"
	}
	if w[0] == 'd' || w[0] == 'f' {
		out = append(out, "th"+w[1:]) // "fink" -> "think"
	}
	if f := strings.TrimRight(w, "f"); len(f) < len(w) && len(f) >= 2 {
		out = append(out, f+"th") // "baff" -> "bath", "toof" -> "tooth"
	}
	if i := strings.IndexByte(w, 'v'); i > 0 {
		out = append(out, w[:i]+"th"+w[i+1:]) // "muvver" -> "muther"
	}
	for i := 0; i+1 < len(w); i++ {
		for j := i + 1; j <= i+2 && j < len(w); j++ {
			if !isVowel(w[i]) && !isVowel(w[j]) && w[i] != w[j] {
				b := []byte(w)
				b[i], b[j] = b[j], b[i]
				out = append(out, string(b)) // "aminal" -> "animal"
			}
		}
	}
	return out
}

// heardLabel reads an unknown timer label's last word as a small child says it ("my baff"):
// a label the home knows when exactly one of the words it may be is one.
func (t *Table) heardLabel(raw string) (labelRef, string) {
	ws := strings.Fields(raw)
	if len(ws) == 0 || t.sound.known[ws[len(ws)-1]] {
		return labelUnknown, ""
	}
	var got string
	for _, h := range t.sound.heardAs(ws[len(ws)-1]) {
		if l, ok := t.vocab.labels[h]; ok {
			if got != "" && got != l {
				return labelUnknown, ""
			}
			got = l
		}
	}
	if got == "" {
		return labelUnknown, ""
	}
	return labelKnown, got
}

// glideHeard: a word the table does not know is a known word with its glide undone ("wight",
// "pway", "weachy") or a child's word for one ("da"). Cheap (a few lookups a word with a w),
// it gates the reading: a question about the world with a w in an unknown word ("who won
// the award") is never read again.
func (s *soundAlike) glideHeard(toks []string) bool {
	for _, w := range toks {
		if childWordShapes.may(w) && childWords[w] != "" && !s.known[w] {
			return true
		}
		if len(w) < 3 || strings.IndexByte(w, 'w') < 0 || !glided(w) || s.known[w] {
			continue
		}
		if s.unglideHeard(w) {
			return true
		}
	}
	return false
}

// unglideHeard reports whether a word of unglide(w)[1:] is known or the robot's name,
// without building them: each of w's first three glides (a w not before h) is read as w, r
// or l, in a buffer on the stack, every way but w's own.
func (s *soundAlike) unglideHeard(w string) bool {
	var at [3]int
	n := 0
	for i := 0; i < len(w) && n < len(at); i++ {
		if w[i] == 'w' && (i+1 == len(w) || w[i+1] != 'h') {
			at[n], n = i, n+1
		}
	}
	var buf [32]byte
	if n == 0 || len(w) > len(buf) {
		for _, g := range unglide(w)[1:] {
			if s.known[g] || s.wake.isName(g) {
				return true
			}
		}
		return false
	}
	b := append(buf[:0], w...)
	ways := 1
	for range n {
		ways *= 3
	}
	for k := 1; k < ways; k++ { // k = 0 is w itself
		for j, c := 0, k; j < n; j, c = j+1, c/3 {
			b[at[j]] = "wrl"[c%3]
		}
		if s.known[string(b)] || s.wake.isName(string(b)) {
			return true
		}
	}
	return false
}

// maxReadings bounds how many ways a sentence is read again.
const maxReadings = 8

// childReadings are the sentence's words read again, each unknown word heard as each known
// word it may be: every combination, at most maxReadings. None when no word shows a child's
// gliding or no unknown word is heard as a known one.
func (s *soundAlike) childReadings(toks []string) [][]string {
	if len(toks) > 16 {
		return nil
	}
	glide := false
	for _, w := range toks {
		if !s.known[w] && (glided(w) || childWords[w] != "") {
			glide = true
			break
		}
	}
	if !glide {
		return nil
	}
	readings := [][]string{nil}
	changed := false
	for _, w := range toks {
		alts := []string{w}
		if !s.known[w] {
			if heard := s.heardAs(w); len(heard) > 0 {
				alts, changed = heard, true
			}
		}
		var next [][]string
		for _, r := range readings {
			for _, a := range alts {
				if len(next) < maxReadings {
					next = append(next, append(append([]string(nil), r...), a))
				}
			}
		}
		readings = next
	}
	if !changed {
		return nil
	}
	return readings
}

// understood reports whether a decision is one the table made of the sentence, not the
// fallback of a sentence it could not read.
func understood(d Decision) bool {
	switch d.Intent {
	case IntentGeneralAsk, IntentDeepAsk, IntentUnclear, IntentNone:
		return false
	case IntentClarify:
		return d.Pending != nil
	}
	return true
}

// readAsChildSpeech routes a sentence that reached nobody again as a small child would have
// meant it. ok is false when no reading is understood, or readings disagree.
func (t *Table) readAsChildSpeech(transcript string, n Normalized, ctx Context) (Decision, bool) {
	if !t.sound.glideHeard(n.tokens()) {
		return Decision{}, false // most sentences: no word a child glided
	}
	readings := t.sound.childReadings(tokenize(strings.ToLower(transcript)))
	var took Decision
	var heard string
	best := -1    // the most words in the table's phrases, of the readings understood
	torn := false // readings as good as the best do different things
	for _, r := range readings {
		text := strings.Join(r, " ")
		d := t.routeSentence(text, ctx)
		if !understood(d) {
			continue
		}
		cover := t.sound.phraseCover(words(text))
		switch {
		case cover > best:
			took, heard, best, torn = d, text, cover, false
		case cover < best:
		case !sameAction(took, d):
			// "wight": light or right, each reading does something else, and neither
			// makes more of the table's phrases
			torn = true
		case unexplained(d) < unexplained(took):
			took, heard = d, text // of readings doing the same, the one the table explains best
		}
	}
	if heard == "" || torn {
		return Decision{}, false
	}
	why := "read as a small child says it: \"" + n.Text + "\" heard as \"" + heard + "\""
	if took.Scope == ScopeHouseWrite {
		ask := t.decide(t.byName[IntentClarify], map[string]string{}, nil, n)
		ask.Prompt = "Do you want me to " + t.offerWhat(took) + "?"
		ask.Pending = &Pending{Intent: took.Intent, Args: took.Args, Missing: MissingConfirm}
		ask.Mentions = took.Mentions
		ask.Doctrine = append([]string{why + "; a house change read from sounds is asked first"}, took.Doctrine...)
		return ask, true
	}
	took.Doctrine = append([]string{why}, took.Doctrine...)
	return took, true
}

func unexplained(d Decision) int {
	if d.Mentions == nil {
		return 0
	}
	return d.Mentions.Unexplained
}

// sameAction reports whether two decisions do the same thing.
func sameAction(a, b Decision) bool {
	if a.Intent != b.Intent || len(a.Args) != len(b.Args) {
		return false
	}
	for k, v := range a.Args {
		if b.Args[k] != v {
			return false
		}
	}
	if (a.Pending == nil) != (b.Pending == nil) {
		return false
	}
	return a.Pending == nil || a.Pending.Intent == b.Pending.Intent && a.Pending.Missing == b.Pending.Missing
}
