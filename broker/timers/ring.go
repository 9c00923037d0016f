package timers

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// Ringing: one due timer rung over the robot link (audited before it is sent), its next ring
// scheduled, and the hubs kept in step with the timers of their rooms.

// ring rings one due timer once (or lets it go: missed, or its rings are used up).
func (s *Service) ring(ctx context.Context, t *Timer, now time.Time) {
	// A timer that came due (or was due to ring again) longer than the grace window ago —
	// the broker was down — is let go rather than rung hours late.
	late := now.Sub(t.Due)
	if t.Rings > 0 {
		late = now.Sub(t.NextRing)
	}
	if late > s.set.Grace {
		s.log.Warn("a timer came due too long ago to ring", "late", now.Sub(t.Due).Round(time.Second))
		s.audit(ctx, t.Device, t.ID, "missed", "past_grace")
		s.end(ctx, "missed", t.ID)
		return
	}
	if t.Rings >= s.set.Rings {
		s.end(ctx, "rang out", t.ID)
		return
	}
	targets := s.targets(t)
	if len(targets) == 0 {
		s.reschedule(ctx, t, now.Add(s.set.Retry), t.Rings)
		return
	}
	text := s.sentence(t, now)
	wav := s.voice(ctx, text)
	n := t.Rings + 1
	// Durable first: a crash after this line never rings this ring again.
	if !s.reschedule(ctx, t, now.Add(s.set.Every), n) {
		return
	}
	rang, hubRang := 0, false
	for _, dev := range targets {
		// No ring without its audit record.
		if err := s.d.Audit(ctx, s.record(dev, t, "ok", "")); err != nil {
			s.log.Error("audit write failed: the timer does not ring now", "err", err)
			continue
		}
		ack, err := s.send(ctx, dev, api.LinkMessage{Type: api.LinkRing, ID: fmt.Sprintf("%s-%d", t.ID, n),
			Ring: &api.LinkRingAction{TimerID: t.ID, WAV: wav, Repeat: n}})
		switch {
		case err != nil:
			s.log.Warn("ring not delivered", "device", dev, "err", err)
			s.auditOutcome(ctx, s.record(dev, t, "error", "not_delivered"))
			continue
		case !ack.OK && ack.Code == api.LinkErrAlreadyRang:
			hubRang = true
			s.auditOutcome(ctx, s.record(dev, t, "ok", "rang_on_hub"))
			continue
		case !ack.OK:
			s.log.Warn("robot refused the ring", "device", dev, "code", ack.Code)
			s.auditOutcome(ctx, s.record(dev, t, "error", "refused_"+ack.Code))
			continue
		}
		rang++
		s.send(ctx, dev, api.LinkMessage{Type: api.LinkExpression, ID: fmt.Sprintf("%s-%d-x", t.ID, n), Expression: s.set.Expression})
		if s.d.FollowUp != nil {
			s.d.FollowUp(dev)
		}
	}
	switch {
	case hubRang:
		s.end(ctx, "rang on the hub", t.ID)
	case rang == 0 && n == 1:
		// Nobody took the first ring: it stays pending and is tried again.
		s.reschedule(ctx, t, now.Add(s.set.Retry), 0)
	case n >= s.set.Rings:
		s.end(ctx, "rang out", t.ID)
	}
}

// reschedule makes a timer's ring count and next look durable.
func (s *Service) reschedule(ctx context.Context, t *Timer, next time.Time, rings int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	live, ok := s.live[t.ID]
	if !ok {
		return false // cancelled meanwhile
	}
	old := *live
	live.NextRing, live.Rings = next, rings
	if err := s.st.update(ctx, live); err != nil {
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
	Outcome string // ok, missed
	Code    string
}

func (s *Service) record(dev string, t *Timer, outcome, code string) Record {
	return Record{Time: s.clock.Now().UTC(), ID: t.ID, Device: dev, Intent: "timer.ring",
		Args: map[string]string{"label": t.Label, "duration": fmt.Sprint(int64(t.Duration / time.Second))}, Outcome: outcome, Code: code}
}

// auditOutcome records what became of a ring after its record was written (a ring that did
// not reach the robot); a failure to write it is logged, the ring already happened or not.
func (s *Service) auditOutcome(ctx context.Context, r Record) {
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

// pendingFor is the hub's copy for a place: ID, label and due time of the timers not yet rung.
func (s *Service) pendingFor(place string) []api.LinkTimer {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []api.LinkTimer{}
	for _, t := range s.live {
		if t.place() == place && t.Rings == 0 {
			out = append(out, api.LinkTimer{ID: t.ID, Label: t.Label, Due: t.Due.UTC()})
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

// syncDirty sends each changed place's pending timers to its connected robots.
func (s *Service) syncDirty(ctx context.Context) {
	s.mu.Lock()
	l := s.link
	dirty := s.dirty
	s.dirty = map[string]bool{}
	s.mu.Unlock()
	if l == nil || len(dirty) == 0 {
		if l == nil && len(dirty) > 0 {
			s.mu.Lock()
			for p := range dirty {
				s.dirty[p] = true
			}
			s.mu.Unlock()
		}
		return
	}
	for _, dev := range l.Connected() {
		p := placeOf(dev, s.d.RoomOf(dev))
		if dirty[p] {
			s.sendTimers(ctx, dev, s.pendingFor(p))
		}
	}
}
