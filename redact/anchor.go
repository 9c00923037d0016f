package redact

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// This file runs a pattern only where one of its matches can start, instead of over the
// whole reply. Go's regexp tries a case-insensitive pattern that opens with \b at every
// offset of the text; most of the redactor's time went there. Here one scan of the reply
// finds the starts of its words and, at each, the literal prefixes the secret patterns open
// with (every family's hint at once); a pattern then runs anchored at the few offsets where
// its match can start, seeing the text before the offset so that \b judges it as the whole
// text would. The result is exactly that of ReplaceAllStringFunc over the whole text: the
// matches are tried in order, each non-overlapping with the one before, and a match the
// callback keeps still consumes its text.
//
// The start sets rely on canonical: after it, the text holds no KELVIN SIGN and no long s,
// the only non-ASCII letters that (?i) folds to an ASCII one ('k', 's').

// startRE is a pattern with its two anchored forms.
type startRE struct {
	re    *regexp.Regexp // the pattern as written
	first *regexp.Regexp // ^(?:pattern): a match at the start of the text
	next  *regexp.Regexp // ^(?s:.)(?:pattern): the rune before the offset, then a match
	// quick, when set, is a cheap test every match at s passes: an offset that fails it
	// is not given to the pattern (a call costs far more than the test).
	quick func(text string, s int) bool
	// match, when set, is the pattern's match at s written out by hand (the end, or -1),
	// for a pattern too large for regexp's backtracker; TestStartSets holds it to the
	// pattern.
	match func(text string, s int) int
	// maxLen is the most bytes a match can span, or -1 when there is no bound. A bounded
	// pattern is given only the text it can reach: regexp's backtracker clears a bitmap as
	// long as its input on every call.
	maxLen int
}

func mustStartRE(expr string) *startRE {
	p, err := newStartRE(expr)
	if err != nil {
		panic(err)
	}
	return p
}

func newStartRE(expr string) (*startRE, error) {
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	p := &startRE{maxLen: maxMatchLen(tree)}
	if p.re, err = regexp.Compile(expr); err != nil {
		return nil, err
	}
	if p.first, err = regexp.Compile(`^(?:` + expr + `)`); err != nil {
		return nil, err
	}
	if p.next, err = regexp.Compile(`^(?s:.)(?:` + expr + `)`); err != nil {
		return nil, err
	}
	return p, nil
}

// maxAnchored is the most starts an unbounded pattern is tried at one by one (each try may
// read to the end of the text); with more, it runs once over the whole text — the same
// result — so that a long reply full of one prefix costs no more than before the start sets.
const maxAnchored = 32

// maxMatchLen is the most bytes a match of re can span, or -1 when there is no bound.
func maxMatchLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				n += utf8.UTFMax // a folded letter may be longer ('k', KELVIN SIGN)
			} else {
				n += utf8.RuneLen(r)
			}
		}
		return n
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return 0
		}
		return utf8.RuneLen(min(re.Rune[len(re.Rune)-1], utf8.MaxRune))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return utf8.UTFMax
	case syntax.OpCapture, syntax.OpQuest:
		return maxMatchLen(re.Sub[0])
	case syntax.OpRepeat:
		m := maxMatchLen(re.Sub[0])
		if re.Max < 0 || m < 0 {
			return -1
		}
		return m * re.Max
	case syntax.OpConcat, syntax.OpAlternate:
		n := 0
		for _, sub := range re.Sub {
			m := maxMatchLen(sub)
			if m < 0 {
				return -1
			}
			if re.Op == syntax.OpConcat {
				n += m
			} else {
				n = max(n, m)
			}
		}
		return n
	}
	return -1 // star, plus
}

// with sets quick and match.
func (p *startRE) with(quick func(string, int) bool, match func(string, int) int) *startRE {
	p.quick, p.match = quick, match
	return p
}

// matchAt returns the end of the match that starts at offset s, or -1.
func (p *startRE) matchAt(text string, s int) int {
	if p.quick != nil && !p.quick(text, s) {
		return -1
	}
	if p.match != nil {
		return p.match(text, s)
	}
	return p.regexpAt(text, s)
}

// regexpAt is matchAt by the pattern itself.
func (p *startRE) regexpAt(text string, s int) int {
	if p.maxLen >= 0 {
		// What the match can reach, and one byte more for a \b at its end to judge.
		text = text[:min(len(text), s+p.maxLen+1)]
	}
	if s == 0 {
		if loc := p.first.FindStringIndex(text); loc != nil {
			return loc[1]
		}
		return -1
	}
	_, n := utf8.DecodeLastRuneInString(text[:s])
	if loc := p.next.FindStringIndex(text[s-n:]); loc != nil {
		return s - n + loc[1]
	}
	return -1
}

// replaceAt is p.re.ReplaceAllStringFunc(text, fn) when every match of p in text starts at
// one of starts (ascending). It returns text itself when nothing matched.
func (p *startRE) replaceAt(text string, starts []int, fn func(string) string) string {
	if len(starts) > maxAnchored && p.maxLen < 0 {
		return p.re.ReplaceAllStringFunc(text, fn)
	}
	var b strings.Builder
	last, found := 0, false
	for i, s := range starts {
		if s < last || i > 0 && s == starts[i-1] {
			continue
		}
		e := p.matchAt(text, s)
		if e < 0 {
			continue
		}
		if !found {
			b.Grow(len(text))
			found = true
		}
		b.WriteString(text[last:s])
		b.WriteString(fn(text[s:e]))
		last = e
	}
	if !found {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

// wordStart: a \b before a word character at s.
func wordStart(text string, s int) bool {
	return isWordByte(text[s]) && (s == 0 || !isWordByte(text[s-1]))
}

// boundaryAt: \b at s (ASCII word characters, as Go's regexp has it).
func boundaryAt(text string, s int) bool {
	before := s > 0 && isWordByte(text[s-1])
	after := s < len(text) && isWordByte(text[s])
	return before != after
}

// wordRuns appends to out the runs of word characters (\w: ASCII letters, digits, '_') of
// text.
func wordRuns(out []span, text string) []span {
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		out = append(out, span{i, j})
		i = j
	}
	return out
}

// hasPrefixFold: s starts with lit (lower-case ASCII), in any case.
func hasPrefixFold(s, lit string) bool {
	if len(s) < len(lit) {
		return false
	}
	for i := 0; i < len(lit); i++ {
		if c := s[i]; c != lit[i] && c|0x20 != lit[i] {
			return false
		}
	}
	return true
}

// prefixIndex maps a word's first byte (lower case) to the literal prefixes that open a
// pattern's match, each with the start set it fills.
type prefixIndex struct {
	byFirst [128][]prefixEntry
	sets    int
}

type prefixEntry struct {
	set int
	lit string
}

// newPrefixIndex indexes sets[i], the prefixes (lower-case ASCII) of start set i.
func newPrefixIndex(sets [][]string) *prefixIndex {
	ix := &prefixIndex{sets: len(sets)}
	for set, lits := range sets {
		for _, l := range lits {
			ix.byFirst[l[0]] = append(ix.byFirst[l[0]], prefixEntry{set, l})
		}
	}
	return ix
}

// textScan is one scan of the current text: its word runs and, for each start set of the
// index, the word starts one of its prefixes opens. It is redone only when a pass has
// changed the text.
type textScan struct {
	ix   *prefixIndex
	text string
	done bool
	runs []span
	hits [][]int
}

func (sc *textScan) of(text string) *textScan {
	if sc.done && text == sc.text {
		return sc
	}
	sc.text, sc.done = text, true
	if sc.runs == nil {
		sc.runs = make([]span, 0, len(text)/5+4)
	}
	sc.runs = wordRuns(sc.runs[:0], text)
	if sc.hits == nil {
		sc.hits = make([][]int, sc.ix.sets)
	}
	for i := range sc.hits {
		sc.hits[i] = sc.hits[i][:0]
	}
	for _, r := range sc.runs {
		c := text[r.s] | 0x20
		if c >= 128 {
			continue
		}
		for _, e := range sc.ix.byFirst[c] {
			if h := sc.hits[e.set]; (len(h) == 0 || h[len(h)-1] != r.s) && hasPrefixFold(text[r.s:], e.lit) {
				sc.hits[e.set] = append(h, r.s)
			}
		}
	}
	return sc
}

// digitStarts: the word starts that are digits (a \b before a digit).
func (sc *textScan) digitStarts() []int {
	var out []int
	for _, r := range sc.runs {
		if isDigit(sc.text[r.s]) {
			out = append(out, r.s)
		}
	}
	return out
}

// phoneStarts: where phoneRE can start — a '+', a '(' or a digit that starts a word.
func phoneStarts(t string) []int {
	var out []int
	for i := 0; i < len(t); i++ {
		if c := t[i]; c == '+' || c == '(' || isDigit(c) && (i == 0 || !isWordByte(t[i-1])) {
			out = append(out, i)
		}
	}
	return out
}

// spokenDigitStarts: where spokenDigitsRE can start — a word that is a digit said as a word,
// or "double" or "triple".
func (sc *textScan) spokenDigitStarts() []int {
	var out []int
	var buf [8]byte
	for _, r := range sc.runs {
		w := sc.text[r.s:r.e]
		if len(w) < 2 || len(w) > 6 {
			continue
		}
		for i := 0; i < len(w); i++ {
			buf[i] = w[i] | 0x20
		}
		if spokenDigitWord[string(buf[:len(w)])] {
			out = append(out, r.s)
		}
	}
	return out
}

// ibanStarts: where ibanRE can start — a word that opens with two letters and two digits.
func (sc *textScan) ibanStarts() []int {
	var out []int
	t := sc.text
	for _, r := range sc.runs {
		if r.e-r.s >= 4 && isLetter(t[r.s]) && isLetter(t[r.s+1]) && isDigit(t[r.s+2]) && isDigit(t[r.s+3]) {
			out = append(out, r.s)
		}
	}
	return out
}

// prefixStarts: the word starts that open with one of lits (lower-case ASCII), in any case.
func (sc *textScan) prefixStarts(lits []string) []int {
	var out []int
	for _, r := range sc.runs {
		for _, l := range lits {
			if hasPrefixFold(sc.text[r.s:], l) {
				out = append(out, r.s)
				break
			}
		}
	}
	return out
}

// emailStarts: where emailRE can start. Its match is a mailbox of letters, digits and
// "._%+-", then white space, then "@", "(at)", "[at]" or "at" between spaces; so it starts at
// a \b inside the run of mailbox characters right before one of them.
func emailStarts(t string) []int {
	var out []int
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == '@':
		case (c == '(' || c == '[') && i+3 < len(t) && hasPrefixFold(t[i+1:], "at") && (c == '(' && t[i+3] == ')' || c == '[' && t[i+3] == ']'):
		case c|0x20 == 'a' && i > 0 && i+2 < len(t) && t[i+1]|0x20 == 't' && reSpace(t[i-1]) && reSpace(t[i+2]):
		default:
			continue
		}
		j := i
		for j > 0 && reSpace(t[j-1]) {
			j--
		}
		k := j
		for k > 0 && mailboxByte(t[k-1]) {
			k--
		}
		for s := k; s < j; s++ {
			if boundaryAt(t, s) {
				out = append(out, s)
			}
		}
	}
	if !slices.IsSorted(out) {
		slices.Sort(out) // replaceAt skips a repeated start
	}
	return out
}

// reSpace is \s of Go's regexp.
func reSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func mailboxByte(c byte) bool { return isAlnum(c) || strings.IndexByte("._%+-", c) >= 0 }

// The quick tests: what every match of a pattern at s holds.

// ssnQuick: three digits, a dash or space, two digits, a dash or space, four digits.
func ssnQuick(t string, s int) bool {
	if s+11 > len(t) {
		return false
	}
	for i := s; i < s+11; i++ {
		switch i - s {
		case 3, 6:
			if t[i] != '-' && t[i] != ' ' {
				return false
			}
		default:
			if !isDigit(t[i]) {
				return false
			}
		}
	}
	return true
}

// digitsAhead reports whether need digits follow s before a byte that is neither a digit
// nor in set, and with no more than gap bytes of set in a row between them (or before the
// first). It stops at the need-th digit: a long reply of one run costs no more than a short.
func digitsAhead(t string, s int, set string, need, gap int) bool {
	n, run := 0, 0
	for i := s; i < len(t); i++ {
		switch c := t[i]; {
		case isDigit(c):
			if n++; n >= need {
				return true
			}
			run = 0
		case strings.IndexByte(set, c) >= 0:
			if run++; run > gap {
				return false
			}
		default:
			return false
		}
	}
	return false
}

// cardQuick: thirteen digits, with at most one space or dash between two.
func cardQuick(t string, s int) bool { return digitsAhead(t, s, " -", 13, 1) }

// phoneQuick: five digits (the fewest of phoneRE's shortest alternative), with at most three
// of " .-()+" between two (")", a separator, "(").
func phoneQuick(t string, s int) bool { return digitsAhead(t, s, " .-()+", 5, 3) }

// ibanQuick: fifteen letters and digits, with at most one space or dash between two.
func ibanQuick(t string, s int) bool {
	n, sep := 0, false
	for i := s; i < len(t) && n < 15; i++ {
		switch c := t[i]; {
		case isAlnum(c):
			n, sep = n+1, false
		case (c == ' ' || c == '-') && !sep:
			sep = true
		default:
			return false
		}
	}
	return n >= 15
}

// spokenDigitsAt is spokenDigitsRE's match at s, by hand: the pattern is six or more
// elements — a number word, perhaps "hundred", and separators; or "double" or "triple" and
// separators — then a number word, perhaps "hundred", at a word's end. Its program is too
// large for regexp's backtracker, and regexp's other matcher took most of a reply's time.
// Tried in the pattern's order: another element before the end, "hundred" before none.
func spokenDigitsAt(t string, s int) int {
	if !boundaryAt(t, s) {
		return -1
	}
	return spokenDigitsFrom(t, s, 0)
}

func spokenDigitsFrom(t string, p, count int) int {
	var opts [2]int
	n := 0
	if w := numberWordAt(t, p); w > 0 {
		q := p + w
		if h := hundredAt(t, q); h >= 0 {
			if k := sepRun(t, h); k > 0 {
				opts[n], n = h+k, n+1
			}
		}
		if k := sepRun(t, q); k > 0 {
			opts[n], n = q+k, n+1
		}
	} else if hasPrefixFold(t[p:], "double") || hasPrefixFold(t[p:], "triple") {
		if k := sepRun(t, p+6); k > 0 {
			opts[n], n = p+6+k, n+1
		}
	}
	for _, q := range opts[:n] {
		if e := spokenDigitsFrom(t, q, count+1); e >= 0 {
			return e
		}
	}
	if count < 6 {
		return -1
	}
	w := numberWordAt(t, p)
	if w == 0 {
		return -1
	}
	if h := hundredAt(t, p+w); h >= 0 && boundaryAt(t, h) {
		return h
	}
	if boundaryAt(t, p+w) {
		return p + w
	}
	return -1
}

// numberWords are spokenDigitsRE's number words.
var numberWords = []string{"zero", "oh", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}

// numberWordAt is the length of the number word that t[p:] opens with, in any case, or 0.
func numberWordAt(t string, p int) int {
	for _, w := range numberWords {
		if hasPrefixFold(t[p:], w) {
			return len(w)
		}
	}
	return 0
}

// sepRun is the length of the run of white space, ',', '.' and '-' at p.
func sepRun(t string, p int) int {
	i := p
	for i < len(t) && (reSpace(t[i]) || t[i] == ',' || t[i] == '.' || t[i] == '-') {
		i++
	}
	return i - p
}

// hundredAt is the end of separators then "hundred" at p, or -1.
func hundredAt(t string, p int) int {
	if k := sepRun(t, p); k > 0 && hasPrefixFold(t[p+k:], "hundred") {
		return p + k + 7
	}
	return -1
}
