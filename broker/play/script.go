package play

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/speech"
)

// Simon says, freeze dance and hide and seek are played out over time: after the turn that
// starts one, its script sends the closed robot actions over the link — a line to say (or the
// game's tune), an expression, a look, a stop — one after another.

// step is one action of a script; exactly one of its fields is set (Wait alone pauses).
type step struct {
	say        string    // a line: synthesized and played
	tune       []float32 // the game's own music, played
	expression string
	look       *Look
	stop       bool          // stop moving and playing at once (freeze!)
	wait       time.Duration // then pause this long
}

// busyFor bounds how long an action waits for the robot to finish its own reply.
const busyFor = 30 * time.Second

// script builds a game's opening and its steps. It is called with g.mu held.
func (g *Games) script(s *session, game string) (intents.Answer, []step) {
	t := g.o.Table
	switch game {
	case GameSimon:
		moves := t.Simon.Moves
		without := map[int]bool{}
		for len(without) < t.Simon.WithoutSimon {
			without[1+g.rng.IntN(t.Simon.Rounds-1)] = true // never the first call
		}
		var steps []step
		for i := 0; i < t.Simon.Rounds; i++ {
			m := moves[g.rng.IntN(len(moves))]
			line := "Simon says, " + m.Say + "!"
			if without[i] {
				line = capitalize(m.Say) + "!"
			}
			steps = append(steps, step{say: line})
			if m.Look != nil {
				steps = append(steps, step{look: m.Look, wait: 2 * time.Second}, step{look: &Look{}})
			} else {
				steps = append(steps, step{expression: m.Expression, wait: 2 * time.Second})
			}
			if without[i] {
				steps = append(steps, step{say: "Oops! Simon didn't say! Did you move?", wait: time.Second})
			}
		}
		steps = append(steps, step{say: "That's the end of Simon says. Great job, everyone!", expression: ""}, step{expression: "celebrate"})
		return intents.Answer{Reply: "Let's play Simon says! Only do it when Simon says so. Watch me!", Expression: intents.ExpressionHappy}, steps
	case GameFreeze:
		var steps []step
		for i := 0; i < t.Freeze.Rounds; i++ {
			secs := t.Freeze.MinSeconds + g.rng.IntN(t.Freeze.MaxSeconds-t.Freeze.MinSeconds+1)
			steps = append(steps, step{expression: "dance"}, step{tune: Tune(g.rng.Uint64(), time.Duration(secs)*time.Second)},
				step{stop: true}, step{say: "Freeze!", wait: 3 * time.Second})
		}
		steps = append(steps, step{say: "What great dancing and freezing! That's the end of freeze dance."}, step{expression: "celebrate"})
		return intents.Answer{Reply: "Let's freeze dance! Dance while the music plays, and freeze when it stops!", Expression: intents.ExpressionHappy}, steps
	case GameHide:
		var count []string
		for i := 1; i <= t.Hide.CountTo; i++ {
			count = append(count, fmt.Sprint(i))
		}
		steps := []step{
			{look: &Look{PitchDeg: maxPitchDeg}}, // head down (pitch > 0 tips it forward)
			{say: strings.Join(count, ", ") + "! Ready or not, here I come!"},
			{look: &Look{YawDeg: 45}, wait: 1500 * time.Millisecond},
			{look: &Look{YawDeg: -45}, wait: 1500 * time.Millisecond},
			{look: &Look{}},
			{say: "I'm coming to find you! Come out, come out, wherever you are!"},
		}
		return intents.Answer{Reply: fmt.Sprintf("Let's play hide and seek! I'll close my eyes and count to %d. Go and hide!", t.Hide.CountTo),
			Expression: intents.ExpressionHappy}, steps
	}
	return intents.Answer{}, nil
}

// run plays steps on device until they end (true) or ctx is cancelled (the game was stopped).
func (g *Games) run(ctx context.Context, device string, steps []step) bool {
	for _, st := range steps {
		var m api.LinkMessage
		var length time.Duration
		switch {
		case st.say != "" || st.tune != nil:
			wav, d, err := g.sound(ctx, st)
			if err != nil {
				g.o.Log.Warn("game: a line could not be synthesized; the game ends", "device", device, "err", err)
				return true
			}
			m, length = api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: wav}}, d
		case st.expression != "":
			m = api.LinkMessage{Type: api.LinkExpression, Expression: st.expression}
		case st.look != nil:
			m = api.LinkMessage{Type: api.LinkLook, Look: &api.LinkLookAction{YawDeg: st.look.YawDeg, PitchDeg: st.look.PitchDeg}}
			length = 500 * time.Millisecond
		case st.stop:
			m = api.LinkMessage{Type: api.LinkStop}
		}
		if m.Type != "" && !g.send(ctx, device, m) {
			return ctx.Err() == nil
		}
		g.touch(device)
		if !g.pause(ctx, length+st.wait) {
			return false
		}
	}
	return true
}

// send delivers one action, waiting (bounded) while the robot is busy with its own reply.
func (g *Games) send(ctx context.Context, device string, m api.LinkMessage) bool {
	deadline := time.Now().Add(busyFor)
	for {
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		ack, err := g.o.Robot.Send(actx, device, m)
		cancel()
		switch {
		case ctx.Err() != nil:
			return false
		case err == nil && ack.OK:
			return true
		case err == nil && ack.Code == api.LinkErrBusy && time.Now().Before(deadline):
			if !sleep(ctx, 250*time.Millisecond) {
				return false
			}
		default:
			g.o.Log.Warn("game: the robot did not take an action; the game ends", "device", device, "action", m.Type, "code", ack.Code, "err", err)
			return false
		}
	}
}

// sound makes a step's WAV: its line synthesized, or its tune.
func (g *Games) sound(ctx context.Context, st step) ([]byte, time.Duration, error) {
	if st.tune != nil {
		wav, err := speech.EncodeWAV(st.tune, speech.SampleRate)
		return wav, time.Duration(len(st.tune)) * time.Second / speech.SampleRate, err
	}
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	wav, err := g.o.Say(sctx, st.say)
	if err != nil {
		return nil, 0, err
	}
	clip, err := speech.DecodeWAV(wav, 2*time.Minute)
	if err != nil {
		return nil, 0, err
	}
	return wav, clip.Duration(), nil
}

// touch keeps a playing script's game from timing out.
func (g *Games) touch(device string) {
	g.mu.Lock()
	if s := g.sessions[device]; s != nil {
		s.last = g.o.Now()
	}
	g.mu.Unlock()
}

func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
