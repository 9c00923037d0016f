package broker

import (
	"github.com/reachy-broker/reachy-broker/broker/store"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/console"
	"github.com/reachy-broker/reachy-broker/intents"
)

// What the operator sees that the audit log alone does not say, kept in memory since start:
// each device's last turn (a refused one too: busy and rate-limited turns are not audited),
// refused turns counted by reason, each robot's last call and how it ended, and the health
// of each backend the handlers reach (up or down by the outcome of its last call, and its
// last error as a closed code). Nothing here holds words.

// LastTurn is a device's last turn as the status shows it.
type LastTurn struct {
	At      time.Time `json:"at"`
	Route   string    `json:"route"`
	Intent  string    `json:"intent,omitempty"`
	Outcome string    `json:"outcome"`
	Code    string    `json:"code,omitempty"`
	// Refused names why the turn was not answered (busy, no_model, denied, over_limits), or
	// is empty for a turn that was.
	Refused string `json:"refused,omitempty"`
}

// Refused-turn reasons (reachy_turns_refused_total{reason}).
const (
	RefusedBusy       = "busy"        // the broker could not take it now (decode slots, speech-to-text queue)
	RefusedNoModel    = "no_model"    // no speech-to-text model: an audio turn cannot be heard
	RefusedDenied     = "denied"      // the caller may not cause that intent (scope, room voice only)
	RefusedOverLimits = "over_limits" // the device's rate limit, or a body over its size limit
	RefusedTimeout    = "timeout"     // the turn ran out of its budget
)

// refusalReason is the reason a turn ending with code was refused, or "".
func refusalReason(code string, noModel bool) string {
	switch code {
	case api.CodeBusy:
		if noModel {
			return RefusedNoModel
		}
		return RefusedBusy
	case api.CodeIntentDenied, api.CodeInsufficientScope:
		return RefusedDenied
	case api.CodeRateLimited, api.CodeTooLarge:
		return RefusedOverLimits
	case api.CodeTimeout:
		return RefusedTimeout
	}
	return ""
}

// CallInfo is how a robot's last teleport call (or session) went, as the status shows it.
type CallInfo struct {
	Owner   string    `json:"owner"`
	Started time.Time `json:"started,omitzero"`
	// State: "in_call" while it lasts, else "ended" (with Reason) or "failed" (with Code).
	State  string    `json:"state"`
	Reason string    `json:"reason,omitempty"` // a console end reason: owner_left, hang_up, idle, privacy, ...
	Code   string    `json:"code,omitempty"`
	Ended  time.Time `json:"ended,omitzero"`
}

// BackendHealth is one backend's health as its handlers last found it.
type BackendHealth struct {
	Name      string    `json:"name"` // home_assistant, mqtt, calendar, llm
	Up        bool      `json:"up"`
	Checked   time.Time `json:"checked,omitzero"` // the last call; zero: not used since start
	LastError string    `json:"last_error,omitempty"`
	ErrorAt   time.Time `json:"last_error_at,omitzero"`
}

// operatorView holds the in-memory facts above.
type operatorView struct {
	mu       sync.Mutex
	turns    map[string]LastTurn      // by device
	calls    map[string]CallInfo      // by robot
	backends map[string]BackendHealth // by backend name
	refused  *prometheus.CounterVec   // reason
	started  prometheus.Counter
	ended    *prometheus.CounterVec // reason
	toLive   prometheus.Histogram   // offer → the robot's answer (the call is live)
}

func newOperatorView(reg *prometheus.Registry) *operatorView {
	v := &operatorView{turns: map[string]LastTurn{}, calls: map[string]CallInfo{}, backends: map[string]BackendHealth{},
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "reachy_turns_refused_total",
			Help: "Turns not answered, by reason: busy, no_model, denied, over_limits, timeout."}, []string{"reason"}),
		started: prometheus.NewCounter(prometheus.CounterOpts{Name: "reachy_teleport_calls_started_total",
			Help: "Live calls the console started."}),
		ended: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "reachy_teleport_calls_ended_total",
			Help: "Live calls ended, by reason (owner_left, hang_up, idle, robot_offline, declined, privacy, quiet_time, media_failed)."}, []string{"reason"}),
		toLive: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "reachy_teleport_call_time_to_live_seconds",
			Help:    "From the owner's offer to the robot's answer: how long a call takes to go live.",
			Buckets: []float64{0.1, 0.25, 0.5, 1, 2, 5, 10}}),
	}
	for _, r := range []string{RefusedBusy, RefusedNoModel, RefusedDenied, RefusedOverLimits, RefusedTimeout} {
		v.refused.WithLabelValues(r)
	}
	reg.MustRegister(v.refused, v.started, v.ended, v.toLive)
	return v
}

// noteTurn records a finished turn of device (answered or refused).
func (v *operatorView) noteTurn(device string, lt LastTurn) {
	if lt.Refused != "" {
		v.refused.WithLabelValues(lt.Refused).Inc()
	}
	if device == "" {
		return
	}
	v.mu.Lock()
	if old, ok := v.turns[device]; !ok || !lt.At.Before(old.At) {
		v.turns[device] = lt
	}
	v.mu.Unlock()
}

func (v *operatorView) lastTurn(device string) (LastTurn, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	lt, ok := v.turns[device]
	return lt, ok
}

// devices are the devices that sent an audio turn since start (robots, even unlinked).
func (v *operatorView) audioDevices() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []string
	for d, lt := range v.turns {
		if lt.Route == "turn" {
			out = append(out, d)
		}
	}
	return out
}

// noteCallLive records how long a call took to go live.
func (v *operatorView) noteCallLive(_ string, took time.Duration) {
	v.toLive.Observe(took.Seconds())
}

// noteConsole follows the console's audited actions: a call starts ("teleport.call" start),
// ends (with its reason), a session ends.
func (v *operatorView) noteConsole(a console.Action, now time.Time) {
	if a.Pending || a.Device == "" {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	c := v.calls[a.Device]
	switch {
	case a.Kind == "teleport.call" && a.Arg == "start":
		if !a.OK {
			return
		}
		v.started.Inc()
		v.calls[a.Device] = CallInfo{Owner: a.Owner, Started: now, State: "in_call"}
	case a.Kind == "teleport.call" && a.Arg != "":
		if c.State == "in_call" {
			v.ended.WithLabelValues(a.Arg).Inc()
		}
		c.Owner, c.Ended, c.Reason, c.Code = a.Owner, now, a.Arg, a.Code
		c.State = "ended"
		if a.Code != "" {
			c.State = "failed"
		}
		v.calls[a.Device] = c
	case a.Kind == "teleport.end":
		if c.State == "in_call" {
			v.ended.WithLabelValues(a.Arg).Inc()
		}
		c.Owner, c.Ended, c.Reason, c.Code = a.Owner, now, a.Arg, a.Code
		c.State = "ended"
		if a.Code != "" {
			c.State = "failed"
		}
		v.calls[a.Device] = c
	}
}

func (v *operatorView) lastCall(device string) (CallInfo, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	c, ok := v.calls[device]
	return c, ok
}

// noteBackend records the outcome of a handler's call to its backend.
func (v *operatorView) noteBackend(name string, err string, now time.Time) {
	if name == "" {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	h := v.backends[name]
	h.Name, h.Checked, h.Up = name, now, err == ""
	if err != "" {
		h.LastError, h.ErrorAt = err, now
	}
	v.backends[name] = h
}

func (v *operatorView) backend(name string) BackendHealth {
	v.mu.Lock()
	defer v.mu.Unlock()
	h, ok := v.backends[name]
	if !ok {
		return BackendHealth{Name: name, Up: true}
	}
	return h
}

// backendOf names the backend an intent's handler type reaches on this broker, or "".
func (b *Broker) backendOf(handlerType string) string {
	switch {
	case strings.HasPrefix(handlerType, "home."):
		return b.d.Config.HouseBackend()
	case handlerType == "calendar":
		return "calendar"
	case handlerType == "agent":
		return "llm"
	}
	return ""
}

// backends are the backends this broker is configured to reach.
func (b *Broker) backends() []string {
	var out []string
	if hb := b.d.Config.HouseBackend(); hb != "" {
		out = append(out, hb)
	}
	if b.hasHandler("calendar") {
		out = append(out, "calendar")
	}
	if b.hasHandler("agent") {
		out = append(out, "llm")
	}
	return out
}

// noteHandler records a handler call's result against its backend: an error, a timeout or a
// failed outcome is down with a closed code; an answer is up.
func (b *Broker) noteHandler(in *intents.Intent, outcome, code string) {
	name := b.backendOf(in.Handler.Type)
	if name == "" {
		return
	}
	switch outcome {
	case store.OutcomeOK, store.OutcomeInvalid:
		b.ops.noteBackend(name, "", b.d.Now())
	default:
		if code == intents.CodeNotConfigured {
			return
		}
		b.ops.noteBackend(name, code, b.d.Now())
	}
}
