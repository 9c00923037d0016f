package broker

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
)

func privacyOn(t *testing.T, st *store.Store, device string) bool {
	t.Helper()
	on, err := st.Privacy(context.Background(), device)
	if err != nil {
		t.Fatal(err)
	}
	return on
}

// lastConsoleEnd is the newest audited end of a teleport session.
func lastConsoleEnd(t *testing.T, st *store.Store) *store.AuditRecord {
	t.Helper()
	recs, _ := st.TailAudit(context.Background(), 50)
	var end *store.AuditRecord
	for i := range recs {
		if recs[i].Route == "console" && recs[i].Intent == "teleport.end" {
			end = &recs[i]
		}
	}
	return end
}

// TestPrivacyModeOnlyByRoomVoice: "privacy mode on" typed to /v1/utterances (even by the
// robot's own token), a typed call to /v1/intents/privacy.set and an MCP tool call are all
// refused and change nothing; the intent is listed to nobody. Said aloud to the robot (a
// spoken turn), it turns privacy mode on, and a join is then refused with privacy_mode.
func TestPrivacyModeOnlyByRoomVoice(t *testing.T) {
	r := newConsoleRig(t)
	tok := r.page(t)
	all := r.token(t, "robot", "text", "turn", "intent", "robot", "mcp")
	r.stt.say("hey reachy privacy mode on")
	if resp := r.say(t, all, "privacy mode on"); resp.status != 200 || resp.turn(t).Outcome != store.OutcomeDenied {
		t.Fatalf("typed privacy mode on: %d %s", resp.status, resp.body)
	}
	resp := r.do(t, "POST", "/v1/intents/privacy.set", all, "application/json", []byte(`{"state":"on"}`))
	if resp.status != 403 || resp.code(t) != api.CodeIntentDenied {
		t.Fatalf("typed call of privacy.set: %d %s", resp.status, resp.body)
	}
	if resp := r.do(t, "GET", "/v1/intents", all, "", nil); strings.Contains(string(resp.body), "privacy.set") {
		t.Fatalf("privacy.set is listed to a token: %s", resp.body)
	}
	mcp := mcpPost(t, r.testBroker, all, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"privacy.set","arguments":{"state":"on"}}}`)
	if strings.Contains(string(mcp.body), "Privacy mode is on") {
		t.Fatalf("MCP switched privacy mode: %s", mcp.body)
	}
	if list := mcpPost(t, r.testBroker, all, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); strings.Contains(string(list.body), "privacy.set") {
		t.Fatalf("MCP lists privacy.set: %s", list.body)
	}
	if privacyOn(t, r.state, "robot") {
		t.Fatal("privacy mode was switched by typed text, a typed call or MCP")
	}
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("join before privacy mode: %d %s", resp.status, resp.body)
	}
	r.post(t, tok, "leave", map[string]any{})

	// Said aloud in the room: a spoken turn from the robot.
	if resp := r.turnAudio(t, all); resp.status != 200 || resp.turn(t).Intent != "privacy.set" || resp.turn(t).Outcome != store.OutcomeOK {
		t.Fatalf("spoken privacy mode on: %d %s", resp.status, resp.body)
	}
	if !privacyOn(t, r.state, "robot") {
		t.Fatal("a spoken privacy mode on did not turn it on")
	}
	resp = r.post(t, tok, "join", map[string]any{})
	if resp.status != 409 || resp.code(t) != api.CodePrivacyMode || !strings.Contains(string(resp.body), "privacy mode off") {
		t.Fatalf("join in privacy mode: %d %s", resp.status, resp.body)
	}
	if r.session(t) != nil {
		t.Fatal("a join in privacy mode left a session")
	}
	// Typed "privacy mode off" does not lift it either; the room's voice does.
	r.say(t, all, "privacy mode off")
	if !privacyOn(t, r.state, "robot") {
		t.Fatal("typed privacy mode off lifted it")
	}
	r.stt.say("hey reachy privacy mode off")
	if resp := r.turnAudio(t, all); resp.turn(t).Intent != "privacy.set" || privacyOn(t, r.state, "robot") {
		t.Fatalf("spoken privacy mode off: %s", resp.body)
	}
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("join after privacy mode off: %d %s", resp.status, resp.body)
	}
}

// TestPrivacyModeEndsTheCall: a live session ends at once with the reason privacy when the
// room says "privacy mode on" — heard through the hub's open microphone during the call, no
// wake phrase — and the audit records the switch and the end, no words.
func TestPrivacyModeEndsTheCall(t *testing.T) {
	r := newConsoleRig(t)
	tok := r.page(t)
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("join: %d %s", resp.status, resp.body)
	}
	r.stt.say("privacy mode on")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.hub.link.Send(ctx, heardMessage(roomClip())); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for r.session(t) != nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if r.session(t) != nil {
		t.Fatal("privacy mode on in the room did not end the call")
	}
	if !privacyOn(t, r.state, "robot") {
		t.Fatal("privacy mode heard in the call was not kept")
	}
	// The session leaves the page first; its end record follows once the robot's media is
	// told to stop (bounded).
	end := lastConsoleEnd(t, r.state)
	for end == nil && time.Now().Before(deadline.Add(5*time.Second)) {
		time.Sleep(20 * time.Millisecond)
		end = lastConsoleEnd(t, r.state)
	}
	if end == nil || end.Args["reason"] != api.CallEndPrivacy {
		t.Fatalf("the end is not audited with reason privacy: %+v", end)
	}
	recs, _ := r.state.TailAudit(context.Background(), 50)
	found := false
	for _, rec := range recs {
		if rec.Intent == "privacy.set" && rec.Args["state"] == "on" && rec.Outcome == store.OutcomeOK {
			found = true
		}
		for k, v := range rec.Args {
			if strings.Contains(v, "privacy mode") {
				t.Fatalf("words in the audit: %s=%q", k, v)
			}
		}
	}
	if !found {
		t.Fatal("the privacy switch heard in the call is not audited")
	}
	if resp := r.post(t, tok, "join", map[string]any{}); resp.code(t) != api.CodePrivacyMode {
		t.Fatalf("join after privacy mode: %d %s", resp.status, resp.body)
	}
}

// TestPrivacyModeSurvivesRestart: privacy mode said aloud is kept in the state store: a
// broker started again on the same state still refuses every join.
func TestPrivacyModeSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	owners := func(c *Config, d *Deps) {
		c.Teleport.Owners = []string{dad.Login}
		d.People = &switchPeople{p: dad}
		d.Synthesizer = &toneSynth{}
	}
	tb := newTestBrokerOn(t, st, owners)
	tb.stt.say("hey reachy, turn on privacy mode")
	if resp := tb.turnAudio(t, tb.token(t, "robot", "turn")); resp.turn(t).Intent != "privacy.set" || resp.turn(t).Outcome != store.OutcomeOK {
		t.Fatalf("spoken privacy mode on: %s", resp.body)
	}
	tb.srv.Close()
	st.Close()

	st2, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st2.Close() })
	r := &consoleRig{testBroker: newTestBrokerOn(t, st2, owners)}
	resp := r.post(t, r.page(t), "join", map[string]any{})
	if resp.status != 409 || resp.code(t) != api.CodePrivacyMode {
		t.Fatalf("join after a restart in privacy mode: %d %s", resp.status, resp.body)
	}
}
