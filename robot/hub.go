package robot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/robot/ambient"
	"github.com/reachy-broker/reachy-broker/robot/call"
	"github.com/reachy-broker/reachy-broker/robot/wake"
	"github.com/reachy-broker/reachy-broker/speech"
)

// Turn is what the hub did with one utterance (sim mode writes these out).
type Turn struct {
	Index    int    `json:"index"`
	Key      string `json:"idempotency_key"`
	Samples  int    `json:"samples"`
	Reply    Reply  `json:"reply"`
	Fallback bool   `json:"fallback"`
	// Failure says why the fallback played: "unreachable" (no answer from the broker), "busy"
	// (it answered but cannot take the turn: busy, or no speech model) or "refused" (an answer
	// a retry cannot change, e.g. a 500 or a revoked token).
	Failure     string        `json:"failure,omitempty"`
	Err         string        `json:"error,omitempty"`
	ToUpload    time.Duration `json:"speech_end_to_upload_ns"`
	SoundPlayed string        `json:"sound,omitempty"`
	Wake        string        `json:"wake,omitempty"` // why it left the robot: phrase, follow-up, a bypass, off
}

// Speaker plays reply audio: through the daemon (upload + play, head wobbling) or PortAudio.
type Speaker interface {
	Play(ctx context.Context, name string, wav []byte) error
	Stop(ctx context.Context) error
}

// DaemonSpeaker plays through the robot daemon with wobbling on.
type DaemonSpeaker struct{ D *Daemon }

// Play uploads and plays.
func (s DaemonSpeaker) Play(ctx context.Context, name string, wav []byte) error {
	file, err := s.D.UploadSound(ctx, name, wav)
	if err != nil {
		return err
	}
	return s.D.PlaySound(ctx, file)
}

// Stop interrupts playback.
func (s DaemonSpeaker) Stop(ctx context.Context) error { return s.D.StopSound(ctx) }

// Hub is the robot's listen -> send -> speak -> move loop.
type Hub struct {
	Source   Source
	Broker   *BrokerClient
	Motion   *Motion
	Speaker  Speaker
	Daemon   *Daemon
	Fallback []byte        // played for any turn the broker cannot answer (unreachable, busy, refused)
	MaxUtter time.Duration // the longest upload; speech that goes on is cut 2 s past it
	Log      *slog.Logger
	OnTurn   func(Turn)    // optional: called after each turn
	Link     *Link         // optional: the robot link (set with AttachLink)
	Timers   *LocalTimers  // optional: the room's pending timers, rung here when the broker does not (set before AttachLink)
	Call     *call.Manager // optional: the live call's media (set before AttachLink)
	// Wake spots the wake phrase on the robot (see wakegate.go); nil sends every utterance.
	Wake           *wake.Guard
	PreRoll        time.Duration // kept before the spotted phrase; default 300 ms
	FollowUpWindow time.Duration // after a follow_up reply: no phrase needed; default 8 s
	Bypasses       []Bypass      // other states that need no phrase (a ringing timer, teleport)
	// Ambient makes small motions when nobody is talking (robot/ambient); nil: none. The hub
	// tells it what it hears and of quiet time; Run does not start or stop it.
	Ambient *ambient.Scheduler

	gate          wakeGate
	mu            sync.Mutex
	speakingUntil time.Time
	ambientHold   time.Time // no ambient motion until then: the room spoke, the robot answered
	turns         int
	tp            teleport // session state and link arbitration (teleport.go)
	moves         chan func(context.Context)
	moveCtx       context.Context // lives as long as Run: the thinking wiggle runs under it
}

// Daemon calls for motion run off the audio path, one at a time and in order, each bounded:
// a hung daemon must never stall listening.
const (
	moveTimeout = 2 * time.Second
	moveQueue   = 32
)

// move queues a motion call; when the queue is full (the daemon is not keeping up) it is
// dropped rather than waited for.
func (h *Hub) move(f func(ctx context.Context)) {
	select {
	case h.moves <- f:
	default:
		h.Log.Warn("daemon not keeping up: motion dropped")
	}
}

// runMoves executes queued motion calls until moves is closed; each gets at most moveTimeout.
func (h *Hub) runMoves(ctx context.Context, done chan<- struct{}) {
	defer close(done)
	for f := range h.moves {
		mctx, cancel := context.WithTimeout(ctx, moveTimeout)
		f(mctx)
		cancel()
	}
}

// Run listens until the source ends or ctx is cancelled.
func (h *Hub) Run(ctx context.Context) error {
	if h.Log == nil {
		h.Log = slog.Default()
	}
	if h.MaxUtter <= 0 {
		h.MaxUtter = 12 * time.Second
	}
	h.moves = make(chan func(context.Context), moveQueue)
	moveCtx, stopMoves := context.WithCancel(context.WithoutCancel(ctx))
	h.moveCtx = moveCtx
	movesDone := make(chan struct{})
	go h.runMoves(moveCtx, movesDone)
	defer func() {
		// Let queued moves finish (each is bounded), then cut off whatever a hung daemon holds.
		close(h.moves)
		select {
		case <-movesDone:
		case <-time.After(2 * moveTimeout):
			stopMoves()
			<-movesDone
		}
		stopMoves()
	}()
	h.move(func(ctx context.Context) {
		if err := h.Daemon.Wobbling(ctx, true); err != nil {
			h.Log.Warn("daemon not answering; continuing", "err", err)
		}
		h.Motion.Idle(ctx)
	})
	c := newCutter(int(h.MaxUtter.Seconds() * speech.SampleRate))
	var floor float64 // the room's level, for a sudden loud sound
	// The spotter hears the whole utterance (at most MaxUtter and the 2 s before a forced
	// cut); what goes up starts at the phrase and lasts at most MaxUtter.
	each := func(u utterance) bool {
		off, ok := h.admit(ctx, u.samples, u.start)
		if ok {
			utt := append([]float32(nil), u.samples[off:min(len(u.samples), off+c.max)]...)
			h.gate.lastEnd = u.end
			var text string
			if st, ok := h.Source.(SpokenTexts); ok {
				text = st.TextFor(u.start+off, u.start+off+len(utt))
			}
			h.handle(ctx, utt, text)
		}
		return ok
	}
	for {
		chunk, err := h.Source.Read(ctx)
		if errors.Is(err, io.EOF) {
			c.flush(each)
			return nil
		}
		if err != nil {
			return err
		}
		if h.Ambient != nil && ambient.Loud(chunk, &floor) {
			h.Ambient.Heard(nil, true) // a bang: a little startle, if the robot may move
		}
		if c.feed(chunk) {
			h.onSpeechStart(ctx)
		}
		c.drain(each)
	}
}

// onSpeechStart: turn toward the speaker; if the robot is talking, stop (barge-in).
func (h *Hub) onSpeechStart(ctx context.Context) {
	h.holdAmbient()
	h.mu.Lock()
	speaking := time.Now().Before(h.speakingUntil)
	h.mu.Unlock()
	if speaking {
		sctx, cancel := context.WithTimeout(ctx, moveTimeout)
		h.Speaker.Stop(sctx)
		cancel()
		h.mu.Lock()
		h.speakingUntil = time.Time{}
		h.mu.Unlock()
	}
	h.move(func(ctx context.Context) {
		var doa *DOA
		if d, ok, err := h.Daemon.DOA(ctx); err == nil && ok {
			doa = &d
			if h.Ambient != nil {
				angle := d.Angle
				h.Ambient.Heard(&angle, false) // where the last voice came from, for a glance
			}
		}
		h.Motion.Listening(ctx, doa)
	})
}

// handle uploads one utterance; text is what a sim microphone's file says it says (empty on
// a real microphone), carried in the upload for a dev broker without a speech model.
func (h *Hub) handle(ctx context.Context, utt []float32, text string) {
	speechEnd := time.Now()
	h.turns++
	t := Turn{Index: h.turns, Key: NewIdempotencyKey(), Samples: len(utt), Wake: h.gate.reason}
	wav, err := uploadWAV(utt, text) // in memory only, never on disk
	if err != nil {
		t.Err = err.Error()
		h.done(t)
		return
	}
	if h.divert(ctx, wav) { // a teleport session: the owner hears it, the router does not
		return
	}
	h.turnBegins()
	defer h.turnEnds()
	// Thinking returns at once and wiggles until the next state change, so it gets the
	// hub's context, not the bounded one of a single move.
	h.move(func(context.Context) { h.Motion.Thinking(h.moveCtx) })
	t.ToUpload = time.Since(speechEnd)
	reply, audio, err := h.Broker.Turn(ctx, wav, t.Key)
	t.Reply = reply
	if err != nil {
		// Whatever the broker could not do, the person who spoke hears something.
		t.Fallback, t.Err, t.Failure = true, err.Error(), failureKind(err)
		h.Log.Warn("no answer from the broker: playing the local fallback", "failure", t.Failure, "err", err)
		h.speak(ctx, &t, "fallback.wav", h.Fallback)
		h.move(h.Motion.Idle)
		h.done(t)
		return
	}
	switch {
	case reply.Intent == "none":
		h.move(h.Motion.Idle)
	default:
		if reply.Expression == "stop" {
			sctx, cancel := context.WithTimeout(ctx, moveTimeout)
			h.Speaker.Stop(sctx)
			cancel()
			h.move(h.Motion.StopAll)
		} else if reply.Reply == "" || strings.HasPrefix(reply.Intent, "play.") {
			// A game's gesture (its pick, a celebration) shows while its line is said.
			expr := reply.Expression
			h.move(func(ctx context.Context) { h.Motion.Express(ctx, expr) })
		}
		if len(audio) > 0 {
			h.speak(ctx, &t, fmt.Sprintf("reply-%d.wav", t.Index), audio)
		}
		h.noteGame(reply)
		if reply.FollowUp {
			h.move(h.Motion.FollowUp)
			h.openFollowUp(audio)
		} else if reply.Reply != "" || reply.Expression == "stop" {
			h.move(h.Motion.Idle)
		}
	}
	h.done(t)
}

// failureKind names a broker failure for the turn record and the log.
func failureKind(err error) string {
	switch {
	case errors.Is(err, ErrUnreachable):
		return "unreachable"
	case errors.Is(err, ErrBusy):
		return "busy"
	default:
		return "refused"
	}
}

// speak plays wav; the upload and play are bounded so a hung daemon cannot hold the loop.
func (h *Hub) speak(ctx context.Context, t *Turn, name string, wav []byte) {
	if len(wav) == 0 {
		return
	}
	h.move(h.Motion.Speaking)
	pctx, cancel := context.WithTimeout(ctx, 2*moveTimeout)
	defer cancel()
	if err := h.Speaker.Play(pctx, name, wav); err != nil {
		h.Log.Warn("playback failed", "err", err)
		return
	}
	t.SoundPlayed = name
	if clip, err := speech.DecodeWAV(wav, 5*time.Minute); err == nil {
		h.mu.Lock()
		h.speakingUntil = time.Now().Add(clip.Duration())
		h.mu.Unlock()
	}
}

func (h *Hub) done(t Turn) {
	h.holdAmbient()
	h.noteQuiet(t.Reply)
	if h.OnTurn != nil {
		h.OnTurn(t)
	}
}
