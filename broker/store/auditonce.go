package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// One record per act, for acts that a crash can make the broker do again (a timer's ring,
// re-sent after a restart; a ring the hub reports it rang). The act is named by its record's
// turn ID and device: the first write opens its record, every later one finds it. A record is
// settled once: a second outcome for the same act (the hub's "already played" after a
// restart, a settle repeated after a kill between two writes) changes nothing.

// OpenAuditOnce writes rec (a pending record, written before the act) unless a record of the
// same turn ID and device exists already, pending or settled.
func (s *Store) OpenAuditOnce(ctx context.Context, rec AuditRecord) error {
	return s.write(ctx, "audit", func(ctx context.Context) error {
		return s.onceTx(ctx, func(tx *sql.Tx) error {
			found, err := auditExists(ctx, tx, rec)
			if err != nil || found {
				return err
			}
			if _, err := tx.ExecContext(ctx, insertAuditSQL, auditValues(rec)...); err != nil {
				return fmt.Errorf("audit: %w", err)
			}
			return nil
		})
	})
}

// SettleAuditOnce gives the act's pending record its outcome, in place. An act whose record
// is settled already keeps its outcome; one with no record at all (its pending write was
// lost with the process) gets rec as its one record.
func (s *Store) SettleAuditOnce(ctx context.Context, rec AuditRecord) error {
	return s.write(ctx, "audit outcome", func(ctx context.Context) error {
		return s.onceTx(ctx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, `UPDATE audit SET outcome = ?, code = ?, latency_ms = ?, redactions = ?
				WHERE turn_id = ? AND device = ? AND outcome = 'pending'`,
				rec.Outcome, rec.Code, rec.LatencyMS, strings.Join(rec.Redactions, ","), rec.TurnID, rec.Device)
			if err != nil {
				return fmt.Errorf("audit outcome: %w", err)
			}
			if n, err := res.RowsAffected(); err == nil && n > 0 {
				return nil
			}
			found, err := auditExists(ctx, tx, rec)
			if err != nil || found {
				return err
			}
			if _, err := tx.ExecContext(ctx, insertAuditSQL, auditValues(rec)...); err != nil {
				return fmt.Errorf("audit: %w", err)
			}
			return nil
		})
	})
}

// onceTx runs fn in one transaction: the look for the act's record and the write are one.
func (s *Store) onceTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

func auditExists(ctx context.Context, tx *sql.Tx, rec AuditRecord) (bool, error) {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM audit WHERE turn_id = ? AND device = ?`, rec.TurnID, rec.Device).Scan(&n); err != nil {
		return false, fmt.Errorf("audit: %w", err)
	}
	return n > 0, nil
}
