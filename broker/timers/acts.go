package timers

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// One audit record per act, under every fault.
//
// The act is one ring of one timer (its n-th, on one robot), or a timer let go: its record's
// ID is the ring's ID, "<timer ID>-<n>" (the link message's ID too), and its device the robot
// it rang on. The record is opened (written pending) before the ring is first sent and
// settled once, when the ring's fate is known: played, rung by the hub itself, refused, not
// delivered in the end, missed. A ring sent again — because its ack was lost, the robot was
// away for a moment, or the broker was killed and restarted anywhere between the two writes —
// finds its record already open (or already settled) and writes no second one: the audit log
// (Deps.Audit) writes each act's record once and settles it once.
//
// The robots whose record of a timer's next ring is open and not settled are kept with the
// timer's row (Timer.open), written before the record is opened; so a record that a restart
// left pending is settled by the next broker, whatever becomes of the ring.

// ringID names the n-th ring of a timer: the audit record's ID and the link message's.
func ringID(timerID string, n int) string { return fmt.Sprintf("%s-%d", timerID, n) }

// ringRecord is the record of ring n of t on dev.
func (s *Service) ringRecord(dev string, t *Timer, n int, outcome, code string) Record {
	return Record{Time: s.clock.Now().UTC(), ID: ringID(t.ID, n), Device: dev, Intent: "timer.ring",
		Args: map[string]string{"label": t.Label, "duration": fmt.Sprint(int64(t.Duration / time.Second))}, Outcome: outcome, Code: code}
}

// openRing notes dev among the robots with an open record of the timer's next ring, in the
// timer's row first, then in the attempt. It reports whether the note is saved (if it is not,
// the ring is not sent: a record nobody would settle after a restart is never opened).
func (s *Service) openRing(ctx context.Context, a *attempt, dev string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	live, ok := s.live[a.t.ID]
	if !ok {
		return false // ended meanwhile: no ring
	}
	if !slices.Contains(live.open, dev) {
		open := append(slices.Clone(live.open), dev)
		if err := s.st.setOpen(ctx, live.ID, open); err != nil {
			s.log.Error("timer state not saved: the timer does not ring now", "err", err)
			return false
		}
		live.open = open
	}
	a.open[dev] = true
	return true
}

// settleRecord gives one robot's record of a ring its outcome; a failure is logged (the
// record stays pending, and the robot stays in the timer's open list when it lives on).
func (s *Service) settleRecord(ctx context.Context, r Record) bool {
	if err := s.d.Audit(ctx, r); err != nil {
		s.log.Error("audit write failed", "err", err)
		return false
	}
	return true
}

// closeRing settles every open record of ring n of t (the robots in open) that is still
// pending with outcome and code — each robot's own failure code when it has one. The records
// already settled (a robot that played it) keep their outcome: the audit log settles once.
func (s *Service) closeRing(ctx context.Context, t *Timer, n int, open map[string]string, outcome, code string) {
	devs := make([]string, 0, len(open))
	for dev := range open {
		devs = append(devs, dev)
	}
	slices.Sort(devs)
	for _, dev := range devs {
		c := code
		if open[dev] != "" {
			c = open[dev]
		}
		s.settleRecord(ctx, s.ringRecord(dev, t, n, outcome, c))
	}
}

// attemptOpen is the robots an attempt's ring is open on, with the code each failed with.
func (s *Service) attemptOpen(a *attempt) map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]string{}
	for dev := range a.open {
		out[dev] = a.codes[dev]
	}
	return out
}

// openOf is the robots with an open record of a timer's next ring (of a live timer under
// s.mu, or of a copy).
func openOf(t *Timer) map[string]string {
	out := map[string]string{}
	for _, dev := range t.open {
		out[dev] = ""
	}
	return out
}
