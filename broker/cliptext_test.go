package broker

import (
	"context"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/speech"
)

// clipSaying is a spoken clip that carries its words, as `reachyctl speak` writes it.
func clipSaying(t *testing.T, text string) []byte {
	t.Helper()
	wav, err := speech.WithSpokenText(speechWAV(t), text)
	if err != nil {
		t.Fatal(err)
	}
	return wav
}

func lastAudit(t *testing.T, tb *testBroker) store.AuditRecord {
	t.Helper()
	recs, err := tb.state.TailAudit(context.Background(), 1)
	if err != nil || len(recs) == 0 {
		t.Fatalf("audit: %v %v", recs, err)
	}
	return recs[len(recs)-1]
}

// A dev broker without a model takes a `reachyctl speak` clip's own words as the room's
// voice: the light switches, privacy mode (room voice only) switches, and the audit says
// where the transcript came from.
func TestDevBrokerHearsClipTextWithoutModel(t *testing.T) {
	tb := newTestBroker(t, func(c *Config, d *Deps) { d.Transcriber = nil; d.DevClipText = true })
	tok := tb.token(t, "robot", "turn", "house:read", "house:write", "robot", "link")

	r := tb.do(t, "POST", "/v1/turns?audio=none", tok, "audio/wav", clipSaying(t, "hey reachy, turn on the kitchen light"))
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	if tr := r.turn(t); tr.Intent != "house.light.set" || tb.light.count() != 1 {
		t.Fatalf("intent %q, light switched %d times: %s", tr.Intent, tb.light.count(), r.body)
	}
	if rec := lastAudit(t, tb); rec.Route != "turn" || !strings.Contains(rec.Code, CodeDevClipText) {
		t.Fatalf("audit record not labelled %s: %+v", CodeDevClipText, rec)
	}

	r = tb.do(t, "POST", "/v1/turns?audio=none", tok, "audio/wav", clipSaying(t, "hey reachy, privacy mode on"))
	if tr := r.turn(t); tr.Intent != "privacy.set" || tr.Outcome != store.OutcomeOK {
		t.Fatalf("privacy mode by the room's voice: %s", r.body)
	}
	if on, err := tb.state.Privacy(context.Background(), "robot"); err != nil || !on {
		t.Fatalf("privacy mode not on: %v %v", on, err)
	}

	// A clip without words is still refused busy: nothing is made up.
	r = tb.do(t, "POST", "/v1/turns?audio=none", tok, "audio/wav", speechWAV(t))
	if r.status != 503 || r.code(t) != "busy" {
		t.Fatalf("a clip without words: %d %s", r.status, r.body)
	}
}

// A production broker (not --dev) never takes a WAV's word for what it says: no model is
// busy, and a model's transcript wins over the clip's words even in dev mode.
func TestProductionBrokerIgnoresClipText(t *testing.T) {
	tb := newTestBroker(t, func(c *Config, d *Deps) { d.Transcriber = nil })
	tok := tb.token(t, "robot", "turn", "house:read", "house:write")
	r := tb.do(t, "POST", "/v1/turns?audio=none", tok, "audio/wav", clipSaying(t, "hey reachy, turn on the kitchen light"))
	if r.status != 503 || r.code(t) != "busy" || tb.light.count() != 0 {
		t.Fatalf("production broker acted on a clip's words: %d %s (light %d)", r.status, r.body, tb.light.count())
	}

	tb = newTestBroker(t, func(c *Config, d *Deps) { d.DevClipText = true })
	tb.stt.say("hey reachy, what time is it")
	tok = tb.token(t, "robot", "turn", "house:read", "house:write")
	r = tb.do(t, "POST", "/v1/turns?audio=none", tok, "audio/wav", clipSaying(t, "hey reachy, turn on the kitchen light"))
	if tr := r.turn(t); tr.Intent != "time.now" || tb.light.count() != 0 {
		t.Fatalf("the clip's words beat the model's transcript: %s", r.body)
	}
	if rec := lastAudit(t, tb); strings.Contains(rec.Code, CodeDevClipText) {
		t.Fatalf("a transcribed turn labelled %s: %+v", CodeDevClipText, rec)
	}
}

// In a teleport session a dev broker without a model shows a `reachyctl speak` clip's words
// on the owner's page, and "hang up" said that way ends the session.
func TestDevBrokerHearsClipTextInASession(t *testing.T) {
	r := newConsoleRig(t, func(c *Config, d *Deps) { d.Transcriber = nil; d.DevClipText = true })
	tok := r.page(t)
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("join: %d %s", resp.status, resp.body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	say := func(text string) {
		t.Helper()
		if err := r.hub.link.Send(ctx, api.LinkMessage{Type: api.LinkHeard, Heard: &api.LinkHeardBody{WAV: clipSaying(t, text)}}); err != nil {
			t.Fatal(err)
		}
	}
	say("we miss you")
	for i := 0; ; i++ {
		if s := r.robotView(t).Session; s != nil && len(s.Clips) == 1 {
			if s.Clips[0].Text != "we miss you" {
				t.Fatalf("clip: %+v", s.Clips[0])
			}
			break
		}
		if i > 300 {
			t.Fatal("the clip never reached the page")
		}
		time.Sleep(10 * time.Millisecond)
	}
	say("hang up")
	for i := 0; i < 300 && r.hub.hub.SessionActive(); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if r.hub.hub.SessionActive() {
		t.Fatal(`"hang up" did not end the session`)
	}
}
