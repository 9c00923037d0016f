package broker

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reachy-broker/reachy-broker/broker/brokertest"
)

// TestMCPOverTailnet: an owner's agent on its own tailnet node uses the Go SDK client:
// it lists its tools, calls one, is refused one it lacks, sees a scope change and a
// revocation on its very next request, and its token does nothing from another node.
func TestMCPOverTailnet(t *testing.T) {
	if testing.Short() {
		t.Skip("the in-process tailnet takes a few seconds")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	controlURL := brokertest.StartControl(t)

	light := &countingLight{}
	tb := startTailnetBroker(t, ctx, controlURL, func(cfg *Config, d *Deps) {
		cfg.Limits.RatePerMinute, cfg.Limits.Burst = 6000, 1000
		d.Handlers["home.light"] = light
	})
	state, brokerIP := tb.state, tb.ip
	endpoint := fmt.Sprintf("http://%s:%d/mcp", brokerIP, TailnetPort)

	agent := brokertest.StartNode(t, ctx, controlURL, "agent")
	thief := brokertest.StartNode(t, ctx, controlURL, "thief")
	tok, _, err := state.CreateToken(ctx, "agent", []string{"mcp", "house:read"}, "agent")
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "owner-agent", Version: "1"}, nil)
	var s *sdk.ClientSession
	var last error
	for attempt := 0; attempt < 60 && s == nil; attempt++ { // the first packets may race the DERP handshake
		actx, acancel := context.WithTimeout(ctx, 5*time.Second)
		s, last = client.Connect(actx, &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: tokenClient(tok, agent.HTTPClient().Transport), MaxRetries: -1}, nil)
		acancel()
		if s == nil {
			time.Sleep(250 * time.Millisecond)
		}
	}
	if s == nil {
		t.Fatalf("no MCP session over the tailnet: %v", last)
	}
	defer s.Close()

	names := toolNames(t, ctx, s)
	if !slices.Contains(names, "house.light.get") || slices.Contains(names, "house.light.set") {
		t.Fatalf("tools over the tailnet: %v", names)
	}
	res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: "house.light.get", Arguments: map[string]any{"room": "kitchen"}})
	if err != nil || res.IsError || !strings.Contains(toolText(res), "kitchen light") {
		t.Fatalf("read over the tailnet: %v %+v", err, res)
	}
	recs, _ := state.TailAudit(ctx, 1)
	if len(recs) != 1 || recs[0].Route != "mcp" || recs[0].Node != "agent" {
		t.Fatalf("audit names no agent node: %+v", recs)
	}
	setLight := &sdk.CallToolParams{Name: "house.light.set", Arguments: map[string]any{"room": "kitchen", "state": "on"}}
	if _, err := s.CallTool(ctx, setLight); err == nil || !strings.Contains(err.Error(), "house:write") {
		t.Fatalf("call without house:write: %v", err)
	}

	// The owner grants house:write: the same token, the same session, the next request.
	if n, err := state.SetScopes(ctx, "agent", []string{"mcp", "house:read", "house:write"}); err != nil || n != 1 {
		t.Fatalf("set scopes: %d %v", n, err)
	}
	if !slices.Contains(toolNames(t, ctx, s), "house.light.set") {
		t.Fatal("the scope change did not show on the next tools/list")
	}
	res, err = s.CallTool(ctx, setLight)
	if err != nil || res.IsError || light.count() != 2 { // one read, one write
		t.Fatalf("write after the scope change: %v %+v, %d handler calls", err, res, light.count())
	}

	// The token from another node is refused, and nothing runs.
	ts := sdk.NewClient(&sdk.Implementation{Name: "thief", Version: "1"}, nil)
	tctx, tcancel := context.WithTimeout(ctx, 20*time.Second)
	if ss, err := ts.Connect(tctx, &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: tokenClient(tok, thief.HTTPClient().Transport), MaxRetries: -1}, nil); err == nil {
		if _, err := ss.CallTool(tctx, setLight); err == nil {
			t.Fatal("a stolen token called a tool from another node")
		}
		ss.Close()
	}
	tcancel()
	if light.count() != 2 {
		t.Fatal("the thief actuated")
	}

	// Revocation: the next request is refused.
	if _, err := state.RevokeTokens(ctx, "agent"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListTools(ctx, nil); err == nil {
		t.Fatal("a revoked token still lists tools")
	}
	if _, err := s.CallTool(ctx, setLight); err == nil || light.count() != 2 {
		t.Fatalf("a revoked token still calls: %v", err)
	}
}
