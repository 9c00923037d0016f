package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// IdempotencyTTL is how long a result is replayed for the same Idempotency-Key.
const IdempotencyTTL = 24 * time.Hour

// ErrClockJump is Purge's answer when it would remove every audit record, even the newest:
// either the broker was idle for the whole retention period or the clock is wrong; the log
// is kept.
var ErrClockJump = errors.New("the clock jumped: retention purge refused")

// Purged says what a purge removed, and what it held back because the clock has not agreed
// with the store for long enough (clock.go).
type Purged struct {
	Audit     int64         // audit records removed
	Keys      int64         // idempotency keys removed
	AuditHeld bool          // audit retention waited for the clock
	KeysHeld  bool          // key expiry waited for the clock
	AgreedFor time.Duration // how long the clock has agreed with the store
}

// Purge removes audit records older than retention and idempotency keys older than
// IdempotencyTTL, by the wall clock — but only once that clock has agreed with the store for
// longer than each period (see trustClock); until then it removes nothing of that kind. It
// checks the clock first, so a jump while the broker runs holds the purge too.
func (s *Store) Purge(ctx context.Context, retention time.Duration) (Purged, error) {
	var out Purged
	st, err := s.checkClock(ctx)
	if err != nil {
		return out, err
	}
	out.AgreedFor = st.AgreedFor()
	out.AuditHeld = out.AgreedFor <= retention
	out.KeysHeld = out.AgreedFor <= IdempotencyTTL
	if !out.AuditHeld {
		if out.Audit, err = s.purgeAudit(ctx, st.Now.Add(-retention)); err != nil {
			return out, err
		}
	}
	if !out.KeysHeld {
		if out.Keys, err = s.purgeKeys(ctx, st.Now.Add(-IdempotencyTTL)); err != nil {
			return out, err
		}
	}
	return out, nil
}

// purgeAudit removes records older than cutoff. It refuses to remove every record, even the
// newest (ErrClockJump).
func (s *Store) purgeAudit(ctx context.Context, cutoff time.Time) (int64, error) {
	var n int64
	if err := s.flushAudit(ctx); err != nil && ctx.Err() != nil {
		return 0, err
	}
	err := s.write(ctx, "audit purge", func(ctx context.Context) error {
		var newest sql.NullInt64
		if err := s.db.QueryRowContext(ctx, `SELECT max(time) FROM audit`).Scan(&newest); err != nil {
			return fmt.Errorf("audit purge: %w", err)
		}
		if newest.Valid && newest.Int64 < cutoff.UnixMilli() {
			return fmt.Errorf("audit purge would remove every record (newest %s, cutoff %s): %w",
				time.UnixMilli(newest.Int64).UTC().Format(time.RFC3339), cutoff.UTC().Format(time.RFC3339), ErrClockJump)
		}
		res, err := s.db.ExecContext(ctx, `DELETE FROM audit WHERE time < ?`, cutoff.UnixMilli())
		if err != nil {
			return fmt.Errorf("audit purge: %w", err)
		}
		n, _ = res.RowsAffected()
		return nil
	})
	return n, err
}

// purgeKeys removes keys made before cutoff and gives the space back.
func (s *Store) purgeKeys(ctx context.Context, cutoff time.Time) (int64, error) {
	var n int64
	err := s.write(ctx, "idempotency purge", func(ctx context.Context) error {
		res, err := s.db.ExecContext(ctx, `DELETE FROM idempotency WHERE created < ?`, cutoff.UnixMilli())
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, s.Vacuum(ctx)
}
