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
