package robot

import (
	"context"
	"math"
	"strconv"
	"time"

	"github.com/reachy-broker/reachy-broker/robot/ambient"
)

// ambientHoldAfter keeps ambient motion off this long after the room last spoke or the robot
// last answered: the listening pose and the follow-up window belong to the conversation.
const ambientHoldAfter = 20 * time.Second

// ambientBody is the hub as the ambient scheduler sees it (robot/ambient.Body).
type ambientBody struct{ h *Hub }

// AmbientBody returns the hub as the body of an ambient scheduler.
func (h *Hub) AmbientBody() ambient.Body { return ambientBody{h} }

// Busy: in a turn, speaking (its reply or a link play), or the room spoke a moment ago.
func (b ambientBody) Busy() bool {
	h := b.h
	if h.ownTurn() {
		return true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	now := time.Now()
	return now.Before(h.speakingUntil) || now.Before(h.ambientHold)
}

func (b ambientBody) SessionActive() bool { return b.h.SessionActive() }

// Do makes one ambient motion with the daemon; every pose is clamped by the daemon client.
func (b ambientBody) Do(ctx context.Context, motion string, doa *float64) error {
	h := b.h
	type pose struct {
		yaw, pitch, left, right float64
		dur, hold               time.Duration
	}
	var seq []pose
	switch motion {
	case ambient.LookAround:
		seq = []pose{{yaw: 0.5, dur: 1200 * time.Millisecond, hold: 600 * time.Millisecond},
			{yaw: -0.5, dur: 2 * time.Second, hold: 600 * time.Millisecond}, {dur: 1200 * time.Millisecond}}
	case ambient.Glance:
		yaw := 0.0
		if doa != nil {
			yaw = math.Pi/2 - *doa
		}
		seq = []pose{{yaw: yaw, left: 0.4, right: 0.4, dur: 500 * time.Millisecond, hold: 1500 * time.Millisecond}, {dur: 800 * time.Millisecond}}
	case ambient.Twitch:
		seq = []pose{{left: 0.6, right: -0.2, dur: 150 * time.Millisecond}, {left: -0.2, right: 0.6, dur: 150 * time.Millisecond}, {dur: 200 * time.Millisecond}}
	case ambient.Stretch:
		seq = []pose{{pitch: -0.35, left: 1.2, right: 1.2, dur: 1500 * time.Millisecond, hold: 1500 * time.Millisecond}, {dur: 1500 * time.Millisecond}}
	case ambient.Peekaboo:
		seq = []pose{{pitch: 0.45, left: 1.5, right: 1.5, dur: 800 * time.Millisecond, hold: 1500 * time.Millisecond},
			{left: 0.8, right: 0.8, dur: 300 * time.Millisecond, hold: 800 * time.Millisecond}, {dur: 600 * time.Millisecond}}
	case ambient.Yawn:
		h.Motion.Express(ctx, "sleepy")
		return nil
	case ambient.Startle:
		h.Motion.Express(ctx, "surprised")
		return nil
	}
	for _, p := range seq {
		if _, err := h.Daemon.Goto(ctx, Goto{Head: &Pose{Yaw: p.yaw, Pitch: p.pitch}, Antennas: &Antennas{Left: p.left, Right: p.right}, Duration: p.dur}); err != nil {
			return err
		}
		t := time.NewTimer(p.dur + p.hold)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

// holdAmbient keeps ambient motion off for a while from now.
func (h *Hub) holdAmbient() {
	h.mu.Lock()
	h.ambientHold = time.Now().Add(ambientHoldAfter)
	h.mu.Unlock()
}

// noteQuiet tells the ambient scheduler of quiet time the broker answered ("be quiet for an
// hour": until then; "you can talk again": over), so it holds still with the broker away.
func (h *Hub) noteQuiet(r Reply) {
	if h.Ambient == nil || r.Intent != "robot.quiet" || r.Outcome != "ok" {
		return
	}
	if r.Args["state"] == "off" {
		h.Ambient.QuietUntil(time.Time{})
		return
	}
	d := 12 * time.Hour
	if secs, err := strconv.Atoi(r.Args["duration"]); err == nil && secs > 0 {
		d = time.Duration(secs) * time.Second
	}
	h.Ambient.QuietUntil(time.Now().Add(d))
}
