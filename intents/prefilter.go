package intents

import (
	"math"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
)

// prefilter is a cheap necessary condition for a pattern, derived from its syntax tree: for
// every group, the text must contain at least one of the group's literal strings. An empty
// prefilter admits everything. It keeps routing fast when a sentence matches nothing: most
// patterns are skipped with a few substring searches instead of running their expression.
type prefilter [][]string

// admits is admitsPairs for one text tried against one prefilter: plain substring searches,
// without building the text's pair set first (worth it only for many prefilters).
func (p prefilter) admits(text string) bool {
	for _, anyOf := range p {
		ok := false
		for _, lit := range anyOf {
			if strings.Contains(text, lit) {
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
	// Keep the groups worth checking, so most sentences are turned away by the first few
	// substring searches: a group with a one-letter literal ("a", " ") admits nearly every
	// sentence.
	//
	// Two derivations, each of necessary conditions, so both together are too: required
	// (literals as the parser leaves them, which factors alternatives into fragments: "h"
	// and "ello" for "hello|hi") and the exact strings a part matches (exactInfo: whole
	// words and phrases, "hello", "what day", "which date").
	var out prefilter
	for _, g := range append(required(re), exactInfo(re).required()...) {
		if shortest(g) >= 2 && !slices.ContainsFunc(out, func(h []string) bool { return slices.Equal(g, h) }) {
			out = append(out, g)
		}
	}
	// Cheapest test first: a group's cost is its literals, and it saves the rest when it
	// turns the text away (the longer its literals, the likelier).
	sort.SliceStable(out, func(i, j int) bool { return testCost(out[i]) < testCost(out[j]) })
	return out
}

// testCost is the expected price of a group as the first test: its literals, over the
// chance it turns a text away. A literal of n bytes is taken to be in a sentence with
// chance 4^-(n-2)/2 (a two-letter one in half of them): a rough guess, used only for order.
func testCost(g []string) float64 {
	admit := 0.0
	for _, lit := range g {
		admit += 0.5 * math.Pow(0.25, float64(len(strings.TrimSpace(lit))-2))
	}
	return float64(len(g)) / max(1-admit, 0.01)
}

// maxExact bounds the strings a part of a pattern is known to match exactly: past it the
// part counts only through its conditions, and a condition never lists more literals.
const maxExact = 16

// litInfo is what a part of a pattern is known to match: exactly one of exact (nil:
// unknown, or too many), and every condition of req.
type litInfo struct {
	exact []string
	req   prefilter
}

// exactInfo derives a litInfo from a pattern's syntax tree.
func exactInfo(re *syntax.Regexp) litInfo {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return litInfo{}
		}
		return litInfo{exact: []string{string(re.Rune)}}
	case syntax.OpEmptyMatch, syntax.OpBeginText, syntax.OpEndText, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return litInfo{exact: []string{""}}
	case syntax.OpCharClass:
		var exact []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(exact) == 4 {
					return litInfo{} // a class of many characters: nothing known
				}
				exact = append(exact, string(r))
			}
		}
		return litInfo{exact: exact}
	case syntax.OpCapture:
		return exactInfo(re.Sub[0])
	case syntax.OpQuest:
		if sub := exactInfo(re.Sub[0]); sub.exact != nil && len(sub.exact) < maxExact {
			return litInfo{exact: append(slices.Clone(sub.exact), "")}
		}
		return litInfo{}
	case syntax.OpPlus:
		return litInfo{req: exactInfo(re.Sub[0]).required()} // at least one copy
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return litInfo{req: exactInfo(re.Sub[0]).required()}
		}
		return litInfo{}
	case syntax.OpConcat:
		acc := litInfo{exact: []string{""}}
		// Once the whole is past knowing exactly, a run of parts that are each known still
		// is: the text holds one of the run's strings ("for ~", "of ~" in "... (?:for|of)
		// ~{duration}"). run is that run's strings (nil: no run open).
		var run []string
		flush := func() {
			if g := literalsOf(run); g != nil {
				acc.req = append(acc.req, g)
			}
			run = nil
		}
		for _, sub := range re.Sub {
			info := exactInfo(sub)
			known := acc.exact != nil
			acc = acc.then(info)
			switch {
			case acc.exact != nil:
			case info.exact == nil:
				flush()
			case known || run == nil || len(run)*len(info.exact) > maxExact:
				flush()
				run = info.exact
			default:
				var longer []string
				for _, a := range run {
					for _, b := range info.exact {
						longer = append(longer, a+b)
					}
				}
				run = longer
			}
		}
		flush()
		return acc
	case syntax.OpAlternate:
		var exact []string
		var union []string
		allExact := true
		for _, sub := range re.Sub {
			info := exactInfo(sub)
			allExact = allExact && info.exact != nil
			exact = append(exact, info.exact...)
			if union != nil || len(exact) == len(info.exact) { // every branch so far has a condition
				if r := info.required(); len(r) > 0 {
					union = append(union, mostSelective(r)...)
					continue
				}
			}
			union = nil
		}
		if allExact && len(exact) <= maxExact {
			return litInfo{exact: exact}
		}
		if union == nil || len(union) > maxExact {
			return litInfo{}
		}
		return litInfo{req: prefilter{union}} // one branch matches: one of its literals is there
	}
	return litInfo{}
}

// then is the litInfo of a part followed by another.
func (l litInfo) then(next litInfo) litInfo {
	req := append(slices.Clone(l.req), next.req...)
	if l.exact != nil && next.exact != nil && len(l.exact)*len(next.exact) <= maxExact {
		var exact []string
		for _, a := range l.exact {
			for _, b := range next.exact {
				exact = append(exact, a+b)
			}
		}
		return litInfo{exact: exact, req: req}
	}
	for _, e := range [][]string{l.exact, next.exact} {
		if g := literalsOf(e); g != nil {
			req = append(req, g)
		}
	}
	return litInfo{req: req}
}

// required is every condition l gives: its own, and one of its exact strings.
func (l litInfo) required() prefilter {
	out := slices.Clone(l.req)
	if g := literalsOf(l.exact); g != nil {
		out = append(out, g)
	}
	return out
}

// literalsOf turns exact strings into a condition: one of them is in the text. A string that
// holds another of them adds nothing and is left out. nil when one is empty: the part may
// match nothing, and then requires nothing.
func literalsOf(exact []string) []string {
	if len(exact) == 0 || slices.Contains(exact, "") {
		return nil
	}
	var out []string
	for i, s := range exact {
		redundant := false
		for j, t := range exact {
			if j != i && strings.Contains(s, t) && (s != t || j < i) {
				redundant = true // s holds t (or is an earlier t again): t alone decides
				break
			}
		}
		if !redundant {
			out = append(out, s)
		}
	}
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
