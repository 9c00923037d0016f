package store

import (
	"testing"
	"time"
)

func TestTheRetentionClockFollowsMeasuredTime(t *testing.T) {
	base := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	c := retentionClock{base: base, start: time.Now().Add(-10 * time.Minute)}
	got := c.now(base.Add(72 * time.Hour))
	if d := got.Sub(base); d < 10*time.Minute || d > 11*time.Minute {
		t.Fatalf("a wall clock 3 days ahead moved the trusted time by %s, want the 10 minutes measured", d)
	}
	if back := base.Add(-time.Hour); !c.now(back).Equal(back) {
		t.Fatalf("a clock set back: trusted %s, want the wall clock %s", c.now(back), back)
	}
}
