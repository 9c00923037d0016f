package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateFilesArePrivate: the state directory is 0700 and every state file, the SQLite
// -wal (and a -shm left by an older broker) included, 0600 — also when the directory and files
// existed with looser modes. A fresh state has no -shm at all: the WAL index lives in the
// broker's memory (#25.7).
func TestStateFilesArePrivate(t *testing.T) {
	check := func(t *testing.T, dir string, fresh bool) {
		t.Helper()
		st, err := Init(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if _, _, err := st.CreateToken(context.Background(), "robot", []string{"turn"}, ""); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("state dir mode %v (%v), want 0700", fi.Mode().Perm(), err)
		}
		for _, name := range []string{"broker.db", "broker.db-wal", "broker.db-shm"} {
			fi, err := os.Stat(filepath.Join(dir, name))
			if name == "broker.db-shm" && fresh {
				if err == nil {
					t.Errorf("a fresh state has a -shm file: SQLite maps its WAL index from the disk")
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("%s mode %04o, want 0600", name, fi.Mode().Perm())
			}
		}
	}
	t.Run("fresh", func(t *testing.T) { check(t, filepath.Join(t.TempDir(), "state"), true) })
	t.Run("existing and loose", func(t *testing.T) {
		dir := t.TempDir()
		for _, name := range []string{"broker.db-wal", "broker.db-shm"} {
			os.WriteFile(filepath.Join(dir, name), nil, 0o644)
		}
		os.Chmod(dir, 0o755)
		check(t, dir, false)
	})
}

// TestWritableStateDirIsRefused: a state dir its group or the world may write to is refused,
// and the error says how to fix it.
func TestWritableStateDirIsRefused(t *testing.T) {
	for _, mode := range []os.FileMode{0o777, 0o770, 0o702} {
		dir := t.TempDir()
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		st, err := Init(dir)
		if err == nil {
			st.Close()
			t.Fatalf("mode %04o: accepted", mode)
		}
		if !strings.Contains(err.Error(), "chmod 700 "+dir) {
			t.Fatalf("mode %04o: the error does not say how to fix it: %v", mode, err)
		}
	}
}

// TestOldStateGainsNodeIDs: a database from before node IDs opens, and its tokens still work.
func TestOldStateGainsNodeIDs(t *testing.T) {
	dir := t.TempDir()
	st, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	tok, _, err := st.CreateToken(context.Background(), "robot", []string{"turn"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.db.Exec(`ALTER TABLE tokens DROP COLUMN node_id`); err != nil {
		t.Fatal(err)
	}
	st.Close()
	st, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.VerifyToken(context.Background(), tok); err != nil {
		t.Fatal(err)
	}
}
