package broker

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// askRig is a console rig whose owner Dad joins in ask mode: the room must say yes.
func askRig(t *testing.T, askTimeout time.Duration) *consoleRig {
	return newConsoleRig(t, func(c *Config, d *Deps) {
		c.Teleport.Consent = ConsentAnnounce
		c.Teleport.ConsentByOwner = map[string]string{dad.Login: ConsentAsk}
		c.Teleport.AskTimeout = askTimeout
	})
}

// joinAsking starts Dad's join and waits until the robot has asked the room.
func joinAsking(t *testing.T, r *consoleRig, tok string) <-chan reply {
	t.Helper()
	joined := make(chan reply, 1)
	go func() { joined <- r.post(t, tok, "join", map[string]any{}) }()
	deadline := time.Now().Add(10 * time.Second)
	for !r.hub.hub.SessionLive() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !r.hub.hub.SessionLive() {
		t.Fatal("the robot never asked the room")
	}
	if said := r.synth.said(); len(said) == 0 || !strings.Contains(said[len(said)-1], "would like to join. Say yes, or come in.") {
		t.Fatalf("the robot did not ask: %q", said)
	}
	return joined
}

func waitReply(t *testing.T, ch <-chan reply, within time.Duration) reply {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(within):
		t.Fatal("no answer in time")
	}
	return reply{}
}

// TestAskConsentYes: in ask mode the session is not live while the robot waits, what the
// room says meanwhile never reaches the owner, and "come in" lets the owner in.
func TestAskConsentYes(t *testing.T) {
	r := askRig(t, 20*time.Second)
	tok := r.page(t)
	joined := joinAsking(t, r, tok)
	if s := r.session(t); s == nil || s.Live {
		t.Fatalf("asking, the session must not be live: %+v", s)
	}
	if resp := r.post(t, tok, "say", map[string]string{"text": "hello"}); resp.status != 409 {
		t.Fatalf("the owner spoke before the room said yes: %d %s", resp.status, resp.body)
	}
	r.stt.say("yes, come in")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.hub.link.Send(ctx, heardMessage(roomClip())); err != nil {
		t.Fatal(err)
	}
	resp := waitReply(t, joined, 10*time.Second)
	if resp.status != 200 {
		t.Fatalf("join after yes: %d %s", resp.status, resp.body)
	}
	if s := r.session(t); s == nil || !s.Live || len(s.Clips) != 0 {
		t.Fatalf("after yes: %+v; want live, and the answer not shown to the owner", s)
	}
}

// TestAskConsentNo: "no, not now" declines at once: the owner is told declined, no session
// is left, the robot drops its presence pose, and the audit records the end as declined.
func TestAskConsentNo(t *testing.T) {
	r := askRig(t, 20*time.Second)
	tok := r.page(t)
	joined := joinAsking(t, r, tok)
	r.stt.say("no, not now")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	if err := r.hub.link.Send(ctx, heardMessage(roomClip())); err != nil {
		t.Fatal(err)
	}
	resp := waitReply(t, joined, 10*time.Second)
	if resp.status != 409 || resp.code(t) != api.CodeDeclined || time.Since(start) > 5*time.Second {
		t.Fatalf("join after no: %d %s after %s", resp.status, resp.body, time.Since(start))
	}
	checkDeclined(t, r)
}

// TestAskConsentSilence: nobody answers: the join is declined when the ask timeout (here
// shortened by config) runs out, never before.
func TestAskConsentSilence(t *testing.T) {
	r := askRig(t, 1500*time.Millisecond)
	tok := r.page(t)
	start := time.Now()
	joined := joinAsking(t, r, tok)
	resp := waitReply(t, joined, 10*time.Second)
	if resp.status != 409 || resp.code(t) != api.CodeDeclined || !strings.Contains(string(resp.body), "nobody in the room said yes") {
		t.Fatalf("join with no answer: %d %s", resp.status, resp.body)
	}
	if took := time.Since(start); took < 1500*time.Millisecond {
		t.Fatalf("declined after %s, before the ask timeout", took)
	}
	checkDeclined(t, r)
}

func checkDeclined(t *testing.T, r *consoleRig) {
	t.Helper()
	if r.session(t) != nil {
		t.Fatal("a declined join left a session")
	}
	deadline := time.Now().Add(5 * time.Second)
	for r.hub.hub.SessionActive() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if r.hub.hub.SessionActive() {
		t.Fatal("the robot still shows the presence pose after a declined join")
	}
	if end := lastConsoleEnd(t, r.state); end == nil || end.Args["reason"] != api.CallEndDeclined {
		t.Fatalf("the declined join is not audited as declined: %+v", end)
	}
}

// TestAskConsentAnswerOutlivesWriteTimeout: a join in ask mode can take longer than the
// server's write timeout (the robot's announcement, then up to ask_timeout for the room);
// the owner is still told how it ended instead of seeing the connection drop.
func TestAskConsentAnswerOutlivesWriteTimeout(t *testing.T) {
	r := askRig(t, 1500*time.Millisecond)
	srv := httptest.NewUnstartedServer(r.b.Handler())
	srv.Config.WriteTimeout = 500 * time.Millisecond
	srv.Start()
	t.Cleanup(srv.Close)
	tok := r.page(t)
	req, _ := http.NewRequest("POST", srv.URL+"/console/api/robots/robot/join", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", srv.URL)
	req.Header.Set("X-Console-Token", tok)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("the owner was not told how the join ended: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 409 || !strings.Contains(string(body), api.CodeDeclined) {
		t.Fatalf("join: %d %s", resp.StatusCode, body)
	}
}

// TestAskAnswerRightAfterThePrompt: the room answers the moment the question has played —
// the hub sends the "yes" even before its ack of the prompt reaches the broker. The answer
// is not lost: the broker listens for it from before it asks.
func TestAskAnswerRightAfterThePrompt(t *testing.T) {
	var hub atomic.Pointer[scriptedHub]
	r, h := newScriptedRig(t, func(m api.LinkMessage) api.LinkAckBody {
		if m.Type == api.LinkPlay && m.Play != nil && m.Play.Join {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			hub.Load().link.Send(ctx, heardMessage(roomClip())) // "yes", before the ack
			time.Sleep(300 * time.Millisecond)                  // the broker has it before it has the ack
		}
		return api.LinkAckBody{OK: true}
	}, func(c *Config, d *Deps) {
		c.Teleport.Consent = ConsentAsk
		c.Teleport.AskTimeout = 5 * time.Second
	})
	hub.Store(h)
	r.stt.say("yes")
	start := time.Now()
	resp := r.post(t, r.page(t), "join", map[string]any{})
	if resp.status != 200 || time.Since(start) > 4*time.Second {
		t.Fatalf("join answered yes at once: %d %s after %s", resp.status, resp.body, time.Since(start))
	}
}

// TestClosedPageNeverJoinsOnAYes: the owner's page closes while the robot asks the room; the
// join ends page_lost within the page timeout (the presence pose drops, the audit says
// page_lost), and a "yes" said after that lets nobody in.
func TestClosedPageNeverJoinsOnAYes(t *testing.T) {
	r := newConsoleRig(t, func(c *Config, d *Deps) {
		c.Teleport.Consent = ConsentAnnounce
		c.Teleport.ConsentByOwner = map[string]string{dad.Login: ConsentAsk}
		c.Teleport.AskTimeout = 20 * time.Second
		d.PageTimeout = 2 * time.Second
	})
	tok := r.page(t)
	joined := joinAsking(t, r, tok) // from now on the page asks nothing: it was closed
	waitFor(t, "the presence pose to drop", 10*time.Second, func() bool { return !r.hub.hub.SessionActive() })
	r.stt.say("yes, come in")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.hub.link.Send(ctx, heardMessage(roomClip())); err != nil {
		t.Fatal(err)
	}
	if resp := waitReply(t, joined, 10*time.Second); resp.status == 200 {
		t.Fatalf("a closed page joined on the room's yes: %s", resp.body)
	}
	if s := r.session(t); s != nil {
		t.Fatalf("a closed page's join left a session: %+v", s)
	}
	if end := lastConsoleEnd(t, r.state); end == nil || end.Args["reason"] != api.CallEndPageLost {
		t.Fatalf("the join of a closed page is not audited page_lost: %+v", end)
	}
}
