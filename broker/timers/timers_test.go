package timers

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/intents"

	_ "modernc.org/sqlite"
)

var t0 = time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC)

// fakeLink is a robot link whose robots ack what they get (or refuse it, or are gone).
type fakeLink struct {
	mu        sync.Mutex
	connected []string
	sent      []sentMsg
	answer    func(dev string, m api.LinkMessage) (api.LinkAckBody, error)
	silent    map[string]bool // robots whose link is up but that never ack (a hung hub)
}

type sentMsg struct {
	Dev string
	M   api.LinkMessage
	At  time.Time
}

func (f *fakeLink) Send(ctx context.Context, dev string, m api.LinkMessage) (api.LinkAckBody, error) {
	f.mu.Lock()
	ans := f.answer
	f.sent = append(f.sent, sentMsg{Dev: dev, M: m, At: time.Now()})
	silent := f.silent[dev]
	f.mu.Unlock()
	if silent {
		<-ctx.Done()
		return api.LinkAckBody{}, ctx.Err()
	}
	if ans != nil {
		return ans(dev, m)
	}
	return api.LinkAckBody{OK: true}, nil
}

func (f *fakeLink) Connected() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.connected...)
}

func (f *fakeLink) of(typ string) []sentMsg {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []sentMsg
	for _, s := range f.sent {
		if s.M.Type == typ {
			out = append(out, s)
		}
	}
	return out
}

func (f *fakeLink) reset() {
	f.mu.Lock()
	f.sent = nil
	f.mu.Unlock()
}

// textSynth "speaks" by returning the sentence's bytes, so tests can read what was said.
type textSynth struct{}

func (textSynth) Synthesize(ctx context.Context, text string) ([]byte, error) {
	return []byte(text), nil
}

type rig struct {
	t      testing.TB
	dir    string
	db     *sql.DB
	mu     sync.Mutex
	audits []Record // one per act (ID and device), as the broker's audit log keeps them
	writes []Record // every write, in order
	clock  *ManualClock
	link   *fakeLink
	svc    *Service
	follow []string
	audit  func(context.Context, Record) error
	robots []string // the robots the broker knows (Deps.Robots), linked or not
	forget bool     // Deps.ForgetEarlier: a dev broker on its default state directory
}

var rooms = map[string]string{"kitchen-robot": "kitchen", "laptop": "kitchen", "den-robot": "office"}

func newRig(t testing.TB) *rig {
	t.Helper()
	r := &rig{t: t, dir: t.TempDir(), clock: NewManualClock(t0), link: &fakeLink{connected: []string{"kitchen-robot", "den-robot"}}}
	r.open()
	return r
}

func (r *rig) open() {
	r.t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(r.dir, "state.db")+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)")
	if err != nil {
		r.t.Fatal(err)
	}
	// One connection, as the broker's state store has (several writers on their own
	// connections would wait on SQLite's busy handler instead of on each other).
	db.SetMaxOpenConns(1)
	r.t.Cleanup(func() { db.Close() })
	r.db = db
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS audit (time INTEGER, id TEXT, device TEXT, intent TEXT, outcome TEXT)`); err != nil {
		r.t.Fatal(err)
	}
	svc, err := Open(context.Background(), Deps{DB: db, Clock: r.clock, Link: r.link, Synth: textSynth{},
		Audit: func(ctx context.Context, rec Record) error {
			if r.audit != nil {
				if err := r.audit(ctx, rec); err != nil {
					return err
				}
			}
			if _, err := db.ExecContext(ctx, `INSERT INTO audit VALUES (?, ?, ?, ?, ?)`, rec.Time.UnixMilli(), rec.ID, rec.Device, rec.Intent, rec.Outcome); err != nil {
				return err
			}
			// The broker's audit log writes each act's record once and settles it once
			// (broker.TimerAudit): so does this one.
			r.mu.Lock()
			defer r.mu.Unlock()
			r.writes = append(r.writes, rec)
			i := slices.IndexFunc(r.audits, func(o Record) bool { return o.ID == rec.ID && o.Device == rec.Device })
			switch {
			case i < 0:
				r.audits = append(r.audits, rec)
			case rec.Outcome != "pending" && r.audits[i].Outcome == "pending":
				r.audits[i] = rec
			}
			return nil
		},
		RoomOf:        func(d string) string { return rooms[d] },
		Robots:        func() []string { return r.robots },
		ForgetEarlier: r.forget,
		FollowUp:      func(d string) { r.follow = append(r.follow, d) }})
	if err != nil {
		r.t.Fatal(err)
	}
	r.svc = svc
}

func (r *rig) call(intent string, args map[string]string) intents.Answer {
	r.t.Helper()
	h := r.svc.Handlers()[intent]
	a, err := h.Handle(context.Background(), intents.Call{Device: "laptop", Room: rooms["laptop"], Args: args})
	if err != nil {
		r.t.Fatalf("%s: %v", intent, err)
	}
	return a
}

func (r *rig) tickAt(d time.Duration) {
	r.clock.Set(t0.Add(d))
	r.svc.Tick(context.Background())
}

func (r *rig) rings() []sentMsg { return r.link.of(api.LinkRing) }

func said(m sentMsg) string { return string(m.M.Ring.WAV) }

func TestTimerFiresAtItsTime(t *testing.T) {
	r := newRig(t)
	a := r.call(HandlerStart, map[string]string{"duration": "180", "label": "pasta"})
	if a.Reply != "Okay. Pasta timer set for three minutes." {
		t.Fatalf("reply %q", a.Reply)
	}
	r.tickAt(179 * time.Second)
	if n := len(r.rings()); n != 0 {
		t.Fatalf("rang %d times a second early", n)
	}
	r.tickAt(180 * time.Second)
	rings := r.rings()
	if len(rings) != 1 || rings[0].Dev != "kitchen-robot" || said(rings[0]) != "Your pasta timer is done." || rings[0].M.Ring.Repeat != 1 {
		t.Fatalf("rings %+v", rings)
	}
	if x := r.link.of(api.LinkExpression); len(x) != 1 || x[0].M.Expression != "surprised" {
		t.Fatalf("expression %+v", x)
	}
	if len(r.follow) != 1 || r.follow[0] != "kitchen-robot" {
		t.Fatalf("follow-up window not opened on the robot: %v", r.follow)
	}
	// The ring is audited, with the label and no words.
	r.mu.Lock()
	recs := r.audits
	r.mu.Unlock()
	found := false
	for _, rec := range recs {
		if rec.Intent == "timer.ring" && rec.Device == "kitchen-robot" && rec.Args["label"] == "pasta" {
			found = true
		}
	}
	if !found {
		t.Fatalf("no audit record of the ring: %+v", recs)
	}
}

func TestRunLoopRingsWithInjectedClock(t *testing.T) {
	r := newRig(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.svc.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	r.call(HandlerStart, map[string]string{"duration": "600"})
	waitFor(t, func() bool { return r.clock.Waiters() == 2 && len(r.link.of(api.LinkTimers)) > 0 })
	r.clock.Advance(599 * time.Second)
	waitFor(t, func() bool { return r.clock.Waiters() == 2 })
	if len(r.rings()) != 0 {
		t.Fatal("rang early")
	}
	r.clock.Advance(time.Second)
	waitFor(t, func() bool { return len(r.rings()) == 1 })
	if said(r.rings()[0]) != "Your timer is done." {
		t.Fatalf("said %q", said(r.rings()[0]))
	}
}

// waitFor polls cond (bounded). Run's two goroutines asleep on the clock show as
// Waiters() == 2: the scheduler's and the clock checkpoint's.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5s")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestRepeatsEvery30sThreeTimesThenStops(t *testing.T) {
	r := newRig(t)
	r.call(HandlerStart, map[string]string{"duration": "60", "label": "eggs"})
	for _, at := range []time.Duration{60, 89, 90, 119, 120, 150, 180, 300} {
		r.tickAt(at * time.Second)
	}
	rings := r.rings()
	if len(rings) != 3 {
		t.Fatalf("%d rings, want 3", len(rings))
	}
	for i, want := range []time.Duration{60, 90, 120} {
		if rings[i].M.Ring.Repeat != i+1 {
			t.Fatalf("ring %d has repeat %d", i, rings[i].M.Ring.Repeat)
		}
		_ = want
	}
	if r.svc.Pending() != 0 {
		t.Fatal("a rung-out timer is still live")
	}
}

func TestStopSilencesARingingTimer(t *testing.T) {
	r := newRig(t)
	r.call(HandlerStart, map[string]string{"duration": "60", "label": "tea"})
	r.tickAt(60 * time.Second)
	stop := StopRinging{Timers: r.svc, Next: intents.HandlerFunc(func(ctx context.Context, c intents.Call) (intents.Answer, error) {
		return intents.Answer{Expression: intents.ExpressionStop}, nil
	})}
	a, err := stop.Handle(context.Background(), intents.Call{Device: "kitchen-robot", Room: "kitchen"})
	if err != nil || a.Reply != "Okay." || a.Expression != intents.ExpressionStop {
		t.Fatalf("%+v %v", a, err)
	}
	r.tickAt(90 * time.Second)
	r.tickAt(120 * time.Second)
	if n := len(r.rings()); n != 1 {
		t.Fatalf("%d rings after stop, want only the first", n)
	}
}

func TestStopDoesNotTouchPendingTimers(t *testing.T) {
	r := newRig(t)
	r.call(HandlerStart, map[string]string{"duration": "60", "label": "rice"})
	if n, _ := r.svc.Silence(context.Background(), "kitchen-robot"); n != 0 {
		t.Fatalf("stop silenced %d pending timers", n)
	}
	if r.svc.Pending() != 1 {
		t.Fatal("a pending timer was lost")
	}
}

func TestStatusWhileRunning(t *testing.T) {
	r := newRig(t)
	if a := r.call(HandlerStatus, nil); a.Reply != "There are no timers running." {
		t.Fatalf("%q", a.Reply)
	}
	r.call(HandlerStart, map[string]string{"duration": "300", "label": "pasta"})
	r.clock.Set(t0.Add(50 * time.Second))
	if a := r.call(HandlerStatus, nil); a.Reply != "The pasta timer has four minutes and ten seconds left." {
		t.Fatalf("%q", a.Reply)
	}
	if a := r.call(HandlerStatus, map[string]string{"label": "eggs"}); a.Reply != "There's no eggs timer running." {
		t.Fatalf("%q", a.Reply)
	}
	r.call(HandlerStart, map[string]string{"duration": "3600"})
	a := r.call(HandlerStatus, nil)
	if a.Reply != "You have two timers: the pasta timer has four minutes and ten seconds left and the one-hour timer has one hour left." {
		t.Fatalf("%q", a.Reply)
	}
	// Another room has its own timers.
	h := r.svc.Handlers()[HandlerStatus]
	b, _ := h.Handle(context.Background(), intents.Call{Device: "den-robot", Room: "office"})
	if b.Reply != "There are no timers running." {
		t.Fatalf("office sees the kitchen's timers: %q", b.Reply)
	}
}

func TestCancel(t *testing.T) {
	r := newRig(t)
	if a := r.call(HandlerCancel, nil); a.Reply != "There are no timers running." {
		t.Fatalf("%q", a.Reply)
	}
	r.call(HandlerStart, map[string]string{"duration": "300", "label": "pasta"})
	if a := r.call(HandlerCancel, nil); a.Reply != "Okay, I cancelled the pasta timer." {
		t.Fatalf("%q", a.Reply)
	}
	r.tickAt(400 * time.Second)
	if len(r.rings()) != 0 || r.svc.Pending() != 0 {
		t.Fatal("a cancelled timer rang")
	}
}

func TestTwoTimersCancelAsksWhich(t *testing.T) {
	r := newRig(t)
	r.call(HandlerStart, map[string]string{"duration": "300", "label": "pasta"})
	r.call(HandlerStart, map[string]string{"duration": "420", "label": "eggs"})
	a := r.call(HandlerCancel, nil)
	if a.Reply != "You have two timers: the pasta timer or the eggs timer. Which one should I cancel?" || !a.FollowUp {
		t.Fatalf("%+v", a)
	}
	if r.svc.Pending() != 2 {
		t.Fatal("asking cancelled something")
	}
	if a := r.call(HandlerCancel, map[string]string{"label": "eggs"}); a.Reply != "Okay, I cancelled the eggs timer." {
		t.Fatalf("%q", a.Reply)
	}
	left := r.svc.List("laptop", "kitchen")
	if len(left) != 1 || left[0].Label != "pasta" {
		t.Fatalf("left %+v", left)
	}
	r.call(HandlerStart, map[string]string{"duration": "60"})
	if a := r.call(HandlerCancel, map[string]string{"label": "all"}); a.Reply != "Okay, I cancelled two timers." {
		t.Fatalf("%q", a.Reply)
	}
}

func TestCancelTheTimerWhileOneRingsCancelsThatOne(t *testing.T) {
	r := newRig(t)
	r.call(HandlerStart, map[string]string{"duration": "60", "label": "pasta"})
	r.call(HandlerStart, map[string]string{"duration": "600", "label": "oven"})
	r.tickAt(60 * time.Second)
	if a := r.call(HandlerCancel, nil); a.Reply != "Okay, I cancelled the pasta timer." {
		t.Fatalf("%q", a.Reply)
	}
}

func TestStartRefusesOutOfRange(t *testing.T) {
	r := newRig(t)
	for _, d := range []string{"0", "86401", "-5", "ten", ""} {
		a := r.call(HandlerStart, map[string]string{"duration": d})
		if !strings.Contains(a.Reply, "one second to twenty-four hours") {
			t.Fatalf("%q: %q", d, a.Reply)
		}
	}
	if r.svc.Pending() != 0 {
		t.Fatal("an out-of-range timer was set")
	}
	r.call(HandlerStart, map[string]string{"duration": "86400"})
	if r.svc.Pending() != 1 {
		t.Fatal("a 24 h timer was refused")
	}
}

func TestRoomLimit(t *testing.T) {
	r := newRig(t)
	for range 20 {
		r.call(HandlerStart, map[string]string{"duration": "60"})
	}
	if a := r.call(HandlerStart, map[string]string{"duration": "60"}); !strings.Contains(a.Reply, "already twenty timers") {
		t.Fatalf("%q", a.Reply)
	}
}

func TestRestartKeepsTimerAndRingsLateSayingSo(t *testing.T) {
	r := newRig(t)
	r.call(HandlerStart, map[string]string{"duration": "60", "label": "pasta"})
	r.db.Close()
	// The broker is down while the timer comes due; it is back two minutes later.
	r.clock.Set(t0.Add(3 * time.Minute))
	r.open()
	if r.svc.Pending() != 1 {
		t.Fatal("the timer was not kept across the restart")
	}
	r.svc.Tick(context.Background())
	rings := r.rings()
	if len(rings) != 1 || said(rings[0]) != "Your pasta timer went off two minutes ago." {
		t.Fatalf("rings %+v", rings)
	}
	// The repeats say it is done.
	r.tickAt(3*time.Minute + 30*time.Second)
	if rings := r.rings(); len(rings) != 2 || said(rings[1]) != "Your pasta timer is done." {
		t.Fatalf("rings %+v", rings)
	}
}

// A dev broker on its default state directory starts without the timers of an earlier run:
// the tour's three-second pasta timer never rings in the next run (it is let go, audited
// missed earlier_run, and shown as missed).
func TestDevRunForgetsEarlierRunsTimers(t *testing.T) {
	r := newRig(t)
	r.call(HandlerStart, map[string]string{"duration": "3", "label": "pasta"})
	r.db.Close()
	r.clock.Set(t0.Add(2 * time.Second))
	r.forget = true
	r.open()
	r.tickAt(10 * time.Second)
	r.tickAt(time.Minute)
	if n := len(r.rings()); n != 0 || r.svc.Pending() != 0 {
		t.Fatalf("a timer of an earlier dev run rang %d times (pending %d)", n, r.svc.Pending())
	}
	missed := r.svc.MissedTimers()
	if len(missed) != 1 || missed[0].Reason != MissedEarlier || missed[0].Label != "pasta" {
		t.Fatalf("missed: %+v", missed)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if last := r.audits[len(r.audits)-1]; last.Outcome != "missed" {
		t.Fatalf("not audited missed: %+v", last)
	}
}

func TestPastGraceIsNotRung(t *testing.T) {
	r := newRig(t)
	r.call(HandlerStart, map[string]string{"duration": "60"})
	r.db.Close()
	r.clock.Set(t0.Add(time.Minute + 16*time.Minute))
	r.open()
	r.svc.Tick(context.Background())
	if len(r.rings()) != 0 || r.svc.Pending() != 0 {
		t.Fatal("a timer past the grace window rang or stayed")
	}
}

func TestARingingTimerIsNotRepeatedHoursLate(t *testing.T) {
	r := newRig(t)
	r.call(HandlerStart, map[string]string{"duration": "60"})
	r.tickAt(60 * time.Second)
	r.db.Close()
	// Down for an hour between the first ring and its repeat.
	r.clock.Set(t0.Add(time.Hour))
	r.open()
	r.svc.Tick(context.Background())
	if n := len(r.rings()); n != 1 || r.svc.Pending() != 0 {
		t.Fatalf("%d rings, %d live", n, r.svc.Pending())
	}
}

func TestHubThatRangLocallyWinsTheRace(t *testing.T) {
	r := newRig(t)
	r.link.answer = func(dev string, m api.LinkMessage) (api.LinkAckBody, error) {
		if m.Type == api.LinkRing {
			return api.LinkAckBody{OK: false, Code: api.LinkErrAlreadyRang}, nil
		}
		return api.LinkAckBody{OK: true}, nil
	}
	r.call(HandlerStart, map[string]string{"duration": "60", "label": "pasta"})
	r.tickAt(60 * time.Second)
	r.tickAt(90 * time.Second)
	if n := len(r.rings()); n != 1 {
		t.Fatalf("broker kept ringing (%d) a timer the hub rang", n)
	}
	if r.svc.Pending() != 0 {
		t.Fatal("a timer the hub rang is still live")
	}
	if n := len(r.link.of(api.LinkExpression)); n != 0 {
		t.Fatal("the broker moved the robot for a ring the hub made")
	}
}

func TestHubRangReportEndsTheTimer(t *testing.T) {
	r := newRig(t)
	r.call(HandlerStart, map[string]string{"duration": "60", "label": "pasta"})
	id := r.svc.List("laptop", "kitchen")[0].ID
	// A robot of another room cannot end the kitchen's timer.
	r.svc.HubRang(context.Background(), "den-robot", []string{id})
	if r.svc.Pending() != 1 {
		t.Fatal("another room's robot ended the timer")
	}
	r.svc.HubRang(context.Background(), "kitchen-robot", []string{id})
	r.tickAt(61 * time.Second)
	if len(r.rings()) != 0 || r.svc.Pending() != 0 {
		t.Fatal("the broker rang a timer the hub reported rung")
	}
}

func TestNoRobotConnectedRetriesThenRings(t *testing.T) {
	r := newRig(t)
	r.link.connected = nil
	r.call(HandlerStart, map[string]string{"duration": "60", "label": "pasta"})
	r.tickAt(60 * time.Second)
	r.tickAt(61 * time.Second)
	if len(r.rings()) != 0 {
		t.Fatal("rang with nobody connected")
	}
	r.link.mu.Lock()
	r.link.connected = []string{"kitchen-robot"}
	r.link.mu.Unlock()
	r.tickAt(62 * time.Second)
	if len(r.rings()) != 1 {
		t.Fatal("did not ring when the robot came back")
	}
}

func TestUndeliveredFirstRingIsTriedAgain(t *testing.T) {
	r := newRig(t)
	fail := true
	r.link.answer = func(dev string, m api.LinkMessage) (api.LinkAckBody, error) {
		if m.Type == api.LinkRing && fail {
			return api.LinkAckBody{}, errors.New("link down")
		}
		return api.LinkAckBody{OK: true}, nil
	}
	r.call(HandlerStart, map[string]string{"duration": "60"})
	r.tickAt(60 * time.Second)
	fail = false
	r.tickAt(62 * time.Second)
	rings := r.rings()
	if len(rings) != 2 || rings[1].M.Ring.Repeat != 1 {
		t.Fatalf("rings %+v", rings)
	}
	// Both sendings are one ring: one record, opened before the first was sent and
	// settled once, with what became of the ring.
	r.mu.Lock()
	defer r.mu.Unlock()
	var codes []string
	for _, rec := range r.audits {
		codes = append(codes, rec.ID+" "+rec.Outcome+"/"+rec.Code)
	}
	if want := rings[0].M.Ring.TimerID + "-1 ok/"; strings.Join(codes, " ") != want {
		t.Fatalf("audit %v, want [%s]", codes, want)
	}
}

func TestNoRingWithoutItsAuditRecord(t *testing.T) {
	r := newRig(t)
	r.audit = func(ctx context.Context, rec Record) error { return errors.New("disk full") }
	r.call(HandlerStart, map[string]string{"duration": "60"})
	r.tickAt(60 * time.Second)
	if n := len(r.rings()); n != 0 {
		t.Fatalf("rang %d times without an audit record", n)
	}
	r.audit = nil
	r.tickAt(62 * time.Second)
	if n := len(r.rings()); n != 1 {
		t.Fatalf("did not ring once the audit log worked: %d", n)
	}
}

func TestHubGetsItsRoomsPendingTimers(t *testing.T) {
	r := newRig(t)
	r.call(HandlerStart, map[string]string{"duration": "60", "label": "pasta"})
	r.svc.Tick(context.Background())
	copies := r.link.of(api.LinkTimers)
	if len(copies) != 1 || copies[0].Dev != "kitchen-robot" {
		t.Fatalf("copies %+v", copies)
	}
	ts := copies[0].M.Timers
	if len(ts) != 1 || ts[0].Label != "pasta" || !ts[0].Due.Equal(t0.Add(time.Minute)) || ts[0].ID == "" {
		t.Fatalf("timers %+v", ts)
	}
	// After the broker rang it, the hub's copy no longer holds it.
	r.link.reset()
	r.tickAt(60 * time.Second)
	copies = r.link.of(api.LinkTimers)
	if len(copies) != 1 || len(copies[0].M.Timers) != 0 {
		t.Fatalf("copies after ring %+v", copies)
	}
	// A robot that connects gets the list at once.
	r.call(HandlerStart, map[string]string{"duration": "600", "label": "oven"})
	r.link.reset()
	r.svc.HubConnected(context.Background(), "kitchen-robot")
	waitFor(t, func() bool { return len(r.link.of(api.LinkTimers)) > 0 })
	copies = r.link.of(api.LinkTimers)
	if len(copies) != 1 || len(copies[0].M.Timers) != 1 || copies[0].M.Timers[0].Label != "oven" {
		t.Fatalf("copies on connect %+v", copies)
	}
}

func TestUnlabelledTimersAreNamedByTheirLength(t *testing.T) {
	for d, want := range map[time.Duration]string{
		10 * time.Minute: "the ten-minute timer",
		2 * time.Hour:    "the two-hour timer",
		90 * time.Second: "the ninety-second timer",
		80 * time.Minute: "the eighty-minute timer",
		3725e9:           "the timer for one hour, two minutes and five seconds",
	} {
		if got := nameOf(Timer{Duration: d}); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}

func TestSayings(t *testing.T) {
	for d, want := range map[time.Duration]string{
		3 * time.Second:                  "three seconds",
		time.Second:                      "one second",
		90 * time.Second:                 "one minute and thirty seconds",
		80 * time.Minute:                 "one hour and twenty minutes",
		24 * time.Hour:                   "twenty-four hours",
		2*time.Hour + 5*time.Second:      "two hours and five seconds",
		time.Hour + time.Minute + 1e9:    "one hour, one minute and one second",
		150 * time.Minute:                "two hours and thirty minutes",
		(100 * time.Minute) % time.Hour:  "forty minutes",
		time.Duration(100) * time.Second: "one minute and forty seconds",
	} {
		if got := SayDuration(d); got != want {
			t.Errorf("SayDuration(%v) = %q, want %q", d, got, want)
		}
	}
	if got := SayAgo(2*time.Minute + 10*time.Second); got != "two minutes ago" {
		t.Error(got)
	}
	if got := SayLeft(23*time.Minute + 40*time.Second); got != "twenty-four minutes" {
		t.Error(got)
	}
}
