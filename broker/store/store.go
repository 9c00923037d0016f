package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver
)

// Store is the broker's own database: device tokens, the audit log and idempotency records,
// in one SQLite file in the state directory, held by one connection with the file's
// exclusive lock for as long as the Store is open (stateDSN says why). Nothing else opens
// the file meanwhile: reachyctl's token, audit and backup commands reach a running broker
// through its control socket (control.go). A committed record survives the process being
// killed. Records that must survive a power cut too — an actuation's audit intent and
// pending key (recorded before it happens), its outcome, token changes — commit with
// synchronous=FULL (durableTx: the WAL is synced at commit, which also makes every earlier
// commit durable); everything else (a read's audit row, settled keys of turns that did not
// act, heartbeats) commits with synchronous=NORMAL (synced at checkpoints), which keeps a
// read turn free of an fsync.
//
// Tokens are kept in memory as well (this Store is their only writer), so a request is
// authenticated without waiting for the disk.
//
// Every access runs under the caller's context and returns when it ends, even if the disk
// underneath has stalled: a turn's deadline holds against the state store.
type Store struct {
	db      *sql.DB            // one connection, holding the file's exclusive lock (stateDSN)
	stmts   preparedStatements // see prepared.go
	audits  auditWriter        // group commits of audit records (auditwriter.go)
	jobs    chan stateJob      // to an idle access worker (see run)
	closed  chan struct{}      // closed by Close: idle workers exit
	closing sync.Once
	path    string

	// fault, when set (tests only), is called before each access and may fail or stall it.
	fault atomic.Pointer[func(ctx context.Context, op string) error]
	// maxKeys overrides maxKeysPerDevice (tests only; 0: the default).
	maxKeys atomic.Int64

	tokens    tokenCache // every token, as stored (tokens.go)
	keys      keyLocks   // the Idempotency-Keys being answered in this process (keys.go)
	clock     trustClock // the wall clock, checked against the store's own (clock.go)
	clockSave sync.Mutex // one save of the clock's state at a time
	log       *slog.Logger

	healthMu  sync.Mutex
	lastErr   error // the last failed write, until a write succeeds
	lastErrAt time.Time
}

// ErrNoState is returned when the state database is missing or empty and the caller did not
// ask to initialise one.
var ErrNoState = errors.New("the state database is missing or empty")

// ErrCorrupt is returned when the state database fails its integrity check.
var ErrCorrupt = errors.New("the state database failed its integrity check")

// Open opens the existing state database in dir. It refuses a missing or empty
// database (ErrNoState: a state disk that did not mount must not silently become a fresh
// broker with no tokens and no audit history) and one that fails PRAGMA quick_check
// (ErrCorrupt). Init creates one.
//
// The directory is made 0700 and every state file 0600 (SQLite gives its -wal and -shm
// files the database file's mode, so the database is created 0600 before SQLite opens it).
// A directory that others may write to is refused: someone else could have replaced the
// files in it.
func Open(dir string) (*Store, error) {
	return OpenWith(dir, Options{})
}

// OpenQuick is Open for a command that retries: it gives up after 250 ms, not 5 s,
// when another process (a starting broker) holds the database's lock.
func OpenQuick(dir string) (*Store, error) {
	return OpenWith(dir, Options{Busy: 250 * time.Millisecond})
}

// Init opens the state database in dir, creating it (and the directory) when missing.
// It is what `reachy-broker --init`, `reachyctl state init` and dev mode use.
func Init(dir string) (*Store, error) {
	return OpenWith(dir, Options{Create: true})
}

// Options are how a Store is opened; the zero value is Open's.
type Options struct {
	// Create makes the database (and the directory) when missing, as Init does.
	Create bool
	// Busy is how long to wait for another process's lock (0: 5 s).
	Busy time.Duration
	// Now is the wall clock (nil: time.Now). The store checks it against its own checkpoint
	// and the monotonic clock before it trusts it to delete anything (clock.go).
	Now func() time.Time
	// Log is told of a clock jump and of a checkpoint that could not be saved (nil:
	// slog.Default()).
	Log *slog.Logger
}

// OpenWith opens the state database in dir as o says (Open, OpenQuick and Init are its
// usual forms).
func OpenWith(dir string, o Options) (*Store, error) {
	create, busy := o.Create, o.Busy
	if busy <= 0 {
		busy = 5 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	path := filepath.Join(dir, "broker.db")
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.Size() > 0, create:
	case err == nil || errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("%s: %w; if this is a new installation run `reachy-broker --init` or `reachyctl state init --state-dir %s`, otherwise check that the state disk is mounted", path, ErrNoState, dir)
	default:
		return nil, fmt.Errorf("state %s: %w", path, err)
	}
	if err := secureStateDir(dir); err != nil {
		return nil, err
	}
	// The only time this process opens the database file itself: before SQLite has it. Once
	// the pool is open, closing any descriptor of the file would drop SQLite's locks (POSIX).
	if err := createStateFile(path); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", stateDSN(path, busy))
	if err != nil {
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	// One connection, holding the file's exclusive lock for the Store's lifetime (see
	// stateDSN): every access of this process goes through it, one at a time.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	s := &Store{db: db, path: path, jobs: make(chan stateJob), closed: make(chan struct{}), log: o.Log}
	opened := time.Now()
	s.clock = trustClock{wall: o.Now, mono: func() time.Duration { return time.Since(opened) }, log: o.Log}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.lock(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.check(ctx); err != nil {
		db.Close()
		return nil, err
	}
	var tables int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'tokens'`).Scan(&tables); err != nil || (tables == 0 && !create) {
		db.Close()
		return nil, fmt.Errorf("%s has no broker tables: %w; run `reachy-broker --init` to create them", path, ErrNoState)
	}
	// A fresh database gives freed pages back to the filesystem (incremental vacuum); the
	// setting only takes effect before the first table exists, so set it first.
	if _, err := db.ExecContext(ctx, `PRAGMA auto_vacuum = INCREMENTAL`); err != nil {
		db.Close()
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	var autoVacuum int
	if err := db.QueryRowContext(ctx, `PRAGMA auto_vacuum`).Scan(&autoVacuum); err == nil && autoVacuum != 2 {
		// A database made before incremental vacuum: rebuild it once so the setting holds.
		if _, err := db.ExecContext(ctx, `VACUUM`); err != nil {
			db.Close()
			return nil, fmt.Errorf("open state %s: enabling incremental vacuum: %w", path, err)
		}
	}
	if err := migrateIdempotency(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	if err := migrateTokens(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	if err := s.loadTokens(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	if err := s.clock.start(ctx, db, tables == 0); err != nil {
		db.Close()
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	// SQLite may have made a -wal file: give it the database's mode by name only (chmod,
	// never open and close: that would drop the lock taken above).
	if err := chmodStateFiles(dir); err != nil {
		db.Close()
		return nil, err
	}
	go s.keepCheckpoints()
	return s, nil
}

// stateDSN is how the database is opened. locking_mode=EXCLUSIVE, set before the first
// access in WAL mode (modernc applies _pragma values, sorted, before _journal_mode), makes
// SQLite keep the WAL index in this process's heap instead of a memory-mapped -shm file and
// hold the file's exclusive lock for the connection's lifetime:
//   - nobody else — an operator's sqlite3, a backup script, a second broker — can read,
//     checkpoint or delete the WAL behind the broker's back: they get "database is locked"
//     (reachyctl goes through the broker's control socket instead, and `reachyctl state
//     backup` takes a consistent copy with SQLite's backup API);
//   - a stalled or frozen state disk blocks the broker's goroutines in system calls, which
//     Go's scheduler and collector work around, never in a page fault on a mapped page, which
//     would stop the whole process at the next stop-the-world. mmap_size(0) keeps the
//     database file itself unmapped too.
//
// synchronous is NORMAL (the WAL is synced at checkpoints); commits that must survive a power
// cut raise it to FULL for their transaction (durableTx).
func stateDSN(path string, busy time.Duration) string {
	return "file:" + path + "?_pragma=busy_timeout(" + strconv.FormatInt(busy.Milliseconds(), 10) + ")&_pragma=foreign_keys(ON)&_pragma=locking_mode(EXCLUSIVE)" +
		"&_pragma=mmap_size(0)&_pragma=synchronous(NORMAL)&_pragma=temp_store(MEMORY)&_journal_mode=WAL"
}

// ErrLocked is returned when another process holds the state database: a broker that
// is running (use reachyctl, which goes through its control socket), or an open sqlite3.
var ErrLocked = errors.New("another process holds the state database")

// lock takes the database's exclusive lock now, with a write, rather than at the first turn.
func (s *Store) lock(ctx context.Context) error {
	var mode string
	if err := s.db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		return s.lockErr(err)
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("open state %s: journal mode is %q, not wal", s.path, mode)
	}
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
		INSERT INTO meta (name, value) VALUES ('opened', '') ON CONFLICT(name) DO UPDATE SET value = excluded.value`); err != nil {
		return s.lockErr(err)
	}
	return nil
}

func (s *Store) lockErr(err error) error {
	if strings.Contains(err.Error(), "locked") || strings.Contains(err.Error(), "SQLITE_BUSY") {
		return fmt.Errorf("%s: %w (a broker using this state dir, or an open sqlite3 session): %v", s.path, ErrLocked, err)
	}
	return fmt.Errorf("open state %s: %w", s.path, err)
}

// durableTx runs fn in a transaction whose commit is synced to disk before it returns
// (synchronous=FULL for this transaction): what must survive a power cut.
func (s *Store) durableTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA synchronous = FULL`); err != nil {
		return err
	}
	// Back to NORMAL for the commits that need no fsync; this touches no file.
	defer conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA synchronous = NORMAL`)
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// check runs PRAGMA quick_check: a database with a garbled page is refused at start instead
// of answering 500 to everything while /healthz says ok.
func (s *Store) check(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `PRAGMA quick_check`)
	if err != nil {
		return fmt.Errorf("%s: %w (%v); restore it from a backup, or move it aside and run `reachy-broker --init`", s.path, ErrCorrupt, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("%s: %w (%v)", s.path, ErrCorrupt, err)
		}
		if line != "ok" && len(problems) < 3 {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w (%v); restore it from a backup, or move it aside and run `reachy-broker --init`", s.path, ErrCorrupt, err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s: %w: %s; restore it from a backup, or move it aside and run `reachy-broker --init`", s.path, ErrCorrupt, strings.Join(problems, "; "))
	}
	return nil
}

func (s *Store) keyCap() int {
	if n := s.maxKeys.Load(); n > 0 {
		return int(n)
	}
	return maxKeysPerDevice
}

// SetFault makes every access call f first, which may fail or stall it (tests only; nil:
// none). op names the access ("audit", "verify token", "idempotency lookup", ...).
func (s *Store) SetFault(f func(ctx context.Context, op string) error) {
	if f == nil {
		s.fault.Store(nil)
		return
	}
	s.fault.Store(&f)
}

// SetKeyCap overrides how many idempotency keys one device may hold (tests only; 0: the
// default, maxKeysPerDevice).
func (s *Store) SetKeyCap(n int) { s.maxKeys.Store(int64(n)) }

// Dir is the state directory the store's file is in.
func (s *Store) Dir() string { return filepath.Dir(s.path) }

// DB is the database itself, for the broker's sub-packages that keep a table of their own
// (timers). They create their table with CREATE TABLE IF NOT EXISTS when they open.
func (s *Store) DB() *sql.DB { return s.db }

// Close commits the audit records still queued, then closes the database.
func (s *Store) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), auditCommitTime)
	defer cancel()
	s.closeAudit(ctx) // commit the queued audit records first
	s.closing.Do(func() {
		if _, err := s.checkClock(ctx); err != nil {
			s.log.Warn("the store's clock checkpoint was not saved at close", "err", err)
		}
		if err := s.saveTokenUse(ctx); err != nil {
			s.log.Warn("the tokens' last use was not saved at close", "err", err)
		}
		close(s.closed)
	})
	return s.db.Close()
}

// Ping checks the database answers (readiness).
func (s *Store) Ping(ctx context.Context) error {
	return s.run(ctx, "ping", func(ctx context.Context) error { return s.db.PingContext(ctx) })
}
