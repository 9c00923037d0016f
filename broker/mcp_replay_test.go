package broker

import (
	"context"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reachy-broker/reachy-broker/broker/mcp"
	"github.com/reachy-broker/reachy-broker/broker/store"
)

// TestMCPAgentRunsWithRestartedIdsBothAct: an agent turns the office light on and off; a
// new agent process (its JSON-RPC ids start again at 1) turns it on with the same id, tool
// and arguments as the first run's first call. Without a key the client sent, that is a
// new call: it acts and is audited — never answered with the first run's "Okay, the office
// light is on." while the light stays off.
func TestMCPAgentRunsWithRestartedIdsBothAct(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "agent", "mcp", "house:write")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	on := &sdk.CallToolParams{Name: "house.light.set", Arguments: map[string]any{"room": "office", "state": "on"}}
	off := &sdk.CallToolParams{Name: "house.light.set", Arguments: map[string]any{"room": "office", "state": "off"}}

	first := mcpConnect(t, ctx, tb.srv.URL+"/mcp", tokenClient(tok, nil), nil)
	for _, p := range []*sdk.CallToolParams{on, off} {
		if res, err := first.CallTool(ctx, p); err != nil || res.IsError {
			t.Fatalf("first run: %v %+v", err, res)
		}
	}
	first.Close()
	second := mcpConnect(t, ctx, tb.srv.URL+"/mcp", tokenClient(tok, nil), nil)
	res, err := second.CallTool(ctx, on)
	if err != nil || res.IsError {
		t.Fatalf("second run: %v %+v", err, res)
	}
	if structured(t, res)["replayed"] == true || strings.Contains(toolText(res), "replayed") {
		t.Fatalf("the second run's call was answered from the first run: %q %v", toolText(res), structured(t, res))
	}
	if n := tb.light.count(); n != 3 {
		t.Fatalf("%d actuations for three calls: the second run's call did not act", n)
	}
	tb.light.mu.Lock()
	last := tb.light.calls[2]
	tb.light.mu.Unlock()
	if last["room"] != "office" || last["state"] != "on" {
		t.Fatalf("last actuation: %v", last)
	}
	// A raw client with its own restarted ids: the same JSON-RPC message twice, no key.
	msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"house.light.set","arguments":{"room":"office","state":"on"}}}`
	for i := range 2 {
		if r := mcpPost(t, tb, tok, msg); r.status != 200 || strings.Contains(string(r.body), `"replayed":true`) {
			t.Fatalf("raw run %d: %d %s", i, r.status, r.body)
		}
	}
	if n := tb.light.count(); n != 5 {
		t.Fatalf("%d actuations for five calls", n)
	}
	recs, err := tb.state.TailAudit(ctx, 50)
	if err != nil {
		t.Fatal(err)
	}
	done := map[string]bool{}
	for _, r := range recs {
		if r.Route != "mcp" || r.Intent != "house.light.set" || r.Outcome != store.OutcomeOK || done[r.TurnID] {
			t.Fatalf("audit (one record per actuation, settled to its outcome): %+v", r)
		}
		done[r.TurnID] = true
	}
	if len(done) != 5 {
		t.Fatalf("five actuations: %d audited", len(done))
	}
}

// TestMCPKeyedRetryIsReplayedAndSaysSo: a call retried with the key the agent sent (in
// _meta, or the Idempotency-Key header) does not act again, and the text the agent reads
// says it is a replay, as does the structured result.
func TestMCPKeyedRetryIsReplayedAndSaysSo(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "agent", "mcp", "house:write")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	call := &sdk.CallToolParams{Name: "house.light.set", Arguments: map[string]any{"room": "office", "state": "on"},
		Meta: sdk.Meta{mcp.MetaIdempotencyKey: "agent-run-7/step-3"}}
	var texts []string
	for run := range 2 { // the retry comes from a restarted agent: a new session, ids from 1
		s := mcpConnect(t, ctx, tb.srv.URL+"/mcp", tokenClient(tok, nil), nil)
		res, err := s.CallTool(ctx, call)
		if err != nil || res.IsError {
			t.Fatalf("run %d: %v %+v", run, err, res)
		}
		texts = append(texts, toolText(res))
		if replayed := structured(t, res)["replayed"] == true; replayed != (run == 1) {
			t.Fatalf("run %d: replayed=%v %q", run, replayed, toolText(res))
		}
		s.Close()
	}
	if texts[0] != "Okay, the office light is on." || texts[1] != mcp.ReplayNote+" Okay, the office light is on." {
		t.Fatalf("texts: %q", texts)
	}
	if n := tb.light.count(); n != 1 {
		t.Fatalf("a keyed retry acted: %d actuations", n)
	}
	recs, _ := tb.state.TailAudit(ctx, 1)
	if len(recs) != 1 || recs[0].Outcome != store.OutcomeReplayed {
		t.Fatalf("the replay's audit: %+v", recs)
	}
	// The header names a one-message POST's call the same way.
	msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"house.light.set","arguments":{"room":"kitchen","state":"on"}}}`
	a := mcpPost(t, tb, tok, msg, "Idempotency-Key", "kitchen-once")
	b := mcpPost(t, tb, tok, msg, "Idempotency-Key", "kitchen-once")
	if tb.light.count() != 2 || strings.Contains(string(a.body), "replayed") || !strings.Contains(string(b.body), mcp.ReplayNote) ||
		!strings.Contains(string(b.body), `"replayed":true`) {
		t.Fatalf("header key: %d actuations\n%s\n%s", tb.light.count(), a.body, b.body)
	}
}
