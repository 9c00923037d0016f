package intents

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"testing"
	"time"
)

func benchCases(t testing.TB) []Case {
	var cases []Case
	for _, f := range []string{"corpus.txt", "ha-intents-en.tsv", "slurp-devel-en.tsv", "paraphrases.txt"} {
		cases = append(cases, loadCases(t, "testdata/"+f)...)
	}
	return cases
}

func TestZZSlow(t *testing.T) {
	if os.Getenv("SLOW") == "" {
		t.Skip()
	}
	tb := demo(t)
	cases := benchCases(t)
	per := make([][]time.Duration, len(cases))
	for it := 0; it < 40; it++ {
		for i, c := range cases {
			s := time.Now()
			tb.Route(c.Sentence, Context{})
			per[i] = append(per[i], time.Since(s))
		}
	}
	type r struct {
		d time.Duration
		s string
		in string
	}
	var rs []r
	for i, d := range per {
		slices.Sort(d)
		dd := tb.Route(cases[i].Sentence, Context{})
		rs = append(rs, r{d[len(d)/2], cases[i].Sentence, dd.Intent})
	}
	sort.Slice(rs, func(a, b int) bool { return rs[a].d > rs[b].d })
	fmt.Println("n", len(rs), "p99 idx", len(rs)/100)
	for _, x := range rs[:150] {
		fmt.Printf("%6.1f\t%s\t%s\n", float64(x.d.Nanoseconds())/1000, x.in, x.s)
	}
}
