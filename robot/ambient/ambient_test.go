package ambient

import (
	"context"
	"runtime"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"
)

// fakeClock fires AfterFuncs when the test advances it.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	pending []*fakeTimer
}

type fakeTimer struct {
	c    *fakeClock
	at   time.Time
	f    func()
	dead bool
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.dead
	t.dead = true
	return was
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *fakeClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now.Add(d), f: f}
	c.pending = append(c.pending, t)
	return t
}

// armed counts the timers still waiting to fire.
func (c *fakeClock) armed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.pending {
		if !t.dead {
			n++
		}
	}
	return n
}

// advance moves time by d, firing every timer that falls due on the way, in order.
func (c *fakeClock) advance(d time.Duration) {
	end := c.Now().Add(d)
	for {
		c.mu.Lock()
		sort.Slice(c.pending, func(i, j int) bool { return c.pending[i].at.Before(c.pending[j].at) })
		var next *fakeTimer
		for _, t := range c.pending {
			if !t.dead && !t.at.After(end) {
				next = t
				break
			}
		}
		if next == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		next.dead = true
		c.now = next.at
		c.mu.Unlock()
		next.f()
	}
}

type fakeBody struct {
	mu      sync.Mutex
	busy    bool
	session bool
	did     []string
	doa     []*float64
}

func (b *fakeBody) Busy() bool          { b.mu.Lock(); defer b.mu.Unlock(); return b.busy }
func (b *fakeBody) SessionActive() bool { b.mu.Lock(); defer b.mu.Unlock(); return b.session }
func (b *fakeBody) Do(ctx context.Context, m string, doa *float64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.did = append(b.did, m)
	b.doa = append(b.doa, doa)
	return nil
}
func (b *fakeBody) moves() []string { b.mu.Lock(); defer b.mu.Unlock(); return slices.Clone(b.did) }
func (b *fakeBody) set(busy, session bool) {
	b.mu.Lock()
	b.busy, b.session = busy, session
	b.mu.Unlock()
}

func newRig(t *testing.T, cfg Config, at string) (*Scheduler, *fakeClock, *fakeBody) {
	t.Helper()
	start, err := time.Parse("2006-01-02 15:04", "2026-12-01 "+at)
	if err != nil {
		t.Fatal(err)
	}
	c := &fakeClock{now: start}
	b := &fakeBody{}
	s, err := New(cfg, b, c, 42, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	t.Cleanup(s.Stop)
	return s, c, b
}

// TestAmbientMovesWhenIdle: on an idle robot, motions come at random around the mean, from
// the configured set only, and with one timer armed at any time.
func TestAmbientMovesWhenIdle(t *testing.T) {
	s, c, b := newRig(t, Config{Mean: 3 * time.Minute, Motions: []string{LookAround, Twitch, Peekaboo, Glance}, QuietHours: "21:00-07:00"}, "10:00")
	doa := 0.5
	s.Heard(&doa, false)
	for i := 0; i < 60; i++ {
		c.advance(time.Minute)
		if n := c.armed(); n != 1 {
			t.Fatalf("%d timers armed, want one", n)
		}
	}
	got := b.moves()
	// An hour at a 3-minute mean: about 20 (the interval is clamped to 45 s .. 9 min).
	if len(got) < 8 || len(got) > 60 {
		t.Fatalf("%d motions in an hour at a 3-minute mean: %v", len(got), got)
	}
	seen := map[string]bool{}
	for _, m := range got {
		if !slices.Contains([]string{LookAround, Twitch, Peekaboo, Glance}, m) {
			t.Fatalf("a motion outside the configured set: %s", m)
		}
		seen[m] = true
	}
	if len(seen) < 3 {
		t.Fatalf("only %v in an hour", seen)
	}
	// The same seed makes the same motions at the same times.
	s2, c2, b2 := newRig(t, Config{Mean: 3 * time.Minute, Motions: []string{LookAround, Twitch, Peekaboo, Glance}, QuietHours: "21:00-07:00"}, "10:00")
	s2.Heard(&doa, false)
	c2.advance(time.Hour)
	if !slices.Equal(b2.moves(), got) {
		t.Fatalf("not deterministic:\n%v\n%v", b2.moves(), got)
	}
}

// TestAmbientNeverInterrupts: no motion while the robot speaks or listens, during a teleport
// session, in quiet time or in the quiet hours; a loud sound startles only an idle robot, at
// most once a minute; yawns only in the evening.
func TestAmbientNeverInterrupts(t *testing.T) {
	cfg := Config{Mean: time.Minute, QuietHours: "21:00-07:00"}
	for _, c := range []struct {
		name  string
		at    string
		setup func(s *Scheduler, b *fakeBody, now time.Time)
	}{
		{"speaking or listening", "10:00", func(s *Scheduler, b *fakeBody, _ time.Time) { b.set(true, false) }},
		{"a teleport call", "10:00", func(s *Scheduler, b *fakeBody, _ time.Time) { b.set(false, true) }},
		{"quiet time", "10:00", func(s *Scheduler, b *fakeBody, now time.Time) { s.QuietUntil(now.Add(3 * time.Hour)) }},
		{"quiet hours", "21:30", func(*Scheduler, *fakeBody, time.Time) {}},
		{"quiet hours past midnight", "02:00", func(*Scheduler, *fakeBody, time.Time) {}},
	} {
		s, clk, b := newRig(t, cfg, c.at)
		c.setup(s, b, clk.Now())
		s.Heard(nil, true)
		clk.advance(2 * time.Hour)
		if got := b.moves(); len(got) != 0 {
			t.Errorf("%s: moved %v", c.name, got)
		}
		if clk.armed() != 1 {
			t.Errorf("%s: %d timers armed", c.name, clk.armed())
		}
	}
	// Quiet time ends: the robot moves again.
	s, clk, b := newRig(t, cfg, "10:00")
	s.QuietUntil(clk.Now().Add(30 * time.Minute))
	clk.advance(29 * time.Minute)
	if len(b.moves()) != 0 {
		t.Fatal("moved in quiet time")
	}
	clk.advance(time.Hour)
	if len(b.moves()) == 0 {
		t.Fatal("no motion after quiet time ended")
	}
	// Startle: at once on an idle robot, not twice within a minute.
	s, clk, b = newRig(t, Config{Mean: time.Hour}, "10:00")
	s.Heard(nil, true)
	s.Heard(nil, true)
	waitMoves(t, b, 1)
	clk.advance(time.Minute)
	s.Heard(nil, true)
	if got := waitMoves(t, b, 2); got[1] != Startle {
		t.Fatalf("second startle a minute later: %v", got)
	}
	// Yawns only in the evening (19:00 until the quiet hours).
	_, clk, b = newRig(t, Config{Mean: time.Minute, Motions: []string{Yawn}, QuietHours: "21:00-07:00"}, "12:00")
	clk.advance(3 * time.Hour)
	if len(b.moves()) != 0 {
		t.Fatalf("yawned in the afternoon: %v", b.moves())
	}
	clk.advance(5 * time.Hour) // to 20:00
	if len(b.moves()) == 0 {
		t.Fatal("no yawn in the evening")
	}
}

// waitMoves waits (bounded) for n motions, and for no more to come.
func waitMoves(t *testing.T, b *fakeBody, n int) []string {
	t.Helper()
	for i := 0; i < 200 && len(b.moves()) < n; i++ {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
	got := b.moves()
	if len(got) != n {
		t.Fatalf("motions %v, want %d", got, n)
	}
	for _, m := range got {
		if m != Startle {
			t.Fatalf("motions %v, want startles only", got)
		}
	}
	return got
}

// TestAmbientConfigIsClosed: an unknown motion or a malformed quiet-hours span is refused.
func TestAmbientConfigIsClosed(t *testing.T) {
	for _, cfg := range []Config{{Motions: []string{"backflip"}}, {QuietHours: "9pm-7am"}, {Mean: time.Second}, {EveningFrom: "25:00"}} {
		if _, err := New(cfg, &fakeBody{}, &fakeClock{}, 1, nil); err == nil {
			t.Errorf("%+v was accepted", cfg)
		}
	}
}

// TestAmbientIdleCostsOneTimer: on the real clock, a running scheduler adds no goroutine
// while it waits — one runtime timer, no polling loop.
func TestAmbientIdleCostsOneTimer(t *testing.T) {
	runtime.GC()
	before := runtime.NumGoroutine()
	b := &fakeBody{}
	s, err := New(Config{Mean: time.Hour}, b, nil, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	defer s.Stop()
	time.Sleep(200 * time.Millisecond)
	if after := runtime.NumGoroutine(); after != before {
		t.Fatalf("goroutines %d -> %d while idle", before, after)
	}
	if len(b.moves()) != 0 {
		t.Fatal("moved before its first interval")
	}
}
