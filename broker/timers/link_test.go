package timers_test

import (
	"context"
	"database/sql"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/link"
	"github.com/reachy-broker/reachy-broker/broker/timers"
	"github.com/reachy-broker/reachy-broker/robot"

	_ "modernc.org/sqlite"
)

// These tests run the real robot link end to end on loopback: the broker's link registry
// behind a server the test owns, the hub's Link and LocalTimers, the timers service on a
// state database that a "restart" closes and opens again, and a manual clock shared by
// both ends.

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

const hubDevice = "kitchen-robot"

// home is the loopback address the hub dials; whichever broker is up serves it.
type home struct {
	srv *httptest.Server
	reg atomic.Pointer[link.Registry]
}

func newHome(t *testing.T) *home {
	h := &home{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reg := h.reg.Load()
		if reg == nil {
			// Nobody listens: the connection just closes, as to a dead broker's port.
			if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
				c.Close()
			}
			return
		}
		reg.Serve(w, r, hubDevice)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// linkRobots is the broker's robot link as the timers service uses it.
type linkRobots struct{ r *link.Registry }

func (l linkRobots) Send(ctx context.Context, dev string, m api.LinkMessage) (api.LinkAckBody, error) {
	return l.r.Send(ctx, dev, m)
}

func (l linkRobots) Connected() []string {
	var out []string
	for _, s := range l.r.Statuses() {
		if s.Online {
			out = append(out, s.Device)
		}
	}
	return out
}

type textSynth struct{}

func (textSynth) Synthesize(ctx context.Context, text string) ([]byte, error) {
	return []byte(text), nil
}

// brokerProc is one life of the broker: its database handle, registry, service and loops.
type brokerProc struct {
	home *home
	ctx  context.Context
	db   *sql.DB
	reg  *link.Registry
	svc  *timers.Service
	stop context.CancelFunc
	wg   sync.WaitGroup
}

// startBroker opens the state in dir, serves the link at h and (with run) runs the scheduler.
func startBroker(t *testing.T, h *home, dir string, clock *timers.ManualClock) *brokerProc {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "state.db")+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1) // as the broker's state store
	b := &brokerProc{home: h, db: db, reg: link.New(link.Options{Logger: quiet})}
	b.svc, err = timers.Open(context.Background(), timers.Deps{DB: db, Clock: clock, Link: linkRobots{b.reg}, Synth: textSynth{},
		Audit:  func(context.Context, timers.Record) error { return nil },
		RoomOf: func(string) string { return "kitchen" }, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b.ctx, b.stop = ctx, cancel
	// What the broker's ConnectTimers does: a robot that connects gets its copy; its report
	// of local rings ends those timers.
	unsubscribe := b.reg.Subscribe(func(e link.Event) {
		ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		switch e.Kind {
		case link.EventUp:
			b.svc.HubConnected(ectx, e.Device)
		case link.EventRang:
			b.svc.HubRang(ectx, e.Device, e.Rang)
		}
	})
	b.wg.Add(1)
	go func() { defer b.wg.Done(); <-ctx.Done(); unsubscribe() }()
	h.reg.Store(b.reg)
	t.Cleanup(b.kill)
	return b
}

func (b *brokerProc) run() {
	b.wg.Add(1)
	go func() { defer b.wg.Done(); b.svc.Run(b.ctx) }()
}

// kill ends this life of the broker: the scheduler stops, every link drops, the database closes.
func (b *brokerProc) kill() {
	b.home.reg.CompareAndSwap(b.reg, nil)
	b.stop()
	b.reg.Close()
	b.wg.Wait()
	b.db.Close()
}

func (b *brokerProc) hubOnline() bool { return len(linkRobots{b.reg}.Connected()) == 1 }

// gateSpeaker's uploads take as long as the test says (Play waits for the gate, or its
// context, as an upload does); it records what played to the end.
type gateSpeaker struct {
	mu      sync.Mutex
	gate    chan struct{}
	entered chan string
	done    []string
	bodies  []string
}

func (s *gateSpeaker) Play(ctx context.Context, name string, wav []byte) error {
	select {
	case s.entered <- name:
	default:
	}
	select {
	case <-s.gate:
	case <-ctx.Done():
		return ctx.Err()
	}
	s.mu.Lock()
	s.done = append(s.done, name)
	s.bodies = append(s.bodies, string(wav))
	s.mu.Unlock()
	return nil
}

func (s *gateSpeaker) Stop(ctx context.Context) error { return nil }

// played counts what played to the end under names with the prefix, and their bodies.
func (s *gateSpeaker) played(prefix string) (n int, bodies []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, name := range s.done {
		if strings.HasPrefix(name, prefix) {
			n++
			bodies = append(bodies, s.bodies[i])
		}
	}
	return n, bodies
}

// startHub runs a hub's link and local timers against h until the test ends.
func startHub(t *testing.T, h *home, sp robot.Speaker, clock *timers.ManualClock) *robot.LocalTimers {
	t.Helper()
	lt := &robot.LocalTimers{Speaker: sp, Now: clock.Now, Chime: []byte("chime"), Sound: []byte("local"), Log: quiet}
	l := &robot.Link{URL: h.srv.URL, Token: "test", MinBackoff: 20 * time.Millisecond, MaxBackoff: 100 * time.Millisecond, Log: quiet}
	l.Handle = func(ctx context.Context, m api.LinkMessage) api.LinkAckBody {
		if ack, ok := lt.HandleLink(ctx, m); ok {
			return ack
		}
		return api.LinkAckBody{Code: api.LinkErrUnknownType}
	}
	lt.Send = l.Send
	l.OnUp = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		lt.ReportRang(ctx, l.Send)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); l.Run(ctx) }()
	go func() { defer wg.Done(); lt.Run(ctx) }()
	t.Cleanup(func() { cancel(); wg.Wait() })
	return lt
}

func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", within, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The hub has claimed the pasta timer's ring and its chime is uploading when the link drops
// and the broker dies. The ring still plays to its end; the broker that comes back on the
// same state does not count it as rung — it sends it again, and the hub, which played it,
// acks it without playing it twice. The family hears it exactly once.
func TestRingClaimedWhenTheLinkDropsIsHeardOnce(t *testing.T) {
	dir, h := t.TempDir(), newHome(t)
	clock := timers.NewManualClock(time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC))
	sp := &gateSpeaker{gate: make(chan struct{}), entered: make(chan string, 16)}
	a := startBroker(t, h, dir, clock)
	startHub(t, h, sp, clock)
	eventually(t, 10*time.Second, "the hub's link is up", a.hubOnline)
	tm, err := a.svc.Start(context.Background(), "laptop", "kitchen", "pasta", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	a.run()
	select {
	case name := <-sp.entered:
		if name != "timer-chime.wav" {
			t.Fatalf("first sound %q", name)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the ring never reached the hub's speaker")
	}
	a.kill() // mid-upload: the link drops, the broker is gone
	close(sp.gate)

	b := startBroker(t, h, dir, clock)
	eventually(t, 10*time.Second, "the hub is back on the restarted broker", b.hubOnline)
	clock.Advance(2 * time.Second)
	b.run()
	eventually(t, 10*time.Second, "the restarted broker counts the ring once the hub has acked it", func() bool {
		ts := b.svc.List("laptop", "kitchen")
		return len(ts) == 1 && ts[0].Rings == 1
	})
	if n, _ := sp.played("timer-" + tm.ID); n != 1 {
		t.Fatalf("the ring played %d times to its end, want once", n)
	}
	if n, _ := sp.played("timer-local"); n != 0 {
		t.Fatal("the hub rang it locally as well")
	}
}

// The broker and the hub were both down when the eggs timer came due. When both are back,
// the ring the family hears is the broker's "went off three minutes ago" — not the hub's
// plain local ring — and only one of them.
func TestTimerDueWhileBothWereDownRingsWithTheLateSentence(t *testing.T) {
	dir, h := t.TempDir(), newHome(t)
	clock := timers.NewManualClock(time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC))
	a := startBroker(t, h, dir, clock)
	tm, err := a.svc.Start(context.Background(), "laptop", "kitchen", "eggs", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	a.kill()
	clock.Advance(4 * time.Minute)

	b := startBroker(t, h, dir, clock)
	sp := &gateSpeaker{gate: make(chan struct{}), entered: make(chan string, 16)}
	close(sp.gate)
	startHub(t, h, sp, clock)
	eventually(t, 10*time.Second, "the hub's link is up", b.hubOnline)
	b.run()
	eventually(t, 10*time.Second, "a ring played and the broker settled it", func() bool {
		n, _ := sp.played("timer-")
		ts := b.svc.List("laptop", "kitchen")
		return n > 0 && (len(ts) == 0 || ts[0].Rings == 1)
	})
	n, bodies := sp.played("timer-" + tm.ID)
	if local, _ := sp.played("timer-local"); local != 0 || n != 1 || bodies[0] != "Your eggs timer went off three minutes ago." {
		t.Fatalf("local rings %d, broker rings %d %q", local, n, bodies)
	}
}
