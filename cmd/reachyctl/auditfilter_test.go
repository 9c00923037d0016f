package main

import (
	"github.com/reachy-broker/reachy-broker/broker/store"
	"strings"
	"testing"
	"time"
)

// TestAuditTailFilters: `audit tail` picks records by intent (a prefix with * or .), device,
// time (--since 10m, 15:04, RFC 3339) and outcome, keeping the newest N that match; a bad
// filter is a usage error naming what is accepted.
func TestAuditTailFilters(t *testing.T) {
	now := time.Date(2026, 1, 2, 15, 30, 0, 0, time.Local)
	recs := []store.AuditRecord{
		{Time: now.Add(-time.Hour), Device: "reachy", Intent: "time.now", Outcome: "ok"},
		{Time: now.Add(-20 * time.Minute), Device: "laptop", Intent: "house.light.set", Outcome: "denied"},
		{Time: now.Add(-5 * time.Minute), Device: "reachy", Intent: "teleport.call", Outcome: "ok"},
		{Time: now.Add(-4 * time.Minute), Device: "reachy", Intent: "teleport.end", Outcome: "ok"},
		{Time: now.Add(-time.Minute), Device: "laptop", Intent: "house.light.set", Outcome: "ok"},
	}
	intents := func(rs []store.AuditRecord) string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Device+":"+r.Intent+":"+r.Outcome)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		intent, device, since, outcome string
		n                              int
		want                           string
	}{
		{intent: "teleport.*", n: 20, want: "reachy:teleport.call:ok reachy:teleport.end:ok"},
		{intent: "house.light.set", outcome: "denied", n: 20, want: "laptop:house.light.set:denied"},
		{device: "laptop", n: 1, want: "laptop:house.light.set:ok"},
		{since: "10m", n: 20, want: "reachy:teleport.call:ok reachy:teleport.end:ok laptop:house.light.set:ok"},
		{since: "15:00", device: "reachy", n: 20, want: "reachy:teleport.call:ok reachy:teleport.end:ok"},
		{outcome: "ok,denied", device: "reachy", since: now.Add(-90 * time.Minute).UTC().Format(time.RFC3339), n: 20,
			want: "reachy:time.now:ok reachy:teleport.call:ok reachy:teleport.end:ok"},
	} {
		f, err := newAuditFilter(c.intent, c.device, c.since, c.outcome, now)
		if err != nil {
			t.Fatal(err)
		}
		if got := intents(f.keep(recs, c.n)); got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c, got, c.want)
		}
	}
	if _, err := newAuditFilter("", "", "yesterday", "", now); err == nil || !strings.Contains(err.Error(), "15:04") {
		t.Errorf("a bad --since: %v", err)
	}
	if _, err := newAuditFilter("", "", "", "fine", now); err == nil || !strings.Contains(err.Error(), "denied") {
		t.Errorf("a bad --outcome: %v", err)
	}
	if code, _, _ := ctl(t, "audit", "tail", "--outcome", "fine"); code != 2 {
		t.Errorf("a bad filter exits %d, want 2", code)
	}
}
