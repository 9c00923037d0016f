package store

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTheStateLockIsHeldForTheStatesLifetime (#25.1): from the moment the State is open, and
// after everything the broker does to its files (start-up, writes, a purge with its vacuum
// and checkpoint, a backup), no other connection can open the database — in this process
// or in a sqlite3 shell — until the State is closed; then it can.
func TestTheStateLockIsHeldForTheStatesLifetime(t *testing.T) {
	dir := t.TempDir()
	st, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	locked := func(when string) {
		t.Helper()
		if other, err := OpenQuick(dir); !errors.Is(err, ErrLocked) {
			if other != nil {
				other.Close()
			}
			t.Fatalf("%s: a second open was not refused as locked: %v", when, err)
		}
		if bin, err := exec.LookPath("sqlite3"); err == nil {
			out, err := exec.Command(bin, filepath.Join(dir, "broker.db"), "select count(*) from tokens").CombinedOutput()
			if err == nil || !strings.Contains(string(out), "locked") {
				t.Fatalf("%s: sqlite3 read the database: %s %v", when, out, err)
			}
		}
	}
	locked("after start-up")
	ctx := context.Background()
	if _, _, err := st.CreateToken(ctx, "robot", []string{"text"}, ""); err != nil {
		t.Fatal(err)
	}
	st.AppendAudit(ctx, AuditRecord{Time: time.Now(), TurnID: "t1", Device: "robot", Route: "utterance", Intent: "time.now", Outcome: OutcomeOK})
	if _, err := st.TrustClock(ctx); err != nil { // so that the purge runs, and vacuums
		t.Fatal(err)
	}
	if _, err := st.Purge(ctx, 90*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := st.Backup(ctx, filepath.Join(t.TempDir(), "copy.db")); err != nil {
		t.Fatal(err)
	}
	if err := st.Health(ctx); err != nil {
		t.Fatal(err)
	}
	locked("after writes, a purge, a backup and a health check")
	st.Close()
	again, err := Open(dir)
	if err != nil {
		t.Fatalf("after Close the database opens again: %v", err)
	}
	again.Close()
}
