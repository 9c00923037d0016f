package timers

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
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
	next_ring INTEGER NOT NULL,
	open      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS timers_next ON timers(next_ring);
CREATE TABLE IF NOT EXISTS timers_clock (
	k    INTEGER PRIMARY KEY CHECK (k = 1),
	wall INTEGER NOT NULL,
	boot TEXT NOT NULL,
	up   INTEGER NOT NULL
);
`

// checkpoint ties the wall-clock times in the timers table to the machine's boot clock: at
// wall-clock time Wall (the frame every row is written in) the boot named Boot had been up
// for Up. After a restart on the same boot, the boot clock says exactly how much time has
// passed since, whatever the wall clock did meanwhile.
type checkpoint struct {
	Wall time.Time
	Boot string // "" when the boot clock could not be read
	Up   time.Duration
}

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

	sched time.Time // when its next ring (the first or a repeat) was meant to be, retries aside
	// open are the robots whose audit record of the next ring (Rings+1) is written and not
	// yet settled (acts.go); saved with the row, so a restart still settles them.
	open []string
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
	// A table from before the open column: add it.
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('timers') WHERE name = 'open'`).Scan(&n); err != nil {
		return nil, fmt.Errorf("timers table: %w", err)
	}
	if n == 0 {
		if _, err := db.ExecContext(ctx, `ALTER TABLE timers ADD COLUMN open TEXT NOT NULL DEFAULT ''`); err != nil {
			return nil, fmt.Errorf("timers table: %w", err)
		}
	}
	return &store{db: db}, nil
}

// wallMS is t in milliseconds of the wall clock as it reads at now: a time carrying a
// monotonic reading (every time the service makes) is placed by how far it is from now, so a
// wall-clock step since it was made does not move it.
func wallMS(t, now time.Time) int64 { return now.Add(t.Sub(now)).UnixMilli() }

func (s *store) insert(ctx context.Context, t *Timer, now time.Time) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO timers (id, device, room, label, seconds, created, due, rings, next_ring)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, t.Device, t.Room, t.Label, int64(t.Duration/time.Second),
		wallMS(t.Created, now), wallMS(t.Due, now), t.Rings, wallMS(t.NextRing, now))
	if err != nil {
		return fmt.Errorf("save timer: %w", err)
	}
	return nil
}

func (s *store) update(ctx context.Context, t *Timer, now time.Time) error {
	_, err := s.db.ExecContext(ctx, `UPDATE timers SET rings = ?, next_ring = ?, open = ? WHERE id = ?`,
		t.Rings, wallMS(t.NextRing, now), openText(t.open), t.ID)
	if err != nil {
		return fmt.Errorf("update timer: %w", err)
	}
	return nil
}

// openText is the open column: the robots as a JSON list, "" for none.
func openText(open []string) string {
	if len(open) == 0 {
		return ""
	}
	b, _ := json.Marshal(open)
	return string(b)
}

// setOpen saves the robots with an unsettled record of the timer's next ring.
func (s *store) setOpen(ctx context.Context, id string, open []string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE timers SET open = ? WHERE id = ?`, openText(open), id); err != nil {
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
	rows, err := s.db.QueryContext(ctx, `SELECT id, device, room, label, seconds, created, due, rings, next_ring, open FROM timers`)
	if err != nil {
		return nil, fmt.Errorf("load timers: %w", err)
	}
	defer rows.Close()
	var out []*Timer
	for rows.Next() {
		var t Timer
		var secs, created, due, next int64
		var open string
		if err := rows.Scan(&t.ID, &t.Device, &t.Room, &t.Label, &secs, &created, &due, &t.Rings, &next, &open); err != nil {
			return nil, fmt.Errorf("load timers: %w", err)
		}
		t.Duration = time.Duration(secs) * time.Second
		if open != "" {
			json.Unmarshal([]byte(open), &t.open) // unreadable: nothing open (a pending record stays pending)
		}
		t.Created, t.Due, t.NextRing = time.UnixMilli(created), time.UnixMilli(due), time.UnixMilli(next)
		t.sched = t.Due
		if t.Rings > 0 {
			t.sched = t.NextRing
		}
		out = append(out, &t)
	}
	return out, rows.Err()
}

// loadCheckpoint reads the checkpoint; ok is false when there is none yet.
func (s *store) loadCheckpoint(ctx context.Context) (cp checkpoint, ok bool, err error) {
	var wall, up int64
	err = s.db.QueryRowContext(ctx, `SELECT wall, boot, up FROM timers_clock WHERE k = 1`).Scan(&wall, &cp.Boot, &up)
	if errors.Is(err, sql.ErrNoRows) {
		return checkpoint{}, false, nil
	}
	if err != nil {
		return checkpoint{}, false, fmt.Errorf("load the timers' clock checkpoint: %w", err)
	}
	cp.Wall, cp.Up = time.UnixMilli(wall), time.Duration(up)*time.Millisecond
	return cp, true, nil
}

// rebase writes every live timer's times in the frame of cp.Wall (the wall clock as it
// reads now) and cp itself, in one transaction: the rows and the checkpoint always agree.
// With ts nil only the checkpoint is written.
func (s *store) rebase(ctx context.Context, cp checkpoint, ts []*Timer) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save the timers' clock checkpoint: %w", err)
	}
	defer tx.Rollback()
	for _, t := range ts {
		if _, err := tx.ExecContext(ctx, `UPDATE timers SET created = ?, due = ?, next_ring = ? WHERE id = ?`,
			wallMS(t.Created, cp.Wall), wallMS(t.Due, cp.Wall), wallMS(t.NextRing, cp.Wall), t.ID); err != nil {
			return fmt.Errorf("save a timer's remaining time: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO timers_clock (k, wall, boot, up) VALUES (1, ?, ?, ?)
		ON CONFLICT(k) DO UPDATE SET wall = excluded.wall, boot = excluded.boot, up = excluded.up`,
		cp.Wall.UnixMilli(), cp.Boot, cp.Up.Milliseconds()); err != nil {
		return fmt.Errorf("save the timers' clock checkpoint: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save the timers' clock checkpoint: %w", err)
	}
	return nil
}
