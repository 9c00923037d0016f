// Package link owns the broker's end of the robot link: the registry of hubs that hold a
// WebSocket open at GET /v1/link, the heartbeat that notices a dead one, and the small API
// the rest of the broker uses to reach a robot by device name (Send, Status, Subscribe).
//
// It must never authenticate a caller itself — the broker's middleware checks token, node
// and scope before Serve is called — never send a robot anything but the closed set of
// typed actions of broker/api (sound and typed actions, never text or data), and never
// store or log what a hub heard: clips pass through to subscribers in memory only. Nothing a
// hub sends is kept, logged or passed on raw: its strings are bounded and stripped of control
// characters and escapes, its codes held to the closed lists (clean.go).
package link

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// Errors of Send.
var (
	ErrOffline   = errors.New("the robot's link is not connected")
	ErrLinkDown  = errors.New("the robot's link went down before it answered")
	ErrNoAck     = errors.New("the robot did not acknowledge in time")
	ErrNotAction = errors.New("not a broker-to-robot action")
)

// downTypes is the closed set of messages the broker may send a robot.
var downTypes = []string{api.LinkPlay, api.LinkExpression, api.LinkLook, api.LinkStop,
	api.LinkPresence, api.LinkTimers, api.LinkRing, api.LinkCallOffer, api.LinkCallEnd}

// IsAction reports whether typ is one of the broker-to-robot actions.
func IsAction(typ string) bool { return slices.Contains(downTypes, typ) }

// Options tune a Registry; zero values take the defaults.
type Options struct {
	Ping       time.Duration // how often the broker pings each hub; default 5 s
	DeadAfter  time.Duration // a link silent this long is closed; default 15 s
	AckTimeout time.Duration // Send waits at most this long for an ack; default 10 s
	ReadLimit  int64         // largest frame a hub may send; default 2 MiB (a heard clip)
	Heard      HeardLimits   // how many heard clips, and how much audio, a hub may send
	// LogBurst lines of one kind per robot are logged per LogInterval (default 5 per
	// minute); the rest are counted and summarized, so a hub cannot flood the log.
	LogBurst    int
	LogInterval time.Duration
	Logger      *slog.Logger
}

// HeardLimits bound the heard clips (utterances of a teleport session) each robot may send:
// two token buckets, on clips and on audio bytes, kept per robot across reconnects. A clip
// beyond them is dropped and counted; the link stays up. An honest hub sends one utterance
// every few seconds of real-time 16 kHz audio (32 KB/s).
type HeardLimits struct {
	PerSecond      float64 // clips per second on average; default 1
	Burst          int     // clips at once; default 4
	BytesPerSecond int     // audio bytes per second on average; default 64 KiB (twice real time)
	BurstBytes     int     // audio bytes at once; default 1.5 MiB (the largest clip a frame can carry)
}

// Stats count what the registry refused since it started.
type Stats struct {
	HeardDropped uint64 // heard clips over a robot's HeardLimits
	Malformed    uint64 // frames that were not a valid message, or of an unknown type
}

// EventKind says what happened on a link.
type EventKind string

// Event kinds.
const (
	EventUp        EventKind = "up"         // a hub connected (also after a reconnect)
	EventDown      EventKind = "down"       // its link closed
	EventState     EventKind = "state"      // it reported a new state (Event.State)
	EventHeard     EventKind = "heard"      // an utterance cut during a teleport session (Event.WAV)
	EventRang      EventKind = "rang"       // timers it rang on its own (Event.Rang)
	EventStopped   EventKind = "stopped"    // someone in the room said "stop" to a link action
	EventCallEnded EventKind = "call_ended" // the hub ended a call's media itself (Event.CallID, Event.Reason)
)

// Event is one thing a subscriber hears about a robot's link.
type Event struct {
	Device string
	Kind   EventKind
	State  string   // EventState
	WAV    []byte   // EventHeard: memory only, never stored
	Rang   []string // EventRang
	CallID string   // EventCallEnded
	Reason string   // EventCallEnded: one of the api.CallEnd values
	At     time.Time
}

// Status is what the broker knows of a robot's link right now.
type Status struct {
	Device   string    `json:"device"`
	Online   bool      `json:"online"`
	State    string    `json:"state,omitempty"`
	Since    time.Time `json:"since"` // when it connected (online) or went down
	Version  string    `json:"version,omitempty"`
	Connects int       `json:"connects"` // links opened since the broker started
}

// Registry holds the live links, one per device. Create it with New.
type Registry struct {
	opts Options
	log  *slog.Logger
	logs *LogLimit // per robot: a hub cannot flood the log

	heardDropped atomic.Uint64
	malformed    atomic.Uint64

	mu     sync.Mutex
	conns  map[string]*conn
	status map[string]Status
	subs   map[int]*subscriber
	nextID int
	heard  map[string]*heardBucket // by device; kept across reconnects
}

// New returns an empty registry.
func New(o Options) *Registry {
	if o.Ping <= 0 {
		o.Ping = api.LinkPingInterval
	}
	if o.DeadAfter <= 0 {
		o.DeadAfter = api.LinkDeadAfter
	}
	if o.AckTimeout <= 0 {
		o.AckTimeout = 10 * time.Second
	}
	if o.ReadLimit <= 0 {
		o.ReadLimit = 2 << 20
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Heard.PerSecond <= 0 {
		o.Heard.PerSecond = 1
	}
	if o.Heard.Burst <= 0 {
		o.Heard.Burst = 4
	}
	if o.Heard.BytesPerSecond <= 0 {
		o.Heard.BytesPerSecond = 64 << 10
	}
	if o.Heard.BurstBytes <= 0 {
		o.Heard.BurstBytes = 3 << 19
	}
	if o.LogBurst <= 0 {
		o.LogBurst = 5
	}
	if o.LogInterval <= 0 {
		o.LogInterval = time.Minute
	}
	return &Registry{opts: o, log: o.Logger, logs: NewLogLimit(o.LogBurst, o.LogInterval),
		conns: map[string]*conn{}, status: map[string]Status{}, subs: map[int]*subscriber{}, heard: map[string]*heardBucket{}}
}

// heardBucket is one robot's allowance of heard clips and audio bytes.
type heardBucket struct {
	mu    sync.Mutex
	clips *rate.Limiter
	bytes *rate.Limiter
}

// admitHeard reports whether device may send a heard clip of n bytes now, and takes it
// from its allowance if so.
func (r *Registry) admitHeard(device string, n int) bool {
	r.mu.Lock()
	b := r.heard[device]
	if b == nil {
		h := r.opts.Heard
		b = &heardBucket{clips: rate.NewLimiter(rate.Limit(h.PerSecond), h.Burst),
			bytes: rate.NewLimiter(rate.Limit(h.BytesPerSecond), h.BurstBytes)}
		r.heard[device] = b
	}
	r.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	if b.clips.TokensAt(now) < 1 || b.bytes.TokensAt(now) < float64(n) {
		return false
	}
	b.clips.AllowN(now, 1)
	b.bytes.AllowN(now, n)
	return true
}

// Stats returns what the registry refused since it started.
func (r *Registry) Stats() Stats {
	return Stats{HeardDropped: r.heardDropped.Load(), Malformed: r.malformed.Load()}
}

// Send delivers one action to the robot named device and waits for its ack. The error is
// ErrOffline, ErrLinkDown, ErrNoAck, ErrNotAction or the context's; a robot that refused
// the action answers with a nil error and an ack that is not OK (its Code says why).
func (r *Registry) Send(ctx context.Context, device string, m api.LinkMessage) (api.LinkAckBody, error) {
	if !IsAction(m.Type) {
		return api.LinkAckBody{}, fmt.Errorf("link send %q: %w", printable(m.Type), ErrNotAction)
	}
	if m.ID == "" {
		m.ID = newID()
	}
	r.mu.Lock()
	c := r.conns[device]
	r.mu.Unlock()
	if c == nil {
		return api.LinkAckBody{}, fmt.Errorf("link send %s to %s: %w", m.Type, device, ErrOffline)
	}
	ctx, cancel := context.WithTimeout(ctx, r.opts.AckTimeout)
	defer cancel()
	ch := make(chan api.LinkAckBody, 1)
	c.mu.Lock()
	c.pending[m.ID] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, m.ID)
		c.mu.Unlock()
	}()
	if err := c.write(ctx, m); err != nil {
		return api.LinkAckBody{}, fmt.Errorf("link send %s to %s: %w: %v", m.Type, device, ErrLinkDown, err)
	}
	select {
	case ack := <-ch:
		return ack, nil
	case <-c.done:
		return api.LinkAckBody{}, fmt.Errorf("link send %s to %s: %w", m.Type, device, ErrLinkDown)
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return api.LinkAckBody{}, fmt.Errorf("link send %s to %s: %w", m.Type, device, ErrNoAck)
		}
		return api.LinkAckBody{}, ctx.Err()
	}
}

// Status returns what is known of device's link (Online false if it never connected).
func (r *Registry) Status(device string) Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.status[device]
	s.Device = device
	return s
}

// Statuses returns every device that has connected since the broker started, by name.
func (r *Registry) Statuses() []Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Status, 0, len(r.status))
	for _, s := range r.status {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Status) int {
		if a.Device < b.Device {
			return -1
		}
		if a.Device > b.Device {
			return 1
		}
		return 0
	})
	return out
}

// Close closes every link (the hubs will reconnect to whoever serves next).
func (r *Registry) Close() {
	r.mu.Lock()
	conns := make([]*conn, 0, len(r.conns))
	for _, c := range r.conns {
		conns = append(conns, c)
	}
	subs := r.subs
	r.subs = map[int]*subscriber{}
	r.mu.Unlock()
	for _, c := range conns {
		c.ws.Close(websocket.StatusGoingAway, "broker shutting down")
	}
	for _, s := range subs {
		s.stop()
	}
}

// ackCodes is the closed list of codes a robot may answer an action with.
var ackCodes = []string{api.LinkErrUnknownType, api.LinkErrInvalid, api.LinkErrBusy, api.LinkErrFailed,
	api.LinkErrInterrupted, api.LinkErrAlreadyRang, api.LinkErrNotLive, api.LinkErrNoMedia,
	api.LinkErrNoTailnetRoute, api.LinkErrMediaStartSlow, api.LinkErrDeviceBusy}

// ClosedAckCode is a robot's ack code if it is one of the closed list, else LinkErrFailed:
// whatever else a robot writes there (free text, of any length) is dropped here, so it never
// reaches a log line, an owner's page or the audit.
func ClosedAckCode(code string) string {
	if slices.Contains(ackCodes, code) {
		return code
	}
	return api.LinkErrFailed
}

func newID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// capped cuts a hub-supplied identifier to 64 bytes; subscribers check it against their own
// closed lists before they use it.
func capped(s string) string {
	if len(s) > 64 {
		return s[:64]
	}
	return s
}

// printable trims a peer-supplied string for a log line.
func printable(s string) string {
	if len(s) > 40 {
		s = s[:40]
	}
	return fmt.Sprintf("%q", s)
}
