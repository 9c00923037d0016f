package timers

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// schema is the timers table in the broker's state database. A row exists only while its
// timer is live (pending or ringing): a finished, cancelled or missed timer is deleted, so
// nothing of it is kept.
const schema = `
CREATE TABLE IF NOT EXISTS timers (
	id        TEXT PRIMARY KEY,
	device    TEXT NOT NULL,
	room      TEXT NOT NULL,
	label     TEXT NOT NULL,
	seconds   INTEGER NOT NULL,
	created   INTEGER NOT NULL,
	due       INTEGER NOT NULL,
	rings     INTEGER NOT NULL DEFAULT 0,
	next_ring INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS timers_next ON timers(next_ring);
`

// Timer is one live timer.
type Timer struct {
	ID       string
	Device   string // the device it was set from
	Room     string // that device's room ("" when it has none)
	Label    string // from the closed label list, or ""
	Duration time.Duration
	Created  time.Time
	Due      time.Time
	Rings    int       // how many times it has rung (0: pending)
	NextRing time.Time // when the scheduler next looks at it: its due time, a retry, or a repeat
}

// place is where a timer belongs: its room, or its device when that has no room.
func (t *Timer) place() string { return placeOf(t.Device, t.Room) }

func placeOf(device, room string) string {
	if room != "" {
		return "room:" + room
	}
	return "device:" + device
}

// store is the timers table.
type store struct{ db *sql.DB }

func openStore(ctx context.Context, db *sql.DB) (*store, error) {
	if _, err := db.ExecContext(ctx, schema); err != nil {
		return nil, fmt.Errorf("timers table: %w", err)
	}
	return &store{db: db}, nil
}

func (s *store) insert(ctx context.Context, t *Timer) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO timers (id, device, room, label, seconds, created, due, rings, next_ring)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, t.Device, t.Room, t.Label, int64(t.Duration/time.Second),
		t.Created.UnixMilli(), t.Due.UnixMilli(), t.Rings, t.NextRing.UnixMilli())
	if err != nil {
		return fmt.Errorf("save timer: %w", err)
	}
	return nil
}

func (s *store) update(ctx context.Context, t *Timer) error {
	_, err := s.db.ExecContext(ctx, `UPDATE timers SET rings = ?, next_ring = ? WHERE id = ?`, t.Rings, t.NextRing.UnixMilli(), t.ID)
	if err != nil {
		return fmt.Errorf("update timer: %w", err)
	}
	return nil
}

func (s *store) delete(ctx context.Context, ids ...string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete timers: %w", err)
	}
	defer tx.Rollback()
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `DELETE FROM timers WHERE id = ?`, id); err != nil {
			return fmt.Errorf("delete timer: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("delete timers: %w", err)
	}
	return nil
}

func (s *store) load(ctx context.Context) ([]*Timer, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, device, room, label, seconds, created, due, rings, next_ring FROM timers`)
	if err != nil {
		return nil, fmt.Errorf("load timers: %w", err)
	}
	defer rows.Close()
	var out []*Timer
	for rows.Next() {
		var t Timer
		var secs, created, due, next int64
		if err := rows.Scan(&t.ID, &t.Device, &t.Room, &t.Label, &secs, &created, &due, &t.Rings, &next); err != nil {
			return nil, fmt.Errorf("load timers: %w", err)
		}
		t.Duration = time.Duration(secs) * time.Second
		t.Created, t.Due, t.NextRing = time.UnixMilli(created), time.UnixMilli(due), time.UnixMilli(next)
		out = append(out, &t)
	}
	return out, rows.Err()
}
