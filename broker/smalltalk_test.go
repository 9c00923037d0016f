package broker

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/speech"
)

// countingAgent stands in for the lean agent and counts the questions it gets.
type countingAgent struct{ calls atomic.Int64 }

func (a *countingAgent) Handle(ctx context.Context, c intents.Call) (intents.Answer, error) {
	a.calls.Add(1)
	return intents.Answer{Reply: "An answer from the agent."}, nil
}

// TestSpokenGuideOffersOnlyWhatIsConfigured (#29.7): "what can you do?" never offers what
// this home has not configured: no "is mom busy" without a calendar, no "just ask me a
// question" without an agent; with them configured, it offers both.
func TestSpokenGuideOffersOnlyWhatIsConfigured(t *testing.T) {
	all := []string{"text", "house:read", "house:write", "calendar:read", "ask", "robot", "timer"}
	bare := newTestBroker(t)
	r := bare.say(t, bare.token(t, "robot", all...), "what can you do").turn(t)
	if r.Intent != "help" || strings.Contains(r.Reply, "mom") || strings.Contains(r.Reply, "ask me a question") ||
		!strings.Contains(r.Reply, "turn on the kitchen light") {
		t.Fatalf("no calendar, no agent: %q", r.Reply)
	}
	full := newTestBroker(t, func(c *Config, d *Deps) {
		d.Handlers["agent"] = &countingAgent{}
		d.Handlers["calendar"] = intents.HandlerFunc(func(ctx context.Context, c intents.Call) (intents.Answer, error) {
			return intents.Answer{Reply: "Free."}, nil
		})
	})
	r = full.say(t, full.token(t, "robot", all...), "what can you do").turn(t)
	if !strings.Contains(r.Reply, "say if someone is busy") || !strings.Contains(r.Reply, "Or just ask me a question.") {
		t.Fatalf("with a calendar and an agent: %q", r.Reply)
	}
}

// TestSmallTalkGetsALocalReply (#29.7): thanks, good night and goodbye get a fitting reply
// said locally — never the agent, never an apology — and a thank-you that reports an action
// does nothing.
func TestSmallTalkGetsALocalReply(t *testing.T) {
	agent := &countingAgent{}
	tb := newTestBroker(t, func(c *Config, d *Deps) { d.Handlers["agent"] = agent })
	tok := tb.token(t, "robot", "text", "ask", "house:read", "house:write")
	for sentence, want := range map[string]string{
		"Thank you, Reachy!":      "You're welcome.",
		"thanks a lot":            "You're welcome.",
		"good night reachy":       "Good night. Sleep well.",
		"Night night, Jeeves.":    "Good night. Sleep well.",
		"bye":                     "Bye for now.",
		"okay thanks, bye reachy": "Bye for now.",
		"see you later":           "Bye for now.",
	} {
		r := tb.say(t, tok, sentence).turn(t)
		if r.Reply != want || r.Kind != "meta" || r.Outcome != store.OutcomeOK || r.FollowUp {
			t.Errorf("%q: %+v", sentence, r)
		}
	}
	if n := agent.calls.Load(); n != 0 {
		t.Fatalf("small talk reached the agent %d times", n)
	}
	for _, s := range []string{"thank you for turning on the kitchen light", "thanks for switching the lights off, good night"} {
		if r := tb.say(t, tok, s).turn(t); r.Kind == "write" {
			t.Errorf("%q acted: %+v", s, r)
		}
	}
	tb.light.mu.Lock()
	defer tb.light.mu.Unlock()
	for _, args := range tb.light.calls {
		if args["state"] != "" {
			t.Fatalf("a thank-you switched a light: %v", args)
		}
	}
}

// TestHeardClipWithoutSTTSaysSo (#29.7): in a console session on a broker with no
// speech-to-text model, a clip the room said reaches the page with the note "not
// transcribed: no speech-to-text model" instead of looking like silence.
func TestHeardClipWithoutSTTSaysSo(t *testing.T) {
	r := newConsoleRig(t, func(c *Config, d *Deps) { d.Transcriber = nil })
	tok := r.page(t)
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("join: %d %s", resp.status, resp.body)
	}
	room := make([]float32, speech.SampleRate)
	for i := range room {
		room[i] = 0.2
	}
	wav, _ := speech.EncodeWAV(room, speech.SampleRate)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.hub.link.Send(ctx, api.LinkMessage{Type: api.LinkHeard, Heard: &api.LinkHeardBody{WAV: wav}}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if s := r.robotView(t).Session; s != nil && len(s.Clips) == 1 {
			page := r.do(t, "GET", "/console/api/state", "", "", nil, "X-Console-Token", r.page(t)) // what the page gets
			if s.Clips[0].Text != "" || !strings.Contains(string(page.body), `"note":"not transcribed: no speech-to-text model"`) {
				t.Fatalf("clip: %+v\n%s", s.Clips[0], page.body)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the clip never reached the page")
		}
	}
}

// TestAskedToCallForHelpTheRobotSaysItCannot: "call the police", "call an ambulance", "dial
// 911" get a plain local answer — the robot cannot call outside the home, use a phone — never
// "who should call back?" (a call back to the owner's console), never the agent; a sentence
// that only mentions the police is not answered that way.
func TestAskedToCallForHelpTheRobotSaysItCannot(t *testing.T) {
	agent := &countingAgent{}
	tb := newTestBroker(t, func(c *Config, d *Deps) { d.Handlers["agent"] = agent })
	tok := tb.token(t, "robot", "text", "ask", "turn")
	for _, s := range []string{"Call the police!", "somebody call an ambulance", "Reachy, dial 911 now", "call for help"} {
		r := tb.say(t, tok, s).turn(t)
		if r.Intent != "help.emergency" || !strings.Contains(r.Reply, "Use a phone") || r.FollowUp {
			t.Errorf("%q: %+v", s, r)
		}
	}
	if n := agent.calls.Load(); n != 0 {
		t.Fatalf("asked for help, the agent answered %d times", n)
	}
	for _, s := range []string{"dad called the police yesterday", "should I call the police?"} {
		if r := tb.say(t, tok, s).turn(t); r.Intent == "help.emergency" {
			t.Errorf("%q: %+v", s, r)
		}
	}
}
