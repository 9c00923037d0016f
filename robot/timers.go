package robot

import (
	"context"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/speech"
)

// LocalTimers is the hub's copy of its room's pending timers (ID, label, due time — nothing
// else), so that a kitchen timer still rings when home is unreachable. The broker rings a
// timer when it is due; the hub rings it itself only if the broker's ring has not arrived
// After the due time. Who rings is decided here, once per timer ID, under one lock: a
// timer the hub rang itself answers the broker's late ring with LinkErrAlreadyRang, and a
// timer the broker rang is never rung locally — the two never both ring.
type LocalTimers struct {
	Speaker Speaker
	Sound   []byte // played when ringing locally; default the attention chime
	Chime   []byte // played before the broker's ring sentence; default the attention chime
	// Say, when set, speaks a local ring's sentence ("Your pasta timer is done.") on the robot
	// itself after the chime (espeak-ng there); without it, or if it fails, the chime alone.
	Say    func(ctx context.Context, text string) ([]byte, error)
	After  time.Duration    // how long past due the hub waits for the broker's ring; default 5 s
	Now    func() time.Time // default time.Now
	Window time.Duration    // after a ring, "stop" or "okay" needs no wake phrase this long; default 10 s
	// Send, when set, sends a message up the robot link: a local ring is reported at once
	// when the link is up (and again on the next connect when it is not).
	Send func(context.Context, api.LinkMessage) error
	Log  *slog.Logger

	mu       sync.Mutex
	pending  map[string]api.LinkTimer
	owner    map[string]ringer // who rang each timer (kept a day so a late ring is recognized)
	ownedAt  map[string]time.Time
	rang     []string // rung locally, not yet reported to the broker
	lastRing time.Time
	wake     chan struct{}
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
		l.pending, l.owner, l.ownedAt = map[string]api.LinkTimer{}, map[string]ringer{}, map[string]time.Time{}
		l.wake = make(chan struct{}, 1)
	}
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
// either side stay rung.
func (l *LocalTimers) Replace(ts []api.LinkTimer) {
	l.mu.Lock()
	l.init()
	clear(l.pending)
	for _, t := range ts {
		if len(l.pending) >= maxLocalTimers {
			break
		}
		if t.ID == "" || l.owner[t.ID] != 0 {
			continue
		}
		l.pending[t.ID] = api.LinkTimer{ID: t.ID, Label: t.Label, Due: t.Due}
	}
	// Forget who rang what after a day.
	for id, at := range l.ownedAt {
		if l.now().Sub(at) > 24*time.Hour {
			delete(l.owner, id)
			delete(l.ownedAt, id)
		}
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

// Pending is the copy, soonest first.
func (l *LocalTimers) Pending() []api.LinkTimer {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []api.LinkTimer
	for _, t := range l.pending {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Due.Before(out[j].Due) })
	return out
}

// claim records who rings a timer. The broker may ring a timer again (its repeats); once
// the hub rang a timer, nobody else does.
func (l *LocalTimers) claim(id string, who ringer) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.init()
	switch l.owner[id] {
	case byHub:
		return false
	case byBroker:
		return who == byBroker
	}
	l.owner[id], l.ownedAt[id] = who, l.now()
	delete(l.pending, id)
	if who == byHub {
		l.rang = append(l.rang, id)
	}
	return true
}

// Ring is the broker's ring (LinkRing): play the chime and its sentence, unless the hub
// already rang this timer itself.
func (l *LocalTimers) Ring(ctx context.Context, r api.LinkRingAction) api.LinkAckBody {
	if r.TimerID == "" {
		return api.LinkAckBody{OK: false, Code: api.LinkErrInvalid}
	}
	if !l.claim(r.TimerID, byBroker) {
		return api.LinkAckBody{OK: false, Code: api.LinkErrAlreadyRang}
	}
	sound := l.Chime
	if sound == nil {
		sound = attentionChime()
	}
	if err := l.Speaker.Play(ctx, "timer-chime.wav", sound); err != nil {
		l.log().Warn("timer chime", "err", err)
		return api.LinkAckBody{OK: false, Code: api.LinkErrFailed}
	}
	if len(r.WAV) > 0 {
		if err := l.Speaker.Play(ctx, "timer-"+r.TimerID+".wav", r.WAV); err != nil {
			l.log().Warn("timer announcement", "err", err)
			return api.LinkAckBody{OK: false, Code: api.LinkErrFailed}
		}
	}
	l.rung()
	return api.LinkAckBody{OK: true}
}

// Tick rings locally every timer whose due time passed more than After ago without the
// broker's ring. It returns the IDs it rang.
func (l *LocalTimers) Tick(ctx context.Context) []string {
	now := l.now()
	l.mu.Lock()
	var due []string
	labels := map[string]string{}
	for id, t := range l.pending {
		if !t.Due.Add(l.after()).After(now) {
			due = append(due, id)
			labels[id] = t.Label
		}
	}
	l.mu.Unlock()
	sort.Strings(due)
	var rang []string
	for _, id := range due {
		if !l.claim(id, byHub) {
			continue
		}
		rang = append(rang, id)
		sound := l.localSound(ctx, labels[id])
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

// localSound is what a local ring plays: the chime, then the sentence when Say can make it.
func (l *LocalTimers) localSound(ctx context.Context, label string) []byte {
	if l.Sound != nil {
		return l.Sound
	}
	if l.Say != nil {
		name := "timer"
		if label != "" {
			name = label + " timer"
		}
		sctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		wav, err := l.Say(sctx, "Your "+name+" is done.")
		cancel()
		if err == nil {
			if clip, err := speech.DecodeWAV(wav, time.Minute); err == nil {
				if out, err := speech.EncodeWAV(append(chime(), clip.Samples...), speech.SampleRate); err == nil {
					return out
				}
			}
		}
		l.log().Warn("local timer sentence not synthesized; ringing with the chime", "err", err)
	}
	return attentionChime()
}

// attentionChime is the rising two-tone chime the hub plays before the broker speaks first.
func attentionChime() []byte {
	b, _ := speech.EncodeWAV(chime(), speech.SampleRate)
	return b
}

// TakeRang returns the timers rung locally that the broker has not been told of (send them
// as LinkRangLocal), and forgets them; Requeue gives them back when the send failed.
func (l *LocalTimers) TakeRang() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.rang
	l.rang = nil
	return out
}

// Requeue puts back IDs whose report did not reach the broker.
func (l *LocalTimers) Requeue(ids []string) {
	l.mu.Lock()
	l.rang = append(ids, l.rang...)
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
		for _, t := range l.Pending() {
			wait = min(wait, max(t.Due.Add(l.after()).Sub(now), 0))
		}
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
