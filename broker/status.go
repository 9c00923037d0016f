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
	SpeechToText Component             `json:"speech_to_text"`
	Agent        Component             `json:"agent"`
}

// RobotStatus is one robot the broker knows.
type RobotStatus struct {
	Device     string `json:"name"`
	Room       string `json:"room,omitempty"`
	Configured bool   `json:"configured"` // in the config's devices
	Linked     bool   `json:"linked"`     // its link is up now
	// LinkSince is when its link came up (Linked) or went down; zero if it never linked.
	LinkSince  time.Time  `json:"link_since,omitzero"`
	State      string     `json:"state,omitempty"` // the hub's last reported state: idle, listening, thinking, speaking
	Version    string     `json:"version,omitempty"`
	LastTurn   time.Time  `json:"last_turn,omitzero"`
	QuietUntil *time.Time `json:"quiet_until,omitempty"` // in quiet time until then
}

// Component says whether a part is configured, and which model it uses.
type Component struct {
	Configured bool   `json:"configured"`
	Model      string `json:"model,omitempty"`
}

// Status gathers the operator's view now.
func (b *Broker) Status(ctx context.Context) Status {
	st := Status{Time: b.d.Now().Round(0), StateDir: b.d.Config.StateDir, Robots: []RobotStatus{},
		Sessions: b.console.Sessions(), Timers: []timers.Info{}, MissedTimers: []timers.Missed{}}
	for _, r := range b.robots() {
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
		st.Robots = append(st.Robots, rs)
	}
	if b.d.Timers != nil {
		st.Timers, st.MissedTimers = b.d.Timers.Snapshot(), b.d.Timers.MissedTimers()
	}
	st.SpeechToText = Component{Configured: b.d.Transcriber != nil}
	if b.d.Transcriber != nil && b.d.SpeechModel != "" {
		st.SpeechToText.Model = filepath.Base(b.d.SpeechModel)
	}
	if b.d.Handlers["agent"] != nil {
		st.Agent = Component{Configured: true, Model: b.d.Config.Agent.FastModel}
	}
	return st
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
