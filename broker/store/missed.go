package store

import (
	"context"
	"fmt"
	"time"
)

// A missed call is a call-back nobody answered: who was wanted, from which robot and room,
// and when — closed values, never words — kept so that a broker restart loses none.
type MissedCall struct {
	ID     int
	Device string
	Room   string
	Wanted string
	At     time.Time
}

// The limits on missed calls: at most MaxMissedPerRobot from one robot and MaxMissedPerOwner
// in all are kept for an owner, the oldest going first. The per-robot limit comes first, so a
// robot asked to "call dad" again and again drops only its own older calls, never another
// robot's.
const (
	MaxMissedPerOwner = 20
	MaxMissedPerRobot = 5
)

// AddMissed keeps a missed call for owner (a lower-case login).
func (s *Store) AddMissed(ctx context.Context, owner string, m MissedCall) error {
	return s.write(ctx, "missed call", func(ctx context.Context) error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, `INSERT INTO missed_calls (owner, device, room, wanted, at) VALUES (?, ?, ?, ?, ?)`,
			owner, m.Device, m.Room, m.Wanted, m.At.UnixMilli()); err != nil {
			return fmt.Errorf("missed call: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM missed_calls WHERE owner = ? AND device = ? AND id NOT IN
			(SELECT id FROM missed_calls WHERE owner = ? AND device = ? ORDER BY id DESC LIMIT ?)`,
			owner, m.Device, owner, m.Device, MaxMissedPerRobot); err != nil {
			return fmt.Errorf("missed call: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM missed_calls WHERE owner = ? AND id NOT IN
			(SELECT id FROM missed_calls WHERE owner = ? ORDER BY id DESC LIMIT ?)`, owner, owner, MaxMissedPerOwner); err != nil {
			return fmt.Errorf("missed call: %w", err)
		}
		return tx.Commit()
	})
}

// Missed lists owner's missed calls, oldest first.
func (s *Store) Missed(ctx context.Context, owner string) ([]MissedCall, error) {
	var out []MissedCall
	err := s.run(ctx, "missed calls", func(ctx context.Context) error {
		rows, err := s.db.QueryContext(ctx, `SELECT id, device, room, wanted, at FROM missed_calls WHERE owner = ? ORDER BY id`, owner)
		if err != nil {
			return fmt.Errorf("missed calls: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var m MissedCall
			var at int64
			if err := rows.Scan(&m.ID, &m.Device, &m.Room, &m.Wanted, &at); err != nil {
				return fmt.Errorf("missed calls: %w", err)
			}
			m.At = time.UnixMilli(at).UTC()
			out = append(out, m)
		}
		return rows.Err()
	})
	return out, err
}

// DismissMissed forgets one missed call of owner, or all of them when id is 0.
func (s *Store) DismissMissed(ctx context.Context, owner string, id int) error {
	return s.write(ctx, "missed call dismissed", func(ctx context.Context) error {
		var err error
		if id == 0 {
			_, err = s.db.ExecContext(ctx, `DELETE FROM missed_calls WHERE owner = ?`, owner)
		} else {
			_, err = s.db.ExecContext(ctx, `DELETE FROM missed_calls WHERE owner = ? AND id = ?`, owner, id)
		}
		return err
	})
}

// ClearMissed forgets owner's missed calls from device (they called it back).
func (s *Store) ClearMissed(ctx context.Context, owner, device string) error {
	return s.write(ctx, "missed calls answered", func(ctx context.Context) error {
		_, err := s.db.ExecContext(ctx, `DELETE FROM missed_calls WHERE owner = ? AND device = ?`, owner, device)
		return err
	})
}
