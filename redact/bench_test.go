package redact

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkRedact runs every corpus text per iteration and reports, per text, the median of
// its timings, then the median and p99 across the corpus (target: p99 < 50 µs per reply).
func BenchmarkRedact(b *testing.B) {
	r := corpusRedactor(b)
	texts := corpusTexts(b)
	per := make([][]time.Duration, len(texts))
	for b.Loop() {
		for i, s := range texts {
			start := time.Now()
			r.Redact(s)
			per[i] = append(per[i], time.Since(start))
		}
	}
	med := make([]time.Duration, len(texts))
	for i, d := range per {
		slices.Sort(d)
		med[i] = d[len(d)/2]
	}
	slices.Sort(med)
	b.ReportMetric(float64(med[len(med)/2].Nanoseconds())/1000, "µs-median/reply")
	b.ReportMetric(float64(med[len(med)*99/100].Nanoseconds())/1000, "µs-p99/reply")
	b.ReportMetric(0, "ns/op")
}
