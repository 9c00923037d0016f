package intents

import (
	"os"
	"strings"
	"testing"
)

func BenchmarkZZSlowSet(b *testing.B) {
	raw, err := os.ReadFile("/tmp/perf/slowset.txt")
	if err != nil {
		b.Skip()
	}
	tb := demo(b)
	ss := strings.Split(strings.TrimSpace(string(raw)), "\n")
	for b.Loop() {
		for _, s := range ss {
			tb.Route(s, Context{})
		}
	}
}
