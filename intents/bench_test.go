package intents

import (
	"os"
	"slices"
	"testing"
	"time"
)

// BenchmarkRoute routes every corpus sentence per iteration. It reports, per sentence, the
// median of its timings over the iterations (robust to a noisy shared machine), and then the
// median and p99 of those across the corpus: the p99 transcript (target: < 20 µs).
func BenchmarkRoute(b *testing.B) {
	tb := demo(b)
	f, err := os.Open("testdata/corpus.txt")
	if err != nil {
		b.Fatal(err)
	}
	cases, err := ParseCases(f, "corpus.txt")
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	per := make([][]time.Duration, len(cases))
	for b.Loop() {
		for i, c := range cases {
			start := time.Now()
			tb.Route(c.Sentence, Context{})
			per[i] = append(per[i], time.Since(start))
		}
	}
	medians := make([]time.Duration, len(cases))
	for i, d := range per {
		slices.Sort(d)
		medians[i] = d[len(d)/2]
	}
	slices.Sort(medians)
	b.ReportMetric(float64(medians[len(medians)/2].Nanoseconds())/1000, "µs-median/sentence")
	b.ReportMetric(float64(medians[len(medians)*99/100].Nanoseconds())/1000, "µs-p99/sentence")
	b.ReportMetric(0, "ns/op")
}
