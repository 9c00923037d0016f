package broker

import (
	"context"
	"fmt"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/console"
)

// missedCalls keeps the console's missed call-backs in the state store: who was wanted,
// from which robot and room, and when — closed values, never words — so a broker restart
// loses none. At most console.MaxMissed are kept per owner.
type missedCalls struct{ s *State }

func (m missedCalls) AddMissed(ctx context.Context, owner string, r console.Ring) error {
	return m.s.write(ctx, "missed call", func(ctx context.Context) error {
		tx, err := m.s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, `INSERT INTO missed_calls (owner, device, room, wanted, at) VALUES (?, ?, ?, ?, ?)`,
			owner, r.Device, r.Room, r.Wanted, r.At.UnixMilli()); err != nil {
			return fmt.Errorf("missed call: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM missed_calls WHERE owner = ? AND id NOT IN
			(SELECT id FROM missed_calls WHERE owner = ? ORDER BY id DESC LIMIT ?)`, owner, owner, console.MaxMissed); err != nil {
			return fmt.Errorf("missed call: %w", err)
		}
		return tx.Commit()
	})
}

func (m missedCalls) Missed(ctx context.Context, owner string) ([]console.Ring, error) {
	var out []console.Ring
	err := m.s.run(ctx, "missed calls", func(ctx context.Context) error {
		rows, err := m.s.db.QueryContext(ctx, `SELECT id, device, room, wanted, at FROM missed_calls WHERE owner = ? ORDER BY id`, owner)
		if err != nil {
			return fmt.Errorf("missed calls: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var r console.Ring
			var at int64
			if err := rows.Scan(&r.ID, &r.Device, &r.Room, &r.Wanted, &at); err != nil {
				return fmt.Errorf("missed calls: %w", err)
			}
			r.At = time.UnixMilli(at).UTC()
			out = append(out, r)
		}
		return rows.Err()
	})
	return out, err
}

func (m missedCalls) DismissMissed(ctx context.Context, owner string, id int) error {
	return m.s.write(ctx, "missed call dismissed", func(ctx context.Context) error {
		var err error
		if id == 0 {
			_, err = m.s.db.ExecContext(ctx, `DELETE FROM missed_calls WHERE owner = ?`, owner)
		} else {
			_, err = m.s.db.ExecContext(ctx, `DELETE FROM missed_calls WHERE owner = ? AND id = ?`, owner, id)
		}
		return err
	})
}

func (m missedCalls) ClearMissed(ctx context.Context, owner, device string) error {
	return m.s.write(ctx, "missed calls answered", func(ctx context.Context) error {
		_, err := m.s.db.ExecContext(ctx, `DELETE FROM missed_calls WHERE owner = ? AND device = ?`, owner, device)
		return err
	})
}
