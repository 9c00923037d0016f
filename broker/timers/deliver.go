package timers

import (
	"context"
	"fmt"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// Delivery: each robot has an outbox of rings and copies to send it, worked through in order
// by one goroutine while it holds something (and by none when it is empty). A robot that is
// slow to ack, or never does, holds up its own outbox only: the scheduler hands rings out
// and goes back to sleep, and every other robot's ring goes out at its time.

// outbox is one robot's deliveries not yet made.
type outbox struct {
	rings   []ringJob
	copy    bool // send the robot its place's pending timers (the newest list, once)
	running bool // a worker is emptying it
}

type ringJob struct{ a *attempt }

// attempt is one ring (the n-th) of one timer on its way to the robots it rings on.
type attempt struct {
	t    Timer     // the timer as it was when the ring was handed out
	n    int       // 1 for the first ring
	at   time.Time // when it was handed out
	text string    // the sentence

	left    int  // robots that have not answered yet
	played  int  // robots that acked it as played
	hubRang bool // a robot answered that it rang the timer itself
	// open are the robots with an open audit record of this ring (acts.go), codes what the
	// last sending to each failed with ("" for none yet). Under s.mu.
	open  map[string]bool
	codes map[string]string
}

// enqueue adds to a robot's outbox and starts its worker if none runs. s.mu is held.
func (s *Service) enqueue(ctx context.Context, dev string, add func(*outbox)) {
	ob := s.outboxes[dev]
	if ob == nil {
		ob = &outbox{}
		s.outboxes[dev] = ob
	}
	add(ob)
	if ob.running || s.stopped {
		return
	}
	ob.running = true
	wctx := s.base
	if wctx == nil {
		// Before Run (Tick, or a hub that connected first): the caller's context may end
		// with its request, the delivery must not.
		wctx = context.WithoutCancel(ctx)
	}
	s.deliveries.Add(1)
	go s.work(wctx, dev)
}

// work empties one robot's outbox: rings first, then the copy.
func (s *Service) work(ctx context.Context, dev string) {
	defer s.deliveries.Done()
	for {
		s.mu.Lock()
		ob := s.outboxes[dev]
		var job ringJob
		ring, copyWanted := false, false
		switch {
		case len(ob.rings) > 0:
			job, ring = ob.rings[0], true
			ob.rings = ob.rings[1:]
		case ob.copy:
			ob.copy, copyWanted = false, true
		default:
			delete(s.outboxes, dev)
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		if ring {
			s.deliverRing(ctx, dev, job.a)
		} else if copyWanted {
			s.sendTimers(ctx, dev, s.pendingFor(placeOf(dev, s.d.RoomOf(dev))))
		}
	}
}

// ringResult is how one robot answered a ring.
type ringResult int

const (
	notPlayed ringResult = iota // not sent (no audit record), not delivered, or refused
	played
	rangOnHub
)

// deliverRing sends one ring to one robot, its audit record opened first, and reports the
// answer. A ring that was not played leaves its record open: it is settled when the ring's
// fate is known (settle), so a ring sent several times is still one record.
func (s *Service) deliverRing(ctx context.Context, dev string, a *attempt) {
	t := &a.t
	res := notPlayed
	code := "not_delivered"
	// No ring without its audit record, and no record that a restart would leave unsettled.
	if !s.openRing(ctx, a, dev) {
		code = ""
	} else if err := s.d.Audit(ctx, s.ringRecord(dev, t, a.n, "pending", "")); err != nil {
		s.log.Error("audit write failed: the timer does not ring now", "err", err)
	} else {
		var wav []byte // the hub's chime alone
		if a.n == 1 || s.d.Quiet == nil || !s.d.Quiet(dev) {
			wav = s.voice(ctx, a.text) // a repeat in quiet time is the chime alone
		}
		ack, err := s.send(ctx, dev, api.LinkMessage{Type: api.LinkRing, ID: ringID(t.ID, a.n),
			Ring: &api.LinkRingAction{TimerID: t.ID, WAV: wav, Repeat: a.n}})
		switch {
		case err != nil:
			s.log.Warn("ring not delivered", "device", dev, "err", err)
		case !ack.OK && ack.Code == api.LinkErrAlreadyRang:
			res = rangOnHub
			s.settleRecord(ctx, s.ringRecord(dev, t, a.n, "ok", "rang_on_hub"))
		case !ack.OK:
			s.log.Warn("robot refused the ring", "device", dev, "code", ack.Code)
			code = "refused_" + ack.Code
		default:
			res = played
			s.settleRecord(ctx, s.ringRecord(dev, t, a.n, "ok", ""))
		}
	}
	s.mu.Lock()
	if res != notPlayed {
		delete(a.open, dev) // its record is settled
	} else if code != "" {
		a.codes[dev] = code
	}
	s.mu.Unlock()
	if res == played && s.d.FollowUp != nil {
		s.d.FollowUp(dev)
	}
	s.report(ctx, a, res)
	if res == played {
		s.send(ctx, dev, api.LinkMessage{Type: api.LinkExpression, ID: fmt.Sprintf("%s-%d-x", t.ID, a.n), Expression: s.set.Expression})
	}
}

// report counts one robot's answer; the last answer settles the ring.
func (s *Service) report(ctx context.Context, a *attempt, res ringResult) {
	s.mu.Lock()
	a.left--
	switch res {
	case played:
		a.played++
	case rangOnHub:
		a.hubRang = true
	}
	last := a.left == 0
	s.mu.Unlock()
	if !last {
		return
	}
	s.settle(ctx, a)
	s.mu.Lock()
	if s.inflight[a.t.ID] == a {
		delete(s.inflight, a.t.ID)
	}
	s.mu.Unlock()
	s.poke()
}
