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
// missed call kept (in the broker's state store, bounded) for the owner's next visit, and the home's notifier
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

// MissedCalls keeps missed call-backs for each owner (lower-case login) until they are seen
// to: the broker keeps them in its state store, so a restart loses none. An implementation
// keeps at most maxMissed per owner, dropping the oldest.
type MissedCalls interface {
	AddMissed(ctx context.Context, owner string, r Ring) error
	Missed(ctx context.Context, owner string) ([]Ring, error)
	// DismissMissed forgets one missed call of owner, or all of them when id is 0.
	DismissMissed(ctx context.Context, owner string, id int) error
	// ClearMissed forgets owner's missed calls from device (they called it).
	ClearMissed(ctx context.Context, owner, device string) error
}

// MaxMissed is how many missed calls are kept per owner; the oldest goes first.
const MaxMissed = maxMissed

// callbacks holds the rings of every owner, by lower-case login; missed calls are in the
// MissedCalls store.
type callbacks struct {
	mu       sync.Mutex
	nextID   int
	seen     map[string]time.Time // last poll of each owner's console
	ringing  map[string][]Ring
	notified map[string]time.Time // owner + "\x00" + device -> last notice
	missed   MissedCalls
}

func newCallbacks(missed MissedCalls) *callbacks {
	if missed == nil {
		missed = &memMissed{byOwner: map[string][]Ring{}}
	}
	return &callbacks{seen: map[string]time.Time{}, ringing: map[string][]Ring{}, notified: map[string]time.Time{}, missed: missed}
}

// memMissed keeps missed calls in memory (a console built without a store: tests, tools).
type memMissed struct {
	mu      sync.Mutex
	nextID  int
	byOwner map[string][]Ring
}

func (m *memMissed) AddMissed(_ context.Context, owner string, r Ring) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nextID++
	r.ID = m.nextID
	rs := append(m.byOwner[owner], r)
	if len(rs) > maxMissed {
		rs = rs[len(rs)-maxMissed:]
	}
	m.byOwner[owner] = rs
	return nil
}

func (m *memMissed) Missed(_ context.Context, owner string) ([]Ring, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Ring{}, m.byOwner[owner]...), nil
}

func (m *memMissed) DismissMissed(_ context.Context, owner string, id int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []Ring{}
	for _, r := range m.byOwner[owner] {
		if id != 0 && r.ID != id {
			out = append(out, r)
		}
	}
	m.byOwner[owner] = out
	return nil
}

func (m *memMissed) ClearMissed(_ context.Context, owner, device string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []Ring{}
	for _, r := range m.byOwner[owner] {
		if r.Device != device {
			out = append(out, r)
		}
	}
	m.byOwner[owner] = out
	return nil
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
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := cb.missed.AddMissed(ctx, owner, r); err != nil {
		c.log.Error("console: a missed call could not be kept", "owner", owner, "device", r.Device, "err", err)
	}
	cb.mu.Lock()
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
	out := []Ring{}
	for _, r := range cb.ringing[owner] {
		if r.Device != device {
			out = append(out, r)
		}
	}
	cb.ringing[owner] = out
	cb.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := cb.missed.ClearMissed(ctx, owner, device); err != nil {
		c.log.Warn("console: answered missed calls not cleared", "owner", owner, "err", err)
	}
}

// serveCalls is the page's poll: it marks the owner's console open and returns their
// ringing and missed calls.
func (c *Console) serveCalls(w http.ResponseWriter, r *http.Request) {
	owner := strings.ToLower(personOf(r).Login)
	cb := c.calls
	cb.mu.Lock()
	cb.seen[owner] = c.d.Now()
	v := CallsView{Ringing: append([]Ring{}, cb.ringing[owner]...)}
	cb.mu.Unlock()
	c.writeCalls(w, r.Context(), owner, v)
}

// writeCalls completes v with owner's missed calls and answers it.
func (c *Console) writeCalls(w http.ResponseWriter, ctx context.Context, owner string, v CallsView) {
	missed, err := c.calls.missed.Missed(ctx, owner)
	if err != nil {
		c.log.Error("console: missed calls unreadable", "err", err)
		writeErr(w, &consoleError{status: http.StatusServiceUnavailable, code: api.CodeUnavailable, msg: "missed calls cannot be read right now"})
		return
	}
	v.Missed = append([]Ring{}, missed...)
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
	if all {
		id = 0
	} else if id <= 0 {
		writeErr(w, &consoleError{status: http.StatusBadRequest, code: api.CodeInvalidArgs, msg: "id must be a positive number"})
		return
	}
	cb := c.calls
	if err := cb.missed.DismissMissed(r.Context(), owner, id); err != nil {
		c.log.Error("console: missed call not dismissed", "err", err)
		writeErr(w, &consoleError{status: http.StatusServiceUnavailable, code: api.CodeUnavailable, msg: "the missed call could not be dismissed right now"})
		return
	}
	cb.mu.Lock()
	v := CallsView{Ringing: append([]Ring{}, cb.ringing[owner]...)}
	cb.mu.Unlock()
	c.writeCalls(w, r.Context(), owner, v)
}

// callbackRoutes adds the call-back page script and calls to mux.
func (c *Console) callbackRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /console/callback.js", c.person(serveAsset("callback.js", "text/javascript; charset=utf-8")))
	mux.HandleFunc("GET /console/api/calls", c.person(c.withPage(c.serveCalls)))
	mux.HandleFunc("POST /console/api/calls/dismiss", c.person(c.sameOrigin(c.serveDismiss)))
}
