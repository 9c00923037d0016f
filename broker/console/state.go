package console

import (
	"context"
	"net/http"
	"strings"
	"time"
)

// View is what the page shows: each robot, online or not, its room and state, the time of
// its last turn (never what was said), and who is connected. Clips appear only to the owner
// who holds the session.
type View struct {
	Me          ViewPerson  `json:"me"`
	Robots      []ViewRobot `json:"robots"`
	Expressions []string    `json:"expressions"`
	IdleTimeout int         `json:"idle_timeout_s"`
	MaxText     int         `json:"max_text"` // the longest typed sentence, in characters
	Now         time.Time   `json:"now"`      // the broker's clock, for the idle countdown
	// Boot names this run of the broker's console: when it changes, the broker restarted
	// and every session and call of the page ended with it (broker_restart).
	Boot string `json:"boot"`
}

// ViewPerson names someone.
type ViewPerson struct {
	Login   string `json:"login"`
	Display string `json:"display"`
}

// ViewRobot is one robot on the page.
type ViewRobot struct {
	Device   string       `json:"device"`
	Room     string       `json:"room"`
	Online   bool         `json:"online"`
	State    string       `json:"state,omitempty"`
	LastTurn time.Time    `json:"last_turn"`
	Session  *ViewSession `json:"session,omitempty"`
	// LastEnd is how this owner's last session or call on the robot ended (only to them).
	LastEnd *ViewEnd `json:"last_end,omitempty"`
}

// ViewEnd is how a session or call ended: a closed reason (an api.CallEnd value) and when.
type ViewEnd struct {
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}

// ViewCall is the holder's live call: connecting (the offer is with the robot) or live.
type ViewCall struct {
	ID    string    `json:"id"`
	State string    `json:"state"`
	Since time.Time `json:"since"`
}

// ViewSession is a robot's session as one owner sees it. Until it is live (the robot played
// the join announcement) it carries nothing from the room.
type ViewSession struct {
	Display string    `json:"display"`
	Since   time.Time `json:"since"`
	Mine    bool      `json:"mine"` // this page holds it
	// Elsewhere: the same owner holds it from another tab or window; calling from here
	// takes it over as a new session (a new chime).
	Elsewhere bool   `json:"elsewhere,omitempty"`
	Live      bool   `json:"live"`
	Clips     []clip `json:"clips,omitempty"`
	// Call and IdleDeadline are the holder's only: the session ends as idle at the deadline
	// unless something happens ("I'm still here", an action, the room speaking).
	Call         *ViewCall  `json:"call,omitempty"`
	IdleDeadline *time.Time `json:"idle_deadline,omitempty"`
}

func (c *Console) view(ctx context.Context, p Person) View {
	v := View{Me: ViewPerson{Login: p.Login, Display: displayName(p)}, IdleTimeout: int(c.d.IdleTimeout / time.Second),
		MaxText: c.d.MaxText, Now: c.d.Now(), Boot: c.boot}
	if c.d.Expressions != nil {
		v.Expressions = c.d.Expressions()
	}
	for _, r := range c.d.Robots() {
		st := c.d.Link.Status(r.Device)
		vr := ViewRobot{Device: r.Device, Room: r.Room, Online: st.Online, State: st.State, LastTurn: c.d.LastTurn(ctx, r.Device)}
		c.mu.Lock()
		if s := c.sessions[r.Device]; s != nil {
			owner := strings.EqualFold(s.owner.Login, p.Login)
			mine := owner && s.owner.Page == p.Page
			vs := &ViewSession{Display: displayName(s.owner), Since: s.since, Mine: mine, Elsewhere: owner && !mine, Live: s.live}
			if mine && s.live {
				vs.Clips = append([]clip(nil), s.clips...)
				deadline := s.last.Add(c.d.IdleTimeout)
				vs.IdleDeadline = &deadline
				if s.call != nil {
					vs.Call = &ViewCall{ID: s.call.id, State: s.call.state, Since: s.call.since}
				}
			}
			vr.Session = vs
		}
		if e, ok := c.lastEnd[r.Device]; ok && strings.EqualFold(e.owner, p.Login) {
			vr.LastEnd = &ViewEnd{Reason: e.reason, At: e.at}
		}
		c.mu.Unlock()
		v.Robots = append(v.Robots, vr)
	}
	return v
}

func (c *Console) serveState(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, c.view(r.Context(), personOf(r)))
}
