package store

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeWall is a wall clock some offset away from the real one; the offset may change while
// a store runs (a step of the clock).
type fakeWall struct{ offset atomic.Int64 }

func (w *fakeWall) now() time.Time           { return time.Now().Add(time.Duration(w.offset.Load())) }
func (w *fakeWall) set(offset time.Duration) { w.offset.Store(int64(offset)) }
func (w *fakeWall) step(by time.Duration)    { w.offset.Add(int64(by)) }

// logBuffer collects what a store logs.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) count(s string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Count(b.buf.String(), s)
}

const jumpLogged = "the wall clock jumped"

// counts is how many audit records and idempotency keys the store holds.
func counts(t *testing.T, st *Store) (audit, keys int) {
	t.Helper()
	if err := st.flushAudit(context.Background()); err != nil {
		t.Fatal(err)
	}
	st.db.QueryRow(`SELECT count(*) FROM audit`).Scan(&audit)
	st.db.QueryRow(`SELECT count(*) FROM idempotency`).Scan(&keys)
	return audit, keys
}

// turn records what a turn that acted records: its audit record, pending then settled, and
// its key, stamped with the wall clock as the broker stamps them.
func turn(t *testing.T, st *Store, wall func() time.Time, n int) {
	t.Helper()
	ctx := context.Background()
	id := fmt.Sprintf("turn-%d", n)
	rec := AuditRecord{Time: wall(), TurnID: id, Device: "robot", Route: "utterance", Intent: "house.light.set",
		Args: map[string]string{"room": "kitchen", "state": "on"}, Outcome: OutcomePending}
	key := &Key{Route: "/v1/utterances", BodyHash: []byte{1}, TurnID: id, Pending: true, Intent: "house.light.set", Kind: "write"}
	if err := st.RecordActuation(ctx, rec, id, key); err != nil {
		t.Fatal(err)
	}
	rec.Outcome, key.Pending, key.Outcome = OutcomeOK, false, OutcomeOK
	if err := st.SettleActuation(ctx, rec, id, key); err != nil {
		t.Fatal(err)
	}
	// and a read, written behind
	if err := st.QueueAudit(ctx, AuditRecord{Time: wall(), TurnID: id + "-read", Device: "robot", Route: "utterance",
		Intent: "time.now", Outcome: OutcomeOK}); err != nil {
		t.Fatal(err)
	}
}

// TestNoClockJumpDeletesKeysOrAudit (#38.2): a store restarted on a wall clock 2 days ahead,
// then 100 days ahead twice, then one hour back — with a turn recorded on each of those
// clocks and a purge at each start, as the broker runs it — keeps every audit record and
// every key. Each jump is logged once. Once the operator trusts the clock, retention runs by
// it again.
func TestNoClockJumpDeletesKeysOrAudit(t *testing.T) {
	dir := t.TempDir()
	wall := &fakeWall{}
	logs := &logBuffer{}
	open := func() *Store {
		t.Helper()
		st, err := OpenWith(dir, Options{Create: true, Now: wall.now, Log: slog.New(slog.NewTextHandler(logs, nil))})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	const retention = 90 * 24 * time.Hour
	st := open()
	for i := range 8 {
		turn(t, st, wall.now, i)
	}
	audit, keys := counts(t, st)
	t.Logf("start: %d audit records, %d keys", audit, keys)
	st.Close()

	n := 100
	for _, step := range []struct {
		name  string
		clock time.Duration // the wall clock's offset from the real one at this start
	}{
		{"+2 d", 48 * time.Hour},
		{"+100 d", 100 * 24 * time.Hour},
		{"+100 d again", 100 * 24 * time.Hour},
		{"-1 h", 100*24*time.Hour - time.Hour},
	} {
		jumpsBefore := logs.count(jumpLogged)
		wall.set(step.clock)
		st = open()
		p, err := st.Purge(context.Background(), retention)
		if err != nil {
			t.Fatalf("%s: purge: %v", step.name, err)
		}
		if p.Audit != 0 || p.Keys != 0 {
			t.Fatalf("%s: the purge removed %d audit records and %d keys", step.name, p.Audit, p.Keys)
		}
		a, k := counts(t, st)
		t.Logf("%s: %d audit records, %d keys after the restart and its purge (agreed for %s)", step.name, a, k, p.AgreedFor.Round(time.Second))
		if a != audit || k != keys {
			t.Fatalf("%s: %d audit records and %d keys, want %d and %d", step.name, a, k, audit, keys)
		}
		// A jump is logged once; a restart on a clock that agrees with the last one is not.
		wantJump := step.name != "+100 d again"
		if got := logs.count(jumpLogged) - jumpsBefore; (got == 1) != wantJump || got > 1 {
			t.Fatalf("%s: the jump was logged %d times", step.name, got)
		}
		turn(t, st, wall.now, n) // a turn in between, stamped on the jumped clock
		n++
		audit, keys = counts(t, st)
		st.Close()
	}

	// A step while the store runs holds the purge as well, and is logged once.
	st = open()
	jumps := logs.count(jumpLogged)
	wall.step(3 * 24 * time.Hour)
	if p, err := st.Purge(context.Background(), retention); err != nil || p.Audit != 0 || p.Keys != 0 {
		t.Fatalf("a step while running: %+v %v", p, err)
	}
	if _, err := st.Purge(context.Background(), retention); err != nil {
		t.Fatal(err)
	}
	if got := logs.count(jumpLogged) - jumps; got != 1 {
		t.Fatalf("a step while running was logged %d times", got)
	}
	if a, k := counts(t, st); a != audit || k != keys {
		t.Fatalf("a step while running: %d audit records and %d keys, want %d and %d", a, k, audit, keys)
	}
	c, err := st.Clock(context.Background())
	if err != nil || c.Jumps != 4 || c.AgreedFor() > time.Minute {
		t.Fatalf("the store's clock: %+v %v", c, err)
	}

	// The operator says the clock is right: keys older than a day by it go, and audit records
	// older than the retention period (the first turns' and the +2 d turn's: 18).
	if _, err := st.TrustClock(context.Background()); err != nil {
		t.Fatal(err)
	}
	p, err := st.Purge(context.Background(), retention)
	if err != nil {
		t.Fatal(err)
	}
	a, k := counts(t, st)
	t.Logf("trusted: the purge removed %d audit records and %d keys; %d and %d left", p.Audit, p.Keys, a, k)
	if p.Audit != 18 || k != 0 || a != audit-18 {
		t.Fatalf("after the operator trusted the clock: removed %d audit records, %d keys left", p.Audit, k)
	}
	st.Close()
	// The trust outlives a restart on the same clock.
	st = open()
	defer st.Close()
	if c, err := st.Clock(context.Background()); err != nil || !c.AgreedSince.IsZero() {
		t.Fatalf("the operator's trust was lost at a restart: %+v %v", c, err)
	}
}

// TestRetentionResumesOnceTheClockHasAgreed (#38.2): after a jump, keys expire once the clock
// has agreed with the store for longer than a day, audit records only after the retention
// period; until then nothing goes.
func TestRetentionResumesOnceTheClockHasAgreed(t *testing.T) {
	dir := t.TempDir()
	wall := &fakeWall{}
	open := func() *Store {
		t.Helper()
		st, err := OpenWith(dir, Options{Create: true, Now: wall.now, Log: slog.New(slog.NewTextHandler(&logBuffer{}, nil))})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	const retention = 30 * 24 * time.Hour
	st := open()
	turn(t, st, wall.now, 1)
	st.Close()
	wall.set(40 * 24 * time.Hour) // 40 days on: a jump, or a broker stopped that long
	st = open()
	turn(t, st, wall.now, 2)
	agreedAgo := func(d time.Duration) {
		t.Helper()
		// As if this clock had agreed with the store, checkpoint after checkpoint, for d (Close
		// saves it).
		st.clock.mu.Lock()
		st.clock.agreedSince = wall.now().Add(-d)
		st.clock.mu.Unlock()
		st.Close()
		st = open()
	}
	purge := func() (int, int) {
		t.Helper()
		if _, err := st.Purge(context.Background(), retention); err != nil {
			t.Fatal(err)
		}
		return counts(t, st)
	}
	if a, k := purge(); a != 4 || k != 2 {
		t.Fatalf("right after the jump: %d audit records, %d keys; want all (4, 2)", a, k)
	}
	agreedAgo(23 * time.Hour)
	if a, k := purge(); a != 4 || k != 2 {
		t.Fatalf("agreed for 23 h: %d audit records, %d keys; want all (4, 2)", a, k)
	}
	agreedAgo(25 * time.Hour)
	if a, k := purge(); a != 4 || k != 1 {
		t.Fatalf("agreed for 25 h: %d audit records, %d keys; want 4 and the new key", a, k)
	}
	agreedAgo(retention + time.Hour)
	if a, k := purge(); a != 2 || k != 1 {
		t.Fatalf("agreed for longer than the retention: %d audit records, %d keys; want the new turn's (2, 1)", a, k)
	}
	st.Close()
}

// TestTheClockChecksItself: the clock agrees while the wall clock and the monotonic one
// advance together, and a step either way beyond a minute restarts the agreement.
func TestTheClockChecksItself(t *testing.T) {
	var wall time.Time = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	var mono time.Duration
	c := trustClock{wall: func() time.Time { return wall }, mono: func() time.Duration { return mono },
		log: slog.New(slog.NewTextHandler(&logBuffer{}, nil))}
	c.lastWall, c.agreedSince = wall, wall.Add(-48*time.Hour)
	advance := func(w, m time.Duration) ClockState { wall, mono = wall.Add(w), mono+m; return c.check() }
	if s := advance(10*time.Minute, 10*time.Minute+20*time.Second); s.AgreedFor() < 48*time.Hour || s.Jumps != 0 {
		t.Fatalf("a drift of 20 s restarted the agreement: %+v", s)
	}
	if s := advance(72*time.Hour, time.Minute); s.AgreedFor() != 0 || s.Jumps != 1 || s.LastJump < 71*time.Hour {
		t.Fatalf("a step of 3 days ahead: %+v", s)
	}
	if s := advance(-time.Hour, time.Minute); s.AgreedFor() != 0 || s.Jumps != 2 || s.LastJump > -time.Hour {
		t.Fatalf("a step of an hour back: %+v", s)
	}
	if s := advance(5*time.Minute, 5*time.Minute); s.AgreedFor() != 5*time.Minute {
		t.Fatalf("agreeing again: %+v", s)
	}
}

// TestKeyCapEvictsByOrderWrittenNotByClock: a device at its key cap loses the key written
// longest ago, even when the wall clock stepped back a day before the newest key was
// written (by the clock, the newest would look the oldest and be dropped at once).
func TestKeyCapEvictsByOrderWrittenNotByClock(t *testing.T) {
	wall := &fakeWall{}
	st, err := OpenWith(t.TempDir(), Options{Create: true, Now: wall.now, Log: slog.New(slog.NewTextHandler(&logBuffer{}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.SetKeyCap(3)
	ctx := context.Background()
	put := func(key string) {
		t.Helper()
		if err := st.StoreKey(ctx, "robot", key, Key{Route: "/v1/utterances", BodyHash: []byte{1}, TurnID: key, Intent: "time.now", Kind: "read"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []string{"k0", "k1", "k2"} {
		put(k)
	}
	wall.step(-24 * time.Hour)
	put("k3")
	for key, want := range map[string]bool{"k0": false, "k1": true, "k2": true, "k3": true} {
		got, err := st.lookupKey(ctx, "robot", key)
		if err != nil {
			t.Fatal(err)
		}
		if (got != nil) != want {
			t.Errorf("key %s kept = %v, want %v (the cap dropped by the clock, not by the order written)", key, got != nil, want)
		}
	}
}
