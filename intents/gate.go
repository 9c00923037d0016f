package intents

import (
	"regexp/syntax"
	"strings"
)

// wordGate is a cheap necessary condition on the whole text an anchored pattern matches,
// derived from its syntax tree when it is compiled: how many spaces the text holds (lo..hi:
// a long question never runs "stop(?: it)?") and which byte it starts with. match tests it
// before the prefilter's substring searches.
type wordGate struct {
	lo, hi int
	first  [4]uint64
}

// gateInf stands for "any number of spaces" ([a-z ]+, .*).
const gateInf = 1 << 20

func (g *wordGate) admits(text string, spaces int) bool {
	if spaces < g.lo || spaces > g.hi {
		return false
	}
	if text == "" {
		return true
	}
	c := text[0]
	return g.first[c>>6]&(1<<(c&63)) != 0
}

// deriveGate derives the gate of an anchored expression; one it cannot parse admits all.
func deriveGate(expr string) wordGate {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return wordGate{lo: 0, hi: gateInf, first: allBytes()}
	}
	lo, hi := spaceRange(re)
	set, _ := firstBytes(re)
	return wordGate{lo: lo, hi: hi, first: set}
}

func allBytes() [4]uint64 { return [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)} }

func addByte(s *[4]uint64, c byte) { s[c>>6] |= 1 << (c & 63) }

// spaceRange is the fewest and most spaces a match of re holds.
func spaceRange(re *syntax.Regexp) (int, int) {
	capAdd := func(a, b int) int { return min(a+b, gateInf) }
	switch re.Op {
	case syntax.OpLiteral:
		n := strings.Count(string(re.Rune), " ")
		return n, n
	case syntax.OpCharClass:
		has, only := false, true
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= ' ' && ' ' <= re.Rune[i+1] {
				has = true
			}
			if re.Rune[i] != ' ' || re.Rune[i+1] != ' ' {
				only = false
			}
		}
		switch {
		case has && only:
			return 1, 1
		case has:
			return 0, 1
		}
		return 0, 0
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 0, 1
	case syntax.OpEmptyMatch, syntax.OpBeginText, syntax.OpEndText, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0, 0
	case syntax.OpCapture:
		return spaceRange(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := spaceRange(re.Sub[0])
		mn, mx := 0, -1
		switch re.Op {
		case syntax.OpPlus:
			mn = 1
		case syntax.OpQuest:
			mx = 1
		case syntax.OpRepeat:
			mn, mx = re.Min, re.Max
		}
		rlo := min(mn*lo, gateInf)
		rhi := 0
		switch {
		case hi == 0:
			rhi = 0
		case mx < 0:
			rhi = gateInf
		default:
			rhi = min(mx*hi, gateInf)
		}
		return rlo, rhi
	case syntax.OpConcat:
		lo, hi := 0, 0
		for _, s := range re.Sub {
			a, b := spaceRange(s)
			lo, hi = capAdd(lo, a), capAdd(hi, b)
		}
		return lo, hi
	case syntax.OpAlternate:
		lo, hi := gateInf, 0
		for _, s := range re.Sub {
			a, b := spaceRange(s)
			lo, hi = min(lo, a), max(hi, b)
		}
		return lo, hi
	}
	return 0, gateInf
}

// firstBytes is the set of bytes a match of re can start with, and whether it can be empty
// (then what follows it may start the match).
func firstBytes(re *syntax.Regexp) (set [4]uint64, nullable bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return set, true
		}
		r := re.Rune[0]
		if r >= 0x80 || re.Flags&syntax.FoldCase != 0 {
			return allBytes(), false
		}
		addByte(&set, byte(r))
		return set, false
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1] >= 0x80 {
				return allBytes(), false
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				addByte(&set, byte(r))
			}
		}
		return set, false
	case syntax.OpEmptyMatch, syntax.OpBeginText, syntax.OpEndText, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return set, true
	case syntax.OpCapture:
		return firstBytes(re.Sub[0])
	case syntax.OpStar, syntax.OpQuest:
		s, _ := firstBytes(re.Sub[0])
		return s, true
	case syntax.OpPlus:
		return firstBytes(re.Sub[0])
	case syntax.OpRepeat:
		s, n := firstBytes(re.Sub[0])
		return s, n || re.Min == 0
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			s, n := firstBytes(sub)
			for i := range set {
				set[i] |= s[i]
			}
			if !n {
				return set, false
			}
		}
		return set, true
	case syntax.OpAlternate:
		null := false
		for _, sub := range re.Sub {
			s, n := firstBytes(sub)
			for i := range set {
				set[i] |= s[i]
			}
			null = null || n
		}
		return set, null
	}
	return allBytes(), true
}
