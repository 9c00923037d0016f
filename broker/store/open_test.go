package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestStateRefusesMissingEmptyOrCorruptDatabase (#11.6).
func TestStateRefusesMissingEmptyOrCorruptDatabase(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(dir); !errors.Is(err, ErrNoState) || !strings.Contains(err.Error(), "--init") {
		t.Fatalf("missing: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "broker.db"), nil, 0o600)
	if _, err := Open(dir); !errors.Is(err, ErrNoState) {
		t.Fatalf("empty: %v", err)
	}
	st, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		st.AppendAudit(context.Background(), AuditRecord{Time: time.Now(), TurnID: strconv.Itoa(i), Device: "robot", Route: "utterance", Intent: "time.now", Outcome: OutcomeOK})
	}
	st.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	st.Close()
	if st, err := Open(dir); err != nil {
		t.Fatalf("a good database refused: %v", err)
	} else {
		st.Close()
	}
	// One garbled page in the middle of the audit table.
	path := filepath.Join(dir, "broker.db")
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	garbage := []byte(strings.Repeat("\xde\xad\xbe\xef", 1024))
	f.WriteAt(garbage, fi.Size()-2*4096)
	f.Close()
	if _, err := Open(dir); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a garbled page was not refused: %v", err)
	}
}
