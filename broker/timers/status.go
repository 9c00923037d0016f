package timers

import (
	"context"
	"slices"
	"sort"
	"time"
)

// What the operator's status shows of the timers (reachyctl status, /healthz, /metrics):
// each live timer with the robots that will ring it, and the timers that were let go
// without ringing. Labels come from the closed list; nothing else of a timer is kept.

// Info is one live timer as the operator's status shows it.
type Info struct {
	ID     string    `json:"id"`
	Device string    `json:"set_by"` // the device it was set from
	Room   string    `json:"room,omitempty"`
	Label  string    `json:"label,omitempty"`
	Due    time.Time `json:"due"`
	Rings  int       `json:"rings"` // rung so far (0: pending)
	// RingsOn are the robots that ring it when it is due: the linked robots of its place;
	// when none is linked, the robots of its place the broker knows (which may link by then).
	// Empty: no robot can ring it.
	RingsOn []string `json:"rings_on"`
	Linked  bool     `json:"linked"` // RingsOn are linked now
}

// Missed is a timer that was let go without ringing.
type Missed struct {
	Device string    `json:"set_by"`
	Room   string    `json:"room,omitempty"`
	Label  string    `json:"label,omitempty"`
	Due    time.Time `json:"due"`
	At     time.Time `json:"missed_at"`
	// Reason is closed: no_robot (it came due with no robot linked in its place to ring it,
	// and none linked within NoRobotWait) or past_grace (it came due longer ago than the
	// grace window, the broker was down) or earlier_run (set in an earlier run of a dev
	// broker on its default state directory, which starts without them: Deps.ForgetEarlier).
	Reason string `json:"reason"`
}

// Missed reasons.
const (
	MissedNoRobot   = "no_robot"
	MissedPastGrace = "past_grace"
	MissedEarlier   = "earlier_run"
)

// maxMissed bounds the missed timers the status remembers.
const maxMissed = 20

// Snapshot lists the live timers, soonest first, with who will ring each.
func (s *Service) Snapshot() []Info {
	s.mu.Lock()
	ts := make([]Timer, 0, len(s.live))
	for _, t := range s.live {
		ts = append(ts, *t)
	}
	s.mu.Unlock()
	sort.Slice(ts, func(i, j int) bool {
		if ts[i].Due.Equal(ts[j].Due) {
			return ts[i].ID < ts[j].ID
		}
		return ts[i].Due.Before(ts[j].Due)
	})
	out := make([]Info, 0, len(ts))
	for i := range ts {
		t := &ts[i]
		on, linked := s.targets(t), true
		if len(on) == 0 {
			on, linked = s.knownRobots(t.place()), false
		}
		out = append(out, Info{ID: t.ID, Device: t.Device, Room: t.Room, Label: t.Label, Due: t.Due.Round(0),
			Rings: t.Rings, RingsOn: append([]string{}, on...), Linked: linked && len(on) > 0})
	}
	return out
}

// MissedTimers lists the timers let go without ringing since the broker started (the
// newest maxMissed), oldest first.
func (s *Service) MissedTimers() []Missed {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.missed)
}

// MissedTotal counts the timers let go without ringing since the broker started.
func (s *Service) MissedTotal() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.missedTotal
}

// knownRobots are the robots of a place the broker knows (Deps.Robots), linked or not.
func (s *Service) knownRobots(place string) []string {
	if s.d.Robots == nil {
		return nil
	}
	var out []string
	for _, dev := range s.d.Robots() {
		if placeOf(dev, s.d.RoomOf(dev)) == place {
			out = append(out, dev)
		}
	}
	sort.Strings(out)
	return out
}

// miss lets a live timer go without ringing: audited as missed with its closed reason,
// logged, remembered for the status, and deleted (the robots' copies lose it with it).
func (s *Service) miss(ctx context.Context, t *Timer, reason string, now time.Time) {
	s.log.Warn("a timer was let go without ringing", "reason", reason, "room", t.Room, "label", t.Label,
		"due_ago", now.Sub(t.Due).Round(time.Second).String())
	// Its next ring is the act let go: the records of it tried on robots, or one on the
	// device it was set on when it was tried nowhere.
	if open := openOf(t); len(open) > 0 {
		s.closeRing(ctx, t, t.Rings+1, open, "missed", reason)
	} else {
		s.settleRecord(ctx, s.ringRecord(t.Device, t, t.Rings+1, "missed", reason))
	}
	if n, _ := s.end(ctx, "missed", t.ID); n == 0 {
		return
	}
	s.mu.Lock()
	delete(s.noRobot, t.ID)
	s.missedTotal++
	s.missed = append(s.missed, Missed{Device: t.Device, Room: t.Room, Label: t.Label, Due: t.Due.Round(0), At: now.Round(0), Reason: reason})
	if len(s.missed) > maxMissed {
		s.missed = slices.Delete(s.missed, 0, len(s.missed)-maxMissed)
	}
	s.mu.Unlock()
}
