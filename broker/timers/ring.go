package timers

import (
	"context"
	"errors"
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
	a := &attempt{t: *t, n: t.Rings + 1, at: now, text: s.sentence(t, now), left: len(targets),
		open: map[string]bool{}, codes: map[string]string{}}
	for _, dev := range t.open {
		a.open[dev] = true
	}
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
// repeat, acks it and does not play it twice). Once the ring is over — played, rung by the
// hub, given up, or its timer ended meanwhile — the records still open of it are settled
// (acts.go), before the timer's row moves on to the next ring.
func (s *Service) settle(ctx context.Context, a *attempt) {
	id, n := a.t.ID, a.n
	over := func(outcome, code string) { s.closeRing(ctx, &a.t, n, s.attemptOpen(a), outcome, code) }
	switch {
	case a.hubRang:
		over("error", "not_delivered")
		s.end(ctx, "rang on the hub", id)
	case a.played > 0 && n >= s.set.Rings:
		over("error", "not_delivered")
		s.end(ctx, "rang out", id)
	case a.played > 0:
		over("error", "not_delivered")
		next := a.at.Add(s.set.Every)
		s.reschedule(ctx, id, next, n, next)
	case n == 1:
		// Nobody played the first ring: it stays pending and is tried again (within the
		// grace window, measured from the due time).
		if !s.reschedule(ctx, id, s.clock.Now().Add(s.set.Retry), a.t.Rings, a.t.sched) && !s.isLive(id) {
			over("error", "not_delivered") // ended meanwhile
		}
	default:
		// A repeat nobody played is tried again until the next repeat is due; then it is
		// given up (its audit record says not delivered) and the next one goes.
		now := s.clock.Now()
		if next := now.Add(s.set.Retry); next.Before(a.t.sched.Add(s.set.Every)) {
			if !s.reschedule(ctx, id, next, a.t.Rings, a.t.sched) && !s.isLive(id) {
				over("error", "not_delivered")
			}
			return
		}
		over("error", "not_delivered")
		if n >= s.set.Rings {
			s.end(ctx, "rang out", id)
			return
		}
		next := a.t.sched.Add(s.set.Every)
		s.reschedule(ctx, id, next, n, next)
	}
}

func (s *Service) isLive(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.live[id]
	return ok
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
	if rings != old.Rings {
		live.open = nil // the records of the ring before are settled (settle)
	}
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
// timer's closed label and length. Each act has one record (acts.go): ID and Device name it;
// a pending Outcome opens it, any other settles it, and a record settled already keeps its
// outcome — the audit log must write it so.
type Record struct {
	Time    time.Time
	ID      string // the ring's ID: "<timer ID>-<n>" (the audit log's turn_id)
	Device  string // the robot it rang on, or the device it was set on
	Intent  string // "timer.ring"
	Args    map[string]string
	Outcome string // pending (written before a ring is sent), ok, error, missed
	Code    string
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
