package robot

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// countingSpeaker records what was played.
type countingSpeaker struct {
	mu     sync.Mutex
	played []string
}

func (s *countingSpeaker) Play(ctx context.Context, name string, wav []byte) error {
	s.mu.Lock()
	s.played = append(s.played, name)
	s.mu.Unlock()
	return nil
}

func (s *countingSpeaker) Stop(ctx context.Context) error { return nil }

func (s *countingSpeaker) names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.played...)
}

type stepClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *stepClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *stepClock) set(t time.Time) { c.mu.Lock(); c.now = t; c.mu.Unlock() }

var due0 = time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC)

// dueAt is the broker's copy of a timer due at due, sent when the hub's clock reads now.
func dueAt(id, label string, due, now time.Time) api.LinkTimer {
	left := due.Sub(now).Milliseconds()
	return api.LinkTimer{ID: id, Label: label, Due: due, LeftMS: &left}
}

func TestHubRingsLocallyWhenTheBrokerDoesNot(t *testing.T) {
	sp, clk := &countingSpeaker{}, &stepClock{now: due0.Add(-time.Minute)}
	l := &LocalTimers{Speaker: sp, Now: clk.Now, After: 5 * time.Second}
	l.Replace([]api.LinkTimer{dueAt("t-1", "pasta", due0, clk.Now()), dueAt("t-2", "", due0.Add(time.Hour), clk.Now())})
	clk.set(due0.Add(4 * time.Second))
	if rang := l.Tick(context.Background()); len(rang) != 0 {
		t.Fatalf("rang %v before the broker's grace passed", rang)
	}
	clk.set(due0.Add(5 * time.Second))
	if rang := l.Tick(context.Background()); len(rang) != 1 || rang[0] != "t-1" {
		t.Fatalf("rang %v", rang)
	}
	if got := sp.names(); len(got) != 1 || got[0] != "timer-local.wav" {
		t.Fatalf("played %v", got)
	}
	// Reported once, then the broker's late ring is refused.
	if r := l.TakeRang(); len(r) != 1 || r[0] != "t-1" {
		t.Fatalf("to report %v", r)
	}
	if r := l.TakeRang(); len(r) != 0 {
		t.Fatalf("reported twice: %v", r)
	}
	if ack := l.Ring(context.Background(), api.LinkRingAction{TimerID: "t-1", WAV: []byte("x"), Repeat: 1}); ack.OK || ack.Code != api.LinkErrAlreadyRang {
		t.Fatalf("ack %+v", ack)
	}
	// A fresh list from the broker that still names it does not ring it again.
	l.Replace([]api.LinkTimer{dueAt("t-1", "pasta", due0, clk.Now())})
	if rang := l.Tick(context.Background()); len(rang) != 0 {
		t.Fatalf("rang again: %v", rang)
	}
	if n := len(sp.names()); n != 1 {
		t.Fatalf("played %d sounds, want 1", n)
	}
}

func TestBrokerRingMeansNoLocalRing(t *testing.T) {
	sp, clk := &countingSpeaker{}, &stepClock{now: due0}
	l := &LocalTimers{Speaker: sp, Now: clk.Now}
	l.Replace([]api.LinkTimer{dueAt("t-1", "pasta", due0, clk.Now())})
	if ack := l.Ring(context.Background(), api.LinkRingAction{TimerID: "t-1", WAV: []byte("x"), Repeat: 1}); !ack.OK {
		t.Fatalf("ack %+v", ack)
	}
	// The broker's repeats still play.
	if ack := l.Ring(context.Background(), api.LinkRingAction{TimerID: "t-1", WAV: []byte("x"), Repeat: 2}); !ack.OK {
		t.Fatalf("repeat ack %+v", ack)
	}
	// Right after a ring, "stop" needs no wake phrase (the hub's wake bypass).
	if !l.Ringing() {
		t.Fatal("not ringing after a ring")
	}
	clk.set(due0.Add(time.Minute))
	if rang := l.Tick(context.Background()); len(rang) != 0 {
		t.Fatalf("rang locally after the broker rang: %v", rang)
	}
	if got := sp.names(); len(got) != 4 || got[0] != "timer-chime.wav" || got[1] != "timer-t-1.wav" {
		t.Fatalf("played %v", got)
	}
	if l.Ringing() {
		t.Fatal("still ringing a minute after the last ring")
	}
}

// The race: the broker's ring and the hub's own ring of the same timer arrive together.
// Exactly one of them plays, whichever way the race goes.
func TestNoDoubleRingRace(t *testing.T) {
	for i := range 500 {
		sp, clk := &countingSpeaker{}, &stepClock{now: due0}
		l := &LocalTimers{Speaker: sp, Now: clk.Now, Chime: []byte{}, Sound: []byte{}}
		l.Replace([]api.LinkTimer{dueAt("t-1", "", due0, clk.Now())})
		clk.set(due0.Add(10 * time.Second))
		var wg sync.WaitGroup
		var ack api.LinkAckBody
		var local []string
		wg.Add(2)
		go func() {
			defer wg.Done()
			ack = l.Ring(context.Background(), api.LinkRingAction{TimerID: "t-1", Repeat: 1})
		}()
		go func() { defer wg.Done(); local = l.Tick(context.Background()) }()
		wg.Wait()
		brokerRang := ack.OK
		hubRang := len(local) == 1
		if brokerRang == hubRang {
			t.Fatalf("run %d: broker rang %v, hub rang %v (ack %+v)", i, brokerRang, hubRang, ack)
		}
		if !brokerRang && ack.Code != api.LinkErrAlreadyRang {
			t.Fatalf("run %d: the broker was not told the hub rang: %+v", i, ack)
		}
		if hubRang != (len(l.TakeRang()) == 1) {
			t.Fatalf("run %d: the local ring is not reported exactly when it happened", i)
		}
	}
}

func TestLocalTimersRunLoopRings(t *testing.T) {
	sp := &countingSpeaker{}
	l := &LocalTimers{Speaker: sp, After: time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	left := int64(20)
	l.Replace([]api.LinkTimer{{ID: "t-1", Due: time.Now().Add(20 * time.Millisecond), LeftMS: &left}})
	deadline := time.Now().Add(5 * time.Second)
	for len(sp.names()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the hub's loop never rang the due timer")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestLocalTimersOverLinkMessages(t *testing.T) {
	sp, clk := &countingSpeaker{}, &stepClock{now: due0}
	l := &LocalTimers{Speaker: sp, Now: clk.Now}
	if _, handled := l.HandleLink(context.Background(), api.LinkMessage{Type: api.LinkPlay}); handled {
		t.Fatal("a play action was taken as a timer action")
	}
	ack, handled := l.HandleLink(context.Background(), api.LinkMessage{Type: api.LinkTimers, Timers: []api.LinkTimer{{ID: "t-1", Due: due0}}})
	if !handled || !ack.OK || len(l.Pending()) != 1 {
		t.Fatalf("%v %+v %v", handled, ack, l.Pending())
	}
	if ack, _ := l.HandleLink(context.Background(), api.LinkMessage{Type: api.LinkRing}); ack.OK || ack.Code != api.LinkErrInvalid {
		t.Fatalf("ring without a body: %+v", ack)
	}
	clk.set(due0.Add(time.Minute))
	l.Tick(context.Background())
	// The link is down: the report waits; once it is up, it is sent once.
	down := func(context.Context, api.LinkMessage) error { return ErrUnreachable }
	if err := l.ReportRang(context.Background(), down); err == nil {
		t.Fatal("report over a down link succeeded")
	}
	var sent []api.LinkMessage
	up := func(ctx context.Context, m api.LinkMessage) error { sent = append(sent, m); return nil }
	l.ReportRang(context.Background(), up)
	l.ReportRang(context.Background(), up)
	if len(sent) != 1 || sent[0].Type != api.LinkRangLocal || len(sent[0].Rang) != 1 || sent[0].Rang[0] != "t-1" {
		t.Fatalf("sent %+v", sent)
	}
}

// A local ring says which timer it is when the robot can synthesize the sentence.
func TestLocalRingSaysTheLabel(t *testing.T) {
	sp, clk := &countingSpeaker{}, &stepClock{now: due0}
	var said []string
	l := &LocalTimers{Speaker: sp, Now: clk.Now, Say: func(ctx context.Context, text string) ([]byte, error) {
		said = append(said, text)
		return Chime(), nil
	}}
	l.Replace([]api.LinkTimer{dueAt("t-1", "pasta", due0, clk.Now()), dueAt("t-2", "", due0, clk.Now())})
	clk.set(due0.Add(5 * time.Second))
	l.Tick(context.Background())
	if len(said) != 2 || said[0] != "Your pasta timer is done." || said[1] != "Your timer is done." {
		t.Fatalf("said %q", said)
	}
	if n := len(sp.names()); n != 2 {
		t.Fatalf("played %d", n)
	}
}

// With a link, a ringing timer is one of the hub's wake bypasses: "stop" needs no phrase.
func TestRingingTimerIsAWakeBypass(t *testing.T) {
	clk := &stepClock{now: due0}
	h := &Hub{Timers: &LocalTimers{Speaker: &countingSpeaker{}, Now: clk.Now}, Motion: NewMotion(nil, DefaultExpressions(), nil)}
	h.AttachLink(&Link{})
	var bypass *Bypass
	for i := range h.Bypasses {
		if h.Bypasses[i].Name == "timer" {
			bypass = &h.Bypasses[i]
		}
	}
	if bypass == nil || bypass.Active() {
		t.Fatalf("bypasses %+v", h.Bypasses)
	}
	h.Timers.Ring(context.Background(), api.LinkRingAction{TimerID: "t-1", Repeat: 1})
	if !bypass.Active() {
		t.Fatal("a ringing timer does not open the way for 'stop'")
	}
}

// gateSpeaker is a speaker whose uploads take as long as the test says: Play waits for the
// gate (or its context, as a real upload does) and records what played to the end.
type gateSpeaker struct {
	mu      sync.Mutex
	gate    chan struct{}
	entered chan string
	fail    error
	done    []string
	bodies  []string
}

func newGateSpeaker() *gateSpeaker {
	return &gateSpeaker{gate: make(chan struct{}), entered: make(chan string, 16)}
}

func (s *gateSpeaker) Play(ctx context.Context, name string, wav []byte) error {
	s.entered <- name
	s.mu.Lock()
	fail := s.fail
	s.mu.Unlock()
	if fail != nil {
		return fail
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

func (s *gateSpeaker) played() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.done...)
}

func (s *gateSpeaker) waitEntered(t *testing.T, name string) {
	t.Helper()
	select {
	case got := <-s.entered:
		if got != name {
			t.Fatalf("playing %q, want %q", got, name)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%q never started playing", name)
	}
}

// The link drops while the ring's chime uploads (the link's context ends with it): the ring
// still plays to its end, and the broker's second sending of it — its ack was lost — is
// acked without playing it twice.
func TestRingSurvivesALinkDropAndIsNotPlayedTwice(t *testing.T) {
	sp, clk := newGateSpeaker(), &stepClock{now: due0}
	l := &LocalTimers{Speaker: sp, Now: clk.Now, Chime: []byte("chime")}
	l.Replace([]api.LinkTimer{dueAt("t-1", "pasta", due0, clk.Now())})
	link, drop := context.WithCancel(context.Background())
	acked := make(chan api.LinkAckBody, 1)
	go func() {
		acked <- l.Ring(link, api.LinkRingAction{TimerID: "t-1", WAV: []byte("Your pasta timer is done."), Repeat: 1})
	}()
	sp.waitEntered(t, "timer-chime.wav")
	drop() // the link went down mid-upload
	close(sp.gate)
	select {
	case <-acked: // its ack has no link to go up on: lost
	case <-time.After(5 * time.Second):
		t.Fatal("the ring never finished")
	}
	if got := sp.played(); len(got) != 2 || got[1] != "timer-t-1.wav" {
		t.Fatalf("played to the end: %v (the ring was cut short by the link drop)", got)
	}
	// The broker, back, sends the same ring again: acked, not played again.
	if ack := l.Ring(context.Background(), api.LinkRingAction{TimerID: "t-1", WAV: []byte("late"), Repeat: 1}); !ack.OK {
		t.Fatalf("second sending: %+v", ack)
	}
	// Its repeat is a new ring and plays.
	if ack := l.Ring(context.Background(), api.LinkRingAction{TimerID: "t-1", WAV: []byte("again"), Repeat: 2}); !ack.OK {
		t.Fatalf("repeat: %+v", ack)
	}
	clk.set(due0.Add(time.Minute))
	if rang := l.Tick(context.Background()); len(rang) != 0 {
		t.Fatalf("rang locally as well: %v", rang)
	}
	if got := sp.played(); len(got) != 4 {
		t.Fatalf("played %v, want the first ring once and the repeat once", got)
	}
}

// A broker ring that could not be played (the daemon refused the upload) leaves the timer to
// the hub: if the broker does not ring it again, the hub rings it itself.
func TestUnplayedBrokerRingGoesBackToTheHub(t *testing.T) {
	sp, clk := newGateSpeaker(), &stepClock{now: due0}
	sp.fail = errors.New("daemon: 500")
	l := &LocalTimers{Speaker: sp, Now: clk.Now, Chime: []byte("chime"), Sound: []byte("local")}
	l.Replace([]api.LinkTimer{dueAt("t-1", "pasta", due0, clk.Now())})
	if ack := l.Ring(context.Background(), api.LinkRingAction{TimerID: "t-1", WAV: []byte("x"), Repeat: 1}); ack.OK || ack.Code != api.LinkErrFailed {
		t.Fatalf("ack %+v", ack)
	}
	sp.mu.Lock()
	sp.fail = nil
	sp.mu.Unlock()
	close(sp.gate)
	clk.set(due0.Add(5 * time.Second))
	if rang := l.Tick(context.Background()); len(rang) != 1 {
		t.Fatalf("the hub did not ring a timer the broker's ring never played: %v", rang)
	}
	if got := sp.played(); len(got) != 1 || got[0] != "timer-local.wav" {
		t.Fatalf("played %v", got)
	}
}

// The broker and the hub were both down when the timer came due. The copy that arrives
// with the link holds it overdue: the hub leaves the broker its After to ring it with "went
// off N minutes ago", and rings it itself — saying the same — only if the broker does not.
func TestOverdueCopyLeavesTheBrokerItsLateRing(t *testing.T) {
	for _, brokerRings := range []bool{true, false} {
		sp, clk := &countingSpeaker{}, &stepClock{now: due0.Add(3 * time.Minute)}
		var said []string
		l := &LocalTimers{Speaker: sp, Now: clk.Now, After: 5 * time.Second, Say: func(ctx context.Context, text string) ([]byte, error) {
			said = append(said, text)
			return Chime(), nil
		}}
		l.Replace([]api.LinkTimer{dueAt("t-1", "pasta", due0, clk.Now())})
		if rang := l.Tick(context.Background()); len(rang) != 0 {
			t.Fatalf("the hub rang an overdue timer the moment the broker sent it: %v", rang)
		}
		clk.set(due0.Add(3*time.Minute + 2*time.Second))
		if brokerRings {
			if ack := l.Ring(context.Background(), api.LinkRingAction{TimerID: "t-1", WAV: []byte("went off"), Repeat: 1}); !ack.OK {
				t.Fatalf("ack %+v", ack)
			}
		}
		clk.set(due0.Add(3*time.Minute + 5*time.Second))
		rang := l.Tick(context.Background())
		if brokerRings {
			if len(rang) != 0 || len(said) != 0 {
				t.Fatalf("rang locally after the broker rang: %v %q", rang, said)
			}
			if got := sp.names(); len(got) != 2 || got[1] != "timer-t-1.wav" {
				t.Fatalf("played %v", got)
			}
			continue
		}
		if len(rang) != 1 || len(said) != 1 || said[0] != "Your pasta timer went off 3 minutes ago." {
			t.Fatalf("local ring %v said %q", rang, said)
		}
	}
}

// The broker's wall clock is a day behind the hub's (it was stepped, or never synced): its
// copy names a due time a day ago, but ten minutes left. The hub counts the ten minutes on
// its own clock and does not ring early. A copy without the time left (an older broker) is
// read by its due time.
func TestCopyCountsTimeLeftOnTheHubsClock(t *testing.T) {
	sp, clk := &countingSpeaker{}, &stepClock{now: due0}
	l := &LocalTimers{Speaker: sp, Now: clk.Now, Sound: []byte("local")}
	behind := dueAt("t-1", "pasta", due0.Add(10*time.Minute), clk.Now())
	behind.Due = behind.Due.Add(-24 * time.Hour)
	old := api.LinkTimer{ID: "t-2", Due: due0.Add(time.Minute)}
	l.Replace([]api.LinkTimer{behind, old})
	clk.set(due0.Add(time.Minute + 4*time.Second))
	if rang := l.Tick(context.Background()); len(rang) != 0 {
		t.Fatalf("rang early: %v", rang)
	}
	clk.set(due0.Add(time.Minute + 5*time.Second))
	if rang := l.Tick(context.Background()); len(rang) != 1 || rang[0] != "t-2" {
		t.Fatalf("rang %v, want the older broker's timer by its due time", rang)
	}
	clk.set(due0.Add(10*time.Minute + 4*time.Second))
	if rang := l.Tick(context.Background()); len(rang) != 0 {
		t.Fatalf("rang early: %v", rang)
	}
	clk.set(due0.Add(10*time.Minute + 5*time.Second))
	if rang := l.Tick(context.Background()); len(rang) != 1 || rang[0] != "t-1" {
		t.Fatalf("rang %v", rang)
	}
}

// A hub killed after playing a broker's ring, before its ack went up, is restarted (a new
// LocalTimers on the same Memory file): the broker's re-sending of that ring is acked without
// playing it again, its copy does not ring it locally, and a timer the old process rang itself
// and had not reported is reported by the new one.
func TestRestartedHubDoesNotPlayARingAgain(t *testing.T) {
	mem := filepath.Join(t.TempDir(), "timers.json")
	clk := &stepClock{now: due0}
	sp1 := &countingSpeaker{}
	a := &LocalTimers{Speaker: sp1, Now: clk.Now, Chime: []byte("chime"), Sound: []byte("local"), Memory: mem}
	a.Replace([]api.LinkTimer{dueAt("t-1", "pasta", due0, clk.Now()), dueAt("t-2", "eggs", due0, clk.Now())})
	if ack := a.Ring(context.Background(), api.LinkRingAction{TimerID: "t-1", WAV: []byte("Your pasta timer is done."), Repeat: 1}); !ack.OK {
		t.Fatalf("ring: %+v", ack)
	}
	clk.set(due0.Add(time.Minute)) // the broker did not ring t-2: the hub does, the link is down
	if rang := a.Tick(context.Background()); len(rang) != 1 || rang[0] != "t-2" {
		t.Fatalf("rang locally %v", rang)
	}
	// kill -9: a is gone, only its file is left.
	sp2 := &countingSpeaker{}
	b := &LocalTimers{Speaker: sp2, Now: clk.Now, Chime: []byte("chime"), Sound: []byte("local"), Memory: mem}
	b.Replace([]api.LinkTimer{dueAt("t-1", "pasta", due0, clk.Now()), dueAt("t-2", "eggs", due0, clk.Now())})
	if ack := b.Ring(context.Background(), api.LinkRingAction{TimerID: "t-1", WAV: []byte("late"), Repeat: 1}); !ack.OK {
		t.Fatalf("re-sent ring: %+v", ack)
	}
	if ack := b.Ring(context.Background(), api.LinkRingAction{TimerID: "t-2", WAV: []byte("late"), Repeat: 1}); ack.OK || ack.Code != api.LinkErrAlreadyRang {
		t.Fatalf("a ring of a timer the old process rang itself: %+v, want already_rang", ack)
	}
	if rang := b.Tick(context.Background()); len(rang) != 0 {
		t.Fatalf("the restarted hub rang locally %v", rang)
	}
	if got := sp2.names(); len(got) != 0 {
		t.Fatalf("the restarted hub played %v, want nothing", got)
	}
	if got := b.TakeRang(); len(got) != 1 || got[0] != "t-2" {
		t.Fatalf("to report: %v, want the local ring of the old process", got)
	}
	// Its repeat is a new ring and plays.
	if ack := b.Ring(context.Background(), api.LinkRingAction{TimerID: "t-1", WAV: []byte("again"), Repeat: 2}); !ack.OK || len(sp2.names()) != 2 {
		t.Fatalf("repeat: %+v, played %v", ack, sp2.names())
	}
}
