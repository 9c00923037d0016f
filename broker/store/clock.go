package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// No clock is trusted to delete. Records carry the wall clock's time (what an operator
// reads), but retention and key expiry remove a record only by a clock that the store has
// checked and found in agreement with itself for longer than the record's retention period:
//
//   - a checkpoint: the last wall-clock reading the store checked, saved in the database
//     every minute and at close, so it survives a restart (and a kill -9, to the minute);
//   - at open, the wall clock is held against the checkpoint: more than checkpointGap ahead
//     (a clock set forward, or a broker stopped that long — the store cannot tell) or more
//     than clockSlack behind is a jump;
//   - while it runs, each minute, the wall clock's advance is held against the monotonic
//     clock's: a difference of more than clockSlack is a jump;
//   - a jump is logged once, when it is seen, and starts the agreement afresh: the clock has
//     agreed with the store since then (agreedSince, also saved).
//
// A purge runs only once the agreement is longer than the retention period it applies (90
// days of audit, a day of keys), and then removes what the wall clock says is older. So a
// broker restarted 100 days ahead, then again, keeps every record and every key; a clock
// that is right after all is trusted again once it has agreed that long, or at once when
// the operator says so (TrustClock: `reachyctl state clock --trust`). A clock that never
// settles purges nothing, which errs on keeping: keys are still capped per device.
type trustClock struct {
	wall func() time.Time     // the wall clock (time.Now, or a test's)
	mono func() time.Duration // the monotonic time since the store opened
	log  *slog.Logger

	mu          sync.Mutex
	lastWall    time.Time     // the last wall reading checked (the checkpoint)
	lastMono    time.Duration // the monotonic reading then
	agreedSince time.Time     // zero: since ever (the operator trusts the clock)
	jumps       int64         // jumps seen, ever
	lastJump    time.Duration // the last jump: positive ahead, negative behind
}

// The clock's tolerances.
const (
	// checkpointGap is how far ahead of the checkpoint the wall clock may be at open before
	// it counts as a jump: a restart or a reboot takes less; a broker stopped for longer
	// waits for its clock to agree (or for the operator) before it purges again.
	checkpointGap = 15 * time.Minute
	// clockSlack is how far the wall clock may drift from the monotonic clock between two
	// checks, or fall behind the checkpoint at open, before it counts as a jump (NTP slews
	// far less; a suspended machine, a step of the clock or a wrong date far more).
	clockSlack = time.Minute
	// checkpointEvery is how often the running store checks the clock and saves the
	// checkpoint.
	checkpointEvery = time.Minute
)

// The meta rows of the clock.
const (
	metaCheckpoint  = "clock_checkpoint"   // unix ms of the last wall reading checked
	metaAgreedSince = "clock_agreed_since" // unix ms since when the clock agrees; 0: always
	metaJumps       = "clock_jumps"        // jumps seen, ever
	metaLastJump    = "clock_last_jump_ms" // the last jump's size, ms (negative: behind)
	legacyHighWater = "clock_high_water"   // the checkpoint of a store made before these rows
)

// ClockState is the store's view of the clock, for the operator.
type ClockState struct {
	Now         time.Time     `json:"now"`                    // the wall clock's reading
	Checkpoint  time.Time     `json:"checkpoint"`             // the last reading the store checked
	AgreedSince time.Time     `json:"agreed_since,omitzero"`  // zero: the operator trusts the clock
	Jumps       int64         `json:"jumps"`                  // jumps seen since the store was made
	LastJump    time.Duration `json:"last_jump_ns,omitempty"` // the last one: ahead (+) or behind (−)
}

// AgreedFor is how long the clock has agreed with the store (the longest duration when the
// operator trusts it).
func (c ClockState) AgreedFor() time.Duration {
	if c.AgreedSince.IsZero() {
		return time.Duration(1<<63 - 1)
	}
	return max(0, c.Now.Sub(c.AgreedSince))
}

// start reads the clock's rows and holds the wall clock against the checkpoint. fresh: the
// database was just made (its clock agrees from now).
func (c *trustClock) start(ctx context.Context, db *sql.DB, fresh bool) error {
	meta, err := readClockMeta(ctx, db)
	if err != nil {
		return fmt.Errorf("the store's clock: %w", err)
	}
	now := c.wall().Round(0)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lastWall, c.lastMono = now, c.mono()
	c.jumps, c.lastJump = meta.jumps, meta.lastJump
	switch {
	case meta.checkpoint.IsZero() && fresh:
		c.agreedSince = now // nothing to hold it against: it agrees from now
	case meta.checkpoint.IsZero():
		// A store made before checkpoints: its newest record is the checkpoint. Records from
		// before now are kept until this clock has agreed for their retention.
		hw, err := legacyCheckpoint(ctx, db)
		if err != nil {
			return fmt.Errorf("the store's clock: %w", err)
		}
		c.agreedSince = now
		if d := now.Sub(hw); !hw.IsZero() && (d > checkpointGap || d < -clockSlack) {
			c.jumped(d, "since the newest record")
		}
	default:
		c.agreedSince = meta.agreedSince
		if d := now.Sub(meta.checkpoint); d > checkpointGap || d < -clockSlack {
			c.jumped(d, "since the store's last checkpoint")
		}
	}
	return saveClockMetaTx(ctx, db, c.snapshot())
}

// jumped records a jump of d (c.mu held): the agreement starts again now. It is logged here,
// once.
func (c *trustClock) jumped(d time.Duration, since string) {
	c.jumps++
	c.lastJump = d
	c.agreedSince = c.lastWall
	dir, by := "ahead", d
	if d < 0 {
		dir, by = "behind", -d
	}
	c.log.Warn("the wall clock jumped: records and keys are kept until it has agreed with the store for longer than their retention, "+
		"or until `reachyctl state clock --trust`", "direction", dir, "by", by.Round(time.Second).String(), "measured", since,
		"now", c.lastWall.UTC().Format(time.RFC3339), "cause", "the clock was set or stepped, the machine slept, or the broker was stopped that long")
}

// current is the clock's state as last checked.
func (c *trustClock) current() ClockState {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snapshot()
}

// check holds the wall clock's advance since the last check against the monotonic clock's
// and moves the checkpoint; it returns the state to save.
func (c *trustClock) check() ClockState {
	now, mono := c.wall().Round(0), c.mono()
	c.mu.Lock()
	defer c.mu.Unlock()
	d := now.Sub(c.lastWall) - (mono - c.lastMono)
	c.lastWall, c.lastMono = now, mono
	if d > clockSlack || d < -clockSlack {
		c.jumped(d, "against the monotonic clock")
	}
	return c.snapshot()
}

// snapshot is the clock's state (c.mu held).
func (c *trustClock) snapshot() ClockState {
	return ClockState{Now: c.lastWall, Checkpoint: c.lastWall, AgreedSince: c.agreedSince, Jumps: c.jumps, LastJump: c.lastJump}
}

// trust makes the clock agree since ever: the operator says it is right.
func (c *trustClock) trust() {
	s := c.check()
	c.mu.Lock()
	c.agreedSince = time.Time{}
	c.mu.Unlock()
	c.log.Info("the operator trusts the wall clock: retention and key expiry count by it from now on", "now", s.Now.UTC().Format(time.RFC3339))
}

// clockMeta is what the clock's rows hold.
type clockMeta struct {
	checkpoint, agreedSince time.Time
	jumps                   int64
	lastJump                time.Duration
}

func readClockMeta(ctx context.Context, db interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}) (clockMeta, error) {
	var m clockMeta
	for name, set := range map[string]func(int64){
		metaCheckpoint:  func(v int64) { m.checkpoint = time.UnixMilli(v) },
		metaAgreedSince: func(v int64) { m.agreedSince = unixMilliOrZero(v) },
		metaJumps:       func(v int64) { m.jumps = v },
		metaLastJump:    func(v int64) { m.lastJump = time.Duration(v) * time.Millisecond },
	} {
		var s string
		err := db.QueryRowContext(ctx, `SELECT value FROM meta WHERE name = ?`, name).Scan(&s)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return m, err
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return m, fmt.Errorf("meta %s: %q is not a number", name, s)
		}
		set(v)
	}
	return m, nil
}

func unixMilliOrZero(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v)
}

// legacyCheckpoint is the newest time a store made before checkpoints holds: its newest
// audit record, key or stored high-water mark.
func legacyCheckpoint(ctx context.Context, db *sql.DB) (time.Time, error) {
	var audit, keys sql.NullInt64
	var stored sql.NullString
	if err := db.QueryRowContext(ctx, `SELECT (SELECT max(time) FROM audit), (SELECT max(created) FROM idempotency),
		(SELECT value FROM meta WHERE name = ?)`, legacyHighWater).Scan(&audit, &keys, &stored); err != nil {
		return time.Time{}, err
	}
	var hw int64
	for _, v := range []sql.NullInt64{audit, keys} {
		if v.Valid && v.Int64 > hw {
			hw = v.Int64
		}
	}
	if stored.Valid {
		if v, err := strconv.ParseInt(stored.String, 10, 64); err == nil && v > hw {
			hw = v
		}
	}
	return unixMilliOrZero(hw), nil
}

// saveClockMetaTx writes the clock's rows in one transaction: a kill between two of them
// must never leave a new checkpoint beside an old agreement (the next start would then see
// no jump and trust a clock that jumped).
func saveClockMetaTx(ctx context.Context, db *sql.DB, s ClockState) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("the store's clock: %w", err)
	}
	defer tx.Rollback()
	if err := saveClockMeta(ctx, tx, s); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("the store's clock: %w", err)
	}
	return nil
}

// saveClockMeta writes the clock's rows (inside the caller's transaction).
func saveClockMeta(ctx context.Context, db interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}, s ClockState) error {
	var agreed int64
	if !s.AgreedSince.IsZero() {
		agreed = s.AgreedSince.UnixMilli()
	}
	for name, v := range map[string]int64{metaCheckpoint: s.Checkpoint.UnixMilli(), metaAgreedSince: agreed,
		metaJumps: s.Jumps, metaLastJump: s.LastJump.Milliseconds()} {
		if _, err := db.ExecContext(ctx, `INSERT INTO meta (name, value) VALUES (?, ?)
			ON CONFLICT(name) DO UPDATE SET value = excluded.value`, name, strconv.FormatInt(v, 10)); err != nil {
			return fmt.Errorf("the store's clock: %w", err)
		}
	}
	return nil
}

// checkClock checks the clock and saves the checkpoint.
func (s *Store) checkClock(ctx context.Context) (ClockState, error) {
	s.clock.check()
	return s.saveClock(ctx, false)
}

// saveClock saves the clock's state as it is when the write runs (durable: synced at commit).
func (s *Store) saveClock(ctx context.Context, durable bool) (ClockState, error) {
	var st ClockState
	err := s.write(ctx, "clock checkpoint", func(ctx context.Context) error {
		s.clockSave.Lock()
		defer s.clockSave.Unlock()
		st = s.clock.current()
		if durable {
			return s.durableTx(ctx, func(tx *sql.Tx) error { return saveClockMeta(ctx, tx, st) })
		}
		return saveClockMetaTx(ctx, s.db, st)
	})
	return st, err
}

// keepCheckpoints checks the clock and saves the checkpoint (and the tokens' last use) every
// checkpointEvery until the store closes.
func (s *Store) keepCheckpoints() {
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-s.closed:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			if _, err := s.checkClock(ctx); err != nil {
				s.log.Warn("the store's clock checkpoint was not saved", "err", err)
			}
			if err := s.saveTokenUse(ctx); err != nil {
				s.log.Warn("the tokens' last use was not saved", "err", err)
			}
			cancel()
		}
	}
}

// Clock is the store's view of the clock now (it checks it first, and saves the checkpoint).
func (s *Store) Clock(ctx context.Context) (ClockState, error) { return s.checkClock(ctx) }

// TrustClock is the operator's word that the wall clock is right: retention and key expiry
// count by it from now on, as if it had always agreed with the store. The next purge removes
// what it says is past retention.
func (s *Store) TrustClock(ctx context.Context) (ClockState, error) {
	s.clock.trust()
	return s.saveClock(ctx, true)
}
