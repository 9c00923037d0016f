package broker

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"
)

// BenchmarkMCPCallOverhead: the same house intent (house.light.set, in-memory handler) called
// on loopback as a typed call (POST /v1/intents/house.light.set) and as an MCP tools/call
// (POST /mcp, stateless, event-stream answer), alternating in one run, each under a fresh
// idempotency key. Reports each median
// and the MCP-minus-typed difference of medians; the budget is < 1 ms.
func BenchmarkMCPCallOverhead(b *testing.B) {
	tb := newTestBroker(b)
	tok, _, err := tb.state.CreateToken(b.Context(), "agent", []string{"intent", "mcp", "house:write"}, "")
	if err != nil {
		b.Fatal(err)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	post := func(path, body string, hdr ...string) time.Duration {
		req, _ := http.NewRequest("POST", tb.srv.URL+path, bytes.NewReader([]byte(body)))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		d := time.Since(start)
		if resp.StatusCode != 200 || !bytes.Contains(got, []byte("kitchen light is on")) {
			b.Fatalf("%s: %d %s", path, resp.StatusCode, got)
		}
		return d
	}
	const mcpCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"house.light.set","arguments":{"room":"kitchen","state":"on"}}}`
	callMCP := func() time.Duration {
		// Keyed like the typed call (a fresh key each time, so the store answers nothing
		// from before): the difference is MCP's own cost.
		return post("/mcp", mcpCall, "Accept", "application/json, text/event-stream", "Idempotency-Key", newTurnID())
	}
	for range 20 { // warm both paths (connections, first-use caches) before measuring
		post("/v1/intents/house.light.set", `{"room":"kitchen","state":"on"}`, "Idempotency-Key", newTurnID())
		callMCP()
	}
	var typed, viaMCP []time.Duration
	for b.Loop() {
		// Both under a fresh idempotency key, so the difference is MCP's own cost.
		typed = append(typed, post("/v1/intents/house.light.set", `{"room":"kitchen","state":"on"}`, "Idempotency-Key", newTurnID()))
		viaMCP = append(viaMCP, callMCP())
	}
	med := func(ds []time.Duration) time.Duration { slices.Sort(ds); return ds[len(ds)/2] }
	mt, mm := med(typed), med(viaMCP)
	b.ReportMetric(float64(mt.Microseconds())/1000, "typed-ms-median")
	b.ReportMetric(float64(mm.Microseconds())/1000, "mcp-ms-median")
	b.ReportMetric(float64((mm-mt).Microseconds())/1000, "mcp-extra-ms-median")
	b.ReportMetric(0, "ns/op")
}
