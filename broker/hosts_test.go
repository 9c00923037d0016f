package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// hostDo sends one request to srvURL with its Host header set to host.
func hostDo(t testing.TB, srvURL, method, path, host string, body []byte, hdr ...string) reply {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, srvURL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, header: resp.Header, body: b}
}

// devConsoleRig is the console in loopback dev mode (--dev --dev-owner): every loopback
// connection is the owner, which is what a rebinding page reaches on the owner's machine.
func devConsoleRig(t testing.TB) *consoleRig {
	return newConsoleRig(t, func(c *Config, d *Deps) {
		c.Teleport.Owners = nil
		d.People = nil
		d.DevOwner = dad.Login
	})
}

// TestForeignHostRefusedOnLoopback: a DNS-rebinding page — its own name resolved to the
// loopback listener — is refused with unknown_host on every route a page could use (the
// console page and its token, its calls, the API, MCP and its metadata, the robot link),
// even holding a valid page token and a device token; nothing reaches the robot or the
// audit log. The broker's loopback names, in any spelling, still work.
func TestForeignHostRefusedOnLoopback(t *testing.T) {
	r := devConsoleRig(t)
	port := strings.TrimPrefix(r.srv.URL, "http://127.0.0.1")
	tok := r.page(t) // a real page token, as if the attacker had one
	dev := r.token(t, "laptop", "text", "intent", "house:write", "mcp")
	callsBefore := len(r.hub.fake.Calls())
	auditBefore, _ := r.state.TailAudit(context.Background(), 100)

	for _, host := range []string{"evil.example" + port, "evil.example", "localhost.evil.example" + port,
		"127.0.0.1.nip.io" + port, "evil.example.:80", "[fd7a:115c:a1e0::99]" + port, "10.0.0.1" + port} {
		origin := "http://" + host
		for _, c := range []struct {
			method, path, ctype string
			body                []byte
			hdr                 []string
		}{
			{"GET", "/", "", nil, nil},
			{"GET", "/console/app.js", "", nil, nil},
			{"GET", "/console/api/state", "", nil, nil},
			{"POST", "/console/api/robots/robot/join", "application/json", []byte(`{}`),
				[]string{"Origin", origin, "Sec-Fetch-Site", "same-origin", "X-Console-Token", tok}},
			{"POST", "/console/api/robots/robot/say", "application/json", []byte(`{"text":"open the door"}`),
				[]string{"Origin", origin, "Sec-Fetch-Site", "same-origin", "X-Console-Token", tok}},
			{"GET", "/v1/intents", "", nil, []string{"Authorization", "Bearer " + dev}},
			{"POST", "/v1/intents/house.light.set", "application/json", []byte(`{"room":"kitchen","state":"on"}`),
				[]string{"Authorization", "Bearer " + dev}},
			{"POST", "/v1/utterances", "application/json", []byte(`{"text":"turn on the kitchen light"}`),
				[]string{"Authorization", "Bearer " + dev}},
			{"POST", "/mcp", "application/json", []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`),
				[]string{"Authorization", "Bearer " + dev, "Accept", "application/json, text/event-stream"}},
			{"GET", "/.well-known/oauth-protected-resource/mcp", "", nil, nil},
			{"GET", "/v1/link", "", nil, []string{"Authorization", "Bearer " + dev}},
			{"GET", "/no/such/route", "", nil, nil},
		} {
			hdr := c.hdr
			if c.ctype != "" {
				hdr = append([]string{"Content-Type", c.ctype}, hdr...)
			}
			resp := hostDo(t, r.srv.URL, c.method, c.path, host, c.body, hdr...)
			if resp.status != http.StatusMisdirectedRequest || resp.code(t) != api.CodeUnknownHost {
				t.Errorf("Host %s, %s %s: %d %.200s", host, c.method, c.path, resp.status, resp.body)
			}
			if bytes.Contains(resp.body, []byte("console-token")) || bytes.Contains(resp.body, []byte("evil")) {
				t.Errorf("Host %s, %s %s: the refusal carries a page token or echoes the host: %s", host, c.method, c.path, resp.body)
			}
		}
	}
	if got := len(r.hub.fake.Calls()); got != callsBefore || r.hub.hub.SessionActive() {
		t.Fatalf("a request for a foreign host reached the robot (%d calls, session %v)", got-callsBefore, r.hub.hub.SessionActive())
	}
	if r.light.count() != 0 {
		t.Fatal("a request for a foreign host switched a light")
	}
	if after, _ := r.state.TailAudit(context.Background(), 100); len(after) != len(auditBefore) {
		t.Fatalf("a request for a foreign host was audited as an action: %d records", len(after)-len(auditBefore))
	}

	// The broker's own loopback names, in every spelling a browser or client sends.
	for _, host := range []string{"127.0.0.1" + port, "localhost" + port, "LocalHost." + port, "[::1]" + port, "localhost"} {
		if resp := hostDo(t, r.srv.URL, "GET", "/", host, nil); resp.status != 200 || !tokenMeta.Match(resp.body) {
			t.Errorf("Host %s: %d %.200s", host, resp.status, resp.body)
		}
	}
	resp := hostDo(t, r.srv.URL, "POST", "/console/api/robots/robot/join", "LOCALHOST."+port, []byte(`{}`),
		"Content-Type", "application/json", "Origin", "http://localhost."+port, "Sec-Fetch-Site", "same-origin", "X-Console-Token", tok)
	if resp.status != 200 || !r.hub.hub.SessionActive() {
		t.Fatalf("join at the loopback name: %d %s", resp.status, resp.body)
	}
}

// TestAdminRefusesForeignHost: /healthz and /metrics answer to loopback names only.
func TestAdminRefusesForeignHost(t *testing.T) {
	tb := newTestBroker(t)
	srv := httptest.NewServer(tb.b.AdminHandler())
	t.Cleanup(srv.Close)
	port := strings.TrimPrefix(srv.URL, "http://127.0.0.1")
	for _, path := range []string{"/healthz", "/metrics"} {
		for _, host := range []string{"evil.example" + port, "reachy-broker.tail-scale.ts.net" + port} {
			if resp := hostDo(t, srv.URL, "GET", path, host, nil); resp.status != http.StatusMisdirectedRequest || resp.code(t) != api.CodeUnknownHost {
				t.Errorf("Host %s, %s: %d %.200s", host, path, resp.status, resp.body)
			}
		}
		for _, host := range []string{"127.0.0.1" + port, "localhost" + port, "[::1]" + port} {
			if resp := hostDo(t, srv.URL, "GET", path, host, nil); resp.status != 200 {
				t.Errorf("Host %s, %s: %d %.200s", host, path, resp.status, resp.body)
			}
		}
	}
}

// TestMCPMetadataNamesOnlyTheBroker: the RFC 9728 document and the 401 challenge that
// points at it carry the broker's own name (canonical: lower case, no trailing dot) —
// never a Host a request made up, which is refused.
func TestMCPMetadataNamesOnlyTheBroker(t *testing.T) {
	tb := newTestBroker(t)
	port := strings.TrimPrefix(tb.srv.URL, "http://127.0.0.1")
	for _, path := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"} {
		resp := hostDo(t, tb.srv.URL, "GET", path, "attacker.example"+port, nil)
		if resp.status != http.StatusMisdirectedRequest || bytes.Contains(resp.body, []byte("attacker")) {
			t.Fatalf("foreign Host, %s: %d %s", path, resp.status, resp.body)
		}
		resp = hostDo(t, tb.srv.URL, "GET", path, "LocalHost."+port, nil)
		var md struct {
			Resource string `json:"resource"`
		}
		resp.json(t, &md)
		if resp.status != 200 || md.Resource != "http://localhost"+port+"/mcp" {
			t.Fatalf("own Host, %s: %d %s", path, resp.status, resp.body)
		}
	}
	resp := hostDo(t, tb.srv.URL, "POST", "/mcp", "attacker.example"+port, []byte(`{}`), "Content-Type", "application/json")
	if resp.status != http.StatusMisdirectedRequest || strings.Contains(resp.header.Get("WWW-Authenticate"), "attacker") {
		t.Fatalf("challenge for a foreign Host: %d %q", resp.status, resp.header.Get("WWW-Authenticate"))
	}
	resp = hostDo(t, tb.srv.URL, "POST", "/mcp", "127.0.0.1"+port, []byte(`{}`), "Content-Type", "application/json")
	u, _ := url.Parse(tb.srv.URL)
	if resp.status != 401 || !strings.Contains(resp.header.Get("WWW-Authenticate"), `resource_metadata="http://`+u.Host+`/.well-known/oauth-protected-resource/mcp"`) {
		t.Fatalf("challenge: %d %q", resp.status, resp.header.Get("WWW-Authenticate"))
	}
}

// TestUnknownHostIsAClosedCode: the refusal is a documented closed code with its status,
// counted like any other refusal.
func TestUnknownHostIsAClosedCode(t *testing.T) {
	if codeStatus[api.CodeUnknownHost] != http.StatusMisdirectedRequest {
		t.Fatalf("unknown_host maps to %d", codeStatus[api.CodeUnknownHost])
	}
	tb := newTestBroker(t)
	hostDo(t, tb.srv.URL, "GET", "/v1/intents", "evil.example", nil)
	resp := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/metrics", nil)
	req.Host = "127.0.0.1"
	tb.b.AdminHandler().ServeHTTP(resp, req)
	if !strings.Contains(resp.Body.String(), `code="unknown_host"`) {
		t.Fatalf("the refusal is not counted:\n%s", grepLines(resp.Body.String(), "reachy_refusals"))
	}
	var e api.ErrorBody
	if err := json.Unmarshal(hostDo(t, tb.srv.URL, "GET", "/", "evil.example", nil).body, &e); err != nil || e.Error.Code != api.CodeUnknownHost {
		t.Fatalf("%v %+v", err, e)
	}
}

// TestConsoleRefusesARebindingPageInBrowser: real Chromium with evil.example resolving to
// the broker's loopback address (what a DNS-rebinding page achieves) loads nothing at that
// name — the page and every call its script makes answer unknown_host and the robot shows
// no presence — while the same browser at the loopback name gets the console.
func TestConsoleRefusesARebindingPageInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	r := devConsoleRig(t)
	port := strings.TrimPrefix(r.srv.URL, "http://127.0.0.1")
	ctx := browser(t, fakeMic(t), chromedp.Flag("host-resolver-rules", "MAP evil.example 127.0.0.1"))
	evil := "http://evil.example" + port
	do(t, ctx, "load at the rebound name", chromedp.Navigate(evil+"/"))
	body, err := chromedp.Run(ctx, chromedp.Text("body"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, api.CodeUnknownHost) || strings.Contains(body, "console-token") {
		t.Fatalf("the console loaded at a rebound name: %.300s", body)
	}
	if href, _ := chromedp.Run(ctx, chromedp.Evaluate[string]("location.href")); !strings.HasPrefix(href, evil) {
		t.Fatalf("the page is at %s, not the rebound name", href)
	}
	// What the rebinding page's script would do next: read a page token, join, listen.
	statuses, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`Promise.all([
		fetch("/").then(r => r.status),
		fetch("/console/api/state").then(r => r.status),
		fetch("/console/api/robots/robot/join", {method: "POST", headers: {"Content-Type": "application/json", "X-Console-Token": "x"}, body: "{}"}).then(r => r.status),
		fetch("/v1/intents").then(r => r.status),
	])`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range statuses {
		if s != http.StatusMisdirectedRequest {
			t.Errorf("call %d from the rebound page: %d", i, s)
		}
	}
	if r.hub.hub.SessionActive() || len(statuses) != 4 {
		t.Fatalf("the rebound page reached the robot (statuses %v)", statuses)
	}
	// The loopback name still works, in the same browser.
	do(t, ctx, "load at the loopback name", chromedp.Navigate(r.srv.URL+"/"), chromedp.WaitEnabled("#join-robot"))
	do(t, ctx, "join", chromedp.Click("#join-robot"))
	waitJS(t, ctx, "the session controls", `!document.querySelector("#session-robot").hidden`)
	if !r.hub.hub.SessionActive() {
		t.Fatal("joined at the loopback name, but the robot shows no presence")
	}
}
