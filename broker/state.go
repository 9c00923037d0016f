package broker

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite" // the pure-Go SQLite driver (and its backup API)
)

// State is the broker's own database: device tokens, the audit log and idempotency records,
// in one SQLite file in the state directory, held by one connection with the file's
// exclusive lock for as long as the State is open (stateDSN says why). Nothing else opens
// the file meanwhile: reachyctl's token, audit and backup commands reach a running broker
// through its control socket (control.go). A committed record survives the process being
// killed. Records that must survive a power cut too — an actuation's audit intent and
// pending key (recorded before it happens), its outcome, token changes — commit with
// synchronous=FULL (durableTx: the WAL is synced at commit, which also makes every earlier
// commit durable); everything else (a read's audit row, settled keys of turns that did not
// act, heartbeats) commits with synchronous=NORMAL (synced at checkpoints), which keeps a
// read turn free of an fsync.
//
// Tokens are kept in memory as well (this State is their only writer), so a request is
// authenticated without waiting for the disk.
//
// Every access runs under the caller's context and returns when it ends, even if the disk
// underneath has stalled: a turn's deadline holds against the state store.
type State struct {
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
	maxKeys int

	tokens tokenCache     // every token, as stored (tokens.go)
	clock  retentionClock // the time retention and expiry trust (clock.go)

	healthMu  sync.Mutex
	lastErr   error // the last failed write, until a write succeeds
	lastErrAt time.Time
}

// ErrNoState is returned when the state database is missing or empty and the caller did not
// ask to initialise one.
var ErrNoState = errors.New("the state database is missing or empty")

// ErrCorruptState is returned when the state database fails its integrity check.
var ErrCorruptState = errors.New("the state database failed its integrity check")

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

// OpenState opens the existing state database in dir. It refuses a missing or empty
// database (ErrNoState: a state disk that did not mount must not silently become a fresh
// broker with no tokens and no audit history) and one that fails PRAGMA quick_check
// (ErrCorruptState). InitState creates one.
//
// The directory is made 0700 and every state file 0600 (SQLite gives its -wal and -shm
// files the database file's mode, so the database is created 0600 before SQLite opens it).
// A directory that others may write to is refused: someone else could have replaced the
// files in it.
func OpenState(dir string) (*State, error) {
	return openState(dir, false, 5*time.Second)
}

// OpenStateQuick is OpenState for a command that retries: it gives up after 250 ms, not 5 s,
// when another process (a starting broker) holds the database's lock.
func OpenStateQuick(dir string) (*State, error) {
	return openState(dir, false, 250*time.Millisecond)
}

// InitState opens the state database in dir, creating it (and the directory) when missing.
// It is what `reachy-broker --init`, `reachyctl state init` and dev mode use.
func InitState(dir string) (*State, error) {
	return openState(dir, true, 5*time.Second)
}

// openState opens the database; busy is how long to wait for another process's lock.
func openState(dir string, create bool, busy time.Duration) (*State, error) {
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
	// One connection, holding the file's exclusive lock for the State's lifetime (see
	// stateDSN): every access of this process goes through it, one at a time.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	s := &State{db: db, path: path, jobs: make(chan stateJob), closed: make(chan struct{})}
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
	if !create {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'tokens'`).Scan(&n); err != nil || n == 0 {
			db.Close()
			return nil, fmt.Errorf("%s has no broker tables: %w; run `reachy-broker --init` to create them", path, ErrNoState)
		}
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
	if err := s.startClock(ctx, time.Now()); err != nil {
		db.Close()
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	// SQLite may have made a -wal file: give it the database's mode by name only (chmod,
	// never open and close: that would drop the lock taken above).
	if err := chmodStateFiles(dir); err != nil {
		db.Close()
		return nil, err
	}
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

// ErrStateLocked is returned when another process holds the state database: a broker that
// is running (use reachyctl, which goes through its control socket), or an open sqlite3.
var ErrStateLocked = errors.New("another process holds the state database")

// lock takes the database's exclusive lock now, with a write, rather than at the first turn.
func (s *State) lock(ctx context.Context) error {
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

func (s *State) lockErr(err error) error {
	if strings.Contains(err.Error(), "locked") || strings.Contains(err.Error(), "SQLITE_BUSY") {
		return fmt.Errorf("%s: %w (a broker using this state dir, or an open sqlite3 session): %v", s.path, ErrStateLocked, err)
	}
	return fmt.Errorf("open state %s: %w", s.path, err)
}

// durableTx runs fn in a transaction whose commit is synced to disk before it returns
// (synchronous=FULL for this transaction): what must survive a power cut.
func (s *State) durableTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
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
func (s *State) check(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `PRAGMA quick_check`)
	if err != nil {
		return fmt.Errorf("%s: %w (%v); restore it from a backup, or move it aside and run `reachy-broker --init`", s.path, ErrCorruptState, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("%s: %w (%v)", s.path, ErrCorruptState, err)
		}
		if line != "ok" && len(problems) < 3 {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w (%v); restore it from a backup, or move it aside and run `reachy-broker --init`", s.path, ErrCorruptState, err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s: %w: %s; restore it from a backup, or move it aside and run `reachy-broker --init`", s.path, ErrCorruptState, strings.Join(problems, "; "))
	}
	return nil
}

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

func (s *State) keyCap() int {
	if s.maxKeys > 0 {
		return s.maxKeys
	}
	return maxKeysPerDevice
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

// createStateFile creates the database file 0600 when it is missing, before SQLite opens it
// (SQLite gives its -wal file the database's mode). An existing file is never opened here:
// if any State of this process has it open, closing a descriptor of it would drop that
// State's locks (POSIX); it is only chmod-ed.
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

// Close commits the audit records still queued, then closes the database.
func (s *State) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), auditCommitTime)
	defer cancel()
	s.closeAudit(ctx) // commit the queued audit records first
	s.closing.Do(func() { close(s.closed) })
	return s.db.Close()
}

// Ping checks the database answers (readiness).
func (s *State) Ping(ctx context.Context) error {
	return s.run(ctx, "ping", func(ctx context.Context) error { return s.db.PingContext(ctx) })
}

// run performs one access under ctx. It returns when ctx ends even if the access has not (a
// stalled disk): the abandoned access finishes or fails on its own.
//
// Accesses run on worker goroutines that stay a while after their job, so a turn does not pay
// for a new goroutine growing its stack to SQLite's depth each time; a stalled access holds
// only its own worker, and a new one starts whenever none is idle.
func (s *State) run(ctx context.Context, op string, fn func(ctx context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	j := stateJob{ctx: ctx, op: op, fn: fn, done: make(chan error, 1)}
	select {
	case s.jobs <- j:
	default:
		go s.worker(j)
	}
	select {
	case err := <-j.done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("%s: the state store did not answer in time: %w", op, ctx.Err())
	}
}

// stateJob is one access handed to a worker.
type stateJob struct {
	ctx  context.Context
	op   string
	fn   func(ctx context.Context) error
	done chan error
}

// workerIdle is how long an access worker waits for the next job before it exits.
const workerIdle = 10 * time.Second

func (s *State) worker(j stateJob) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		j.done <- s.access(j)
		idle.Reset(workerIdle)
		select {
		case j = <-s.jobs:
		case <-idle.C:
			return
		case <-s.closed:
			return
		}
	}
}

func (s *State) access(j stateJob) error {
	if f := s.fault.Load(); f != nil {
		if err := (*f)(j.ctx, j.op); err != nil {
			return err
		}
	}
	return j.fn(j.ctx)
}

// write is run for an access that changes the database: its failure marks the store as
// failing (shown by /healthz) until a later write succeeds.
func (s *State) write(ctx context.Context, op string, fn func(ctx context.Context) error) error {
	err := s.run(ctx, op, fn)
	if errors.Is(err, context.Canceled) {
		return err // the caller went away: says nothing about the store
	}
	s.noteWrite(err)
	return err
}

// noteWrite records a write's result for Health: a failure shows until a write succeeds.
func (s *State) noteWrite(err error) {
	s.healthMu.Lock()
	if err != nil {
		s.lastErr, s.lastErrAt = err, time.Now()
	} else {
		s.lastErr = nil
	}
	s.healthMu.Unlock()
}

// Health reports whether the state store can take writes: it writes a heartbeat row, so a
// full disk that has been freed again shows as healthy without a restart.
func (s *State) Health(ctx context.Context) error {
	return s.write(ctx, "state health", func(ctx context.Context) error {
		now := time.Now()
		if _, err := s.db.ExecContext(ctx, `INSERT INTO meta (name, value) VALUES ('heartbeat', ?)
			ON CONFLICT(name) DO UPDATE SET value = excluded.value`, now.UTC().Format(time.RFC3339Nano)); err != nil {
			return err
		}
		return s.saveClock(ctx, now)
	})
}

// Size is the database's size in bytes as SQLite sees it (pages in use and free).
func (s *State) Size(ctx context.Context) (int64, error) {
	var pages, size int64
	err := s.run(ctx, "state size", func(ctx context.Context) error {
		if err := s.db.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
			return err
		}
		return s.db.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&size)
	})
	return pages * size, err
}

// Vacuum gives free pages back to the filesystem and truncates the write-ahead log.
func (s *State) Vacuum(ctx context.Context) error {
	return s.run(ctx, "state vacuum", func(ctx context.Context) error {
		if _, err := s.db.ExecContext(ctx, `PRAGMA incremental_vacuum`); err != nil {
			return err
		}
		_, err := s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
		return err
	})
}

// Check runs an integrity check (PRAGMA quick_check) of the open database.
func (s *State) Check(ctx context.Context) error {
	return s.run(ctx, "state check", func(ctx context.Context) error { return s.check(ctx) })
}

// Backup writes a consistent copy of the database to dst, which must not exist, with SQLite's
// online backup API on the State's own connection (the only one that may read the file while
// it is open), then checks the copy's integrity. The copy is a complete database: open it
// with sqlite3, or restore it by stopping the broker and putting it in place of broker.db.
func (s *State) Backup(ctx context.Context, dst string) error {
	if _, err := os.Lstat(dst); err == nil {
		return invalidf("backup: %s exists already; name a new file", dst)
	}
	if err := s.flushAudit(ctx); err != nil && ctx.Err() != nil {
		return err
	}
	err := s.run(ctx, "state backup", func(ctx context.Context) error {
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		return conn.Raw(func(dc any) error {
			src, ok := dc.(interface {
				NewBackup(dstURI string) (*sqlite.Backup, error)
			})
			if !ok {
				return fmt.Errorf("the SQLite driver has no backup API")
			}
			b, err := src.NewBackup(dst)
			if err != nil {
				return err
			}
			for more := true; more; {
				if err := ctx.Err(); err != nil {
					b.Finish()
					return err
				}
				if more, err = b.Step(512); err != nil {
					b.Finish()
					return err
				}
			}
			return b.Finish()
		})
	})
	if err != nil {
		os.Remove(dst)
		return fmt.Errorf("backup to %s: %w", dst, err)
	}
	return checkCopy(ctx, dst)
}

// checkCopy opens a backup read-only and runs an integrity check on it.
func checkCopy(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return fmt.Errorf("backup %s: %w", path, err)
	}
	defer db.Close()
	var res string
	if err := db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&res); err != nil || res != "ok" {
		return fmt.Errorf("backup %s failed its integrity check: %v %s", path, err, res)
	}
	return nil
}
