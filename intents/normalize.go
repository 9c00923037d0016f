package intents

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Normalized is a transcript made ready for the patterns, and what normalizing learned.
type Normalized struct {
	Text     string `json:"text"`     // what the patterns see
	Clean    string `json:"clean"`    // before politeness and negation were taken off (for general.ask)
	Wake     bool   `json:"wake"`     // a wake phrase opened the sentence
	Polite   bool   `json:"polite"`   // "please", "can you" ...: an imperative marker
	Negated  bool   `json:"negated"`  // "don't", "do not", "never" ...
	Question bool   `json:"question"` // a question word opens it, or it ended in "?" without a polite request
	Deep     bool   `json:"deep"`     // "think carefully"
	// Corrected: the speaker corrected themselves and Text holds the corrected sentence
	// ("turn on the uh no off the kitchen light" -> "turn off the kitchen light").
	Corrected bool `json:"corrected,omitempty"`

	raw string // the transcript as heard, for splitting compound sentences
	// toks are Text's words (nil: split Text). Whoever sets one sets the other: Text is
	// always strings.Join(toks, " ").
	toks []string
	memo *normMemo // what was worked out from toks once, for every copy of this sentence
}

// normMemo keeps the duration view of one sentence's words: match and the timer, quiet
// and family frames all read it, on copies of the same Normalized.
type normMemo struct {
	durToks []string // the words dur is the view of (the same slice, not equal words)
	dur     string
}

// tokens returns the words of Text.
func (n Normalized) tokens() []string {
	if n.toks != nil {
		return n.toks
	}
	return strings.Fields(n.Text)
}

// durations is the text with each run of duration words joined into one token. A sentence
// without a duration's core word has no run to join: its view is Text itself (the same
// string, not a copy), and most sentences are such.
//
// The view is kept in the sentence's memo, for the same words: a clause or a corrected
// sentence (other words, or a part of them) works out its own. Nothing writes into a
// sentence's words once normalize has returned them, so the same slice is the same words.
func (n Normalized) durations() string {
	if n.toks == nil {
		return durationView(n.tokens())
	}
	if m := n.memo; m != nil && len(m.durToks) == len(n.toks) && (len(n.toks) == 0 || &m.durToks[0] == &n.toks[0]) {
		return m.dur
	}
	v := n.Text
	if slices.ContainsFunc(n.toks, durationCore) {
		v = durationView(n.toks)
	}
	if n.memo != nil {
		n.memo.durToks, n.memo.dur = n.toks, v
	}
	return v
}

// Replacements done on the raw lower-case text, before punctuation goes.
var rawReplacer = strings.NewReplacer(
	"a.c.", " ac ", "a. c.", " ac ", "a/c", " ac ", "a.c", " ac ",
	"’", "'", "‘", "'", // typographic apostrophes
	"°", " degrees ",
	"\u2212", "-", "\u2013", "-", "\ufe63", "-", "\uff0d", "-", // minus signs and dashes: a sign is kept (scanTokens)
)

var contractions = map[string][]string{
	"don't": {"do", "not"}, "dont": {"do", "not"}, "doesn't": {"does", "not"}, "didn't": {"did", "not"},
	"isn't": {"is", "not"}, "aren't": {"are", "not"}, "wasn't": {"was", "not"}, "won't": {"will", "not"},
	"can't": {"cannot"}, "cant": {"cannot"}, "shouldn't": {"should", "not"}, "wouldn't": {"would", "not"},
	"what's": {"what", "is"}, "whats": {"what", "is"}, "where's": {"where", "is"}, "who's": {"who", "is"},
	"how's": {"how", "is"}, "it's": {"it", "is"}, "that's": {"that", "is"}, "there's": {"there", "is"},
	"let's": {"let", "us"}, "i'm": {"i", "am"}, "i'd": {"i", "would"}, "you're": {"you", "are"},
	"they're": {"they", "are"}, "we're": {"we", "are"}, "he's": {"he", "is"}, "she's": {"she", "is"},
	// The future and the perfect: "I'll turn it off later" is not "ill turn it off".
	"i'll": {"i", "will"}, "we'll": {"we", "will"}, "you'll": {"you", "will"}, "he'll": {"he", "will"},
	"she'll": {"she", "will"}, "they'll": {"they", "will"}, "it'll": {"it", "will"}, "that'll": {"that", "will"},
	"i've": {"i", "have"}, "we've": {"we", "have"}, "you've": {"you", "have"}, "they've": {"they", "have"},
	"we'd": {"we", "would"}, "you'd": {"you", "would"}, "he'd": {"he", "would"}, "she'd": {"she", "would"},
	"they'd": {"they", "would"}, "hasn't": {"has", "not"}, "haven't": {"have", "not"}, "hadn't": {"had", "not"},
}

// Multi-word rewrites, longest first within each leading word.
var phraseRewrites = []struct {
	from []string
	to   []string
}{
	{[]string{"air", "conditioning"}, []string{"ac"}},
	{[]string{"air", "conditioner"}, []string{"ac"}},
	{[]string{"air", "conditioners"}, []string{"ac"}},
	{[]string{"air", "con"}, []string{"ac"}},
	{[]string{"air", "condition"}, []string{"ac"}},              // "open the air condition in bedroom"
	{[]string{"the", "air", "on"}, []string{"the", "ac", "on"}}, // "put the air on in the bedroom"
	{[]string{"the", "air", "off"}, []string{"the", "ac", "off"}},
	{[]string{"air", "conditions"}, []string{"ac"}},
	{[]string{"air", "conditioned"}, []string{"ac"}},
	{[]string{"air", "cons"}, []string{"ac"}},
	{[]string{"a", "c"}, []string{"ac"}},
	{[]string{"never", "mind"}, []string{"nevermind"}},
	{[]string{"each", "and", "every"}, []string{"every"}},
	{[]string{"turn", "of"}, []string{"turn", "off"}}, // whisper writes "off" as "of"
	{[]string{"switch", "of"}, []string{"switch", "off"}},
	{[]string{"go", "ahead", "and"}, nil},
	{[]string{"degrees", "celsius"}, []string{"degrees"}},
	{[]string{"degrees", "c"}, []string{"degrees"}},
	{[]string{"degree", "celsius"}, []string{"degrees"}},
	{[]string{"do", "not", "disturb"}, []string{"do-not-disturb"}},
}

// rewriteStarts are the first words of phraseRewrites: most words start none.
var rewriteStarts = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range phraseRewrites {
		m[r.from[0]] = true
	}
	return m
}()

var singleRewrites = map[string]string{
	"aircon": "ac", "airconditioning": "ac", "airconditioner": "ac", "cooling": "ac", "acs": "ac",
	"lites": "lights", "lite": "light", "aircondition": "ac",
}

// wordExpansions are contractions and singleRewrites in one map, for words without an
// apostrophe; a contraction wins, as in the apostrophe path.
var wordExpansions = func() map[string][]string {
	out := map[string][]string{}
	for w, to := range singleRewrites {
		out[w] = []string{to}
	}
	for w, to := range contractions {
		out[w] = to
	}
	return out
}()

// wordShapes holds, by a word's first byte, a bit for its length (63: longer): a word of a
// shape none of a set's words has is not in the set, which two loads tell without hashing it.
type wordShapes [256]uint64

func (s *wordShapes) add(w string) {
	if w != "" {
		s[w[0]] |= 1 << min(len(w), 63)
	}
}

// may reports whether w can be one of the words: false means it is not.
func (s *wordShapes) may(w string) bool { return w != "" && s[w[0]]&(1<<min(len(w), 63)) != 0 }

// expansionShapes are the shapes of the words of wordExpansions without an apostrophe (the
// only ones a word without one can be).
var expansionShapes = func() (out wordShapes) {
	for w := range wordExpansions {
		if !strings.Contains(w, "'") {
			out.add(w)
		}
	}
	return out
}()

// rewriteWords are the words a stage after expandTokens may change: number words and
// fillers (rewriteChanges), and the first words of phraseRewrites (with the rewrites that
// start with the word).
var rewriteWords = func() map[string]rewriteWord {
	out := map[string]rewriteWord{}
	mark := func(w string, flag uint8) {
		r := out[w]
		r.flags |= flag
		out[w] = r
	}
	for _, r := range phraseRewrites {
		e := out[r.from[0]]
		e.phrases = append(e.phrases, r.from)
		out[r.from[0]] = e
	}
	for w := range fillers {
		mark(w, rewriteChanges)
	}
	for _, list := range []map[string]int{units, tens} {
		for w := range list {
			mark(w, rewriteChanges)
		}
	}
	for w := range signWords {
		mark(w, rewriteChanges)
	}
	for w := range numberFragments { // "20 fi 26": a number broken off and said again
		mark(w, rewriteChanges)
	}
	return out
}()

// rewriteWord is what rewriteWords knows of a word.
type rewriteWord struct {
	flags   uint8
	phrases [][]string // the from of each phrase rewrite that starts with the word
}

// rewriteShapes are the shapes of the words of rewriteWords.
var rewriteShapes = func() (out wordShapes) {
	for w := range rewriteWords {
		out.add(w)
	}
	return out
}()

// signWords say that the number after them is negative: "set the AC to minus 20" is -20,
// never 20.
var signWords = map[string]bool{"minus": true, "negative": true}

// rewriteChanges marks a word the number and filler passes change.
const rewriteChanges uint8 = 1

// rewriteTokens runs the passes after expandTokens (phrases, numbers, fillers and
// stutters), skipping those that would change nothing. It rewrites toks in place.
func rewriteTokens(toks []string) []string {
	switch {
	case mayRewrite(toks):
		return dropFillersAndStutters(numberRestarts(numbersToDigits(rewritePhrases(toks))))
	case hasRepeat(toks):
		return dropFillersAndStutters(toks) // only a stutter to take out
	}
	return toks
}

// mayRewrite reports whether rewritePhrases, numbersToDigits or dropFillersAndStutters
// could change anything but a stutter: a phrase rewrite that applies, a number word or a
// filler. Most sentences have none, and skip those passes with one lookup per word.
func mayRewrite(toks []string) bool {
	for i, t := range toks {
		if !rewriteShapes.may(t) {
			continue
		}
		c := rewriteWords[t]
		if c.flags&rewriteChanges != 0 {
			return true // a number word or a filler
		}
		for _, from := range c.phrases {
			if hasPrefix(toks[i:], from) {
				return true
			}
		}
	}
	return false
}

// hasRepeat reports whether a word follows itself (a stutter may need taking out).
func hasRepeat(toks []string) bool {
	for i := 1; i < len(toks); i++ {
		if toks[i] == toks[i-1] {
			return true
		}
	}
	return false
}

// stutterWords are the short words whisper doubles when a speaker hesitates.
var stutterWords = map[string]bool{"the": true, "a": true, "an": true, "to": true, "on": true, "off": true, "in": true,
	"i": true, "is": true, "it": true, "and": true, "of": true, "my": true, "turn": true, "switch": true, "what": true,
	"set": true, "can": true, "you": true, "please": true, "light": true, "lights": true, "stop": true, "okay": true, "ok": true,
	"hello": true, "hi": true, "hey": true, "help": false}

var fillers = map[string]bool{"um": true, "uh": true, "umm": true, "uhh": true, "erm": true, "er": true, "hmm": true, "hm": true, "ah": true, "uhm": true, "mm": true}

var politeLeads = [][]string{
	{"would", "you", "be", "ever", "so", "kind", "as", "to"}, {"would", "you", "be", "so", "kind", "as", "to"},
	{"could", "you", "be", "so", "kind", "as", "to"}, {"would", "you", "be", "kind", "enough", "to"},
	{"would", "you", "be", "so", "good", "as", "to"}, {"be", "ever", "so", "kind", "as", "to"}, {"would", "you", "kindly"},
	{"would", "you", "mind"}, {"would", "you", "please"}, {"could", "you", "please"}, {"can", "you", "please"},
	{"will", "you", "please"}, {"i", "would", "like", "you", "to"}, {"i", "want", "you", "to"}, {"i", "need", "you", "to"},
	{"can", "you"}, {"could", "you"}, {"would", "you"}, {"will", "you"}, {"please"}, {"kindly"},
}

var courtesyTails = [][]string{
	{"thank", "you", "very", "much"}, {"thank", "you"}, {"thanks", "a", "lot"}, {"thanks"}, {"cheers"}, {"please"}, {"for", "me", "please"},
	{"for", "me"}, {"if", "you", "can"}, {"if", "you", "could"}, {"if", "possible"}, {"if", "you", "would"}, {"pretty", "please"},
	{"real", "quick"}, {"quickly"}, {"right", "now"}, {"right", "away"}, {"now"}, {"ok"}, {"okay"}, {"alright"},
	{"if", "you", "do", "not", "mind"}, {"if", "you", "would", "not", "mind"}, {"if", "that", "is", "ok"},
	{"if", "that", "is", "okay"}, {"if", "you", "please"}, {"dear"}, {"darling"}, {"love"}, {"sweetheart"},
	{"would", "you"}, {"will", "you"}, {"could", "you"}, // "ring mum for me would you": a tag, not a question
	{"if", "you", "can", "hear", "me"}, {"if", "you", "hear", "me"},
}

// tailEnds are the last words of the courtesy tails: a quick test before trying them.
var tailEnds = map[string]bool{"much": true, "you": true, "lot": true, "thanks": true, "cheers": true, "please": true,
	"me": true, "can": true, "could": true, "possible": true, "would": true, "quick": true, "quickly": true, "now": true,
	"away": true, "ok": true, "okay": true, "alright": true, "mind": true, "dear": true, "darling": true, "love": true,
	"sweetheart": true}

// leadFillers open a sentence without meaning anything: "okay, okay, stop", "so, what time is it".
var leadFillers = map[string]bool{"okay": true, "ok": true, "alright": true, "so": true, "well": true, "oh": true,
	"right": true, "now": true, "and": true, "yes": true, "yeah": true, "hmm": true, "um": true, "listen": true,
	"dear": true, "darling": true, "sweetie": true, "sweetheart": true, "honey": true} // "Reachy dear, would you ..."

// noVerbs, straight after an opening "no" with no pause between, make it a learner's "don't":
// "no call mama now, she is working", "no turn off the light". With a pause ("no, call
// dad") the "no" answers something else and the command stands. Not "stop", "speak",
// "talk": "no talking", "no speak for 30 minutes" ask for quiet.
var noVerbs = words2set("call ring phone facetime turn switch put play set start open close shut dim cancel make begin end hang")

// pauseAfterNo reports whether the first "no" of the raw sentence is followed by a pause
// (a comma, a full stop, a dash ...) rather than straight by the next word.
func pauseAfterNo(raw string) bool {
	for i := 0; i+2 <= len(raw); i++ {
		if raw[i] != 'n' || raw[i+1] != 'o' || i > 0 && isWordByte(raw[i-1]) || i+2 < len(raw) && isWordByte(raw[i+2]) {
			continue
		}
		rest := raw[i+2:]
		return rest != "" && rest[0] != ' '
	}
	return false
}

var negationLeads = [][]string{{"do", "not"}, {"never"}, {"please", "do", "not"}, {"dont"}, {"you", "should", "not"}}

// formLeadStarts are the first words of politeLeads and negationLeads: a sentence opening
// with none of them has neither lead to take off.
var formLeadStarts = func() map[string]bool {
	out := map[string]bool{}
	for _, p := range append(slices.Clone(politeLeads), negationLeads...) {
		out[p[0]] = true
	}
	return out
}()

var questionWords = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "am": true, "did": true, "does": true,
	"should": true, "shall": true, "why": true, "who": true, "whom": true, "whose": true, "how": true,
	"what": true, "when": true, "where": true, "which": true, "has": true, "have": true, "had": true,
	"can": true, "could": true, "would": true, "will": true, "may": true, "might": true, "must": true,
	"cannot": true, "if": true, "whether": true,
}

var deepPhrases = [][]string{
	{"think", "very", "carefully", "about", "this"}, {"think", "carefully", "about", "this"}, {"think", "hard", "about", "this"},
	{"think", "very", "carefully"}, {"think", "carefully", "about"}, {"think", "carefully"}, {"think", "hard"}, {"think", "deeply"},
	{"think", "step", "by", "step"}, {"think", "it", "through"}, {"think", "this", "through"}, {"think", "it", "over"},
	{"really", "think", "about"}, {"really", "think"}, {"take", "your", "time", "and"}, {"take", "your", "time"},
	{"step", "by", "step"}, {"reason", "carefully"}, {"carefully", "consider"}, {"consider", "carefully"},
	{"give", "it", "some", "thought"}, {"in", "depth"}, {"in", "detail"}, {"thoroughly"},
	{"i", "want", "a", "deep", "answer"}, {"give", "me", "a", "deep", "answer"}, {"a", "deep", "answer"}, {"deep", "answer"},
	{"think", "really", "hard", "about"}, {"think", "really", "hard"}, {"think", "really", "carefully"}, {"think", "long", "and", "hard"},
	{"use", "your", "big", "brain"}, {"use", "your", "brain"}, {"ponder", "this", "deeply"}, {"ponder", "this"},
	{"ponder", "deeply"}, {"ponder"}, {"deeply"}, {"think", "deep"},
}

// deepStarts are the shapes of the first words of deepPhrases (hasPrefix then decides).
var deepStarts = func() (out wordShapes) {
	for _, d := range deepPhrases {
		out.add(d[0])
	}
	return out
}()

var units = map[string]int{"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
	"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
var tens = map[string]int{"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}

// maxTranscript bounds the work normalizing does: a voice command is never this long.
const maxTranscript = 2000

// normalize turns a whisper transcript into the form the patterns are written against,
// taking off the home's wake phrase (wherever it is said as a vocative).
func normalize(transcript string, wake wakeMatcher) Normalized {
	var n Normalized
	if len(transcript) > maxTranscript {
		transcript = transcript[:maxTranscript]
	}
	raw := strings.ToLower(transcript)
	if needsRawReplace(raw) {
		raw = rawReplacer.Replace(raw)
	}
	raw, n.Wake = wake.stripSegments(raw)
	n.raw = raw
	trimmed := strings.TrimRightFunc(raw, func(r rune) bool { return unicode.IsSpace(r) || r == '.' || r == '!' || r == '"' })
	endsWithQ := strings.HasSuffix(trimmed, "?")

	toks := words(raw)
	toks = rewriteTokens(toks)
	toks = dropHedges(toks)
	toks = dropFalseStarts(toks)

	// Wake phrase first: "hey jeeves, can you ..." (fillers already gone).
	var atStart bool
	if toks, atStart = wake.stripEdges(toks); atStart {
		n.Wake = true
	} else if n.Wake {
		toks = wake.dropLeads(toks)
	}
	for len(toks) > 1 && leadFillers[toks[0]] { // "okay, okay, stop", "so what time is it"
		toks = toks[1:]
	}
	if hasSuffix(toks, []string{"please"}) || hasSuffix(toks, []string{"would", "you"}) || hasSuffix(toks, []string{"will", "you"}) ||
		hasSuffix(toks, []string{"could", "you"}) {
		n.Polite = true // a request's tag: "pop the light on, would you?"
	}
	toks = trimTails(toks)
	if t, ok := wake.stripEnd(toks); ok { // "stop it reachy please"
		toks, n.Wake = trimTails(t), true
	}
	for i := 0; i < len(toks); i++ { // "think carefully" anywhere
		if !deepStarts.may(toks[i]) {
			continue
		}
		for _, d := range deepPhrases {
			if hasPrefix(toks[i:], d) {
				toks = append(append([]string(nil), toks[:i]...), toks[i+len(d):]...)
				n.Deep = true
				break
			}
		}
	}
	n.Clean = strings.Join(toks, " ")
	// Text's words are most often a run of Clean's (leads and tails taken off): Text is then
	// a slice of Clean, not a second copy. lead counts the words taken off the front; kept
	// turns false when a word inside is dropped or changed.
	cleanToks, lead, kept := toks, 0, true
	if len(toks) > 2 && toks[0] == "no" && noVerbs[toks[1]] && !pauseAfterNo(raw) {
		toks, n.Negated, lead = toks[1:], true, lead+1 // "no call mama now": a learner's "don't call mama"
	}

	for changed := len(toks) > 0 && formLeadStarts[toks[0]]; changed; {
		changed = false
		for _, p := range politeLeads {
			if hasPrefix(toks, p) {
				toks, n.Polite, changed, lead = toks[len(p):], true, true, lead+len(p)
				break
			}
		}
		for _, p := range negationLeads {
			if hasPrefix(toks, p) && len(toks) > len(p) {
				toks, n.Negated, changed, lead = toks[len(p):], true, true, lead+len(p)
				break
			}
		}
		changed = changed && len(toks) > 0 && formLeadStarts[toks[0]]
	}
	// "please" inside the sentence is politeness too.
	out := toks[:0] // in place: normalize owns toks, and Clean is already a copy
	for _, t := range toks {
		if t == "please" {
			n.Polite, kept = true, false
			continue
		}
		if t == "not" || t == "never" {
			n.Negated = true
		}
		out = append(out, t)
	}
	toks = trimTails(out)
	if k := len(toks); k >= 2 && toks[k-1] == "of" && (toks[k-2] == "light" || toks[k-2] == "lights" || toks[k-2] == "ac") {
		toks, kept = append(toks[:k-1:k-1], "off"), false // "turn the kitchen light of": whisper's "off"
	}
	if kept {
		n.Text = joinedRun(n.Clean, cleanToks, lead, toks)
	} else {
		n.Text = strings.Join(toks, " ")
	}
	n.toks = toks
	n.memo = &normMemo{}
	if len(toks) > 0 && (questionWords[toks[0]] || doQuestion(toks) || hasPrefix(toks, []string{"i", "wonder"})) {
		n.Question = true
	}
	if endsWithQ && !n.Polite {
		n.Question = true
	}
	return n
}

// joinedRun is strings.Join(toks, " ") for toks that are the run all[lead:lead+len(toks)],
// given joined, strings.Join(all, " "): the slice of joined that holds them, without a copy.
func joinedRun(joined string, all []string, lead int, toks []string) string {
	if len(toks) == 0 {
		return ""
	}
	start := 0
	for _, w := range all[:lead] {
		start += len(w) + 1
	}
	end := start + len(toks) - 1
	for _, w := range toks {
		end += len(w)
	}
	return joined[start:end]
}

// needsRawReplace reports whether rawReplacer may change s: it holds "a." or "a/" (each of
// its ASCII keys starts so: "a.c.", "a. c.", "a/c", "a.c") or a non-ASCII byte (the
// typographic apostrophes, the degree sign, the dashes). A byte scan, where
// strings.ContainsAny with non-ASCII characters decodes every rune; a sentence's closing
// full stop alone no longer sends it through the replacer, which always copies.
func needsRawReplace(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c == '.' || c == '/') && i > 0 && s[i-1] == 'a' || c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// tokenize splits at anything but letters, digits and apostrophes; a decimal point between
// digits stays ("1.5 hours").
func tokenize(s string) []string { return scanTokens(s, false) }

// words is expandTokens(tokenize(s)) in one pass, into one slice.
func words(s string) []string { return scanTokens(s, true) }

// A minus sign is not a separator: a '-' that starts a word right before a digit stays on its
// number ("-20"; joinSigns has already closed "- 20" up), so -20 is never read as 20 and the
// bindings refuse it as out of range. Between digits or inside a word it still separates
// ("10-20", "x-ray").
func scanTokens(s string, expand bool) []string {
	s = joinSigns(s)
	out := make([]string, 0, strings.Count(s, " ")+4)
	start := -1
	for i, r := range s {
		var keep bool
		if r < utf8.RuneSelf { // ASCII, nearly every transcript: no table lookups
			keep = r == '\'' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
		} else {
			keep = unicode.IsLetter(r) || unicode.IsDigit(r)
		}
		if r == '.' && i > 0 && i+1 < len(s) && isASCIIDigit(s[i-1]) && isASCIIDigit(s[i+1]) {
			keep = true
		}
		if r == '-' && start < 0 && i+1 < len(s) && isASCIIDigit(s[i+1]) {
			keep = true // a sign
		}
		switch {
		case keep && start < 0:
			start = i
		case !keep && start >= 0:
			if expand {
				out = appendExpanded(out, s[start:i])
			} else {
				out = append(out, s[start:i])
			}
			start = -1
		}
	}
	if start >= 0 {
		if expand {
			out = appendExpanded(out, s[start:])
		} else {
			out = append(out, s[start:])
		}
	}
	return out
}

func isASCIIDigit(c byte) bool { return c >= '0' && c <= '9' }

// joinSigns closes up a minus sign that starts a word and is parted from its number by
// spaces ("- 20" -> "-20"), so the sign cannot be dropped as a separator.
func joinSigns(s string) string {
	i := strings.IndexByte(s, '-')
	if i < 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for ; i >= 0 && i < len(s); i = nextByte(s, '-', i+1) {
		if i > 0 && isWordByte(s[i-1]) {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j == i+1 || j >= len(s) || !isASCIIDigit(s[j]) {
			continue
		}
		b.WriteString(s[last : i+1])
		last = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func nextByte(s string, c byte, from int) int {
	if from >= len(s) {
		return -1
	}
	if k := strings.IndexByte(s[from:], c); k >= 0 {
		return from + k
	}
	return -1
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf
}

func expandTokens(in []string) []string {
	out := make([]string, 0, len(in)+4)
	for _, t := range in {
		out = appendExpanded(out, t)
	}
	return out
}

// appendExpanded appends a token with its contraction expanded, its apostrophes taken out
// and its single-word rewrite done.
func appendExpanded(out []string, t string) []string {
	t = strings.Trim(t, "'")
	if t == "" {
		return out
	}
	if strings.IndexByte(t, '\'') < 0 {
		// Most words: one lookup in the contractions and single rewrites together.
		if expansionShapes.may(t) {
			if c, ok := wordExpansions[t]; ok {
				return append(out, c...)
			}
		}
		switch t[0] {
		case 'h', 'l', 'H', 'L':
			if laughter(strings.ToLower(t)) {
				return out // "stop stop stop hahaha stop"
			}
		case 's', 'S':
			if hushWord(strings.ToLower(t)) {
				return append(out, "shh") // "shhh", "shhhhh"
			}
		}
		return append(out, t)
	}
	if c, ok := contractions[t]; ok {
		return append(out, c...)
	}
	// Possessives and stray apostrophes: "kid's" -> "kids", "kids'" -> "kids".
	t = strings.ReplaceAll(t, "'", "")
	if r, ok := singleRewrites[t]; ok {
		t = r
	}
	return append(out, t)
}

func rewritePhrases(in []string) []string {
	out := in[:0] // in place: it never writes past what it has read
outer:
	for i := 0; i < len(in); {
		if !rewriteStarts[in[i]] {
			out = append(out, in[i])
			i++
			continue
		}
		for _, r := range phraseRewrites {
			if in[i] != r.from[0] {
				continue
			}
			if hasPrefix(in[i:], r.from) {
				out = append(out, r.to...)
				i += len(r.from)
				continue outer
			}
		}
		out = append(out, in[i])
		i++
	}
	return out
}

// numbersToDigits turns "twenty two" into "22" and "five" into "5", and "minus 20" (a sign,
// not a subtraction: no number before it) into "-20".
func numbersToDigits(in []string) []string {
	out := in[:0] // in place: it never writes past what it has read
	for i := 0; i < len(in); i++ {
		t := in[i]
		if signWords[t] && i+1 < len(in) && (len(out) == 0 || !isNumber(out[len(out)-1])) {
			next := nextOrEmpty(in, i+2)
			if n := numbersToDigits([]string{in[i+1], next}); isNumber(n[0]) {
				out = append(out, "-"+n[0])
				i++
				if len(n) == 1 && next != "" {
					i++ // "minus twenty five": both words made the number
				}
				continue
			}
		}
		if v, ok := tens[t]; ok {
			if i+1 < len(in) {
				if u, ok := units[in[i+1]]; ok && u > 0 && u < 10 {
					v += u
					i++
				}
			}
			out = append(out, strconv.Itoa(v))
			continue
		}
		if v, ok := units[t]; ok {
			if i+1 < len(in) && in[i+1] == "hundred" {
				v *= 100
				i++
			}
			out = append(out, strconv.Itoa(v))
			continue
		}
		out = append(out, t)
	}
	return out
}

func nextOrEmpty(toks []string, i int) string {
	if i < len(toks) {
		return toks[i]
	}
	return ""
}

// dropHedges takes out "like" where it hedges a command ("can you like turn the lights
// off", "get dad to, like, call the robot"): before a verb that opens a command.
func dropHedges(toks []string) []string {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i] == "like" && (isImperativeVerb(toks[i+1]) || toks[i+1] == "call" || toks[i+1] == "play") &&
			(i == 0 || toks[i-1] != "would" && toks[i-1] != "i" && toks[i-1] != "we" && toks[i-1] != "you" || i >= 2 && toks[i-2] == "can") {
			return append(toks[:i:i], toks[i+1:]...)
		}
	}
	return toks
}

// dropFalseStarts takes out a run of words said again at once ("turn on the turn on the
// kitchen light", "can you can you ..."): a false start, as whisper writes it.
func dropFalseStarts(toks []string) []string {
	if len(toks) < 4 {
		return toks
	}
	for l := 4; l >= 2; l-- {
		for i := 0; i+2*l <= len(toks); i++ {
			if toks[i] == toks[i+l] && hasPrefix(toks[i+l:], toks[i:i+l]) {
				return dropFalseStarts(append(toks[:i:i], toks[i+l:]...))
			}
		}
	}
	return toks
}

// laughter: "haha", "hahaha", "hehe", "lol" — said around a command, never part of it.
func laughter(t string) bool {
	if t == "lol" || t == "lmao" {
		return true
	}
	if len(t) < 4 || t[0] != 'h' {
		return false
	}
	for i := 0; i < len(t); i++ {
		if c := t[i]; c != 'h' && c != 'a' && c != 'e' {
			return false
		}
	}
	return true
}

// hushWord: "sh", "shh", "shhhh", "shhhhh" are all "shh".
func hushWord(t string) bool {
	if len(t) < 2 || t[0] != 's' {
		return false
	}
	for i := 1; i < len(t); i++ {
		if t[i] != 'h' {
			return false
		}
	}
	return true
}

func dropFillersAndStutters(in []string) []string {
	out := in[:0] // in place: it never writes past what it has read
	for _, t := range in {
		if fillers[t] {
			continue
		}
		if len(out) > 0 && out[len(out)-1] == t && stutterWords[t] {
			continue // "the the", "turn turn"; but "knock knock" and "bye bye" stay
		}
		out = append(out, t)
	}
	return out
}

func trimTails(toks []string) []string {
	for changed := true; changed; {
		changed = false
		if len(toks) == 0 || !tailEnds[toks[len(toks)-1]] {
			break
		}
		for _, c := range courtesyTails {
			if hasSuffix(toks, c) && len(toks) > len(c) {
				toks, changed = toks[:len(toks)-len(c)], true
				break
			}
		}
	}
	return toks
}

func hasPrefix(toks, p []string) bool {
	if len(p) > len(toks) {
		return false
	}
	for i, w := range p {
		if toks[i] != w {
			return false
		}
	}
	return true
}

func hasSuffix(toks, p []string) bool {
	if len(p) > len(toks) {
		return false
	}
	return hasPrefix(toks[len(toks)-len(p):], p)
}

// normalizeVocab puts a vocabulary word (room, alias, person, wake phrase) in the same form
// the normalizer gives transcripts.
func normalizeVocab(s string) string {
	toks := numbersToDigits(rewritePhrases(words(rawReplacer.Replace(strings.ToLower(s)))))
	return strings.Join(toks, " ")
}

// doQuestion tells "do you know ..." (a question) from "do a little dance" (a command).
func doQuestion(toks []string) bool {
	if len(toks) < 2 || toks[0] != "do" {
		return false
	}
	switch toks[1] {
	case "you", "i", "we", "they", "he", "she", "it", "any", "all", "the":
		return true
	}
	return false
}
