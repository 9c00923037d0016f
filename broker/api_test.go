package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/speech"
)

func TestAuthenticationAndScopeMatrix(t *testing.T) {
	tb := newTestBroker(t)
	all := tb.token(t, "robot", "turn", "intent", "text", "house:read", "house:write", "calendar:read", "ask", "robot")
	noTurn := tb.token(t, "robot", "intent", "text", "house:read")
	readOnly := tb.token(t, "robot", "text", "intent", "house:read")
	tb.stt.say("hey reachy what time is it")

	cases := []struct {
		name, method, path, token, ctype string
		body                             []byte
		status                           int
		code                             string
	}{
		{"no token", "POST", "/v1/turns", "", "audio/wav", speechWAV(t), 401, api.CodeUnauthenticated},
		{"garbage token", "POST", "/v1/turns", "hello", "audio/wav", speechWAV(t), 401, api.CodeUnauthenticated},
		{"well-formed unknown token", "POST", "/v1/turns", "rbk_0123456789abcdef_" + strings.Repeat("A", 43), "audio/wav", speechWAV(t), 401, api.CodeUnauthenticated},
		{"token of the wrong shape", "GET", "/v1/intents", "rbk_" + strings.Repeat("z", 200), "", nil, 401, api.CodeUnauthenticated},
		{"turn without turn scope", "POST", "/v1/turns", noTurn, "audio/wav", speechWAV(t), 403, api.CodeInsufficientScope},
		{"utterance without text scope", "POST", "/v1/utterances", tb.token(t, "robot", "turn"), "application/json", []byte(`{"text":"hi"}`), 403, api.CodeInsufficientScope},
		{"typed call without intent scope", "POST", "/v1/intents/time.now", tb.token(t, "robot", "turn"), "application/json", []byte(`{}`), 403, api.CodeInsufficientScope},
		{"unknown intent", "POST", "/v1/intents/door.unlock", all, "application/json", []byte(`{}`), 404, api.CodeUnknownIntent},
		{"clarify is not callable", "POST", "/v1/intents/clarify", all, "application/json", []byte(`{}`), 404, api.CodeUnknownIntent},
		{"unclear is not callable", "POST", "/v1/intents/unclear", all, "application/json", []byte(`{"topic":"light"}`), 404, api.CodeUnknownIntent},
		{"intent the token may not call", "POST", "/v1/intents/house.light.set", readOnly, "application/json", []byte(`{"room":"kitchen","state":"on"}`), 403, api.CodeInsufficientScope},
		{"room outside the vocabulary", "POST", "/v1/intents/house.light.set", all, "application/json", []byte(`{"room":"garage","state":"on"}`), 400, api.CodeInvalidArgs},
		{"state outside the vocabulary", "POST", "/v1/intents/house.light.set", all, "application/json", []byte(`{"room":"kitchen","state":"toggle"}`), 400, api.CodeInvalidArgs},
		{"unknown argument", "POST", "/v1/intents/house.light.set", all, "application/json", []byte(`{"room":"kitchen","state":"on","colour":"red"}`), 400, api.CodeInvalidArgs},
		{"temperature out of range", "POST", "/v1/intents/house.ac.set", all, "application/json", []byte(`{"room":"bedroom","temperature":45}`), 400, api.CodeInvalidArgs},
		{"AC in a room without one", "POST", "/v1/intents/house.ac.set", all, "application/json", []byte(`{"room":"kitchen","state":"on"}`), 400, api.CodeInvalidArgs},
		{"unknown JSON field", "POST", "/v1/utterances", all, "application/json", []byte(`{"text":"hi","admin":true}`), 400, api.CodeInvalidArgs},
		{"malformed JSON", "POST", "/v1/utterances", all, "application/json", []byte(`{"text":`), 400, api.CodeInvalidArgs},
		{"JSON array", "POST", "/v1/intents/time.now", all, "application/json", []byte(`[1,2]`), 400, api.CodeInvalidArgs},
		{"wrong JSON content type", "POST", "/v1/utterances", all, "text/plain", []byte(`{"text":"hi"}`), 415, api.CodeUnsupportedMediaType},
		{"wrong audio content type", "POST", "/v1/turns", all, "audio/mpeg", speechWAV(t), 415, api.CodeUnsupportedMediaType},
		{"malformed audio", "POST", "/v1/turns", all, "audio/wav", []byte("RIFF....WAVEjunkjunkjunk"), 400, api.CodeInvalidAudio},
		{"compressed audio", "POST", "/v1/turns", all, "audio/wav", []byte("OggS\x00\x02 and more"), 415, api.CodeUnsupportedMediaType},
		{"no such route", "GET", "/v1/secrets", all, "", nil, 404, api.CodeNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := tb.light.count()
			r := tb.do(t, c.method, c.path, c.token, c.ctype, c.body)
			if r.status != c.status || r.code(t) != c.code {
				t.Fatalf("status %d code %q, want %d %q: %s", r.status, r.code(t), c.status, c.code, r.body)
			}
			if tb.light.count() != before {
				t.Fatal("a refused request reached a handler")
			}
			if c.status == 401 && !strings.HasPrefix(r.header.Get("WWW-Authenticate"), `Bearer realm=`) {
				t.Fatalf("401 without WWW-Authenticate: %q", r.header.Get("WWW-Authenticate"))
			}
			if c.code == api.CodeInsufficientScope && !strings.Contains(r.header.Get("WWW-Authenticate"), `error="insufficient_scope", scope="`) {
				t.Fatalf("403 insufficient_scope header: %q", r.header.Get("WWW-Authenticate"))
			}
			if c.token != "" && bytes.Contains(r.body, []byte(c.token)) {
				t.Fatal("the error body echoes the token")
			}
		})
	}
}

func TestIntentListIsPerCaller(t *testing.T) {
	tb := newTestBroker(t)
	names := func(token string) map[string]bool {
		var v struct{ Intents []api.IntentView }
		tb.do(t, "GET", "/v1/intents", token, "", nil).json(t, &v)
		m := map[string]bool{}
		for _, in := range v.Intents {
			m[in.Name] = true
		}
		return m
	}
	robot := names(tb.token(t, "robot", "turn", "house:read"))
	if robot["house.light.set"] || robot["calendar.status"] || robot["general.ask"] || !robot["house.light.get"] || !robot["time.now"] {
		t.Fatalf("read-only robot sees %v", robot)
	}
	full := names(tb.token(t, "robot", "turn", "house:read", "house:write", "calendar:read", "ask", "robot"))
	for _, n := range []string{"house.light.set", "calendar.status", "general.ask", "robot.expression"} {
		if !full[n] {
			t.Errorf("full token does not see %s", n)
		}
	}
	if full["clarify"] || full["unclear"] {
		t.Error("an internal intent (clarify, unclear) is listed")
	}
	var v struct{ Intents []api.IntentView }
	tb.do(t, "GET", "/v1/intents", tb.token(t, "robot", "house:write"), "", nil).json(t, &v)
	for _, in := range v.Intents {
		if in.Name == "house.light.set" {
			if fmt.Sprint(in.Args[0].Allowed) != "[kitchen living room bedroom office kids room here all]" {
				t.Fatalf("allowed rooms: %v", in.Args[0].Allowed)
			}
			return
		}
	}
	t.Fatal("house.light.set missing for a house:write token")
}

func TestTurnPipeline(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "turn", "house:write", "house:read")
	tb.stt.say("Hey Reachy, turn on the kitchen light.")
	r := tb.turnAudio(t, tok)
	tr := r.turn(t)
	if r.status != 200 || tr.Intent != "house.light.set" || tr.Outcome != store.OutcomeOK || tr.Args["room"] != "kitchen" || tb.light.count() != 1 {
		t.Fatalf("%d %+v (actuations %d)", r.status, tr, tb.light.count())
	}
	if tr.Reply != "Okay, the kitchen light is on." || tr.TurnID == "" || tr.Kind != "write" {
		t.Fatalf("%+v", tr)
	}
	for _, stage := range []string{"decode", "vad", "stt", "route", "handler", "redact", "total"} {
		if _, ok := tr.LatencyMS[stage]; !ok {
			t.Errorf("latency_ms lacks %s: %v", stage, tr.LatencyMS)
		}
	}
	// Without the wake phrase the robot was not spoken to: nothing happens.
	tb.stt.say("turn off the kitchen light")
	tr = tb.turnAudio(t, tok).turn(t)
	if tr.Intent != intents.IntentNone || tr.Outcome != store.OutcomeIgnored || tb.light.count() != 1 {
		t.Fatalf("no wake phrase: %+v", tr)
	}
	// A question never actuates.
	tb.stt.say("hey reachy, should I turn on the kitchen light?")
	tr = tb.turnAudio(t, tok).turn(t)
	// (It is a house sentence, so it is answered by the read, which asks the light.)
	if tr.Kind == "write" || tr.Intent != "house.light.get" || tb.light.count() != 2 {
		t.Fatalf("question actuated: %+v", tr)
	}
}

func TestClarificationAndFollowUp(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "turn", "house:write")
	tb.stt.say("hey jeeves turn on the light")
	tr := tb.turnAudio(t, tok).turn(t)
	if tr.Intent != "clarify" || !tr.FollowUp || !strings.HasPrefix(tr.Reply, "Which room?") {
		t.Fatalf("%+v", tr)
	}
	// The answer needs no wake phrase: the follow-up window is open.
	tb.stt.say("the bedroom please")
	tr = tb.turnAudio(t, tok).turn(t)
	if tr.Intent != "house.light.set" || tr.Args["room"] != "bedroom" || tr.Args["state"] != "on" || tb.light.count() != 1 {
		t.Fatalf("completion: %+v", tr)
	}
	// The pending request is used once.
	tb.stt.say("the kitchen")
	if tr := tb.turnAudio(t, tok).turn(t); tr.Intent == "house.light.set" {
		t.Fatalf("pending request completed twice: %+v", tr)
	}
}

func TestHereIsTheDevicesRoom(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "bedside", "text", "house:write")
	tr := tb.say(t, tok, "turn off the light in here").turn(t)
	if tr.Args["room"] != "bedroom" {
		t.Fatalf("%+v", tr)
	}
}

func TestDeniedIntentIsSpokenAndAudited(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "text", "house:read")
	r := tb.say(t, tok, "turn on the kitchen light")
	tr := r.turn(t)
	if r.status != 200 || tr.Outcome != store.OutcomeDenied || tb.light.count() != 0 || tr.Reply != replyDenied {
		t.Fatalf("%d %+v", r.status, tr)
	}
	recs, _ := tb.state.TailAudit(context.Background(), 1)
	if len(recs) != 1 || recs[0].Outcome != store.OutcomeDenied || recs[0].Code != api.CodeIntentDenied {
		t.Fatalf("audit %+v", recs)
	}
}

func TestNotYetBuiltHandlersSaySo(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "text", "calendar:read")
	tr := tb.say(t, tok, "is dad busy").turn(t)
	if tr.Outcome != store.OutcomeFailed || tr.Reply != replyNotYet {
		t.Fatalf("a handler that does not exist yet must not fake success: %+v", tr)
	}
}

func TestOversizedBodies(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "turn", "text")
	big := make([]byte, 3<<20)
	if r := tb.do(t, "POST", "/v1/turns", tok, "audio/wav", big); r.status != 413 || r.code(t) != api.CodeTooLarge {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if r := tb.do(t, "POST", "/v1/utterances", tok, "application/json", append([]byte(`{"text":"`), bytes.Repeat([]byte("a"), 20<<10)...)); r.status != 413 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	// A declared length over the cap is refused before the body is read: the client has not
	// sent it yet and gets its answer anyway.
	conn, err := net.Dial("tcp", strings.TrimPrefix(tb.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/turns HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Type: audio/wav\r\nContent-Length: %d\r\n\r\n", tok, 50<<20)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 64)
	n, _ := conn.Read(buf)
	if !strings.Contains(string(buf[:n]), "413") {
		t.Fatalf("declared 50 MiB: got %q", buf[:n])
	}
	// And the broker is still serving.
	if r := tb.say(t, tb.token(t, "robot", "text"), "hello"); r.status != 200 {
		t.Fatalf("after oversized bodies: %d", r.status)
	}
}

func TestIdempotentReplayUnderConcurrency(t *testing.T) {
	tb := newTestBroker(t)
	tb.light.block = make(chan struct{})
	tok := tb.token(t, "robot", "text", "house:write")
	const n = 8
	var wg sync.WaitGroup
	results := make([]api.TurnResponse, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = tb.say(t, tok, "turn on the kitchen light", "Idempotency-Key", "k-1").turn(t)
		}()
	}
	time.Sleep(200 * time.Millisecond) // let every duplicate arrive while the first is running
	close(tb.light.block)
	wg.Wait()
	if tb.light.count() != 1 {
		t.Fatalf("the light was switched %d times", tb.light.count())
	}
	for _, r := range results {
		if r.TurnID != results[0].TurnID || r.Outcome != store.OutcomeOK {
			t.Fatalf("replays differ: %+v vs %+v", r, results[0])
		}
	}
	// A later retry replays too, and another key runs again.
	r := tb.say(t, tok, "turn on the kitchen light", "Idempotency-Key", "k-1")
	if r.turn(t).TurnID != results[0].TurnID || r.header.Get("Idempotent-Replayed") != "true" || tb.light.count() != 1 {
		t.Fatalf("later retry: %s", r.body)
	}
	tb.say(t, tok, "turn on the kitchen light", "Idempotency-Key", "k-2")
	if tb.light.count() != 2 {
		t.Fatalf("a new key did not run: %d", tb.light.count())
	}
	// Keys are per device: another device's identical key is its own request.
	other := tb.token(t, "bedside", "text", "house:write")
	tb.say(t, other, "turn on the kitchen light", "Idempotency-Key", "k-1")
	if tb.light.count() != 3 {
		t.Fatalf("keys leaked across devices: %d", tb.light.count())
	}
}

func TestRevocationTakesEffectOnNextRequest(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "text")
	if r := tb.say(t, tok, "hello"); r.status != 200 {
		t.Fatalf("%d", r.status)
	}
	if n, err := tb.state.RevokeTokens(context.Background(), "robot"); err != nil || n != 1 {
		t.Fatalf("revoke: %d %v", n, err)
	}
	if r := tb.say(t, tok, "hello"); r.status != 401 || r.code(t) != api.CodeUnauthenticated {
		t.Fatalf("revoked token: %d %s", r.status, r.body)
	}
}

func TestRateLimit(t *testing.T) {
	tb := newTestBroker(t, func(c *Config, d *Deps) { c.Limits.RatePerMinute, c.Limits.Burst = 6, 3 })
	tok := tb.token(t, "robot", "text")
	var last reply
	for range 4 {
		last = tb.say(t, tok, "hello")
	}
	if last.status != 429 || last.code(t) != api.CodeRateLimited || last.header.Get("Retry-After") == "" {
		t.Fatalf("4th request in a burst of 3: %d %v %s", last.status, last.header, last.body)
	}
	// Another device has its own budget.
	if r := tb.say(t, tb.token(t, "bedside", "text"), "hello"); r.status != 200 {
		t.Fatalf("other device limited: %d", r.status)
	}
}

func TestBusySpeechToText(t *testing.T) {
	tb := newTestBroker(t)
	tb.stt.err = fmt.Errorf("queue full: %w", ErrBusy)
	r := tb.turnAudio(t, tb.token(t, "robot", "turn"))
	if r.status != 503 || r.code(t) != api.CodeBusy || r.header.Get("Retry-After") == "" {
		t.Fatalf("%d %v %s", r.status, r.header, r.body)
	}
	// Busy is not a result: a retry with the same key runs again once there is room.
	tok := tb.token(t, "robot", "turn", "house:write")
	tb.stt.say("hey reachy turn on the office light")
	tb.stt.err = ErrBusy
	tb.turnAudio(t, tok, "Idempotency-Key", "busy-1")
	tb.stt.err = nil
	if tr := tb.turnAudio(t, tok, "Idempotency-Key", "busy-1").turn(t); tr.Intent != "house.light.set" || tb.light.count() != 1 {
		t.Fatalf("retry after busy: %+v", tr)
	}
}

func TestSlowSpeechToTextTimesOut(t *testing.T) {
	tb := newTestBroker(t, func(c *Config, d *Deps) { c.Turn.Budget = time.Second })
	tb.stt.delay = 10 * time.Second
	start := time.Now()
	r := tb.turnAudio(t, tb.token(t, "robot", "turn"))
	if r.status != 504 || r.code(t) != api.CodeTimeout || time.Since(start) > 3*time.Second {
		t.Fatalf("%d %s after %v", r.status, r.body, time.Since(start))
	}
}

func TestHangingHandlerIsCutAtItsDeadline(t *testing.T) {
	tb := newTestBroker(t, func(c *Config, d *Deps) { c.Turn.Budget = 2 * time.Second })
	tb.light.block, tb.light.hang = make(chan struct{}), true
	defer close(tb.light.block)
	start := time.Now()
	tr := tb.say(t, tb.token(t, "robot", "text", "house:write"), "turn on the kitchen light").turn(t)
	// The write was sent and never answered: whether it landed is not known, and the
	// robot says so instead of claiming a plain time-out.
	if tr.Outcome != store.OutcomeUnknown || tr.Reply != replyWriteUnknown {
		t.Fatalf("%+v", tr)
	}
	if el := time.Since(start); el > 2500*time.Millisecond {
		t.Fatalf("turn took %v with a 2 s budget", el)
	}
}

func TestAuditRecordsWhatWasDoneNotWhatWasSaid(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "text", "house:write", "ask")
	tb.say(t, tok, "turn on the kitchen light")
	tb.say(t, tok, "my secret diary says the password is hunter2, what rhymes with it")
	recs, err := tb.state.TailAudit(context.Background(), 10)
	if err != nil || len(recs) != 2 {
		t.Fatalf("%v %+v", err, recs)
	}
	// An actuation is one record: written pending before it happens, then given its outcome.
	if recs[0].Intent != "house.light.set" || recs[0].Args["room"] != "kitchen" || recs[0].Device != "robot" || recs[0].Outcome != store.OutcomeOK {
		t.Fatalf("%+v", recs[0])
	}
	raw, _ := json.Marshal(recs)
	for _, leak := range []string{"hunter2", "diary", "rhymes", tok} {
		if strings.Contains(string(raw), leak) {
			t.Fatalf("audit log contains %q: %s", leak, raw)
		}
	}
	if _, err := tb.state.DB().Exec(`UPDATE audit SET outcome = 'ok'`); err == nil {
		t.Fatal("audit records can be rewritten")
	}
}

// TestAuditFailureDoesNotFailTheTurn: a read answers even when its audit record cannot be
// written; the failure is counted, and the record is kept and written once the store takes
// writes again — nothing is lost.
func TestAuditFailureDoesNotFailTheTurn(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "text")
	if _, err := tb.state.DB().Exec(`CREATE TRIGGER audit_broken BEFORE INSERT ON audit BEGIN SELECT RAISE(ABORT, 'disk full'); END;`); err != nil {
		t.Fatal(err)
	}
	r := tb.say(t, tok, "what time is it")
	if r.status != 200 || r.turn(t).Intent != "time.now" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	turnID := r.turn(t).TurnID
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(httptestRecorder(tb.b.AdminHandler(), "/metrics"), "reachy_audit_write_failures_total 1") {
		if time.Now().After(deadline) {
			t.Fatal("audit failure not counted in /metrics")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := tb.state.DB().Exec(`DROP TRIGGER audit_broken`); err != nil {
		t.Fatal(err)
	}
	for {
		recs, err := tb.state.TailAudit(context.Background(), 5)
		if err == nil && len(recs) > 0 && recs[len(recs)-1].TurnID == turnID && recs[len(recs)-1].Intent == "time.now" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the read's record was not written once the store recovered: %v %+v", err, recs)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Counted once, not once per retry.
	if m := httptestRecorder(tb.b.AdminHandler(), "/metrics"); !strings.Contains(m, "reachy_audit_write_failures_total 1") {
		t.Fatalf("%s", grepLines(m, "reachy_audit"))
	}
}

func TestRedactionAtTheBoundary(t *testing.T) {
	leaky := intents.HandlerFunc(func(ctx context.Context, c intents.Call) (intents.Answer, error) {
		return intents.Answer{Reply: "Call 555-867-5309 or mail jane.doe@example.com, key sk-abcdefghijklmnopqrstuvwx."}, nil
	})
	tb := newTestBroker(t, func(c *Config, d *Deps) { d.Handlers["time"] = leaky })
	tr := tb.say(t, tb.token(t, "robot", "text"), "what time is it").turn(t)
	for _, leak := range []string{"867", "jane", "example.com", "sk-abc"} {
		if strings.Contains(tr.Reply, leak) {
			t.Fatalf("reply leaks %q: %s", leak, tr.Reply)
		}
	}
	recs, _ := tb.state.TailAudit(context.Background(), 1)
	if got := strings.Join(recs[0].Redactions, ","); got != "email,phone,secret" {
		t.Fatalf("audit redaction kinds %q", got)
	}
}

func TestGracefulShutdownFinishesTurnsInFlight(t *testing.T) {
	tb := newTestBroker(t)
	tb.light.block = make(chan struct{})
	l, err := ListenLoopback("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, NewHTTPServer(tb.b.Handler(), time.Second*8), l, 10*time.Second) }()
	tok := tb.token(t, "robot", "text", "house:write")
	got := make(chan int, 1)
	go func() {
		body := strings.NewReader(`{"text":"turn on the kitchen light"}`)
		req, _ := http.NewRequest("POST", "http://"+l.Addr().String()+"/v1/utterances", body)
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- -1
			return
		}
		resp.Body.Close()
		got <- resp.StatusCode
	}()
	deadline := time.Now().Add(5 * time.Second)
	for tb.light.count() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel() // shut down while the turn is in its handler
	time.Sleep(100 * time.Millisecond)
	close(tb.light.block)
	if status := <-got; status != 200 {
		t.Fatalf("turn in flight got %d during shutdown", status)
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}

func TestLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:8092", ":8092", "192.168.1.10:8092", "[::]:8092"} {
		if _, err := ListenLoopback(addr); err == nil {
			t.Errorf("ListenLoopback(%s) accepted a non-loopback address", addr)
		}
	}
	if _, _, err := ParseConfig([]byte("state_dir: /tmp/x\nlisten:\n  admin: 0.0.0.0:9092\n"), "c.yaml"); err == nil {
		t.Error("admin listener on 0.0.0.0 accepted")
	}
}

// TestAudioWithAnOffsetIsHeard: a hub or a browser whose microphone delivers samples around a
// level other than zero still gets its command carried out. The offset reads as loud,
// constant sound to the no-speech guard, which then found no speech; the broker now takes
// it out first, and whisper is given audio centred on zero.
func TestAudioWithAnOffsetIsHeard(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "turn", "house:write", "house:read")
	clip, err := speech.DecodeWAV(speechWAV(t), 0)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float32, len(clip.Samples))
	for i, v := range clip.Samples {
		x[i] = 0.25 + 0.5*v
	}
	wav, err := speech.EncodeWAV(x, speech.SampleRate)
	if err != nil {
		t.Fatal(err)
	}
	tb.stt.say("hey reachy, turn on the kitchen light")
	r := tb.do(t, "POST", "/v1/turns?audio=none", tok, "audio/wav", wav)
	if tr := r.turn(t); tr.Intent != "house.light.set" || tr.Outcome != store.OutcomeOK || tb.light.count() != 1 {
		t.Fatalf("%d %+v (actuations %d)", r.status, tr, tb.light.count())
	}
	tb.stt.mu.Lock()
	defer tb.stt.mu.Unlock()
	var sum float64
	for _, v := range tb.stt.heard {
		sum += float64(v)
	}
	if mean := sum / float64(max(1, len(tb.stt.heard))); math.Abs(mean) > 0.01 {
		t.Errorf("whisper was given audio centred on %.3f, want 0", mean)
	}
}
