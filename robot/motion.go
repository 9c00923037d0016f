package robot

import (
	"context"
	"log/slog"
	"math"
	"sync"
	"time"
)

// Pose names the hub's motion states.
const (
	StateIdle      = "idle"
	StateListening = "listening"
	StateThinking  = "thinking"
	StateSpeaking  = "speaking"
	StateFollowUp  = "follow_up"
	StateExpress   = "expression"
)

// MotionEvent records a state change and when the first daemon call for it started.
type MotionEvent struct {
	State   string
	Changed time.Time
	Moved   time.Time
}

// Motion turns the hub's state into moves. It only stops moves it started itself.
type Motion struct {
	d           *Daemon
	expressions map[string]Move
	log         *slog.Logger

	mu       sync.Mutex
	started  map[string]bool
	events   []MotionEvent
	wiggle   context.CancelFunc
	presence bool               // a teleport session is on: rest in the "someone is here" pose
	camera   bool               // a call's camera is on: rest in the camera pose
	observe  func(state string) // told of every state change (the robot link reports it)
}

// NewMotion returns a motion policy over d.
func NewMotion(d *Daemon, expressions map[string]Move, log *slog.Logger) *Motion {
	return &Motion{d: d, expressions: expressions, log: log, started: map[string]bool{}}
}

// Events returns the state changes so far.
func (m *Motion) Events() []MotionEvent {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]MotionEvent(nil), m.events...)
}

func (m *Motion) change(state string) int {
	m.mu.Lock()
	if m.wiggle != nil {
		m.wiggle()
		m.wiggle = nil
	}
	m.events = append(m.events, MotionEvent{State: state, Changed: time.Now()})
	i := len(m.events) - 1
	observe := m.observe
	m.mu.Unlock()
	if observe != nil {
		observe(state)
	}
	return i
}

// Observe registers fn to be told of every state change, on the caller's goroutine.
func (m *Motion) Observe(fn func(state string)) {
	m.mu.Lock()
	m.observe = fn
	m.mu.Unlock()
}

// State is the current motion state ("" before the first).
func (m *Motion) State() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.events) == 0 {
		return ""
	}
	return m.events[len(m.events)-1].State
}

// SetPresence makes the "someone is here" pose (both antennas raised high, head level) the
// rest pose while a teleport session lasts, so the room can see it.
func (m *Motion) SetPresence(on bool) {
	m.mu.Lock()
	m.presence = on
	m.mu.Unlock()
}

// PresenceAntennas is the "someone is here" pose of the antennas during a teleport session.
var PresenceAntennas = Antennas{Left: 1.2, Right: 1.2}

// SetCamera makes the camera pose the rest pose while a live call's camera is on.
func (m *Motion) SetCamera(on bool) {
	m.mu.Lock()
	m.camera = on
	m.mu.Unlock()
}

// CameraAntennas is the pose of a live call's camera: the antennas held apart, one forward
// and one back, unlike any other pose, for as long as the camera is on.
var CameraAntennas = Antennas{Left: 1.2, Right: -1.2}

// restAntennas is the antennas' rest pose: the camera's, the session's, or down.
func (m *Motion) restAntennas() Antennas {
	switch {
	case m.camera:
		return CameraAntennas
	case m.presence:
		return PresenceAntennas
	}
	return Antennas{}
}

// Knows reports whether expression maps to a move.
func (m *Motion) Knows(expression string) bool {
	_, ok := m.expressions[expression]
	return ok
}

// Look turns the head (radians; the daemon client clamps to the robot's limits).
func (m *Motion) Look(ctx context.Context, yaw, pitch float64) error {
	m.mu.Lock()
	ant := m.restAntennas()
	m.mu.Unlock()
	i := m.change(StateIdle)
	m.moved(i)
	id, err := m.d.Goto(ctx, Goto{Head: &Pose{Yaw: yaw, Pitch: pitch}, Antennas: &ant, Duration: 400 * time.Millisecond})
	if err != nil {
		return err
	}
	m.mu.Lock()
	m.started[id] = true
	m.mu.Unlock()
	return nil
}

func (m *Motion) moved(i int) {
	m.mu.Lock()
	if m.events[i].Moved.IsZero() {
		m.events[i].Moved = time.Now()
	}
	m.mu.Unlock()
}

func (m *Motion) gotoPose(ctx context.Context, i int, g Goto) {
	m.moved(i)
	id, err := m.d.Goto(ctx, g)
	if err != nil {
		m.log.Debug("goto", "err", err)
		return
	}
	m.mu.Lock()
	m.started[id] = true
	m.mu.Unlock()
}

// Listening raises the antennas and turns the head toward the speaker (direction of arrival:
// 0 left, π/2 front, π right).
func (m *Motion) Listening(ctx context.Context, doa *DOA) {
	i := m.change(StateListening)
	head := &Pose{}
	if doa != nil {
		head.Yaw = math.Pi/2 - doa.Angle
	}
	m.gotoPose(ctx, i, Goto{Head: head, Antennas: &Antennas{Left: 0.6, Right: 0.6}, Duration: 300 * time.Millisecond})
}

// Thinking wiggles the antennas until the next state change.
func (m *Motion) Thinking(ctx context.Context) {
	i := m.change(StateThinking)
	wctx, cancel := context.WithCancel(ctx)
	m.mu.Lock()
	m.wiggle = cancel
	m.mu.Unlock()
	// The first move runs beside the upload, never in front of it.
	go func() {
		m.gotoPose(wctx, i, Goto{Antennas: &Antennas{Left: 0.3, Right: -0.3}, Duration: 250 * time.Millisecond})
		for n := 0; ; n++ {
			select {
			case <-wctx.Done():
				return
			case <-time.After(300 * time.Millisecond):
			}
			s := 0.3
			if n%2 == 0 {
				s = -0.3
			}
			m.d.Goto(wctx, Goto{Antennas: &Antennas{Left: s, Right: -s}, Duration: 250 * time.Millisecond})
		}
	}()
}

// Speaking relaxes the antennas; the daemon's wobbling sways the head with the audio.
func (m *Motion) Speaking(ctx context.Context) {
	i := m.change(StateSpeaking)
	m.gotoPose(ctx, i, Goto{Antennas: &Antennas{Left: 0.2, Right: 0.2}, Duration: 200 * time.Millisecond})
}

// FollowUp shows the robot is still listening without the wake phrase.
func (m *Motion) FollowUp(ctx context.Context) {
	i := m.change(StateFollowUp)
	m.gotoPose(ctx, i, Goto{Head: &Pose{Pitch: -0.1}, Antennas: &Antennas{Left: 0.8, Right: 0.8}, Duration: 300 * time.Millisecond})
}

// Idle returns to a calm pose, or to the "someone is here" pose during a teleport session.
func (m *Motion) Idle(ctx context.Context) {
	m.mu.Lock()
	ant := m.restAntennas()
	m.mu.Unlock()
	i := m.change(StateIdle)
	m.gotoPose(ctx, i, Goto{Head: &Pose{}, Antennas: &ant, Duration: 800 * time.Millisecond})
}

// Express plays the recorded move mapped to an expression from the broker's closed set;
// unknown names are ignored.
func (m *Motion) Express(ctx context.Context, expression string) bool {
	mv, ok := m.expressions[expression]
	if !ok {
		return false
	}
	i := m.change(StateExpress)
	m.moved(i)
	id, err := m.d.PlayMove(ctx, mv.Dataset, mv.Move)
	if err != nil {
		m.log.Debug("expression", "err", err)
		return false
	}
	m.mu.Lock()
	m.started[id] = true
	m.mu.Unlock()
	return true
}

// StopAll stops the moves this hub started and that are still running.
func (m *Motion) StopAll(ctx context.Context) {
	running, err := m.d.Running(ctx)
	if err != nil {
		return
	}
	for _, id := range running {
		m.mu.Lock()
		mine := m.started[id]
		m.mu.Unlock()
		if mine {
			m.d.Stop(ctx, id)
		}
	}
}
