package broker

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
)

// bearer adds a token to every request and never follows a redirect.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

func tokenClient(token string, base http.RoundTripper) *http.Client {
	if base == nil {
		base = http.DefaultTransport
	}
	return &http.Client{
		Transport:     bearer{token: token, base: base},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       30 * time.Second,
	}
}

// mcpConnect opens a Go SDK client session on endpoint with token.
func mcpConnect(t *testing.T, ctx context.Context, endpoint string, hc *http.Client, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "broker-test", Version: "1"}, opts)
	s, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("mcp connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func toolNames(t *testing.T, ctx context.Context, s *sdk.ClientSession) []string {
	t.Helper()
	res, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func toolText(r *sdk.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, " ")
}

func structured(t *testing.T, r *sdk.CallToolResult) map[string]any {
	t.Helper()
	b, _ := json.Marshal(r.StructuredContent)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structured content: %v", err)
	}
	return m
}

// TestMCPToolsAreTheCallersAllowlist: tools/list shows one tool per intent the token's
// scopes allow, with enums from the home's vocabularies; tools/call runs the typed-call
// path (handler, redaction, audit as "mcp"); unknown tools and bad arguments are tool
// errors with closed codes, and nothing is actuated for them.
func TestMCPToolsAreTheCallersAllowlist(t *testing.T) {
	tb := newTestBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	endpoint := tb.srv.URL + "/mcp"

	narrow := mcpConnect(t, ctx, endpoint, tokenClient(tb.token(t, "agent", "mcp", "house:read"), nil), nil)
	names := toolNames(t, ctx, narrow)
	if !slices.Contains(names, "house.light.get") || slices.Contains(names, "house.light.set") || slices.Contains(names, "general.ask") {
		t.Fatalf("narrow token sees %v", names)
	}
	full := mcpConnect(t, ctx, endpoint, tokenClient(tb.token(t, "agent", "mcp", "house:read", "house:write", "ask"), nil), nil)
	list, err := full.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var set *sdk.Tool
	for _, tl := range list.Tools {
		if tl.Name == "house.light.set" {
			set = tl
		}
		if tl.Name == intents.IntentClarify {
			t.Fatal("clarify is not a tool")
		}
	}
	if set == nil {
		t.Fatalf("full token lacks house.light.set: %v", toolNames(t, ctx, full))
	}
	schema, _ := json.Marshal(set.InputSchema)
	for _, want := range []string{`"kitchen"`, `"kids room"`, `"here"`, `"on"`, `"off"`, `"additionalProperties":false`} {
		if !strings.Contains(string(schema), want) {
			t.Errorf("house.light.set schema lacks %s: %s", want, schema)
		}
	}
	if !strings.Contains(set.Description, "turn on the") {
		t.Errorf("description carries no example phrase: %q", set.Description)
	}

	res, err := full.CallTool(ctx, &sdk.CallToolParams{Name: "house.light.set", Arguments: map[string]any{"room": "kitchen", "state": "on"}})
	if err != nil {
		t.Fatal(err)
	}
	out := structured(t, res)
	if res.IsError || out["outcome"] != "ok" || !strings.Contains(toolText(res), "kitchen light is on") || tb.light.count() != 1 {
		t.Fatalf("call: error=%v %v %q, %d actuations", res.IsError, out, toolText(res), tb.light.count())
	}
	if _, ok := out["audio"]; ok {
		t.Fatal("a tool result carries audio")
	}
	recs, _ := tb.state.TailAudit(ctx, 1)
	if len(recs) != 1 || recs[0].Route != "mcp" || recs[0].Device != "agent" || recs[0].Intent != "house.light.set" || recs[0].Args["room"] != "kitchen" {
		t.Fatalf("audit: %+v", recs)
	}

	// Outside the vocabulary: invalid_args naming the allowed values, nothing actuated.
	res, err = full.CallTool(ctx, &sdk.CallToolParams{Name: "house.light.set", Arguments: map[string]any{"room": "garage", "state": "on"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(toolText(res), "invalid_args") || !strings.Contains(toolText(res), "kitchen") {
		t.Fatalf("bad room: %v %q", res.IsError, toolText(res))
	}
	res, _ = full.CallTool(ctx, &sdk.CallToolParams{Name: "house.light.set", Arguments: map[string]any{"room": "kitchen", "state": "on", "colour": "red"}})
	if res == nil || !res.IsError || !strings.Contains(toolText(res), "invalid_args") {
		t.Fatalf("unknown argument accepted: %+v", res)
	}
	// Unknown tool: the closed code, as a tool error.
	res, err = full.CallTool(ctx, &sdk.CallToolParams{Name: "house.door.open", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || structured(t, res)["error"].(map[string]any)["code"] != "unknown_intent" {
		t.Fatalf("unknown tool: %+v", res)
	}
	if tb.light.count() != 1 {
		t.Fatalf("refused calls actuated: %d", tb.light.count())
	}
	recs, _ = tb.state.TailAudit(ctx, 1)
	if recs[0].Outcome != store.OutcomeDenied || recs[0].Code != "unknown_intent" || recs[0].Route != "mcp" {
		t.Fatalf("unknown tool audit: %+v", recs[0])
	}

	// A tool this token lacks: the SDK client sees the step-up refusal.
	_, err = narrow.CallTool(ctx, &sdk.CallToolParams{Name: "house.light.set", Arguments: map[string]any{"room": "kitchen", "state": "off"}})
	if err == nil || !strings.Contains(err.Error(), "house:write") {
		t.Fatalf("narrow token called house.light.set: %v", err)
	}
	if tb.light.count() != 1 {
		t.Fatal("a refused call actuated")
	}
}

// mcpPost sends one raw JSON-RPC body to /mcp.
func mcpPost(t *testing.T, tb *testBroker, token, body string, hdr ...string) reply {
	t.Helper()
	h := append([]string{"Accept", "application/json, text/event-stream"}, hdr...)
	return tb.do(t, "POST", "/mcp", token, "application/json", []byte(body), h...)
}

const callLightOn = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"house.light.set","arguments":{"room":"kitchen","state":"on"}}}`

// TestMCPAuthAnswers: 401 and 403 point at the RFC 9728 metadata, which names the scopes;
// a lacking tool scope is a 403 naming it; a token in a URL is refused; nothing redirects.
func TestMCPAuthAnswers(t *testing.T) {
	tb := newTestBroker(t)
	r := mcpPost(t, tb, "", callLightOn)
	if r.status != 401 || !strings.Contains(r.header.Get("WWW-Authenticate"), `resource_metadata="http://127.0.0.1:`) {
		t.Fatalf("no token: %d %q", r.status, r.header.Get("WWW-Authenticate"))
	}
	meta := r.header.Get("WWW-Authenticate")
	metaURL := meta[strings.Index(meta, `resource_metadata="`)+len(`resource_metadata="`):]
	metaURL = metaURL[:strings.Index(metaURL, `"`)]
	m := tb.do(t, "GET", strings.TrimPrefix(metaURL, tb.srv.URL), "", "", nil)
	var md struct {
		Resource string   `json:"resource"`
		Scopes   []string `json:"scopes_supported"`
		Methods  []string `json:"bearer_methods_supported"`
	}
	m.json(t, &md)
	if m.status != 200 || md.Resource != tb.srv.URL+"/mcp" || !slices.Contains(md.Scopes, "mcp") || !slices.Contains(md.Scopes, "house:write") || !slices.Equal(md.Methods, []string{"header"}) {
		t.Fatalf("metadata: %d %+v", m.status, md)
	}
	if m2 := tb.do(t, "GET", "/.well-known/oauth-protected-resource", "", "", nil); m2.status != 200 {
		t.Fatalf("root metadata: %d", m2.status)
	}

	noMCP := tb.token(t, "robot", "intent", "house:write")
	r = mcpPost(t, tb, noMCP, callLightOn)
	if r.status != 403 || r.code(t) != "insufficient_scope" || !strings.Contains(r.header.Get("WWW-Authenticate"), `scope="mcp"`) ||
		!strings.Contains(r.header.Get("WWW-Authenticate"), "resource_metadata=") {
		t.Fatalf("no mcp scope: %d %s %q", r.status, r.body, r.header.Get("WWW-Authenticate"))
	}
	narrow := tb.token(t, "agent", "mcp", "house:read")
	r = mcpPost(t, tb, narrow, callLightOn)
	if r.status != 403 || !strings.Contains(r.header.Get("WWW-Authenticate"), `error="insufficient_scope", scope="house:write"`) ||
		!strings.Contains(string(r.body), `"insufficient_scope"`) || !strings.Contains(string(r.body), `"id":7`) {
		t.Fatalf("lacking house:write: %d %s %q", r.status, r.body, r.header.Get("WWW-Authenticate"))
	}
	if tb.light.count() != 0 {
		t.Fatal("a refused call actuated")
	}
	recs, _ := tb.state.TailAudit(context.Background(), 1)
	if len(recs) != 1 || recs[0].Route != "mcp" || recs[0].Intent != "house.light.set" || recs[0].Outcome != store.OutcomeDenied || recs[0].Code != "insufficient_scope" {
		t.Fatalf("the step-up refusal is not audited: %+v", recs)
	}
	full := tb.token(t, "agent", "mcp", "house:write")
	r = tb.do(t, "POST", "/mcp?access_token="+full, "", "application/json", []byte(callLightOn), "Accept", "application/json, text/event-stream")
	if r.status != 401 || tb.light.count() != 0 {
		t.Fatalf("token in the URL: %d %s", r.status, r.body)
	}
	r = tb.do(t, "POST", "/mcp?access_token=x", full, "application/json", []byte(callLightOn), "Accept", "application/json, text/event-stream")
	if r.status != 400 || tb.light.count() != 0 {
		t.Fatalf("token in the URL beside a header: %d %s", r.status, r.body)
	}
	noFollow := tokenClient(full, nil)
	for _, p := range []string{"/mcp/", "//mcp", "/mcp/../mcp", "/./mcp", "/v1//intents"} {
		req, _ := http.NewRequest("POST", tb.srv.URL+p, strings.NewReader(callLightOn))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode/100 == 3 || resp.StatusCode == 200 {
			t.Fatalf("%s: %d %s", p, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	if tb.light.count() != 0 {
		t.Fatal("an unclean path actuated")
	}
	if r := tb.do(t, "GET", "/mcp", full, "", nil); r.status != 405 || r.header.Get("Allow") != "POST" {
		t.Fatalf("GET /mcp: %d", r.status)
	}
}

// TestMCPBadInput: malformed and oversized JSON-RPC get JSON-RPC errors and the server
// keeps serving; batches and notification storms are charged per message to the device's
// rate limit.
func TestMCPBadInput(t *testing.T) {
	tb := newTestBroker(t, func(c *Config, d *Deps) { c.Limits.RatePerMinute, c.Limits.Burst = 60, 8 })
	tok := tb.token(t, "agent", "mcp", "house:write")
	rpcErr := func(r reply) (int, string) {
		var e struct {
			Error struct {
				Code int `json:"code"`
				Data struct {
					Code string `json:"code"`
				} `json:"data"`
			} `json:"error"`
		}
		r.json(t, &e)
		return e.Error.Code, e.Error.Data.Code
	}
	r := mcpPost(t, tb, tok, `{"jsonrpc":"2.0","id":1,"method":`)
	if code, _ := rpcErr(r); r.status != 400 || code != -32700 {
		t.Fatalf("malformed: %d %s", r.status, r.body)
	}
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", 40<<10) + `"}}`
	r = mcpPost(t, tb, tok, big)
	if code, closed := rpcErr(r); r.status != 413 || code != -32600 || closed != "too_large" {
		t.Fatalf("oversized: %d %s", r.status, r.body)
	}
	if strings.Contains(string(r.body), "xxxx") {
		t.Fatal("an error echoes the request")
	}
	// A batch bigger than the burst is refused whole, and charges nothing.
	var batch []string
	for range 9 {
		batch = append(batch, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	r = mcpPost(t, tb, tok, "["+strings.Join(batch, ",")+"]")
	if _, closed := rpcErr(r); r.status != 429 || closed != "rate_limited" || r.header.Get("Retry-After") == "" {
		t.Fatalf("batch over the burst: %d %s", r.status, r.body)
	}
	// The server still serves, and a call still actuates once.
	r = mcpPost(t, tb, tok, callLightOn)
	if r.status != 200 || !strings.Contains(string(r.body), "kitchen light is on") || tb.light.count() != 1 {
		t.Fatalf("after bad input: %d %s", r.status, r.body)
	}
	// A storm of single notifications runs into the same limit within the burst.
	limited := false
	for i := 0; i < 12 && !limited; i++ {
		r = mcpPost(t, tb, tok, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		limited = r.status == 429
	}
	if !limited {
		t.Fatal("a notification storm was never limited")
	}
}

// TestMCPIdempotency: a call the client keyed (Idempotency-Key header, or _meta's
// idempotencyKey) and sends again answers from the store; the light is switched once; the
// key with another call is idempotency_conflict.
func TestMCPIdempotency(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "agent", "mcp", "house:write")
	a := mcpPost(t, tb, tok, callLightOn, "Idempotency-Key", "lamp-1")
	b := mcpPost(t, tb, tok, callLightOn, "Idempotency-Key", "lamp-1")
	if a.status != 200 || b.status != 200 || tb.light.count() != 1 || !strings.Contains(string(b.body), `"replayed":true`) {
		t.Fatalf("re-sent keyed request: %d %d, %d actuations: %s", a.status, b.status, tb.light.count(), b.body)
	}
	// The same key with another call is refused, never run or replayed.
	off := strings.Replace(callLightOn, `"on"`, `"off"`, 1)
	if r := mcpPost(t, tb, tok, off, "Idempotency-Key", "lamp-1"); r.status != 200 || tb.light.count() != 1 || !strings.Contains(string(r.body), "idempotency_conflict") {
		t.Fatalf("another call under a reused key: %d actuations: %s", tb.light.count(), r.body)
	}
	// Concurrent copies of one keyed request: one actuation, the others wait and replay it.
	tb.light.mu.Lock()
	tb.light.block = make(chan struct{})
	tb.light.mu.Unlock()
	var wg sync.WaitGroup
	replies := make([]reply, 4)
	for i := range replies {
		wg.Add(1)
		go func() { defer wg.Done(); replies[i] = mcpPost(t, tb, tok, callLightOn, "Idempotency-Key", "retry-me") }()
	}
	for deadline := time.Now().Add(5 * time.Second); tb.light.count() < 2 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // let the copies reach the idempotency wait
	close(tb.light.block)
	wg.Wait()
	for i, r := range replies {
		if r.status != 200 || !strings.Contains(string(r.body), "kitchen light is on") {
			t.Fatalf("copy %d: %d %s", i, r.status, r.body)
		}
	}
	if tb.light.count() != 2 {
		t.Fatalf("concurrent copies actuated %d times in all, want 2", tb.light.count())
	}
	tb.light.mu.Lock()
	tb.light.block = nil
	tb.light.mu.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := mcpConnect(t, ctx, tb.srv.URL+"/mcp", tokenClient(tok, nil), nil)
	for i := range 2 {
		res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: "house.light.set", Arguments: map[string]any{"room": "bedroom", "state": "on"},
			Meta: sdk.Meta{"idempotencyKey": "dinner-lights"}})
		if err != nil || res.IsError {
			t.Fatalf("keyed call %d: %v %+v", i, err, res)
		}
		if i == 1 && structured(t, res)["replayed"] != true {
			t.Fatalf("second keyed call was not replayed: %v", structured(t, res))
		}
	}
	if tb.light.count() != 3 {
		t.Fatalf("keyed calls actuated %d times in all, want 3", tb.light.count())
	}
}

// TestMCPTableReload: a reloaded table shows in tools/list on the next request, and a
// device that listed the old one hears notifications/tools/list_changed.
func TestMCPTableReload(t *testing.T) {
	var live atomic.Pointer[intents.Table]
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		live.Store(d.Table())
		d.Table = live.Load
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	changed := make(chan struct{}, 4)
	s := mcpConnect(t, ctx, tb.srv.URL+"/mcp", tokenClient(tb.token(t, "agent", "mcp", "house:read"), nil),
		&sdk.ClientOptions{ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} }})
	if slices.Contains(toolNames(t, ctx, s), "family.bedtime") {
		t.Fatal("the tool exists before the reload")
	}
	cfg := string(intents.DemoConfig()) + `
intents:
  - name: family.bedtime
    kind: read
    scope: house:read
    description: Says whether it is bedtime.
    patterns: ["is it bedtime"]
    examples: ["is it bedtime"]
    handler: {type: reply, text: "Time for bed!"}
`
	next, err := intents.Parse([]byte(cfg), "reload.yaml")
	if err != nil {
		t.Fatal(err)
	}
	live.Store(next)
	if _, err := s.CallTool(ctx, &sdk.CallToolParams{Name: "time.now", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("no notifications/tools/list_changed after the reload")
	}
	if !slices.Contains(toolNames(t, ctx, s), "family.bedtime") {
		t.Fatal("the reloaded table's tool is not listed")
	}
	res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: "family.bedtime", Arguments: map[string]any{}})
	if err != nil || res.IsError || toolText(res) != "Time for bed!" {
		t.Fatalf("new tool: %v %+v", err, res)
	}
}

// TestMCPResultsAreRedacted: a tool result passes the same redactor as a spoken reply, and
// carries only the allowlisted fields — a question's text never comes back or reaches the log.
func TestMCPResultsAreRedacted(t *testing.T) {
	leaky := intents.HandlerFunc(func(ctx context.Context, c intents.Call) (intents.Answer, error) {
		return intents.Answer{Reply: "Call 555-867-5309 or mail jane.doe@example.com, key sk-abcdefghijklmnopqrstuvwx."}, nil
	})
	tb := newTestBroker(t, func(c *Config, d *Deps) { d.Handlers["time"] = leaky; d.Handlers["agent"] = leaky })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := mcpConnect(t, ctx, tb.srv.URL+"/mcp", tokenClient(tb.token(t, "agent", "mcp", "ask"), nil), nil)
	for _, call := range []*sdk.CallToolParams{
		{Name: "time.now", Arguments: map[string]any{}},
		{Name: "general.ask", Arguments: map[string]any{"question": "what is jane's secret number"}},
	} {
		res, err := s.CallTool(ctx, call)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(res)
		// Each marker has a letter or a dash, so a random hex turn ID cannot hold it ("867"
		// alone turned up inside one).
		for _, leak := range []string{"555-867", "867-5309", "jane", "example.com", "sk-abc", "secret number"} {
			if strings.Contains(string(raw), leak) {
				t.Fatalf("%s result leaks %q: %s", call.Name, leak, raw)
			}
		}
	}
	recs, _ := tb.state.TailAudit(ctx, 2)
	for _, r := range recs {
		if r.Route != "mcp" || len(r.Redactions) == 0 || len(r.Args) != 0 {
			t.Fatalf("audit: %+v", r)
		}
	}
}
