package intents

import (
	"regexp/syntax"
	"sort"
	"strings"
)

// prefilter is a cheap necessary condition for a pattern, derived from its syntax tree: for
// every group, the text must contain at least one of the group's literal strings. An empty
// prefilter admits everything. It keeps routing fast when a sentence matches nothing: most
// patterns are skipped with a few substring searches instead of running their expression.
type prefilter [][]string

func (p prefilter) admits(text string) bool {
	pairs := pairsOf(text)
	return p.admitsPairs(text, &pairs)
}

// pairSet is a Bloom set of the byte pairs of a text: a literal whose pairs are not all in
// it is not in the text, which one bit test per pair tells, before any substring search.
// It never turns away a literal the text holds, so admitsPairs answers exactly as a search
// of every literal would.
type pairSet [16]uint64

func pairBit(a, b byte) uint { return (uint(a)<<5 ^ uint(b)) & 1023 }

func pairsOf(text string) pairSet {
	var s pairSet
	for i := 0; i+1 < len(text); i++ {
		h := pairBit(text[i], text[i+1])
		s[h>>6] |= 1 << (h & 63)
	}
	return s
}

// mayHold reports whether every byte pair of lit is in s.
func (s *pairSet) mayHold(lit string) bool {
	for i := 0; i+1 < len(lit); i++ {
		h := pairBit(lit[i], lit[i+1])
		if s[h>>6]&(1<<(h&63)) == 0 {
			return false
		}
	}
	return true
}

// admitsPairs is admits with the text's pairs already collected (once per text, for all
// the patterns tried on it).
func (p prefilter) admitsPairs(text string, pairs *pairSet) bool {
	for _, anyOf := range p {
		ok := false
		for _, lit := range anyOf {
			if pairs.mayHold(lit) && strings.Contains(text, lit) {
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

func derivePrefilter(expr string) prefilter {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	// Keep the groups worth checking, most selective first, so most sentences are turned
	// away by the first substring search: a group with a one-letter literal ("a", " ")
	// admits nearly every sentence.
	var out prefilter
	for _, g := range required(re) {
		if shortest(g) >= 2 {
			out = append(out, g)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return shortest(out[i]) > shortest(out[j]) })
	return out
}

func shortest(g []string) int {
	m := len(g[0])
	for _, s := range g {
		m = min(m, len(strings.TrimSpace(s)))
	}
	return m
}

// required returns the conditions every match of re satisfies.
func required(re *syntax.Regexp) prefilter {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil
		}
		return prefilter{{string(re.Rune)}}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		var all prefilter
		for _, sub := range re.Sub {
			all = append(all, required(sub)...)
		}
		return all
	case syntax.OpAlternate:
		// One branch matches: the union of each branch's most selective group is necessary.
		var union []string
		for _, sub := range re.Sub {
			r := required(sub)
			if len(r) == 0 {
				return nil
			}
			union = append(union, mostSelective(r)...)
		}
		return prefilter{union}
	}
	return nil
}

// mostSelective picks the group whose shortest literal is longest.
func mostSelective(p prefilter) []string {
	best, bestLen := p[0], -1
	for _, g := range p {
		m := len(g[0])
		for _, s := range g {
			m = min(m, len(s))
		}
		if m > bestLen {
			best, bestLen = g, m
		}
	}
	return best
}
