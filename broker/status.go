package broker

import (
	"context"
	"path/filepath"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/reachy-broker/reachy-broker/broker/console"
	"github.com/reachy-broker/reachy-broker/broker/timers"
)

// The operator's view of a running broker: every robot it knows (configured, or linked
// since start) with its link, state, last turn and quiet time; the teleport sessions; the
// pending timers and who will ring each; the timers let go without ringing; and whether
// speech-to-text and the agent are configured. reachyctl status reads it over the control
// socket (names included: the socket is the broker's own user's); /healthz and /metrics
// carry the same facts as counts, without names.

// TimerBoard is what the status needs of the timers (*timers.Service implements it).
type TimerBoard interface {
	Snapshot() []timers.Info
	MissedTimers() []timers.Missed
	MissedTotal() uint64
}

// Status is the operator's view of a running broker.
type Status struct {
	Time         time.Time             `json:"time"`
	StateDir     string                `json:"state_dir"`
	Robots       []RobotStatus         `json:"robots"`
	Sessions     []console.SessionInfo `json:"teleport_sessions"`
	Timers       []timers.Info         `json:"timers"`
	MissedTimers []timers.Missed       `json:"missed_timers"`
	MissedCalls  []MissedCall          `json:"missed_calls"`
	SpeechToText Component             `json:"speech_to_text"`
	Agent        Component             `json:"agent"`
	Backends     []BackendHealth       `json:"backends"`
}

// MissedCall is a call-back nobody answered, waiting for its owner's next visit.
type MissedCall struct {
	Owner  string    `json:"owner"`
	Robot  string    `json:"robot"`
	Room   string    `json:"room,omitempty"`
	Wanted string    `json:"wanted"`
	At     time.Time `json:"at"`
}

// RobotStatus is one robot the broker knows.
type RobotStatus struct {
	Device     string `json:"name"`
	Room       string `json:"room,omitempty"`
	Configured bool   `json:"configured"` // in the config's devices
	Linked     bool   `json:"linked"`     // its link is up now
	// LinkSince is when its link came up (Linked) or went down; zero if it never linked.
	LinkSince time.Time `json:"link_since,omitzero"`
	State     string    `json:"state,omitempty"` // the hub's last reported state: idle, listening, thinking, speaking
	Version   string    `json:"version,omitempty"`
	LastTurn  time.Time `json:"last_turn,omitzero"`
	// Turn is the last turn since the broker started, refused ones included (busy, no
	// model, denied, over limits), with its intent, outcome and code.
	Turn       *LastTurn  `json:"last_turn_detail,omitempty"`
	QuietUntil *time.Time `json:"quiet_until,omitempty"` // in quiet time until then
	Privacy    bool       `json:"privacy"`               // privacy mode: nobody can call in
	// LastCall is how its last teleport call or session went since the broker started.
	LastCall *CallInfo `json:"last_call,omitempty"`
}

// Component says whether a part is configured, and which model it uses.
type Component struct {
	Configured bool   `json:"configured"`
	Model      string `json:"model,omitempty"`
	// DevClipText: no model, and a dev broker takes the words a `reachyctl speak` clip
	// carries as its transcript (speech_to_text only).
	DevClipText bool `json:"dev_clip_text,omitempty"`
}

// Status gathers the operator's view now.
func (b *Broker) Status(ctx context.Context) Status {
	st := Status{Time: b.d.Now().Round(0), StateDir: b.d.Config.StateDir, Robots: []RobotStatus{},
		Sessions: b.console.Sessions(), Timers: []timers.Info{}, MissedTimers: []timers.Missed{}, MissedCalls: []MissedCall{},
		Backends: []BackendHealth{}}
	robots := b.robots()
	for _, dev := range b.ops.audioDevices() {
		// A robot that spoke but never linked (a sim hub without --link) is a robot too.
		if !slices.ContainsFunc(robots, func(r console.Robot) bool { return r.Device == dev }) {
			room := b.d.Config.DeviceRoom(dev)
			if room == "" {
				room = b.d.Table().Home.DeviceRoom
			}
			robots = append(robots, console.Robot{Device: dev, Room: room})
		}
	}
	for _, r := range robots {
		ls := b.link.Status(r.Device)
		rs := RobotStatus{Device: r.Device, Room: r.Room, Configured: b.configured(r.Device), Linked: ls.Online, State: ls.State, Version: ls.Version}
		if ls.Connects > 0 {
			rs.LinkSince = ls.Since.Round(0)
		}
		if !ls.Online {
			rs.State = ""
		}
		lctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		if t, err := b.d.State.LastTurn(lctx, r.Device); err == nil {
			rs.LastTurn = t
		}
		cancel()
		if until, ok := b.d.Quiet.Until(r.Device); ok {
			rs.QuietUntil = &until
		}
		if lt, ok := b.ops.lastTurn(r.Device); ok {
			rs.Turn = &lt
			if lt.At.After(rs.LastTurn) {
				rs.LastTurn = lt.At
			}
		}
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		if on, err := b.d.State.Privacy(pctx, r.Device); err == nil {
			rs.Privacy = on
		}
		cancel()
		if c, ok := b.ops.lastCall(r.Device); ok {
			rs.LastCall = &c
		}
		st.Robots = append(st.Robots, rs)
	}
	for _, owner := range b.ownerLogins() {
		mctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		rings, err := missedCalls{b.d.State}.Missed(mctx, owner)
		cancel()
		if err != nil {
			continue
		}
		for _, r := range rings {
			st.MissedCalls = append(st.MissedCalls, MissedCall{Owner: owner, Robot: r.Device, Room: r.Room, Wanted: r.Wanted, At: r.At})
		}
	}
	for _, name := range b.backends() {
		st.Backends = append(st.Backends, b.ops.backend(name))
	}
	if b.d.Timers != nil {
		st.Timers, st.MissedTimers = b.d.Timers.Snapshot(), b.d.Timers.MissedTimers()
	}
	st.SpeechToText = Component{Configured: b.d.Transcriber != nil, DevClipText: b.d.Transcriber == nil && b.d.DevClipText}
	if b.d.Transcriber != nil && b.d.SpeechModel != "" {
		st.SpeechToText.Model = filepath.Base(b.d.SpeechModel)
	}
	if b.d.Handlers["agent"] != nil {
		st.Agent = Component{Configured: true, Model: b.d.Config.Agent.FastModel}
	}
	return st
}

// ownerLogins are the console's owners: teleport.owners, and a dev broker's --dev-owner.
func (b *Broker) ownerLogins() []string {
	out := slices.Clone(b.d.Config.Teleport.Owners)
	if b.d.DevOwner != "" && !slices.Contains(out, b.d.DevOwner) {
		out = append(out, b.d.DevOwner)
	}
	return out
}

// RobotNames are the robots the broker knows: configured, or linked since start.
func (b *Broker) RobotNames() []string {
	var out []string
	for _, r := range b.robots() {
		out = append(out, r.Device)
	}
	return out
}

func (b *Broker) configured(device string) bool {
	return slices.ContainsFunc(b.d.Config.Devices, func(d DeviceConfig) bool { return d.Name == device })
}

// healthCounts are the status's facts without names, for /healthz.
func (b *Broker) healthCounts() map[string]any {
	configured, linked := len(b.d.Config.Devices), 0
	for _, s := range b.link.Statuses() {
		if s.Online {
			linked++
		}
	}
	out := map[string]any{
		"robots":            map[string]int{"configured": configured, "known": len(b.robots()), "linked": linked},
		"teleport_sessions": len(b.console.Sessions()),
		"agent":             b.d.Handlers["agent"] != nil,
	}
	if b.d.Timers != nil {
		pending, nobody := b.timerCounts()
		out["timers"] = map[string]any{"pending": pending, "nobody_to_ring": nobody, "missed": b.d.Timers.MissedTotal()}
	}
	return out
}

// timerCounts are the live timers, and those no robot the broker knows can ring.
func (b *Broker) timerCounts() (pending, nobody int) {
	ts := b.d.Timers.Snapshot()
	for _, t := range ts {
		if len(t.RingsOn) == 0 {
			nobody++
		}
	}
	return len(ts), nobody
}

// watchStatus exports the status as gauges, without names.
func (b *Broker) watchStatus() {
	gauge := func(name, help string, f func() float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f)
	}
	boolean := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	b.m.reg.MustRegister(
		gauge("reachy_robots_configured", "Robots in the config's devices.", func() float64 { return float64(len(b.d.Config.Devices)) }),
		gauge("reachy_robots_known", "Robots the broker knows: configured, or linked since start.", func() float64 { return float64(len(b.robots())) }),
		gauge("reachy_robots_linked", "Robots whose link is up now.", func() float64 {
			n := 0
			for _, s := range b.link.Statuses() {
				if s.Online {
					n++
				}
			}
			return float64(n)
		}),
		gauge("reachy_teleport_sessions", "Teleport sessions open now.", func() float64 { return float64(len(b.console.Sessions())) }),
		gauge("reachy_speech_to_text_configured", "1 when a whisper model is loaded (audio turns are transcribed).", func() float64 { return boolean(b.d.Transcriber != nil) }),
		gauge("reachy_agent_configured", "1 when general questions go to the agent.", func() float64 { return boolean(b.d.Handlers["agent"] != nil) }),
	)
	for _, name := range b.backends() {
		b.m.reg.MustRegister(
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "reachy_backend_up", ConstLabels: prometheus.Labels{"backend": name},
				Help: "1 when the backend's last call succeeded (or it has not been called since start), 0 when it failed."},
				func() float64 { return boolean(b.ops.backend(name).Up) }),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "reachy_backend_last_error_timestamp_seconds", ConstLabels: prometheus.Labels{"backend": name},
				Help: "When the backend last failed, Unix time (0: not since start)."},
				func() float64 {
					if at := b.ops.backend(name).ErrorAt; !at.IsZero() {
						return float64(at.UnixNano()) / 1e9
					}
					return 0
				}),
		)
	}
	if b.d.Timers == nil {
		return
	}
	b.m.reg.MustRegister(
		gauge("reachy_timers_pending", "Live timers (pending or ringing).", func() float64 { p, _ := b.timerCounts(); return float64(p) }),
		gauge("reachy_timers_nobody_to_ring", "Live timers no robot the broker knows can ring (none configured or linked in their room).",
			func() float64 { _, n := b.timerCounts(); return float64(n) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "reachy_timers_missed_total",
			Help: "Timers let go without ringing (no robot linked in their room, or due longer ago than the grace window)."},
			func() float64 { return float64(b.d.Timers.MissedTotal()) }),
	)
}
