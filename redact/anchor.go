package redact

import (
	"regexp"
	"regexp/syntax"
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
