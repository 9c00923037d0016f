package intents

import (
	"iter"
	"slices"
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
	// durs are the duration views worked out so far: the sentence's, and its clauses' (a
	// clause's words are a run of its part's, and the frames read each clause's view again).
	durs []durView
	// parts are the sentence's parts between punctuation, each normalized on its own (see
	// partsOf), for the raw text partsRaw; nil until asked, empty (not nil) when it has one.
	parts    []Normalized
	partsRaw string
	// clauses are the clauses of clausesOf (see Table.clauses): the timer frame and the
	// compound rule both split the same sentence.
	clauses   []Normalized
	clausesOf *Normalized
}

// sameSentence reports whether a and b are the same sentence: every field equal, and the
// same words (the same slice, not equal words).
func sameSentence(a, b *Normalized) bool {
	return a.Text == b.Text && a.Clean == b.Clean && a.Wake == b.Wake && a.Polite == b.Polite && a.Negated == b.Negated &&
		a.Question == b.Question && a.Deep == b.Deep && a.Corrected == b.Corrected && a.raw == b.raw && a.memo == b.memo &&
		len(a.toks) == len(b.toks) && (a.toks == nil) == (b.toks == nil) && (len(a.toks) == 0 || &a.toks[0] == &b.toks[0])
}

// durView is the duration view of the words starting at first, n of them (the same words,
// not equal words).
type durView struct {
	first *string
	n     int
	dur   string
}

// maxDurViews bounds the views a memo keeps (a sentence has a handful of clauses).
const maxDurViews = 16

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
// The views are kept in the sentence's memo, each for the words it is the view of: the
// sentence's, and each clause's or corrected sentence's (other words, or a part of them), so
// match and the frames that read a clause's view after it never work it out twice. Nothing
// writes into a sentence's words once normalize has returned them, so the same slice is the
// same words.
func (n Normalized) durations() string {
	if n.toks == nil {
		return durationView(n.tokens())
	}
	if len(n.toks) == 0 {
		return n.Text
	}
	if m := n.memo; m != nil {
		for _, d := range m.durs {
			if d.first == &n.toks[0] && d.n == len(n.toks) {
				return d.dur
			}
		}
	}
	v := n.Text
	if slices.ContainsFunc(n.toks, durationGate) {
		v = durationView(n.toks) // its homophones read ("an our", "ate minutes"), then its runs joined
	}
	if m := n.memo; m != nil && len(m.durs) < maxDurViews {
		m.durs = append(m.durs, durView{&n.toks[0], len(n.toks), v})
	}
	return v
}

// durationWords is strings.Fields(n.durations()), the words of the duration view: the
// sentence's own words (shared: never written to) when the view is its text, as it is for
// most sentences, so no slice is built for them.
func (n Normalized) durationWords() []string {
	v := n.durations()
	if n.toks != nil && v == n.Text {
		return n.toks
	}
	return strings.Fields(v)
}

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
	raw = joinSpelled(raw)
	if strings.Contains(raw, "- ") {
		raw = dropCutOffs(raw)
	}
	raw, n.Wake = wake.stripSegments(raw)
	n.raw = raw
	trimmed := strings.TrimRightFunc(raw, func(r rune) bool { return unicode.IsSpace(r) || r == '.' || r == '!' || r == '"' })
	endsWithQ := strings.HasSuffix(trimmed, "?")

	toks := splitRunTogether(splitClockSuffix(words(raw)))
	unstretch(toks)
	if len(toks) > 2 && (toks[0] == "reach" || toks[0] == "rich") && splitNameEnds[toks[1]] {
		toks = append([]string{"reachy"}, toks[2:]...) // "reach he, set a timer": whisper split the name in two
	}
	toks = rewriteTokens(toks)
	roomAir(toks)
	toks = joinSplitDigits(toks)
	timeForTimer(toks)
	if len(toks) > 1 && toks[0] == "its" { // "its dark in here": whisper's "it's"; "its" opens no sentence as itself
		toks = append([]string{"it", "is"}, toks[1:]...)
	} else if len(toks) > 2 && toks[1] == "its" && leadFillers[toks[0]] { // "brr its freezing": after a sigh
		toks = append([]string{toks[0], "it", "is"}, toks[2:]...)
	}
	if len(toks) > 2 && (toks[0] == "excuse" || toks[0] == "pardon") && toks[1] == "me" {
		toks = toks[2:] // "excuse me reachy, dance": a way of asking for attention
	} else if len(toks) > 3 && toks[0] == "come" && toks[1] == "on" && toks[2] != "in" {
		toks = toks[2:] // "come on, let's play": urging, not a state
	} else if len(toks) > 4 && toks[0] == "do" && (toks[1] == "1" || toks[1] == "one") && toks[2] == "thing" {
		toks = toks[3:] // Indian English's "do one thing, switch on the light": a please
	}
	toks = dropHedges(toks)
	toks = dropFalseStarts(toks)
	toks = dropSaidAgain(toks)

	// Wake phrase first: "hey jeeves, can you ..." (fillers already gone).
	var atStart bool
	if toks, atStart = wake.stripEdges(toks); atStart {
		n.Wake = true
	} else if n.Wake {
		toks = wake.dropLeads(toks)
	}
	for len(toks) > 1 && (leadFillers[toks[0]] || toks[0] == "like" && len(toks) > 2 && likeFillerNext[toks[1]]) {
		toks = toks[1:] // "okay, okay, stop", "so what time is it", "um so like can you ..."
	}
	// "peachy, lights off in the office": the name misheard as a word
	toks = dropNearName(toks, n.Wake)
	if t, ok := wake.stripMiddle(toks); ok && !strings.ContainsAny(raw, ",.!?;:") { // commas part the name already
		toks, n.Wake = t, true // "hold your horses richie stop"
	}
	if t, ok := wake.stripAfterHush(toks); ok {
		toks, n.Wake = t, true // "shh richie shh"
	}
	if hasSuffix(toks, []string{"please"}) || hasSuffix(toks, []string{"would", "you"}) || hasSuffix(toks, []string{"will", "you"}) ||
		hasSuffix(toks, []string{"could", "you"}) {
		n.Polite = true // a request's tag: "pop the light on, would you?"
	}
	toks = trimTails(dropTrailingRobot(toks))
	if t, ok := wake.stripEnd(toks); ok { // "stop it reachy please"
		toks, n.Wake = trimTails(t), true
	}
	for i := 0; i < len(toks); i++ { // "think carefully" anywhere
		if !deepStarts.may(toks[i]) {
			continue
		}
		for _, d := range deepByFirst[toks[i]] { // deepPhrases, in order: those starting with the word
			if hasPrefix(toks[i:], d) {
				toks = append(append([]string(nil), toks[:i]...), toks[i+len(d):]...)
				n.Deep = true
				i-- // the word now at i may open another ("a careful answer, reason it through")
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
	if k := negatedPreamble(toks); k > 0 {
		toks, n.Polite, lead = toks[k:], true, lead+k // "I don't want to be a nuisance, but would you ...": the "not" is the preamble's
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
	if k := len(toks); k >= 2 && toks[k-1] == "of" && (toks[k-2] == "light" || toks[k-2] == "lights" || toks[k-2] == "ac" || toks[k-2] == "privacy" || toks[k-2] == "mode" || toks[k-2] == "mute") {
		toks, kept = append(toks[:k-1:k-1], "off"), false // "turn the kitchen light of": whisper's "off"
	}
	if kept {
		n.Text = joinedRun(n.Clean, cleanToks, lead, toks)
	} else {
		n.Text = strings.Join(toks, " ")
	}
	n.toks = toks
	n.memo = &normMemo{}
	if len(toks) > 0 && (questionWords[toks[0]] || doQuestion(toks) || hasPrefix(toks, []string{"i", "wonder"}) || elidedQuestion(toks)) {
		n.Question = true
	}
	if endsWithQ && !n.Polite {
		n.Question = true
	}
	return n
}

// splitNameEnds are the second halves of the robot's name as whisper splits it at the start
// of a sentence: "reach he", "rich e" ("reach me the salt" is English).
var splitNameEnds = map[string]bool{"he": true, "e": true, "y": true, "ee": true, "ie": true}

// elidedQuestion: "any lights on in the bedroom", "anything on in the kitchen", "anyone
// home": a question whose "are there" was never said.
func elidedQuestion(toks []string) bool {
	switch toks[0] {
	case "any", "anything", "anyone", "anybody":
		return len(toks) > 1
	}
	return false
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
// its ASCII keys starts so: "a.c.", "a. c.", "a/c", "a.c"), a half written "1/2", or a non-ASCII byte (the
// typographic apostrophes, the degree sign, the dashes). A byte scan, where
// strings.ContainsAny with non-ASCII characters decodes every rune; a sentence's closing
// full stop alone no longer sends it through the replacer, which always copies.
func needsRawReplace(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c == '.' || c == '/') && i > 0 && s[i-1] == 'a' || c >= utf8.RuneSelf ||
			c == '/' && i > 0 && s[i-1] == '1' && i+1 < len(s) && s[i+1] == '2' { // "1 1/2 hours"
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
	return appendTokens(make([]string, 0, strings.Count(s, " ")+4), s, expand)
}

// appendTokens appends scanTokens' tokens of s (signs already joined) to out: a caller that
// only reads them passes a buffer of its own, and nothing is allocated.
func appendTokens(out []string, s string, expand bool) []string {
	for w := range rawTokens(s) {
		if expand {
			out = appendExpanded(out, w)
		} else {
			out = append(out, w)
		}
	}
	return out
}

// rawTokens yields the tokens of s (signs already joined) as tokenize splits them, one by
// one, so a reader that stops early never scans the rest.
func rawTokens(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := -1
		for i := 0; i < len(s); {
			c := s[i]
			if c < utf8.RuneSelf && asciiWordByte[c] { // a letter, a digit, an apostrophe: most bytes
				if start < 0 {
					start = i
				}
				i++
				continue
			}
			r, size := rune(c), 1
			var keep bool
			if c >= utf8.RuneSelf {
				r, size = utf8.DecodeRuneInString(s[i:]) // as range over a string decodes it
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
				if !yield(s[start:i]) {
					return
				}
				start = -1
			}
			i += size
		}
		if start >= 0 {
			yield(s[start:])
		}
	}
}

// asciiWordByte: the ASCII bytes a word is made of (letters, digits, the apostrophe).
var asciiWordByte = func() (out [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		out[c] = c == '\'' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return out
}()

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
	case "you", "i", "we", "they", "he", "she", "it", "any", "all":
		return true
	case "the":
		// "do the lights off in the office": a child's or a learner's "turn" — a device then
		// its state, with no verb of its own
		for k := 2; k+1 < len(toks) && k <= 4; k++ {
			if (toks[k] == "light" || toks[k] == "lights" || toks[k] == "ac" || toks[k] == "lamp") && (toks[k+1] == "off" || toks[k+1] == "on") {
				return false
			}
		}
		// "do the dance", "do the robot dance": a thing to do, no verb after it; "do the
		// lights work" asks
		return len(toks) > 4 || doQuestionVerbs[toks[len(toks)-1]]
	}
	return false
}

// doQuestionVerbs may end a short "do the ..." question: "do the lights work", "do the kids
// know".
var doQuestionVerbs = words2set("work like know matter exist sleep eat bite fly hurt need want come go count help")

// timeForTimer reads whisper's "time" for "timer" where only a timer fits: "set a time for 45
// seconds" (a verb that starts one, then "for" and a number).
func timeForTimer(toks []string) {
	for i := 2; i+2 < len(toks); i++ {
		if toks[i] == "time" && toks[i-1] == "a" && timerStartVerbs[toks[i-2]] && toks[i+1] == "for" && isDigits(toks[i+2]) &&
			(i == 2 || timerStartLeads[toks[i-3]]) {
			toks[i] = "timer"
		}
	}
}

var timerStartVerbs = words2set("set start make put")

// timerStartLeads may come before the verb: "can you set a time for ...", "please set ...".
var timerStartLeads = words2set("you please can could would just now and so ok okay")

// splitClockSuffix parts a clock time written together: "7am" is "7 am", "30pm" "30 pm".
func splitClockSuffix(toks []string) []string {
	var out []string
	for i, w := range toks {
		if len(w) < 3 || !isASCIIDigit(w[0]) || !strings.HasSuffix(w, "am") && !strings.HasSuffix(w, "pm") || !isDigits(w[:len(w)-2]) {
			if out != nil {
				out = append(out, w)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(toks)+1), toks[:i]...)
		}
		out = append(out, w[:len(w)-2], w[len(w)-2:])
	}
	if out == nil {
		return toks
	}
	return out
}

// robotTailBefore end a request, after which "robot" is said to the robot.
var robotTailBefore = words2set("now please up off on it them down again thanks yet here already ok okay")

// dropTrailingRobot takes "robot" said to the robot off the end of a request ("you can hang up
// now robot", "lights off please mr robot"); after a word that makes it the object ("what is a
// robot", "I love my robot") it stays.
func dropTrailingRobot(toks []string) []string {
	n := len(toks)
	if n < 3 || toks[n-1] != "robot" {
		return toks
	}
	prev := toks[n-2]
	if prev == "mr" || prev == "little" || prev == "dear" || prev == "silly" {
		if n < 4 {
			return toks
		}
		n--
		prev = toks[n-2]
	}
	if !robotTailBefore[prev] {
		return toks // "who is the best robot": what the sentence says
	}
	return toks[:n-1]
}
