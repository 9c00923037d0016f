package timers

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// Ringing: a due timer handed to the outboxes of the robots it rings on (deliver.go), its
// next ring scheduled once they have answered, and the hubs kept in step with the timers of
// their rooms.

// ring hands one due timer's next ring to its robots (or lets it go: missed, or its rings
// are used up). It never waits for a robot.
func (s *Service) ring(ctx context.Context, t *Timer, now time.Time) {
	// A timer that came due (or was due to ring again) longer than the grace window ago —
	// the broker was down — is let go rather than rung hours late.
	late := now.Sub(t.Due)
	if t.Rings > 0 {
		late = now.Sub(t.sched)
	}
	if late > s.set.Grace {
		s.miss(ctx, t, MissedPastGrace, now)
		return
	}
	if t.Rings >= s.set.Rings {
		s.end(ctx, "rang out", t.ID)
		return
	}
	targets := s.targets(t)
	if len(targets) == 0 {
		// Nobody to ring it: it waits NoRobotWait (counted from when it was first found so,
		// which after a restart gives the hubs time to redial), then it is let go rather
		// than rung long after on whichever robot links next.
		s.mu.Lock()
		since, waiting := s.noRobot[t.ID]
		if !waiting {
			since = now
			s.noRobot[t.ID] = now
		}
		s.mu.Unlock()
		if !waiting && t.Rings == 0 {
			s.log.Warn("a timer is due and no robot is linked in its room to ring it", "room", t.Room, "label", t.Label,
				"set_by", t.Device, "waits", s.set.NoRobotWait.String())
		}
		if now.Sub(since) >= s.set.NoRobotWait {
			if t.Rings == 0 {
				s.miss(ctx, t, MissedNoRobot, now)
			} else {
				s.end(ctx, "no robot to ring it again", t.ID) // it rang; its repeats have nobody to hear them
			}
			return
		}
		s.reschedule(ctx, t.ID, now.Add(s.set.Retry), t.Rings, t.sched)
		return
	}
	s.mu.Lock()
	delete(s.noRobot, t.ID)
	s.mu.Unlock()
	a := &attempt{t: *t, n: t.Rings + 1, at: now, text: s.sentence(t, now), left: len(targets)}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.live[t.ID]; !ok {
		return // cancelled meanwhile
	}
	s.inflight[t.ID] = a
	for _, dev := range targets {
		s.enqueue(ctx, dev, func(ob *outbox) { ob.rings = append(ob.rings, ringJob{a: a}) })
	}
}

// settle decides what became of a ring once every robot it went to has answered. Only a
// ring a robot acked as played counts: one that was not delivered, or whose ack was lost
// with the link, is rung again (the hub recognizes a ring it already played by timer ID and
// repeat, acks it and does not play it twice).
func (s *Service) settle(ctx context.Context, a *attempt) {
	id, n := a.t.ID, a.n
	switch {
	case a.hubRang:
		s.end(ctx, "rang on the hub", id)
	case a.played > 0 && n >= s.set.Rings:
		s.end(ctx, "rang out", id)
	case a.played > 0:
		next := a.at.Add(s.set.Every)
		s.reschedule(ctx, id, next, n, next)
	case n == 1:
		// Nobody played the first ring: it stays pending and is tried again (within the
		// grace window, measured from the due time).
		s.reschedule(ctx, id, s.clock.Now().Add(s.set.Retry), a.t.Rings, a.t.sched)
	default:
		// A repeat nobody played is tried again until the next repeat is due; then it is
		// given up (its audit record says not delivered) and the next one goes.
		now := s.clock.Now()
		if next := now.Add(s.set.Retry); next.Before(a.t.sched.Add(s.set.Every)) {
			s.reschedule(ctx, id, next, a.t.Rings, a.t.sched)
			return
		}
		if n >= s.set.Rings {
			s.end(ctx, "rang out", id)
			return
		}
		next := a.t.sched.Add(s.set.Every)
		s.reschedule(ctx, id, next, n, next)
	}
}

// reschedule makes a timer's ring count and next look durable.
func (s *Service) reschedule(ctx context.Context, id string, next time.Time, rings int, sched time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	live, ok := s.live[id]
	if !ok {
		return false // cancelled meanwhile
	}
	old := *live
	live.NextRing, live.Rings, live.sched = next, rings, sched
	if err := s.st.update(ctx, live, s.clock.Now()); err != nil {
		*live = old
		s.log.Error("timer state not saved", "err", err)
		// Try again after a pause rather than spinning.
		live.NextRing = next.Add(s.set.Retry)
		return false
	}
	if (old.Rings == 0) != (rings == 0) {
		s.dirty[live.place()] = true
	}
	return true
}

func (s *Service) send(ctx context.Context, dev string, m api.LinkMessage) (api.LinkAckBody, error) {
	s.mu.Lock()
	l := s.link
	s.mu.Unlock()
	if l == nil {
		return api.LinkAckBody{}, errors.New("no robot link")
	}
	sctx, cancel := context.WithTimeout(ctx, s.set.Send)
	defer cancel()
	return l.Send(sctx, dev, m)
}

// Record is one audit record of something the service did on its own (a ring, a timer the
// hub rang, a missed timer): the broker writes it to its audit log. Never words, only the
// timer's closed label and length.
type Record struct {
	Time    time.Time
	ID      string // the timer's ID (the audit log's turn_id)
	Device  string // the robot it rang on, or the device it was set on
	Intent  string // "timer.ring"
	Args    map[string]string
	Outcome string // pending (written before a ring is sent), ok, error, missed
	Code    string
	// Settles says this record is the outcome of the ring whose pending record (same ID and
	// Device) was written before it was sent: the audit log updates that record in place, so
	// one ring is one record.
	Settles bool
}

func (s *Service) record(dev string, t *Timer, outcome, code string) Record {
	return Record{Time: s.clock.Now().UTC(), ID: t.ID, Device: dev, Intent: "timer.ring",
		Args: map[string]string{"label": t.Label, "duration": fmt.Sprint(int64(t.Duration / time.Second))}, Outcome: outcome, Code: code}
}

// auditOutcome settles a ring's pending record with what became of it; a failure to write it
// is logged (the pending record stays, the ring already happened or not).
func (s *Service) auditOutcome(ctx context.Context, r Record) {
	r.Settles = true
	if err := s.d.Audit(ctx, r); err != nil {
		s.log.Error("audit write failed", "err", err)
	}
}

func (s *Service) audit(ctx context.Context, dev, id, outcome, code string) {
	s.mu.Lock()
	t, ok := s.live[id]
	var c Timer
	if ok {
		c = *t
	}
	s.mu.Unlock()
	if !ok {
		return
	}
	if err := s.d.Audit(ctx, s.record(dev, &c, outcome, code)); err != nil {
		s.log.Error("audit write failed", "err", err)
	}
}

// pendingFor is the hub's copy for a place: ID, label, due time and time left of the timers
// not yet rung. The hub counts the time left from when the copy arrives, on its own clock, so
// the two machines' wall clocks need not agree.
func (s *Service) pendingFor(place string) []api.LinkTimer {
	now := s.clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []api.LinkTimer{}
	for _, t := range s.live {
		if t.place() == place && t.Rings == 0 {
			left := t.Due.Sub(now)
			ms := left.Milliseconds()
			out = append(out, api.LinkTimer{ID: t.ID, Label: t.Label, Due: now.Add(left).UTC().Round(0), LeftMS: &ms})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Due.Before(out[j].Due) })
	return out
}

func (s *Service) sendTimers(ctx context.Context, dev string, ts []api.LinkTimer) bool {
	ack, err := s.send(ctx, dev, api.LinkMessage{Type: api.LinkTimers, ID: "timers-" + newID(), Timers: ts})
	if err != nil || !ack.OK {
		s.log.Debug("timer copy not delivered", "device", dev, "err", err)
		return false
	}
	return true
}

// syncDirty queues a fresh copy for each connected robot of a changed place (each robot's
// outbox sends it; a slow robot delays only its own).
func (s *Service) syncDirty(ctx context.Context) {
	s.mu.Lock()
	l, dirty := s.link, s.dirty
	if l == nil || len(dirty) == 0 {
		s.mu.Unlock()
		return
	}
	s.dirty = map[string]bool{}
	s.mu.Unlock()
	conn := l.Connected()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, dev := range conn {
		if dirty[placeOf(dev, s.d.RoomOf(dev))] {
			s.enqueue(ctx, dev, func(ob *outbox) { ob.copy = true })
		}
	}
}
