package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Privacy mode ("Reachy, privacy mode on") is kept here, per robot, so a restart does not lift
// it; who may switch it (the room's voice only) is the broker's rule, not the store's.

// SetPrivacy records device's privacy mode durably: on from at, or off.
func (s *Store) SetPrivacy(ctx context.Context, device string, on bool, at time.Time) error {
	return s.write(ctx, "privacy mode", func(ctx context.Context) error {
		return s.durableTx(ctx, func(tx *sql.Tx) error {
			var err error
			if on {
				_, err = tx.ExecContext(ctx, `INSERT INTO privacy (device, since) VALUES (?, ?)
					ON CONFLICT(device) DO NOTHING`, device, at.UnixMilli())
			} else {
				_, err = tx.ExecContext(ctx, `DELETE FROM privacy WHERE device = ?`, device)
			}
			if err != nil {
				return fmt.Errorf("privacy mode of %s: %w", device, err)
			}
			return nil
		})
	})
}

// Privacy reports whether device is in privacy mode.
func (s *Store) Privacy(ctx context.Context, device string) (bool, error) {
	var on bool
	err := s.run(ctx, "privacy mode", func(ctx context.Context) error {
		var since int64
		err := s.db.QueryRowContext(ctx, `SELECT since FROM privacy WHERE device = ?`, device).Scan(&since)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return nil
		case err != nil:
			return fmt.Errorf("privacy mode of %s: %w", device, err)
		}
		on = true
		return nil
	})
	return on, err
}
