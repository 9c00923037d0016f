package broker

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver
)

// State is the broker's own database: device tokens, the audit log and idempotency records,
// in one SQLite file in the state directory. WAL mode lets reachyctl create and revoke tokens
// while the broker runs; a committed record survives the process being killed.
type State struct {
	db    *sql.DB
	stmts preparedStatements // see prepared.go
}

const schema = `
CREATE TABLE IF NOT EXISTS tokens (
	id      TEXT PRIMARY KEY,
	device  TEXT NOT NULL,
	hash    BLOB NOT NULL,
	scopes  TEXT NOT NULL,
	node    TEXT NOT NULL DEFAULT '',
	node_id TEXT NOT NULL DEFAULT '',
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

// stateFiles are the database and the files SQLite keeps beside it in WAL mode.
var stateFiles = []string{"broker.db", "broker.db-wal", "broker.db-shm"}

// OpenState opens (and creates) the state database in dir. The directory is made 0700 and
// every state file 0600 (SQLite gives its -wal and -shm files the database file's mode, so
// the database is created 0600 before SQLite opens it). A directory that others may write to
// is refused: someone else could have replaced the files in it.
func OpenState(dir string) (*State, error) {
	if err := secureStateDir(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "broker.db")
	if err := secureStateFiles(dir); err != nil {
		return nil, err
	}
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
	if err := migrateTokens(context.Background(), db); err != nil {
		db.Close()
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	if err := secureStateFiles(dir); err != nil {
		db.Close()
		return nil, err
	}
	return &State{db: db}, nil
}

// DB is the database itself, for the broker's sub-packages that keep a table of their own
// (timers). They create their table with CREATE TABLE IF NOT EXISTS when they open.
func (s *State) DB() *sql.DB { return s.db }

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

// secureStateFiles creates the database file 0600 if missing and makes every existing
// state file 0600.
func secureStateFiles(dir string) error {
	for i, name := range stateFiles {
		p := filepath.Join(dir, name)
		if i == 0 {
			f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
			if err != nil {
				return fmt.Errorf("state %s: %w", p, err)
			}
			f.Close()
		}
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("state %s: %w", p, err)
		}
	}
	return nil
}

// Close closes the database.
func (s *State) Close() error { return s.db.Close() }

// Ping checks the database answers (readiness).
func (s *State) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }
