package broker

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents/home"
)

// TestTypedCallWithoutTheIntentScopeNamesTheScope: a typed call whose token lacks the
// intent's scope is insufficient_scope, and the challenge names the scope to ask for.
func TestTypedCallWithoutTheIntentScopeNamesTheScope(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "intent", "house:read")
	r := tb.do(t, "POST", "/v1/intents/house.light.set", tok, "application/json", []byte(`{"room":"kitchen","state":"on"}`))
	if r.status != http.StatusForbidden || r.code(t) != api.CodeInsufficientScope {
		t.Fatalf("status %d code %q: %s", r.status, r.code(t), r.body)
	}
	if got := r.header.Get("WWW-Authenticate"); !strings.Contains(got, `error="insufficient_scope", scope="house:write"`) {
		t.Fatalf("WWW-Authenticate %q does not name house:write", got)
	}
	if tb.light.count() != 0 {
		t.Fatal("the handler ran")
	}
}

// TestBearerSchemeIsCaseInsensitive: RFC 7235 auth schemes are case-insensitive.
func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "house:read")
	for _, scheme := range []string{"Bearer", "bearer", "BEARER", "bEaReR"} {
		req, _ := http.NewRequest("GET", tb.srv.URL+"/v1/intents", nil)
		req.Header.Set("Authorization", scheme+" "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("scheme %q: status %d", scheme, resp.StatusCode)
		}
	}
	for _, h := range []string{"Basic " + tok, tok, "Bearer", "Bearer "} {
		req, _ := http.NewRequest("GET", tb.srv.URL+"/v1/intents", nil)
		req.Header.Set("Authorization", h)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("header %q: status %d, want 401", h, resp.StatusCode)
		}
	}
}

// TestClarificationNeedsTheIntentScope: a token that may not switch lights does not hear the
// home's room list, and one that may not read calendars does not hear who lives there.
func TestClarificationNeedsTheIntentScope(t *testing.T) {
	tb := newTestBroker(t)
	rooms := []string{"kitchen", "bedroom", "office", "kids room"}
	people := []string{"mom", "dad"}
	cases := []struct {
		sentence string
		allowed  string
		leaks    []string
	}{
		{"turn on the light", "house:write", rooms},
		{"turn on the light in the garage", "house:write", rooms},
		{"is grandma busy", "calendar:read", people},
	}
	for _, c := range cases {
		t.Run(c.sentence, func(t *testing.T) {
			full := tb.say(t, tb.token(t, "office-pc", "text", c.allowed), c.sentence).turn(t)
			if full.Intent != "clarify" {
				t.Fatalf("with the scope the sentence does not clarify: %+v", full)
			}
			t.Logf("with %s: %s", c.allowed, full.Reply)
			tr := tb.say(t, tb.token(t, "office-pc", "text", "house:read", "ask"), c.sentence).turn(t)
			if tr.Outcome != store.OutcomeDenied || tr.FollowUp {
				t.Fatalf("without %s: %+v", c.allowed, tr)
			}
			for _, w := range c.leaks {
				if strings.Contains(strings.ToLower(tr.Reply), w) {
					t.Errorf("without %s the reply names %q: %s (with it: %s)", c.allowed, w, tr.Reply, full.Reply)
				}
			}
		})
	}
}

// TestErrorBodiesNeverEchoRequestBytes: a refused request hears what is wrong, never its own
// field names, argument names or chunk ids read back (security rule 10).
func TestErrorBodiesNeverEchoRequestBytes(t *testing.T) {
	tb := newTestBroker(t)
	all := tb.token(t, "robot", "turn", "intent", "text", "house:read", "house:write")
	const secret = "hunter2diary"
	wav := speechWAV(t)
	badChunk := append([]byte{}, wav[:12]...)
	badChunk = append(badChunk, []byte("h2d!\xff\xff\xff\x00")...)
	cases := []struct {
		name, path, ctype string
		body              []byte
	}{
		{"unknown JSON field", "/v1/utterances", "application/json", []byte(`{"text":"hi","` + secret + `":true}`)},
		{"unknown argument name", "/v1/intents/house.light.set", "application/json", []byte(`{"room":"kitchen","state":"on","` + secret + `":"x"}`)},
		{"argument of the wrong type", "/v1/intents/house.light.set", "application/json", []byte(`{"room":"kitchen","` + secret + `":{"a":1}}`)},
		{"value outside the vocabulary", "/v1/intents/house.light.set", "application/json", []byte(`{"room":"` + secret + `","state":"on"}`)},
		{"chunk id", "/v1/turns", "audio/wav", badChunk},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := tb.do(t, "POST", c.path, all, c.ctype, c.body)
			if r.status < 400 {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			for _, leak := range []string{secret, "h2d!"} {
				if strings.Contains(string(r.body), leak) {
					t.Fatalf("the error body echoes %q: %s", leak, r.body)
				}
			}
			var e api.ErrorBody
			r.json(t, &e)
			if e.Error.Message == "" {
				t.Fatal("the error names no problem")
			}
		})
	}
}

// TestACWriteDoesExactlyWhatItsArgumentsSay: "off" with a set point and a write with neither
// are refused and switch nothing; a set point alone turns the AC on and the audit says so.
func TestACWriteDoesExactlyWhatItsArgumentsSay(t *testing.T) {
	house := home.NewMemory()
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		d.Handlers["home.ac"] = home.Handler{Backend: house, Kind: "ac"}
	})
	tok := tb.token(t, "robot", "intent", "house:write")
	bedroom := home.Device{Room: "bedroom", Kind: "ac"}
	ctx := context.Background()
	for _, body := range []string{`{"room":"bedroom","state":"off","temperature":22}`, `{"room":"bedroom"}`} {
		r := tb.do(t, "POST", "/v1/intents/house.ac.set", tok, "application/json", []byte(body))
		if r.status != http.StatusBadRequest || r.code(t) != api.CodeInvalidArgs {
			t.Fatalf("%s: status %d %s", body, r.status, r.body)
		}
		if st, _ := house.Get(ctx, bedroom); st.On || house.Sets(bedroom) != 0 {
			t.Fatalf("%s switched the AC: %+v", body, st)
		}
	}
	r := tb.do(t, "POST", "/v1/intents/house.ac.set", tok, "application/json", []byte(`{"room":"bedroom","temperature":22}`))
	if tr := r.turn(t); r.status != 200 || tr.Args["state"] != "on" || tr.Args["temperature"] != "22" {
		t.Fatalf("set point: %d %s", r.status, r.body)
	}
	if st, _ := house.Get(ctx, bedroom); !st.On || st.Temperature != 22 {
		t.Fatalf("set point: the AC is %+v", st)
	}
	r = tb.do(t, "POST", "/v1/intents/house.ac.set", tok, "application/json", []byte(`{"room":"bedroom","state":"off"}`))
	if st, _ := house.Get(ctx, bedroom); r.status != 200 || st.On {
		t.Fatalf("off: %d %s, AC %+v", r.status, r.body, st)
	}
	recs, err := tb.state.TailAudit(ctx, 6)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, rec := range recs {
		if rec.Outcome == store.OutcomePending {
			continue // the audit intent written before each actuation; its outcome follows
		}
		got = append(got, rec.Outcome+":"+rec.Args["state"]+"/"+rec.Args["temperature"])
	}
	want := "[invalid:/ invalid:/ ok:on/22 ok:off/]"
	if fmt.Sprint(got) != want {
		t.Fatalf("audit says %v, want %s (oldest first)", got, want)
	}
}

func (f *fakeIdentifier) set(id, name string) {
	f.mu.Lock()
	f.node = Node{ID: id, Name: name}
	f.mu.Unlock()
}

func (f *fakeIdentifier) WhoIs(ctx context.Context, remoteAddr string) (Node, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.node, nil
}

// TestNodeBindingFollowsTheStableNodeID: a token bound to a node by name is pinned to that
// node's stable ID on first use; it keeps working when the owner renames the node, and a
// different node renamed to the bound name is refused. The audit shows the name.
func TestNodeBindingFollowsTheStableNodeID(t *testing.T) {
	who := &fakeIdentifier{}
	tb := newTestBroker(t, func(c *Config, d *Deps) { d.Identifier = who })
	ctx := context.Background()
	tok, _, err := tb.state.CreateToken(ctx, "robot", []string{"house:read"}, "reachy-living-room")
	if err != nil {
		t.Fatal(err)
	}
	list := func() int { return tb.do(t, "GET", "/v1/intents", tok, "", nil).status }
	who.set("nROBOT1CNTRL", "reachy-living-room")
	if s := list(); s != 200 {
		t.Fatalf("from its own node: %d", s)
	}
	who.set("nROBOT1CNTRL", "renamed-by-owner")
	if s := list(); s != 200 {
		t.Fatalf("from its own node after a rename: %d", s)
	}
	who.set("nTHIEF9CNTRL", "reachy-living-room")
	if s := list(); s != 401 {
		t.Fatalf("from another node renamed to the bound name: %d", s)
	}
	infos, _ := tb.state.ListTokens(ctx, "robot")
	if len(infos) != 1 || infos[0].NodeID != "nROBOT1CNTRL" || infos[0].Node != "reachy-living-room" {
		t.Fatalf("token info %+v", infos)
	}

	// A token may also be bound by the node's ID directly.
	byID, _, _ := tb.state.CreateToken(ctx, "robot", []string{"text"}, "nROBOT1CNTRL")
	who.set("nROBOT1CNTRL", "whatever")
	if r := tb.say(t, byID, "what time is it"); r.status != 200 {
		t.Fatalf("bound by ID: %d %s", r.status, r.body)
	}
	recs, _ := tb.state.TailAudit(ctx, 1)
	if len(recs) != 1 || recs[0].Node != "whatever" {
		t.Fatalf("the audit does not show the node's name: %+v", recs)
	}
}

// TestNodeBoundTokenNeedsATailnetIdentity: on a listener without tailnet identity (loopback
// dev mode) a node-bound token is refused instead of accepted unchecked; an unbound one works.
func TestNodeBoundTokenNeedsATailnetIdentity(t *testing.T) {
	tb := newTestBroker(t) // no Identifier: loopback dev mode
	bound, _, err := tb.state.CreateToken(context.Background(), "robot", []string{"house:read"}, "reachy-living-room")
	if err != nil {
		t.Fatal(err)
	}
	r := tb.do(t, "GET", "/v1/intents", bound, "", nil)
	if r.status != 401 || !strings.Contains(string(r.body), "no tailnet identity") {
		t.Fatalf("node-bound token in dev mode: %d %s", r.status, r.body)
	}
	if r := tb.do(t, "GET", "/v1/intents", tb.token(t, "robot", "house:read"), "", nil); r.status != 200 {
		t.Fatalf("unbound token in dev mode: %d", r.status)
	}
}

// TestFailedAuthenticationsAreRateLimitedPerAddress: after a burst of bad tokens an address
// answers rate_limited (with Retry-After) before any token is checked — a good token from it
// too — while another address is not affected.
func TestFailedAuthenticationsAreRateLimitedPerAddress(t *testing.T) {
	tb := newTestBroker(t, func(c *Config, d *Deps) { c.Limits.AuthFailuresPerMinute = 3 })
	good := tb.token(t, "robot", "house:read")
	h := tb.b.Handler()
	call := func(addr, token string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "http://127.0.0.1/v1/intents", nil)
		req.RemoteAddr = addr
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	guess := "rbk_0123456789abcdef_" + strings.Repeat("A", 43)
	for i := range 3 {
		if rec := call("100.64.0.9:40000", guess); rec.Code != 401 {
			t.Fatalf("guess %d: %d", i, rec.Code)
		}
	}
	rec := call("100.64.0.9:40001", guess)
	if rec.Code != 429 || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), api.CodeRateLimited) {
		t.Fatalf("fourth guess: %d %q %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	if rec := call("100.64.0.9:40002", good); rec.Code != 429 {
		t.Fatalf("a good token from the blocked address is checked: %d", rec.Code)
	}
	if rec := call("100.64.0.10:40000", good); rec.Code != 200 {
		t.Fatalf("another address: %d", rec.Code)
	}
}

// TestIntentListIsRateLimitedPerDevice: GET /v1/intents has a per-device limit of its own.
func TestIntentListIsRateLimitedPerDevice(t *testing.T) {
	tb := newTestBroker(t, func(c *Config, d *Deps) { c.Limits.RatePerMinute, c.Limits.Burst = 1, 3 })
	robot := tb.token(t, "robot", "house:read", "text")
	for i := range 3 {
		if r := tb.do(t, "GET", "/v1/intents", robot, "", nil); r.status != 200 {
			t.Fatalf("list %d: %d", i, r.status)
		}
	}
	r := tb.do(t, "GET", "/v1/intents", robot, "", nil)
	if r.status != 429 || r.code(t) != api.CodeRateLimited || r.header.Get("Retry-After") == "" {
		t.Fatalf("fourth list: %d %s", r.status, r.body)
	}
	if r := tb.do(t, "GET", "/v1/intents", tb.token(t, "bedside", "house:read"), "", nil); r.status != 200 {
		t.Fatalf("another device: %d", r.status)
	}
	if r := tb.say(t, robot, "what time is it"); r.status != 200 {
		t.Fatalf("listing used up the device's turns: %d", r.status)
	}
}

// fakeIdentifier answers WhoIs with whatever node the test says is calling.
type fakeIdentifier struct {
	mu   sync.Mutex
	node Node
}
