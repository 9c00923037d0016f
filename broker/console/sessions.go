package console

import (
	"sort"
	"time"
)

// SessionInfo is one teleport session as the operator's status shows it: which robot, who
// (the owner's login), since when, and whether the join announcement has played. Nothing
// from the room.
type SessionInfo struct {
	Device string    `json:"robot"`
	Owner  string    `json:"owner"`
	Since  time.Time `json:"since"`
	Live   bool      `json:"live"`
}

// Sessions lists the teleport sessions open now, by robot.
func (c *Console) Sessions() []SessionInfo {
	c.mu.Lock()
	out := make([]SessionInfo, 0, len(c.sessions))
	for dev, s := range c.sessions {
		out = append(out, SessionInfo{Device: dev, Owner: s.owner.Login, Since: s.since.Round(0), Live: s.live})
	}
	c.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Device < out[j].Device })
	return out
}

// LastEnd is how a robot's last teleport session or call ended, as the operator's status
// shows it: the robot, the owner's login, the closed reason (an api.CallEnd value, or
// not_announced) and when. Nothing from the room.
type LastEnd struct {
	Device string    `json:"robot"`
	Owner  string    `json:"owner"`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}

// LastEnds lists, by robot, how the last session or call ended since the broker started
// (and one the previous run ended as it stopped, or left open: broker_restart).
func (c *Console) LastEnds() []LastEnd {
	c.mu.Lock()
	out := make([]LastEnd, 0, len(c.lastEnd))
	for dev, e := range c.lastEnd {
		out = append(out, LastEnd{Device: dev, Owner: e.owner, Reason: e.reason, At: e.at.Round(0)})
	}
	c.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Device < out[j].Device })
	return out
}
