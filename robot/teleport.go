package robot

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/speech"
)

// teleport is the hub's share of a teleport session and of the arbitration between link
// actions and the hub's own turns.
type teleport struct {
	mu        sync.Mutex
	active    bool   // a session is on (the antennas show it)
	announced bool   // its join announcement has played: utterances go to the owner, not the router
	who       string // who is connected, for logs
	inTurn    bool   // the hub is between an utterance and the end of its reply
	linkGen   int    // bumps with every link play, so only the newest one returns to rest
	linkTil   time.Time
}

// SessionActive reports whether a teleport session is on (the antennas show it).
func (h *Hub) SessionActive() bool {
	h.tp.mu.Lock()
	defer h.tp.mu.Unlock()
	return h.tp.active
}

// SessionLive reports whether a teleport session is on and its join announcement has
// played in the room. Only then does every utterance the VAD cuts go to the owner over the
// link (no wake phrase needed) instead of the router.
func (h *Hub) SessionLive() bool {
	h.tp.mu.Lock()
	defer h.tp.mu.Unlock()
	return h.tp.active && h.tp.announced
}

// AttachLink makes h the handler of l's actions and reports the hub's state over it.
func (h *Hub) AttachLink(l *Link) {
	if h.Log == nil {
		h.Log = slog.Default()
	}
	h.Link = l
	// During a session the family talks to the owner: no wake phrase is needed.
	h.Bypasses = append(h.Bypasses, Bypass{Name: "teleport", Active: h.SessionLive})
	l.Handle = h.LinkAction
	if h.Call != nil {
		h.attachCall(l)
	}
	if h.Timers != nil {
		h.Timers.Send = l.Send
		// While a timer rings, "stop" or "okay" goes up without the wake phrase.
		h.Bypasses = append(h.Bypasses, Bypass{Name: "timer", Active: h.Timers.Ringing})
	}
	l.OnUp = func() {
		if s := h.Motion.State(); s != "" {
			l.Send(context.Background(), api.LinkMessage{Type: api.LinkState, State: hubState(s)})
		}
		if h.Timers != nil {
			// Timers rung here while the broker was unreachable: it must not ring them again.
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			h.Timers.ReportRang(ctx, l.Send)
		}
	}
	l.OnDown = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		h.LinkDown(ctx)
	}
	h.Motion.Observe(func(state string) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		l.Send(ctx, api.LinkMessage{Type: api.LinkState, State: hubState(state)})
	})
}

// hubState maps a motion state to the link's closed list of hub states.
func hubState(motion string) string {
	switch motion {
	case StateListening, StateFollowUp:
		return api.HubListening
	case StateThinking:
		return api.HubThinking
	case StateSpeaking:
		return api.HubSpeaking
	}
	return api.HubIdle
}

// LinkAction runs one action from the broker through the same motion and speaker
// arbitration as the hub's own turns, and returns its ack.
func (h *Hub) LinkAction(ctx context.Context, m api.LinkMessage) api.LinkAckBody {
	switch m.Type {
	case api.LinkPlay:
		return h.linkPlay(ctx, m.Play)
	case api.LinkExpression:
		if !h.Motion.Knows(m.Expression) {
			return api.LinkAckBody{Code: api.LinkErrInvalid}
		}
		if h.ownTurn() {
			return api.LinkAckBody{Code: api.LinkErrBusy}
		}
		if !h.Motion.Express(ctx, m.Expression) {
			return api.LinkAckBody{Code: api.LinkErrFailed}
		}
		return api.LinkAckBody{OK: true}
	case api.LinkLook:
		if m.Look == nil || !finite(m.Look.YawDeg) || !finite(m.Look.PitchDeg) {
			return api.LinkAckBody{Code: api.LinkErrInvalid}
		}
		if h.ownTurn() {
			return api.LinkAckBody{Code: api.LinkErrBusy}
		}
		if err := h.Motion.Look(ctx, m.Look.YawDeg*math.Pi/180, m.Look.PitchDeg*math.Pi/180); err != nil {
			return api.LinkAckBody{Code: api.LinkErrFailed}
		}
		return api.LinkAckBody{OK: true}
	case api.LinkStop:
		h.Speaker.Stop(ctx)
		h.Motion.StopAll(ctx)
		h.mu.Lock()
		h.speakingUntil = time.Time{}
		h.mu.Unlock()
		h.Motion.Idle(ctx)
		return api.LinkAckBody{OK: true}
	case api.LinkTimers, api.LinkRing:
		if h.Timers == nil {
			return api.LinkAckBody{Code: api.LinkErrUnknownType}
		}
		ack, _ := h.Timers.HandleLink(ctx, m)
		return ack
	case api.LinkCallOffer:
		return h.callOffer(ctx, m.CallOffer)
	case api.LinkCallEnd:
		return h.callEnd(m.CallEnd)
	case api.LinkPresence:
		if m.Presence == nil {
			return api.LinkAckBody{Code: api.LinkErrInvalid}
		}
		h.setPresence(ctx, m.Presence.Active, m.Presence.Who, m.Presence.Resume)
		return api.LinkAckBody{OK: true}
	}
	return api.LinkAckBody{Code: api.LinkErrUnknownType}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// setPresence turns the session on or off: the antennas hold the "someone is here" pose for
// the whole session (Motion's rest pose while it lasts). A new session passes the room's
// words to the owner only once its join announcement has played; resume says the room
// already heard it (the broker restores a live session after the link came back).
func (h *Hub) setPresence(ctx context.Context, active bool, who string, resume bool) {
	h.tp.mu.Lock()
	changed := h.tp.active != active
	h.tp.active, h.tp.who = active, who
	if changed || !active || resume {
		h.tp.announced = active && resume
	}
	h.tp.mu.Unlock()
	if !active {
		h.endCall(api.CallEndOwnerLeft) // no session, no call: its media stops first
	}
	h.Motion.SetPresence(active)
	if changed {
		h.Log.Info("teleport session", "active", active, "who", who)
	}
	h.Motion.Idle(ctx)
}

// LinkDown is called when the link drops: nobody can hear the room without it, so the
// visible presence ends with it (the broker sends presence again when the link is back).
func (h *Hub) LinkDown(ctx context.Context) {
	h.endCall(api.CallEndRobotOffline)
	if h.SessionActive() {
		h.setPresence(ctx, false, "", false)
	}
}

// ownTurn reports whether the hub is busy with its own reply; nothing talks over it.
func (h *Hub) ownTurn() bool {
	h.tp.mu.Lock()
	inTurn, linkTil := h.tp.inTurn, h.tp.linkTil
	h.tp.mu.Unlock()
	h.mu.Lock()
	speaking := time.Now().Before(h.speakingUntil) && !time.Now().Before(linkTil)
	h.mu.Unlock()
	return inTurn || speaking
}

func (h *Hub) turnBegins() {
	h.tp.mu.Lock()
	h.tp.inTurn = true
	h.tp.mu.Unlock()
}

func (h *Hub) turnEnds() {
	h.tp.mu.Lock()
	h.tp.inTurn = false
	h.tp.mu.Unlock()
}

// linkPlay plays sound from the broker unless the robot is speaking its own reply.
func (h *Hub) linkPlay(ctx context.Context, p *api.LinkPlayAction) api.LinkAckBody {
	if p == nil || len(p.WAV) == 0 {
		return api.LinkAckBody{Code: api.LinkErrInvalid}
	}
	clip, err := speech.DecodeWAV(p.WAV, 2*time.Minute)
	if err != nil {
		return api.LinkAckBody{Code: api.LinkErrInvalid}
	}
	wav := p.WAV
	if p.Chime {
		samples := append(chime(), clip.Samples...)
		clip.Samples = samples
		if wav, err = speech.EncodeWAV(samples, speech.SampleRate); err != nil {
			return api.LinkAckBody{Code: api.LinkErrFailed}
		}
	}
	if h.ownTurn() {
		return api.LinkAckBody{Code: api.LinkErrBusy}
	}
	h.tp.mu.Lock()
	h.tp.linkGen++
	gen := h.tp.linkGen
	until := time.Now().Add(clip.Duration())
	h.tp.linkTil = until
	h.tp.mu.Unlock()
	h.Motion.Speaking(ctx)
	if err := h.Speaker.Play(ctx, fmt.Sprintf("link-%d.wav", gen), wav); err != nil {
		h.Log.Warn("link playback failed", "err", err)
		h.Motion.Idle(ctx)
		return api.LinkAckBody{Code: api.LinkErrFailed}
	}
	h.mu.Lock()
	h.speakingUntil = until // a voice in the room barges in on it like on a reply
	h.mu.Unlock()
	if p.Join {
		return h.joinPlayed(ctx, gen, until)
	}
	go func() {
		t := time.NewTimer(time.Until(until))
		defer t.Stop()
		<-t.C
		h.tp.mu.Lock()
		newest := h.tp.linkGen == gen
		h.tp.mu.Unlock()
		h.mu.Lock()
		stillSpeaking := h.speakingUntil.Equal(until)
		h.mu.Unlock()
		if newest && stillSpeaking {
			h.Motion.Idle(context.Background())
		}
	}()
	return api.LinkAckBody{OK: true}
}

// joinPlayed waits for a join announcement to play to its end and acks it only then; cut
// short (a voice in the room barged in, a stop, the link went down), it is interrupted and
// the session stays unannounced: the broker plays it again or the join fails.
func (h *Hub) joinPlayed(ctx context.Context, gen int, until time.Time) api.LinkAckBody {
	t := time.NewTimer(time.Until(until))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return api.LinkAckBody{Code: api.LinkErrInterrupted}
	case <-t.C:
	}
	h.tp.mu.Lock()
	newest := h.tp.linkGen == gen
	h.tp.mu.Unlock()
	h.mu.Lock()
	whole := h.speakingUntil.Equal(until)
	h.mu.Unlock()
	if !newest || !whole {
		h.Log.Info("teleport: the join announcement was cut short; not acknowledged as played")
		return api.LinkAckBody{Code: api.LinkErrInterrupted}
	}
	h.tp.mu.Lock()
	active := h.tp.active
	h.tp.announced = active
	h.tp.mu.Unlock()
	h.Motion.Idle(ctx)
	if !active {
		return api.LinkAckBody{Code: api.LinkErrInvalid} // no session to announce
	}
	return api.LinkAckBody{OK: true}
}

// divert sends an utterance to the owner when a session is live (announced); false means
// the hub should run its own turn (no session yet, or the link is down).
func (h *Hub) divert(ctx context.Context, wav []byte) bool {
	if h.Link == nil || !h.SessionLive() {
		return false
	}
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := h.Link.Send(sctx, api.LinkMessage{Type: api.LinkHeard, Heard: &api.LinkHeardBody{WAV: wav}}); err != nil {
		h.Log.Warn("teleport: could not pass an utterance to the owner; handling it here", "err", err)
		return false
	}
	h.Log.Info("teleport: utterance passed to the owner", "bytes", len(wav))
	h.move(func(c context.Context) { h.Motion.Idle(c) }) // off the audio path, like every move of a turn
	return true
}

// chime is a short two-note attention sound (0.35 s) played before an announcement.
func chime() []float32 {
	const n = speech.SampleRate * 35 / 100
	out := make([]float32, n)
	for i := range out {
		f := 880.0
		if i > n/2 {
			f = 1318.5
		}
		tt := float64(i) / speech.SampleRate
		env := math.Min(1, math.Min(float64(i), float64(n-i))/400)
		out[i] = float32(0.3 * env * math.Sin(2*math.Pi*f*tt))
	}
	return out
}
