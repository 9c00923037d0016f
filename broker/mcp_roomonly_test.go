package broker

import (
	"context"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPNeverOffersSessionEnd (#29.10): hanging up a teleport call is the room's own voice
// ("hang up"): an agent never gets it as a tool, even with every scope, and calling it by
// name does not end a call.
func TestMCPNeverOffersSessionEnd(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "agent", "mcp", "turn", "text", "intent", "house:read", "house:write", "robot", "timer", "ask")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := mcpConnect(t, ctx, tb.srv.URL+"/mcp", tokenClient(tok, nil), nil)
	names := toolNames(t, ctx, s)
	if slices.Contains(names, "session.end") || !slices.Contains(names, "house.light.set") {
		t.Fatalf("tools: %v", names)
	}
	res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: "session.end", Arguments: map[string]any{}})
	if err == nil && !res.IsError {
		t.Fatalf("session.end was called: %+v", res)
	}
}
