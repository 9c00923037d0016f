package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// retentionClock is the time that audit retention and idempotency-key expiry trust. It is
// never later than the wall clock, and never later than the newest time the state had seen
// when it was opened (its high-water mark: the newest audit record, idempotency key or
// stored clock reading) plus the time this process has measured since, on the monotonic
// clock. So a wall clock that was set days ahead before a restart, or that jumps while the
// broker runs, cannot make a record "old": records age only as fast as time is seen to pass.
// A broker that really was stopped for days keeps its records that much longer; that errs on
// keeping, which is the safe side for both an audit log and a replay record.
type retentionClock struct {
	mu    sync.Mutex
	base  time.Time // the high-water mark at open (no monotonic reading)
	start time.Time // when the state was opened (with a monotonic reading)
}

// clockMetaName is the meta row holding the last trusted time, so the high-water mark
// survives a purge that removed every record.
const clockMetaName = "clock_high_water"

// now is the trusted time, given the wall clock's reading wall.
func (c *retentionClock) now(wall time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	wall = wall.Round(0)
	if c.start.IsZero() {
		return wall
	}
	trusted := c.base.Add(time.Since(c.start))
	if wall.Before(trusted) {
		return wall
	}
	return trusted
}

// startClock sets the retention clock from the state's high-water mark; wall is the wall
// clock's reading at open.
func (s *Store) startClock(ctx context.Context, wall time.Time) error {
	var audit, keys sql.NullInt64
	var stored sql.NullString
	if err := s.db.QueryRowContext(ctx, `SELECT (SELECT max(time) FROM audit), (SELECT max(created) FROM idempotency),
		(SELECT value FROM meta WHERE name = ?)`, clockMetaName).Scan(&audit, &keys, &stored); err != nil {
		return fmt.Errorf("the state's clock: %w", err)
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
	s.clock.mu.Lock()
	defer s.clock.mu.Unlock()
	s.clock.start = time.Now()
	s.clock.base = wall.Round(0)
	if hw > 0 && time.UnixMilli(hw).Before(s.clock.base) {
		s.clock.base = time.UnixMilli(hw)
	}
	return nil
}

// HighWaterAtOpen is the newest time recorded in the state when it was opened (or the wall
// clock then, if that was earlier). Retention counts from it, not from the wall clock.
func (s *Store) HighWaterAtOpen() time.Time {
	s.clock.mu.Lock()
	defer s.clock.mu.Unlock()
	return s.clock.base
}

// RetentionNow is the time retention and key expiry use, given the wall clock's reading.
func (s *Store) RetentionNow(wall time.Time) time.Time { return s.clock.now(wall) }

// saveClock stores the trusted time as the high-water mark (with the heartbeat).
func (s *Store) saveClock(ctx context.Context, wall time.Time) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO meta (name, value) VALUES (?, ?)
		ON CONFLICT(name) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))`,
		clockMetaName, strconv.FormatInt(s.clock.now(wall).UnixMilli(), 10))
	return err
}
