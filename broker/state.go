package broker

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver
)

// State is the broker's own database: device tokens, the audit log and idempotency records,
// in one SQLite file in the state directory. WAL mode lets reachyctl create and revoke tokens
// while the broker runs; a committed record survives the process being killed.
type State struct {
	db *sql.DB
}

const schema = `
CREATE TABLE IF NOT EXISTS tokens (
	id      TEXT PRIMARY KEY,
	device  TEXT NOT NULL,
	hash    BLOB NOT NULL,
	scopes  TEXT NOT NULL,
	node    TEXT NOT NULL DEFAULT '',
	created INTEGER NOT NULL,
	revoked INTEGER
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
CREATE TRIGGER IF NOT EXISTS audit_append_only BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TABLE IF NOT EXISTS idempotency (
	device  TEXT NOT NULL,
	key     TEXT NOT NULL,
	turn_id TEXT NOT NULL,
	status  INTEGER NOT NULL,
	body    BLOB NOT NULL,
	created INTEGER NOT NULL,
	PRIMARY KEY (device, key)
);
CREATE INDEX IF NOT EXISTS idempotency_created ON idempotency(created);
`

// OpenState opens (and creates) the state database in dir.
func OpenState(dir string) (*State, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("state dir %s: %w", dir, err)
	}
	path := filepath.Join(dir, "broker.db")
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(ON)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		db.Close()
		return nil, fmt.Errorf("state %s: %w", path, err)
	}
	return &State{db: db}, nil
}

// DB is the database itself, for the broker's sub-packages that keep a table of their own
// (timers). They create their table with CREATE TABLE IF NOT EXISTS when they open.
func (s *State) DB() *sql.DB { return s.db }

// Close closes the database.
func (s *State) Close() error { return s.db.Close() }

// Ping checks the database answers (readiness).
func (s *State) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }
