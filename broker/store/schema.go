package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

const schema = `
CREATE TABLE IF NOT EXISTS tokens (
	id      TEXT PRIMARY KEY,
	device  TEXT NOT NULL,
	hash    BLOB NOT NULL,
	scopes  TEXT NOT NULL,
	node    TEXT NOT NULL DEFAULT '',
	node_id TEXT NOT NULL DEFAULT '',
	created INTEGER NOT NULL,
	revoked INTEGER,
	last_used INTEGER
);
CREATE INDEX IF NOT EXISTS tokens_device ON tokens(device);
CREATE TABLE IF NOT EXISTS audit (
	seq        INTEGER PRIMARY KEY AUTOINCREMENT,
	time       INTEGER NOT NULL,
	turn_id    TEXT NOT NULL,
	device     TEXT NOT NULL,
	node       TEXT NOT NULL,
	route      TEXT NOT NULL,
	intent     TEXT NOT NULL,
	args       TEXT NOT NULL,
	outcome    TEXT NOT NULL,
	code       TEXT NOT NULL,
	latency_ms INTEGER NOT NULL,
	redactions TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_time ON audit(time);
CREATE INDEX IF NOT EXISTS audit_turn ON audit(turn_id);
DROP TRIGGER IF EXISTS audit_append_only;
CREATE TRIGGER IF NOT EXISTS audit_settle_only BEFORE UPDATE ON audit
WHEN OLD.outcome <> 'pending' OR NEW.seq IS NOT OLD.seq OR NEW.time IS NOT OLD.time OR NEW.turn_id IS NOT OLD.turn_id
	OR NEW.device IS NOT OLD.device OR NEW.node IS NOT OLD.node OR NEW.route IS NOT OLD.route
	OR NEW.intent IS NOT OLD.intent OR NEW.args IS NOT OLD.args
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: only a pending record takes its outcome, once'); END;
CREATE TABLE IF NOT EXISTS idempotency (
	device    TEXT NOT NULL,
	key       TEXT NOT NULL,
	route     TEXT NOT NULL,
	body_hash BLOB NOT NULL,
	turn_id   TEXT NOT NULL,
	pending   INTEGER NOT NULL,
	intent    TEXT NOT NULL,
	kind      TEXT NOT NULL,
	scope     TEXT NOT NULL,
	args      TEXT NOT NULL,
	outcome   TEXT NOT NULL,
	code      TEXT NOT NULL,
	status    INTEGER NOT NULL,
	reply     TEXT NOT NULL,
	expression TEXT NOT NULL,
	created   INTEGER NOT NULL,
	PRIMARY KEY (device, key)
);
CREATE INDEX IF NOT EXISTS idempotency_created ON idempotency(created);
CREATE TABLE IF NOT EXISTS meta (
	name  TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS privacy (
	device TEXT PRIMARY KEY,
	since  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS missed_calls (
	id     INTEGER PRIMARY KEY AUTOINCREMENT,
	owner  TEXT NOT NULL,
	device TEXT NOT NULL,
	room   TEXT NOT NULL,
	wanted TEXT NOT NULL,
	at     INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS missed_calls_owner ON missed_calls(owner);
`

// stateFiles are the database and the files SQLite keeps beside it in WAL mode.
var stateFiles = []string{"broker.db", "broker.db-wal", "broker.db-shm"}

// migrateIdempotency replaces an idempotency table of the old shape (which stored whole
// replies, audio included) with the new one. Its records are at most 24 h of replays.
func migrateIdempotency(ctx context.Context, db *sql.DB) error {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('idempotency') WHERE name = 'body_hash'`).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	if _, err := db.ExecContext(ctx, `DROP TABLE idempotency`); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, schema)
	return err
}

// secureStateDir creates dir 0700, or makes an existing one 0700, refusing one that its
// group or the world may write to.
func secureStateDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("state dir %s: %w", dir, err)
		}
		return os.Chmod(dir, 0o700) // MkdirAll's mode is filtered by the umask
	case err != nil:
		return fmt.Errorf("state dir %s: %w", dir, err)
	case !fi.IsDir():
		return fmt.Errorf("state dir %s is not a directory", dir)
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("state dir %s is writable by its group or by everyone (mode %04o), so its tokens and audit log "+
			"could have been replaced; refusing to start. Check its contents, then run: chmod 700 %s", dir, fi.Mode().Perm(), dir)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("state dir %s: %w", dir, err)
	}
	return nil
}

// createStateFile creates the database file 0600 when it is missing, before SQLite opens it
// (SQLite gives its -wal file the database's mode). An existing file is never opened here:
// if any Store of this process has it open, closing a descriptor of it would drop that
// Store's locks (POSIX); it is only chmod-ed.
func createStateFile(path string) error {
	if _, err := os.Lstat(path); err == nil {
		return os.Chmod(path, 0o600)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("state %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("state %s: %w", path, err)
	}
	return os.Chmod(path, 0o600)
}

// chmodStateFiles makes every existing state file 0600, by name: it opens none of them.
func chmodStateFiles(dir string) error {
	for _, name := range stateFiles {
		p := filepath.Join(dir, name)
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("state %s: %w", p, err)
		}
	}
	return nil
}
