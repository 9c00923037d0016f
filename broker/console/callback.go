package console

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// Call back ("call dad", teleport.call): the family asks an owner to call the robot. An
// owner whose console is open — the page polls GET /console/api/calls, and a console polled
// within consoleOpenWindow counts as open — sees a ringing banner with an Answer button for
// RingTimeout; a ring nobody answers, or a request that finds no console open, becomes a
// missed call kept (in memory, bounded) for the owner's next visit, and the home's notifier
// (the call webhook) is told once. Nothing of what was said is kept: only who asked for
// whom, from which robot, when.

const (
	consoleOpenWindow = 5 * time.Second // a console polled this recently is open
	maxMissed         = 20              // per owner; the oldest goes first
	notifyEvery       = time.Minute     // at most one notice per owner and robot this often
)

// CallOutcome says what a call-back request did.
type CallOutcome string

// Call-back outcomes.
const (
	CallRang   CallOutcome = "rang"   // an open console of the owner is ringing
	CallMissed CallOutcome = "missed" // no console open: a missed call is waiting for the owner
)

// CallRequest is one "call dad": who asked for whom, from which robot.
type CallRequest struct {
	Owner  string // the wanted owner's login
	Wanted string // the person of the home the room named ("dad")
	Device string
	Room   string
}

// Notice is what the home's notifier (teleport.call_webhook) is told of a missed call.
type Notice struct {
	Robot      string `json:"robot"`
	Room       string `json:"room"`
	Wanted     string `json:"wanted"`
	ConsoleURL string `json:"console_url"`
}

// Ring is a call-back request as the owner's page sees it.
type Ring struct {
	ID     int       `json:"id"`
	Device string    `json:"device"`
	Room   string    `json:"room"`
	Wanted string    `json:"wanted"`
	At     time.Time `json:"at"`
}

// CallsView is the owner's ringing and missed calls.
type CallsView struct {
	Ringing []Ring `json:"ringing"`
	Missed  []Ring `json:"missed"`
}

// callbacks holds the rings and missed calls of every owner, by lower-case login.
type callbacks struct {
	mu       sync.Mutex
	nextID   int
	seen     map[string]time.Time // last poll of each owner's console
	ringing  map[string][]Ring
	missed   map[string][]Ring
	notified map[string]time.Time // owner + "\x00" + device -> last notice
}

func newCallbacks() *callbacks {
	return &callbacks{seen: map[string]time.Time{}, ringing: map[string][]Ring{}, missed: map[string][]Ring{}, notified: map[string]time.Time{}}
}

// RequestCall rings the owner's open console or leaves a missed call (and tells the
// notifier). It never waits for the notifier.
func (c *Console) RequestCall(ctx context.Context, req CallRequest) CallOutcome {
	cb := c.calls
	owner := strings.ToLower(req.Owner)
	now := c.d.Now()
	cb.mu.Lock()
	cb.nextID++
	r := Ring{ID: cb.nextID, Device: req.Device, Room: req.Room, Wanted: req.Wanted, At: now}
	open := now.Sub(cb.seen[owner]) <= consoleOpenWindow
	if open {
		for _, ringing := range cb.ringing[owner] {
			if ringing.Device == req.Device {
				cb.mu.Unlock()
				return CallRang // asked again while it rings: still the one ring
			}
		}
		cb.ringing[owner] = append(cb.ringing[owner], r)
	}
	cb.mu.Unlock()
	if !open {
		c.miss(owner, r)
		return CallMissed
	}
	time.AfterFunc(c.d.RingTimeout, func() {
		if c.unring(owner, r.ID) {
			c.miss(owner, r) // nobody answered
		}
	})
	c.log.Info("teleport call-back ringing", "owner", owner, "device", req.Device)
	return CallRang
}

// unring takes ring id off owner's ringing list; it reports whether it was still ringing.
func (c *Console) unring(owner string, id int) bool {
	cb := c.calls
	cb.mu.Lock()
	defer cb.mu.Unlock()
	rs := cb.ringing[owner]
	for i, r := range rs {
		if r.ID == id {
			cb.ringing[owner] = append(rs[:i:i], rs[i+1:]...)
			return true
		}
	}
	return false
}

// miss keeps a missed call for the owner and tells the notifier, at most once a minute per
// owner and robot (a room asking again and again does not become a storm of posts).
func (c *Console) miss(owner string, r Ring) {
	cb := c.calls
	now := c.d.Now()
	key := owner + "\x00" + r.Device
	cb.mu.Lock()
	m := append(cb.missed[owner], r)
	if len(m) > maxMissed {
		m = m[len(m)-maxMissed:]
	}
	cb.missed[owner] = m
	last, told := cb.notified[key]
	notify := c.d.Notify != nil && (!told || now.Sub(last) >= notifyEvery)
	if notify {
		cb.notified[key] = now
	}
	cb.mu.Unlock()
	c.log.Info("teleport call-back missed", "owner", owner, "device", r.Device)
	if notify {
		go c.d.Notify(context.Background(), owner, Notice{Robot: r.Device, Room: r.Room, Wanted: r.Wanted})
	}
}

// answered clears owner's rings and missed calls from device: they joined it.
func (c *Console) answered(owner, device string) {
	cb := c.calls
	owner = strings.ToLower(owner)
	cb.mu.Lock()
	defer cb.mu.Unlock()
	keep := func(rs []Ring) []Ring {
		out := rs[:0:0]
		for _, r := range rs {
			if r.Device != device {
				out = append(out, r)
			}
		}
		return out
	}
	cb.ringing[owner] = keep(cb.ringing[owner])
	cb.missed[owner] = keep(cb.missed[owner])
}

// serveCalls is the page's poll: it marks the owner's console open and returns their
// ringing and missed calls.
func (c *Console) serveCalls(w http.ResponseWriter, r *http.Request) {
	owner := strings.ToLower(personOf(r).Login)
	cb := c.calls
	cb.mu.Lock()
	cb.seen[owner] = c.d.Now()
	v := CallsView{Ringing: append([]Ring{}, cb.ringing[owner]...), Missed: append([]Ring{}, cb.missed[owner]...)}
	cb.mu.Unlock()
	writeJSON(w, v)
}

// serveDismiss forgets one missed call (or all, without an id) of the owner.
func (c *Console) serveDismiss(w http.ResponseWriter, r *http.Request) {
	owner := strings.ToLower(personOf(r).Login)
	id, err := strconv.Atoi(r.URL.Query().Get("id"))
	all := r.URL.Query().Get("id") == ""
	if err != nil && !all {
		writeErr(w, &consoleError{status: http.StatusBadRequest, code: api.CodeInvalidArgs, msg: "id must be a number"})
		return
	}
	cb := c.calls
	cb.mu.Lock()
	out := cb.missed[owner][:0:0]
	for _, m := range cb.missed[owner] {
		if !all && m.ID != id {
			out = append(out, m)
		}
	}
	cb.missed[owner] = out
	v := CallsView{Ringing: append([]Ring{}, cb.ringing[owner]...), Missed: append([]Ring{}, out...)}
	cb.mu.Unlock()
	writeJSON(w, v)
}

// callbackRoutes adds the call-back page script and calls to mux.
func (c *Console) callbackRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /console/callback.js", c.person(serveAsset("callback.js", "text/javascript; charset=utf-8")))
	mux.HandleFunc("GET /console/api/calls", c.person(c.serveCalls))
	mux.HandleFunc("POST /console/api/calls/dismiss", c.person(c.sameOrigin(c.serveDismiss)))
}
