package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Outcomes of a turn, as the audit log and the metrics record them.
const (
	OutcomeOK       = "ok"
	OutcomeDenied   = "denied"
	OutcomeInvalid  = "invalid"
	OutcomeFailed   = "failed"   // it did not happen (the device refused, nothing answered, a fault)
	OutcomeUnknown  = "unknown"  // a write was sent but whether it landed is not known
	OutcomePartial  = "partial"  // some devices of an "all" did it, some did not
	OutcomeTimeout  = "timeout"  // the turn's deadline ended it
	OutcomeReplayed = "replayed" // a retried Idempotency-Key answered from the stored result
	OutcomeIgnored  = "ignored"  // no wake phrase: only the fact is recorded
	// OutcomePending is the record written before an action runs (an actuation, a console
	// action); once the outcome is known the same record is updated in place to it (the only
	// update the audit log allows), so each action is one row. A record still pending is an
	// action whose outcome is unknown (the broker stopped mid-turn).
	OutcomePending = "pending"
)

// AuditRecord is one line of the audit log: what was done, never what was said.
type AuditRecord struct {
	Seq        int64             `json:"seq"`
	Time       time.Time         `json:"time"`
	TurnID     string            `json:"turn_id"`
	Device     string            `json:"device"`
	Node       string            `json:"node,omitempty"`
	Route      string            `json:"route"`
	Intent     string            `json:"intent"`
	Args       map[string]string `json:"args"`
	Outcome    string            `json:"outcome"`
	Code       string            `json:"code,omitempty"`
	LatencyMS  int64             `json:"latency_ms"`
	Redactions []string          `json:"redactions,omitempty"`
}

// auditableArgs are the only argument names ever written to the log: closed vocabularies.
// Free text (general.ask's question) never is.
var auditableArgs = map[string]bool{"room": true, "state": true, "temperature": true, "person": true, "expression": true,
	"owner": true, "direction": true, "reason": true, // the teleport console's: a login and closed values
	"duration": true, "label": true, "target": true, // timers and announcements: closed values, robot names
	"game": true} // games: which game (never what was said in it)

func AllowlistArgs(args map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range args {
		if auditableArgs[k] {
			out[k] = v
		}
	}
	return out
}

// appendAudit inserts r inside tx: an actuation's record, in a transaction of the durable
// transaction (where an fsync, not parsing, is the cost). Other records go through the audit
// writer (auditwriter.go).
func (s *Store) appendAudit(ctx context.Context, tx *sql.Tx, r AuditRecord) error {
	if _, err := tx.ExecContext(ctx, insertAuditSQL, auditValues(r)...); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// RecordActuation writes, in one synced transaction, an actuation's pending audit record and
// (when key is set) the pending idempotency record that goes with it, before the actuation
// runs. If it fails, nothing of it is stored. SettleActuation records the outcome.
func (s *Store) RecordActuation(ctx context.Context, rec AuditRecord, key string, r *Key) error {
	// The log keeps the order things happened in: reads queued before this record are
	// committed first. Best effort — a failing store must not hold an actuation's refusal.
	fctx, cancel := context.WithTimeout(ctx, actuationFlushWait)
	s.flushAudit(fctx)
	cancel()
	return s.write(ctx, "audit and idempotency", func(ctx context.Context) error {
		err := s.durableTx(ctx, func(tx *sql.Tx) error {
			if err := s.appendAudit(ctx, tx, rec); err != nil {
				return err
			}
			if key != "" && r != nil {
				return upsertIdem(ctx, tx, rec.Device, key, *r, s.keyCap(), s.clock.wall())
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("audit: %w", err)
		}
		return nil
	})
}

// SettleActuation gives an actuation's pending record its outcome, in place, and settles its
// key (when key is set), in one synced transaction. If that fails the record stays pending
// and the key too: a retry is answered by a read-back.
func (s *Store) SettleActuation(ctx context.Context, rec AuditRecord, key string, r *Key) error {
	return s.write(ctx, "audit and idempotency", func(ctx context.Context) error {
		err := s.durableTx(ctx, func(tx *sql.Tx) error {
			if err := settleAudit(ctx, tx, rec); err != nil {
				return err
			}
			if key != "" && r != nil {
				return upsertIdem(ctx, tx, rec.Device, key, *r, s.keyCap(), s.clock.wall())
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("audit: %w", err)
		}
		return nil
	})
}

// SettleAudit gives the pending record of rec.TurnID (written by AppendAudit before the
// action ran) its outcome, in place.
func (s *Store) SettleAudit(ctx context.Context, rec AuditRecord) error {
	return s.write(ctx, "audit outcome", func(ctx context.Context) error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("audit: %w", err)
		}
		defer tx.Rollback()
		if err := settleAudit(ctx, tx, rec); err != nil {
			return err
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("audit: %w", err)
		}
		return nil
	})
}

// settleAudit updates the pending record of rec's turn and device to rec's outcome. When there
// is none (purged by retention, or never written) the outcome is appended as its own record,
// so it is never lost.
func settleAudit(ctx context.Context, tx *sql.Tx, rec AuditRecord) error {
	res, err := tx.ExecContext(ctx, `UPDATE audit SET outcome = ?, code = ?, latency_ms = ?, redactions = ?
		WHERE turn_id = ? AND device = ? AND outcome = 'pending'`,
		rec.Outcome, rec.Code, rec.LatencyMS, strings.Join(rec.Redactions, ","), rec.TurnID, rec.Device)
	if err != nil {
		return fmt.Errorf("audit outcome: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, insertAuditSQL, auditValues(rec)...); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// TailAudit returns the last n records, oldest first.
func (s *Store) TailAudit(ctx context.Context, n int) ([]AuditRecord, error) {
	var out []AuditRecord
	if err := s.flushAudit(ctx); err != nil && ctx.Err() != nil {
		return nil, err
	}
	err := s.run(ctx, "audit tail", func(ctx context.Context) error {
		var err error
		out, err = s.tailAudit(ctx, n)
		return err
	})
	return out, err
}

func (s *Store) tailAudit(ctx context.Context, n int) ([]AuditRecord, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq, time, turn_id, device, node, route, intent, args, outcome, code, latency_ms, redactions
		FROM (SELECT * FROM audit ORDER BY seq DESC LIMIT ?) ORDER BY seq`, n)
	if err != nil {
		return nil, fmt.Errorf("audit tail: %w", err)
	}
	defer rows.Close()
	var out []AuditRecord
	for rows.Next() {
		var r AuditRecord
		var t int64
		var args, red string
		if err := rows.Scan(&r.Seq, &t, &r.TurnID, &r.Device, &r.Node, &r.Route, &r.Intent, &args, &r.Outcome, &r.Code, &r.LatencyMS, &red); err != nil {
			return nil, err
		}
		r.Time = time.UnixMilli(t).UTC()
		json.Unmarshal([]byte(args), &r.Args)
		if red != "" {
			r.Redactions = strings.Split(red, ",")
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// LastTurn is the time of device's last turn or utterance (zero when none is recorded).
func (s *Store) LastTurn(ctx context.Context, device string) (time.Time, error) {
	var t int64
	if err := s.flushAudit(ctx); err != nil && ctx.Err() != nil {
		return time.Time{}, err
	}
	err := s.db.QueryRowContext(ctx, `SELECT time FROM audit WHERE device = ? AND route IN ('turn', 'utterance', 'intent')
		ORDER BY seq DESC LIMIT 1`, device).Scan(&t)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("last turn: %w", err)
	}
	return time.UnixMilli(t).UTC(), nil
}
