package intents

import (
	"math/bits"
	"slices"
	"strings"
)

// patternIndex lists the patterns of one intent list (a home's own, or the built-ins) in
// table order, with which of them each gate (gate.go) may admit: a sentence's first byte and
// its number of spaces pick a bit set of candidates, and match visits only those, in order,
// instead of testing every pattern's gate. It is a necessary condition and nothing more:
// every candidate's gate is still tested, so match answers exactly as the full loop would.
type patternIndex struct {
	refs []patternRef
	// byFirst[b] holds the patterns whose gate admits a text starting with byte b; bySpaces[s]
	// those whose space range holds s (the last bucket: s or more). Patterns matched against
	// the duration view are in dur, and in their own pair of tables (their text is the view).
	byFirst, durByFirst [256][]uint64
	bySpaces            [spaceBuckets][]uint64
	// durUpTo[s] holds the duration patterns whose gate admits some number of spaces up
	// to s (the last bucket: any number).
	durUpTo [spaceBuckets][]uint64
	all     []uint64
}

type patternRef struct {
	in *Intent
	i  int // index in in.patterns
	// onText, for a pattern matched against the duration view: the groups of its prefilter
	// whose literals all lack '_' and '~'. The view is the text with runs of words joined by
	// '_' behind a '~' (and an "x_" after it), so a literal of two bytes or more without
	// those in the view is in the text: a text that fails onText has a view the prefilter
	// turns away, and the view is never worked out for it.
	onText prefilter
	// pairs are up to four byte-pair bits (pairBit) of a literal every match of a pattern
	// matched against the text holds (its prefilter's longest literal alone in a group): a
	// text whose pair set lacks one is turned away before the pattern is read (npairs: how
	// many; 0 for a pattern matched against the duration view, or without such a literal).
	pairs  [4]uint16
	npairs uint8
}

// setPairs picks r's pairs from the prefilter of the pattern it stands for.
func (r *patternRef) setPairs(p *pattern) {
	if p.durations {
		return
	}
	lit := ""
	for _, g := range p.filter {
		if len(g) == 1 && len(g[0]) > len(lit) {
			lit = g[0]
		}
	}
	for i := 0; i+1 < len(lit) && int(r.npairs) < len(r.pairs); i += max(1, (len(lit)-1)/len(r.pairs)) {
		r.pairs[r.npairs] = uint16(pairBit(lit[i], lit[i+1]))
		r.npairs++
	}
}

// holdsPairs reports whether s has every pair bit of r.
func (s *pairSet) holdsPairs(r *patternRef) bool {
	for _, h := range r.pairs[:r.npairs] {
		if s[h>>6]&(1<<(h&63)) == 0 {
			return false
		}
	}
	return true
}

// spaceBuckets: a text of spaceBuckets-1 spaces or more shares the last bucket.
const spaceBuckets = 48

func newPatternIndex(list []*Intent) *patternIndex {
	x := &patternIndex{}
	for _, in := range list {
		for i := range in.patterns {
			r := patternRef{in: in, i: i}
			if p := &in.patterns[i]; p.durations {
				for _, g := range p.filter {
					if !slices.ContainsFunc(g, func(lit string) bool { return len(lit) < 2 || strings.ContainsAny(lit, "_~") }) {
						r.onText = append(r.onText, g)
					}
				}
			}
			r.setPairs(&in.patterns[i])
			x.refs = append(x.refs, r)
		}
	}
	words := (len(x.refs) + 63) / 64
	alloc := func() []uint64 { return make([]uint64, words) }
	for b := range x.byFirst {
		x.byFirst[b], x.durByFirst[b] = alloc(), alloc()
	}
	for s := range x.bySpaces {
		x.bySpaces[s], x.durUpTo[s] = alloc(), alloc()
	}
	x.all = alloc()
	for k, r := range x.refs {
		p := &r.in.patterns[r.i]
		w, bit := k/64, uint64(1)<<(k%64)
		x.all[w] |= bit
		first := &x.byFirst
		if p.durations {
			first = &x.durByFirst
		}
		for b := range 256 {
			if p.gate.first[b>>6]&(1<<(b&63)) != 0 {
				first[b][w] |= bit
			}
		}
		for s := range spaceBuckets {
			switch {
			case p.durations:
				if p.gate.lo <= s || s == spaceBuckets-1 {
					x.durUpTo[s][w] |= bit
				}
			case s >= p.gate.lo && s <= p.gate.hi || s == spaceBuckets-1 && p.gate.hi >= s:
				x.bySpaces[s][w] |= bit
			}
		}
	}
	return x
}

// candidates fills out with the patterns whose gates may admit text, a text of textSpaces
// spaces (an empty one: any pattern). A pattern matched against the duration view is a
// candidate when its gate may admit the view, which is not worked out here: the view starts
// with text's first byte or with the '~' of a joined duration, and holds no more spaces than
// text (joining a run of words only takes spaces out).
func (x *patternIndex) candidates(out []uint64, text string, textSpaces int) []uint64 {
	out = append(out[:0], x.all...)
	if text == "" {
		return out
	}
	s := min(textSpaces, spaceBuckets-1)
	tf, ts := x.byFirst[text[0]], x.bySpaces[s]
	df, dt, ds := x.durByFirst[text[0]], x.durByFirst['~'], x.durUpTo[s]
	for w := range out {
		out[w] &= tf[w]&ts[w] | (df[w]|dt[w])&ds[w]
	}
	return out
}

// next pops the lowest candidate of set (table order), or -1.
func next(set []uint64) int {
	for w, v := range set {
		if v != 0 {
			set[w] = v & (v - 1)
			return w*64 + bits.TrailingZeros64(v)
		}
	}
	return -1
}
