package broker

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/console"
	"github.com/reachy-broker/reachy-broker/broker/store"
)

// calls polls the console's call-back view as the current person (it also marks their
// console open).
func (r *consoleRig) calls(t *testing.T) console.CallsView {
	t.Helper()
	var v console.CallsView
	r.do(t, "GET", "/console/api/calls", "", "", nil, "X-Console-Token", r.page(t)).json(t, &v)
	return v
}

// fakeWebhook records the notices posted to it; hang makes it never answer until the test ends.
type fakeWebhook struct {
	srv     *httptest.Server
	mu      sync.Mutex
	notices []map[string]string
	got     chan struct{}
}

func newFakeWebhook(t *testing.T, hang bool) *fakeWebhook {
	f := &fakeWebhook{got: make(chan struct{}, 16)}
	done := make(chan struct{})
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var n map[string]string
		json.Unmarshal(b, &n)
		f.mu.Lock()
		f.notices = append(f.notices, n)
		f.mu.Unlock()
		f.got <- struct{}{}
		if hang {
			<-done
		}
	}))
	t.Cleanup(func() { close(done); f.srv.Close() })
	return f
}

func (f *fakeWebhook) all() []map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]string(nil), f.notices...)
}

func waitAudit(t *testing.T, st *store.Store, intent string, within time.Duration) store.AuditRecord {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		recs, _ := st.TailAudit(context.Background(), 50)
		for i := len(recs) - 1; i >= 0; i-- {
			if recs[i].Intent == intent && recs[i].Outcome != "pending" {
				return recs[i]
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no %s audit record within %s", intent, within)
	return store.AuditRecord{}
}

// TestCallBackRingsOpenConsole: "call dad" while Dad's console is open rings it; the robot
// says so; joining from the ring clears it. A statement about a call rings nobody.
func TestCallBackRingsOpenConsole(t *testing.T) {
	r := newConsoleRig(t)
	tok := r.page(t)
	r.calls(t) // Dad's page polls: his console is open
	robot := r.token(t, "robot", "text", "turn")
	for _, s := range []string{"I called dad yesterday", "did dad call", "don't call dad"} {
		r.say(t, robot, s)
	}
	if v := r.calls(t); len(v.Ringing)+len(v.Missed) != 0 {
		t.Fatalf("a statement about a call rang: %+v", v)
	}
	resp := r.say(t, robot, "call dad")
	if tr := resp.turn(t); tr.Intent != "teleport.call" || tr.Reply != "I've let Dad know." {
		t.Fatalf("call dad: %s", resp.body)
	}
	r.say(t, robot, "call dad") // asked again while it rings: one ring
	v := r.calls(t)
	if len(v.Ringing) != 1 || v.Ringing[0].Device != "robot" || v.Ringing[0].Wanted != "dad" || v.Ringing[0].Room != "living room" {
		t.Fatalf("Dad's console does not ring: %+v", v)
	}
	// Mum's console is not Dad's.
	r.people.set(mom)
	if v := r.calls(t); len(v.Ringing) != 0 {
		t.Fatalf("Mum's console rings for Dad: %+v", v)
	}
	r.people.set(dad)
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("answer: %d %s", resp.status, resp.body)
	}
	if v := r.calls(t); len(v.Ringing) != 0 || len(v.Missed) != 0 {
		t.Fatalf("answered, still ringing: %+v", v)
	}
	rec := waitAudit(t, r.state, "teleport.call", 2*time.Second)
	if rec.Args["person"] != "dad" || rec.Outcome != store.OutcomeOK {
		t.Fatalf("call back audit: %+v", rec)
	}
}

// TestCallBackMissedAndWebhook: with no console open, "Reachy, ask mum to call us" leaves a
// missed call for Mum's next visit and posts one JSON notice to the home's webhook (robot,
// room, wanted, console_url), audited without words; an unanswered ring becomes a missed
// call too; a person who is no owner is "not configured"; a hanging webhook does not delay
// the robot's reply and is audited as failed.
func TestCallBackMissedAndWebhook(t *testing.T) {
	hook := newFakeWebhook(t, false)
	r := newConsoleRig(t, func(c *Config, d *Deps) {
		c.Teleport.CallWebhook = hook.srv.URL + "/notify"
		c.Teleport.ConsoleURL = "https://broker.example.ts.net/"
		c.Teleport.RingTimeout = 500 * time.Millisecond
	})
	robot := r.token(t, "robot", "text", "turn")
	resp := r.say(t, robot, "Reachy, ask mum to call us")
	if tr := resp.turn(t); tr.Intent != "teleport.call" || !strings.Contains(tr.Reply, "Mom isn't at the console right now") {
		t.Fatalf("ask mum to call us: %s", resp.body)
	}
	select {
	case <-hook.got:
	case <-time.After(5 * time.Second):
		t.Fatal("the webhook was not called")
	}
	n := hook.all()[0]
	if n["robot"] != "robot" || n["room"] != "living room" || n["wanted"] != "mom" || n["console_url"] != "https://broker.example.ts.net/" || len(n) != 4 {
		t.Fatalf("webhook notice: %v", n)
	}
	rec := waitAudit(t, r.state, "teleport.call.notify", 2*time.Second)
	if rec.Outcome != store.OutcomeOK || rec.Args["person"] != "mom" {
		t.Fatalf("webhook audit: %+v", rec)
	}
	r.people.set(mom)
	v := r.calls(t)
	if len(v.Missed) != 1 || v.Missed[0].Wanted != "mom" || len(v.Ringing) != 0 {
		t.Fatalf("Mum's next visit: %+v", v)
	}
	// Mum's console is open now: a ring nobody answers becomes a missed call; a second
	// notice for the same robot within a minute is not sent (no storm of posts).
	r.say(t, robot, "call mom")
	if v := r.calls(t); len(v.Ringing) != 1 {
		t.Fatalf("open console, not ringing: %+v", v)
	}
	time.Sleep(900 * time.Millisecond)
	if v := r.calls(t); len(v.Ringing) != 0 || len(v.Missed) != 2 {
		t.Fatalf("an unanswered ring is not a missed call: %+v", v)
	}
	time.Sleep(200 * time.Millisecond)
	if got := len(hook.all()); got != 1 {
		t.Fatalf("%d webhook notices for one robot within a minute; want 1", got)
	}

	r2 := newConsoleRig(t, func(c *Config, d *Deps) { c.Teleport.Owners = []string{dad.Login} })
	if tr := r2.say(t, r2.token(t, "robot", "text", "turn"), "call mum").turn(t); tr.Reply != "Mom isn't configured to take calls." {
		t.Fatalf("call a person who is no owner: %+v", tr)
	}
}

// TestCallBackHangingWebhook: a webhook that never answers does not hold up the robot's
// reply; the notice is cut at its timeout and audited as failed.
func TestCallBackHangingWebhook(t *testing.T) {
	hook := newFakeWebhook(t, true)
	r := newConsoleRig(t, func(c *Config, d *Deps) {
		c.Teleport.CallWebhook = hook.srv.URL
		// Long enough that a reply held by the webhook is told apart from a slow machine.
		c.Teleport.CallWebhookTimeout = 3 * time.Second
	})
	start := time.Now()
	resp := r.say(t, r.token(t, "robot", "text", "turn"), "call dad")
	if took := time.Since(start); took > 1500*time.Millisecond || resp.turn(t).Intent != "teleport.call" {
		t.Fatalf("reply after %s (%s): the hanging webhook delayed it", took, resp.body)
	}
	rec := waitAudit(t, r.state, "teleport.call.notify", 6*time.Second)
	if rec.Outcome != store.OutcomeFailed || rec.Code != "timeout" {
		t.Fatalf("hanging webhook audit: %+v", rec)
	}
}

// TestMissedCallSurvivesRestart: a missed call is kept in the state store: after a broker
// restart the owner's next visit still shows it; answering the robot clears it.
func TestMissedCallSurvivesRestart(t *testing.T) {
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
	if tr := tb.say(t, tb.token(t, "robot", "text", "turn"), "call dad").turn(t); !strings.Contains(tr.Reply, "missed call") {
		t.Fatalf("call dad with no console open: %+v", tr)
	}
	tb.srv.Close()
	st.Close()

	st2, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st2.Close() })
	r := &consoleRig{testBroker: newTestBrokerOn(t, st2, owners)}
	v := r.calls(t)
	if len(v.Missed) != 1 || v.Missed[0].Wanted != "dad" || v.Missed[0].Device != "robot" || v.Missed[0].At.IsZero() {
		t.Fatalf("after a restart: %+v", v)
	}
	tok := r.page(t)
	resp := r.do(t, "POST", "/console/api/calls/dismiss?id="+fmt.Sprint(v.Missed[0].ID), "", "application/json", []byte("{}"),
		"Origin", r.srv.URL, "X-Console-Token", tok, "Sec-Fetch-Site", "same-origin")
	if resp.status != 200 {
		t.Fatalf("dismiss: %d %s", resp.status, resp.body)
	}
	if v := r.calls(t); len(v.Missed) != 0 {
		t.Fatalf("dismissed, still there: %+v", v)
	}
}

// TestCallBackFromALaptopRingsWithTheRoomsRobot: "call dad" typed on a device that is not a
// robot (the tour's laptop) rings with the robot linked in its room, so Dad's Answer joins
// that robot; with no robot linked there it is refused with the reason, and nothing rings.
func TestCallBackFromALaptopRingsWithTheRoomsRobot(t *testing.T) {
	r := newConsoleRig(t)
	tok := r.page(t)
	r.calls(t) // Dad's console is open
	laptop := r.token(t, "laptop", "text", "turn")
	resp := r.say(t, laptop, "call dad")
	if tr := resp.turn(t); tr.Intent != "teleport.call" || tr.Reply != "I've let Dad know." {
		t.Fatalf("call dad from the laptop: %s", resp.body)
	}
	v := r.calls(t)
	if len(v.Ringing) != 1 || v.Ringing[0].Device != "robot" {
		t.Fatalf("the ring does not name the room's robot: %+v", v)
	}
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("answer: %d %s", resp.status, resp.body)
	}

	// No robot linked in the laptop's room: refused, with the reason; nothing rings or is missed.
	tb := newTestBroker(t, func(c *Config, d *Deps) { c.Teleport.Owners = []string{dad.Login} })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go tb.b.RunConsole(ctx)
	resp = tb.say(t, tb.token(t, "laptop", "text", "turn"), "call dad")
	if tr := resp.turn(t); tr.Intent != "teleport.call" || !strings.Contains(tr.Reply, "No robot is linked in the living room") {
		t.Fatalf("call dad with no robot linked: %s", resp.body)
	}
	if missed, err := (missedCalls{tb.state}).Missed(context.Background(), dad.Login); err != nil || len(missed) != 0 {
		t.Fatalf("a missed call for no robot: %+v %v", missed, err)
	}
}
