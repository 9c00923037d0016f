package robot

import (
	"context"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// LocalTimers is the hub's copy of its room's pending timers (ID, label, due time — nothing
// else), so that a kitchen timer still rings when home is unreachable. The broker rings a
// timer when it is due; the hub rings it itself only if the broker's ring has not arrived
// After the due time — or After the copy arrived, for a timer that was already due then
// (the broker and hub were both down): the broker, which just sent the copy, rings it with
// its "went off N minutes ago" sentence, and only if it does not does the hub ring it, saying
// the same. Who rings is decided here, once per timer ID, under one lock: a timer the hub
// rang itself answers the broker's late ring with LinkErrAlreadyRang, and a timer the
// broker rang is never rung locally — the two never both ring.
//
// A broker ring is acked OK only once it has played. Its playing does not depend on the link:
// a link that drops while the chime uploads does not cut the ring short. The broker sends a
// ring again when its ack did not arrive; a (timer, repeat) already played is acked without
// playing it again, and a ring that failed to play gives the timer back to the copy, so the
// hub still rings it if the broker does not.
type LocalTimers struct {
	Speaker Speaker
	Sound   []byte // played when ringing locally; default the attention chime
	Chime   []byte // played before the broker's ring sentence; default the attention chime
	// Say, when set, speaks a local ring's sentence ("Your pasta timer is done.") on the robot
	// itself after the chime (espeak-ng there); without it, or if it fails, the chime alone.
	Say   func(ctx context.Context, text string) ([]byte, error)
	After time.Duration    // how long past due the hub waits for the broker's ring; default 5 s
	Now   func() time.Time // default time.Now
	// LateAfter: a local ring this late after the due time says when the timer went off;
	// default 10 s (the broker's rule).
	LateAfter time.Duration
	// PlayTimeout bounds the playing of one ring, which does not end with the link; default 1 min.
	PlayTimeout time.Duration
	Window      time.Duration // after a ring, "stop" or "okay" needs no wake phrase this long; default 10 s
	// Send, when set, sends a message up the robot link: a local ring is reported at once
	// when the link is up (and again on the next connect when it is not).
	Send func(context.Context, api.LinkMessage) error
	Log  *slog.Logger
	// Memory, when set, is the file the hub keeps who rang each timer in (timermemory.go), so
	// that a restarted hub neither plays a ring again nor rings a timer the broker rang.
	Memory string

	mu        sync.Mutex
	memLoaded bool
	pending   map[string]localTimer
	owner     map[string]ringer // who rang each timer (kept a day so a late ring is recognized)
	ownedAt   map[string]time.Time
	played    map[string]int           // the highest repeat of each timer the broker's rings played here
	playing   map[string]chan struct{} // a broker ring of this timer is playing; closed when done
	rang      []string                 // rung locally, not yet reported to the broker
	lastRing  time.Time
	wake      chan struct{}
}

// localTimer is one timer of the copy, on the hub's clock.
type localTimer struct {
	id, label string
	due       time.Time // the broker's time left, counted from when the copy arrived
	since     time.Time // when the copy that first held it arrived
}

// ringAt is when the hub rings a timer itself: After past its due time, or past the copy's
// arrival when it was already due then.
func (t localTimer) ringAt(after time.Duration) time.Time {
	if t.since.After(t.due) {
		return t.since.Add(after)
	}
	return t.due.Add(after)
}

type ringer int

const (
	byBroker ringer = iota + 1
	byHub
)

// maxLocalTimers bounds the copy (the broker allows far fewer per room).
const maxLocalTimers = 256

func (l *LocalTimers) init() {
	if l.pending == nil {
		l.pending, l.owner, l.ownedAt = map[string]localTimer{}, map[string]ringer{}, map[string]time.Time{}
		l.played, l.playing = map[string]int{}, map[string]chan struct{}{}
		l.wake = make(chan struct{}, 1)
	}
	l.loadMemory()
}

func (l *LocalTimers) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

func (l *LocalTimers) after() time.Duration {
	if l.After > 0 {
		return l.After
	}
	return 5 * time.Second
}

func (l *LocalTimers) log() *slog.Logger {
	if l.Log != nil {
		return l.Log
	}
	return slog.Default()
}

// Replace takes the broker's list (LinkTimers) as the new copy. Timers already rung by
// either side stay rung. Each timer's due time is its LeftMS counted from now, on the hub's
// clock (the broker's wall clock may not agree with the hub's).
func (l *LocalTimers) Replace(ts []api.LinkTimer) {
	now := l.now()
	l.mu.Lock()
	l.init()
	old := l.pending
	l.pending = make(map[string]localTimer, len(ts))
	for _, t := range ts {
		if len(l.pending) >= maxLocalTimers {
			break
		}
		if t.ID == "" || l.owner[t.ID] != 0 || l.playing[t.ID] != nil {
			continue
		}
		lt := localTimer{id: t.ID, label: t.Label, due: t.Due, since: now}
		if t.LeftMS != nil {
			lt.due = now.Add(time.Duration(*t.LeftMS) * time.Millisecond)
		}
		if o, ok := old[t.ID]; ok {
			lt.since = o.since
		}
		l.pending[t.ID] = lt
	}
	// Forget who rang what after a day.
	forgot := false
	for id, at := range l.ownedAt {
		if now.Sub(at) > memoryKeep {
			delete(l.owner, id)
			delete(l.ownedAt, id)
			delete(l.played, id)
			forgot = true
		}
	}
	if forgot {
		l.saveMemory()
	}
	l.mu.Unlock()
	l.poke()
}

func (l *LocalTimers) poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Pending is the copy, soonest first, with due times on the hub's clock.
func (l *LocalTimers) Pending() []api.LinkTimer {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []api.LinkTimer
	for _, t := range l.pending {
		out = append(out, api.LinkTimer{ID: t.id, Label: t.label, Due: t.due})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Due.Before(out[j].Due) })
	return out
}

// claimLocal records that the hub rings a timer itself; false when either side already
// claimed it. Once the hub rang a timer, nobody else does.
func (l *LocalTimers) claimLocal(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.init()
	if l.owner[id] != 0 || l.playing[id] != nil {
		return false
	}
	l.owner[id], l.ownedAt[id] = byHub, l.now()
	delete(l.pending, id)
	l.rang = append(l.rang, id)
	l.saveMemory()
	return true
}

func (l *LocalTimers) playTimeout() time.Duration {
	if l.PlayTimeout > 0 {
		return l.PlayTimeout
	}
	return time.Minute
}

// Ring is the broker's ring (LinkRing): play the chime and its sentence, unless the hub
// already rang this timer itself (already_rang) or already played this repeat of it (OK,
// not played again). It acks OK only once the ring has played.
func (l *LocalTimers) Ring(ctx context.Context, r api.LinkRingAction) api.LinkAckBody {
	if r.TimerID == "" {
		return api.LinkAckBody{OK: false, Code: api.LinkErrInvalid}
	}
	id, repeat := r.TimerID, max(r.Repeat, 1)
	var done chan struct{}
	var restore localTimer
	var claimed, hadCopy bool
	for done == nil {
		l.mu.Lock()
		l.init()
		if busy := l.playing[id]; busy != nil {
			// The same timer is playing (a ring sent again after a dropped link): its outcome
			// decides this one.
			l.mu.Unlock()
			select {
			case <-busy:
				continue
			case <-ctx.Done():
				return api.LinkAckBody{OK: false, Code: api.LinkErrBusy}
			}
		}
		switch l.owner[id] {
		case byHub:
			l.mu.Unlock()
			return api.LinkAckBody{OK: false, Code: api.LinkErrAlreadyRang}
		case byBroker:
			if repeat <= l.played[id] {
				l.mu.Unlock()
				return api.LinkAckBody{OK: true} // played before; its ack was lost
			}
		default:
			claimed = true
			restore, hadCopy = l.pending[id]
			l.owner[id], l.ownedAt[id] = byBroker, l.now()
			delete(l.pending, id)
		}
		done = make(chan struct{})
		l.playing[id] = done
		l.mu.Unlock()
	}
	// The ring plays to its end even if the link (and with it ctx) goes away meanwhile: the
	// broker sends it again and is answered from l.played — kept on disk (Memory) just before
	// the chime starts, so a hub killed and restarted meanwhile answers it too.
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.playTimeout())
	before := 0
	started := false
	err := l.playRing(pctx, r, func() {
		l.mu.Lock()
		before, started = l.played[id], true
		l.played[id] = max(before, repeat)
		l.saveMemory()
		l.mu.Unlock()
	})
	cancel()
	l.mu.Lock()
	delete(l.playing, id)
	close(done)
	if err != nil {
		if started {
			l.played[id] = before // not heard: it may play when sent again
		}
		if claimed {
			// Not heard: the timer is the copy's again, rung by whoever comes first.
			delete(l.owner, id)
			delete(l.ownedAt, id)
			if hadCopy {
				l.pending[id] = restore
			}
		}
		l.saveMemory()
		l.mu.Unlock()
		l.poke()
		l.log().Warn("timer ring not played", "err", err)
		return api.LinkAckBody{OK: false, Code: api.LinkErrFailed}
	}
	l.played[id] = max(l.played[id], repeat)
	l.mu.Unlock()
	l.rung()
	return api.LinkAckBody{OK: true}
}

// Tick rings locally every timer the broker has not rung After past its due time (or past
// the copy's arrival, for one already due then). It returns the IDs it rang.
func (l *LocalTimers) Tick(ctx context.Context) []string {
	now := l.now()
	l.mu.Lock()
	var due []string
	timers := map[string]localTimer{}
	for id, t := range l.pending {
		if !t.ringAt(l.after()).After(now) {
			due = append(due, id)
			timers[id] = t
		}
	}
	l.mu.Unlock()
	sort.Strings(due)
	var rang []string
	for _, id := range due {
		if !l.claimLocal(id) {
			continue
		}
		rang = append(rang, id)
		sound := l.localSound(ctx, timers[id].label, l.now().Sub(timers[id].due))
		l.log().Info("the broker did not ring a due timer: ringing it here")
		if err := l.Speaker.Play(ctx, "timer-local.wav", sound); err != nil {
			l.log().Warn("local timer ring", "err", err)
		}
		l.rung()
	}
	if len(rang) > 0 && l.Send != nil {
		if err := l.ReportRang(ctx, l.Send); err != nil {
			l.log().Info("local ring not reported yet; it will be when the link is back", "err", err)
		}
	}
	return rang
}

func (l *LocalTimers) rung() {
	l.mu.Lock()
	l.lastRing = l.now()
	l.mu.Unlock()
}

// Ringing reports whether a timer rang within the last Window: what is said now ("stop",
// "okay") needs no wake phrase. It is the hub's wake bypass for timers.
func (l *LocalTimers) Ringing() bool {
	w := l.Window
	if w <= 0 {
		w = 10 * time.Second
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return !l.lastRing.IsZero() && l.now().Sub(l.lastRing) < w
}

// TakeRang returns the timers rung locally that the broker has not been told of (send them
// as LinkRangLocal), and forgets them; Requeue gives them back when the send failed.
func (l *LocalTimers) TakeRang() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.init()
	out := l.rang
	l.rang = nil
	l.saveMemory()
	return out
}

// Requeue puts back IDs whose report did not reach the broker.
func (l *LocalTimers) Requeue(ids []string) {
	l.mu.Lock()
	l.rang = append(ids, l.rang...)
	l.saveMemory()
	l.mu.Unlock()
}

// Run rings due timers until ctx ends. It sleeps until the next local ring time (or until
// the copy changes); one goroutine for all timers.
func (l *LocalTimers) Run(ctx context.Context) {
	l.mu.Lock()
	l.init()
	wake := l.wake
	l.mu.Unlock()
	for {
		l.Tick(ctx)
		wait := time.Hour
		now := l.now()
		l.mu.Lock()
		for _, t := range l.pending {
			wait = min(wait, max(t.ringAt(l.after()).Sub(now), 0))
		}
		l.mu.Unlock()
		tm := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			tm.Stop()
			return
		case <-tm.C:
		case <-wake:
			tm.Stop()
		}
	}
}

// HandleLink runs the link actions that concern timers (LinkTimers, LinkRing); handled is
// false for any other type, which the caller handles itself.
func (l *LocalTimers) HandleLink(ctx context.Context, m api.LinkMessage) (ack api.LinkAckBody, handled bool) {
	switch m.Type {
	case api.LinkTimers:
		l.Replace(m.Timers)
		return api.LinkAckBody{OK: true}, true
	case api.LinkRing:
		if m.Ring == nil {
			return api.LinkAckBody{Code: api.LinkErrInvalid}, true
		}
		return l.Ring(ctx, *m.Ring), true
	}
	return api.LinkAckBody{}, false
}

// ReportRang tells the broker which timers the hub rang itself (LinkRangLocal), when the
// link is up; what could not be sent is kept for the next try.
func (l *LocalTimers) ReportRang(ctx context.Context, send func(context.Context, api.LinkMessage) error) error {
	ids := l.TakeRang()
	if len(ids) == 0 {
		return nil
	}
	if err := send(ctx, api.LinkMessage{Type: api.LinkRangLocal, Rang: ids}); err != nil {
		l.Requeue(ids)
		return err
	}
	return nil
}
