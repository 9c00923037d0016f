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
}

// ViewSession is a robot's session as one owner sees it. Until it is live (the robot played
// the join announcement) it carries nothing from the room.
type ViewSession struct {
	Display string    `json:"display"`
	Since   time.Time `json:"since"`
	Mine    bool      `json:"mine"`
	Live    bool      `json:"live"`
	Clips   []clip    `json:"clips,omitempty"`
}

func (c *Console) view(ctx context.Context, p Person) View {
	v := View{Me: ViewPerson{Login: p.Login, Display: displayName(p)}, IdleTimeout: int(c.d.IdleTimeout / time.Second)}
	if c.d.Expressions != nil {
		v.Expressions = c.d.Expressions()
	}
	for _, r := range c.d.Robots() {
		st := c.d.Link.Status(r.Device)
		vr := ViewRobot{Device: r.Device, Room: r.Room, Online: st.Online, State: st.State, LastTurn: c.d.LastTurn(ctx, r.Device)}
		c.mu.Lock()
		if s := c.sessions[r.Device]; s != nil {
			mine := strings.EqualFold(s.owner.Login, p.Login)
			vs := &ViewSession{Display: displayName(s.owner), Since: s.since, Mine: mine, Live: s.live}
			if mine && s.live {
				vs.Clips = append([]clip(nil), s.clips...)
			}
			vr.Session = vs
		}
		c.mu.Unlock()
		v.Robots = append(v.Robots, vr)
	}
	return v
}

func (c *Console) serveState(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, c.view(r.Context(), personOf(r)))
}
