package robot

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/robot/wake"
	"github.com/reachy-broker/reachy-broker/speech"
)

// Bypass is a state the hub knows in which speech goes up without the wake phrase: a ringing
// timer waiting for "stop", a teleport session. Active is called once per utterance, from the
// listening loop; it must be quick and safe to call from that goroutine.
type Bypass struct {
	Name   string
	Active func() bool
}

// WakeStats count what the wake gate did with the utterances the VAD heard.
type WakeStats struct {
	Heard        int        `json:"heard"`         // utterances the VAD closed
	Addressed    int        `json:"addressed"`     // the spotter heard a wake phrase
	Bypassed     int        `json:"bypassed"`      // uploaded without the phrase (follow-up, timer, teleport)
	NotAddressed int        `json:"not_addressed"` // never left the robot
	Spotter      wake.Stats `json:"spotter"`
}

// Reasons an utterance was uploaded (Turn.Wake).
const (
	WakeOff      = "off" // no spotter configured: everything goes up
	WakePhrase   = "phrase"
	WakeFollowUp = "follow-up"
	WakeGame     = "game"
)

// GameWindow is how long after a game's turn the next answer needs no wake phrase: the
// broker's game ends by itself after a minute without one.
const GameWindow = time.Minute

// wakeGate is the hub's memory of the follow-up window and its counters, in samples of the
// microphone's own clock (so sim mode, which runs faster than real time, behaves the same).
type wakeGate struct {
	followOpen bool
	followFrom int // the end of the utterance whose reply asked for a follow-up
	followFor  int // samples after followFrom in which the next utterance needs no phrase
	// A game in play: every utterance within GameWindow of the last game turn needs no
	// phrase, until a game's reply closes it (the game ended).
	gameOpen bool
	gameFrom int
	lastEnd  int
	reason   string
	stats    WakeStats
}

// admit decides whether an utterance (samples starting at stream position start) leaves the
// robot, and from which offset: from just before the spotted phrase, or from its start when
// a bypass is active. It never blocks longer than the guard's deadline.
func (h *Hub) admit(ctx context.Context, utt []float32, start int) (int, bool) {
	g := &h.gate
	g.stats.Heard++
	if reason := h.bypass(start); reason != "" {
		g.reason = reason
		if reason != WakeOff {
			g.stats.Bypassed++
			h.Log.Debug("wake phrase bypassed", "reason", reason)
		}
		return 0, true
	}
	d, ok := h.Wake.Addressed(ctx, utt)
	if !ok {
		g.stats.NotAddressed++
		h.Log.Debug("not addressed: nothing leaves the robot", "seconds", float64(len(utt))/speech.SampleRate)
		return 0, false
	}
	g.stats.Addressed++
	g.reason = WakePhrase
	pre := h.PreRoll
	if pre <= 0 {
		pre = 300 * time.Millisecond
	}
	return max(0, d.Start-int(pre.Seconds()*speech.SampleRate)), true
}

// bypass names the state that lets this utterance through without the phrase, or "".
func (h *Hub) bypass(start int) string {
	g := &h.gate
	if h.Wake == nil {
		return WakeOff
	}
	if g.followOpen {
		g.followOpen = false // one utterance per window; a new follow-up reply reopens it
		if start-g.followFrom <= g.followFor {
			return WakeFollowUp
		}
	}
	if g.gameOpen {
		if start-g.gameFrom <= int(GameWindow.Seconds()*speech.SampleRate) {
			return WakeGame
		}
		g.gameOpen = false
	}
	for _, b := range h.Bypasses {
		if b.Active != nil && b.Active() {
			return b.Name
		}
	}
	return ""
}

// noteGame keeps the wake phrase off while a game is in play: a game's reply that expects an
// answer opens (or extends) the game window from the end of this utterance; one that does not
// (the game is over) closes it.
func (h *Hub) noteGame(r Reply) {
	if !strings.HasPrefix(r.Intent, "play.") {
		return
	}
	h.gate.gameOpen, h.gate.gameFrom = r.FollowUp, h.gate.lastEnd
}

// openFollowUp starts the follow-up window after a reply that asked for one (an answer
// expected, a clarification): it lasts the reply's own length plus FollowUpWindow.
func (h *Hub) openFollowUp(replyAudio []byte) {
	window := h.FollowUpWindow
	if window <= 0 {
		window = 8 * time.Second
	}
	n := int(window.Seconds() * speech.SampleRate)
	if clip, err := speech.DecodeWAV(replyAudio, 5*time.Minute); err == nil {
		n += len(clip.Samples)
	}
	h.gate.followOpen, h.gate.followFrom, h.gate.followFor = true, h.gate.lastEnd, n
}

// WakeStats returns the gate's counters; call it after Run returns or from OnTurn.
func (h *Hub) WakeStats() WakeStats {
	s := h.gate.stats
	if h.Wake != nil {
		s.Spotter = h.Wake.Stats()
	}
	return s
}

// NewWakeGuard builds the configured spotter, or nil when wake_spotter is off. A missing
// model, a missing neural runtime or a phrase the dictionary cannot spell is an error that
// says how to fix it.
func NewWakeGuard(c *Config, log *slog.Logger) (*wake.Guard, error) {
	if c.WakeSpotter == "off" {
		return nil, nil
	}
	o, err := c.WakeOptions()
	if err != nil {
		return nil, err
	}
	s, err := wake.New(o)
	if err != nil {
		return nil, err
	}
	return wake.NewGuard(s, log), nil
}

// WakeOptions are the spotter's options from the config (wake_spotter, wake_phrases,
// wake_sensitivity, wake_model_dir, wake_pronunciations, wake_runtime_dir, wake_heads).
func (c *Config) WakeOptions() (wake.Options, error) {
	o := wake.Options{Phrases: c.WakePhrases, Sensitivity: c.WakeSensitivity, ModelDir: c.WakeModelDir,
		Pronunciations: c.WakePronunciations, Engine: c.WakeSpotter, RuntimeDir: c.WakeRuntimeDir}
	if o.Engine == "pocketsphinx" || o.Engine == "off" {
		o.Engine = wake.EngineSphinx
	}
	for phrase, path := range c.WakeHeads {
		h, err := wake.LoadHead(path)
		if err != nil {
			return o, fmt.Errorf("wake_heads[%q]: %w", phrase, err)
		}
		if o.Heads == nil {
			o.Heads = map[string]*wake.Head{}
		}
		o.Heads[strings.ToLower(strings.TrimSpace(phrase))] = h
	}
	return o, nil
}
