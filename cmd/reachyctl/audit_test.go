package main

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/reachy-broker/reachy-broker/broker/store"
)

// TestAuditTailFitsATerminal (#29.6): `audit tail` prints one line per record, none wider
// than the terminal (80 columns when it is not one), cutting long arguments with "…"; -v
// prints every field in full.
func TestAuditTailFitsATerminal(t *testing.T) {
	t.Setenv("COLUMNS", "")
	dir := t.TempDir()
	st, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	owner := "grandmother.of.the.family@a-rather-long-domain.example.com"
	for _, r := range []store.AuditRecord{
		{Time: time.Now(), TurnID: "t1", Device: "living-room-robot", Route: "console", Intent: "teleport.expression",
			Args: map[string]string{"owner": owner, "expression": "celebrate"}, Outcome: "failed", Code: "robot_refused", LatencyMS: 12},
		{Time: time.Now(), TurnID: "t2", Device: "robot", Route: "utterance", Intent: "house.light.set",
			Args: map[string]string{"room": "kitchen", "state": "on"}, Outcome: "ok", LatencyMS: 3},
	} {
		if err := st.AppendAudit(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	code, out, errs := ctl(t, "audit", "tail", "--state-dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("want a header and two records:\n%s", out)
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("%d columns: %q", n, l)
		}
	}
	if !strings.Contains(lines[1], "robot_refused") || !strings.Contains(lines[1], "…") || strings.Contains(out, owner) {
		t.Errorf("the long record is not cut to fit:\n%s", out)
	}
	if !strings.Contains(lines[2], "room=kitchen state=on") {
		t.Errorf("the short record lost its arguments:\n%s", out)
	}
	code, out, _ = ctl(t, "audit", "tail", "--state-dir", dir, "-v")
	if code != 0 || !strings.Contains(out, "owner="+owner) || !strings.Contains(out, "console") {
		t.Fatalf("-v: exit %d\n%s", code, out)
	}
}
