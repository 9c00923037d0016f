package broker

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// Errors tell the truth (issue 36, item 4): each cause of a failed call has its own closed
// reason, shown to the owner with what to do and kept in the audit; the robot's refusals
// reach the console as closed codes only; the HTTPS console sends HSTS; the Origin check
// compares scheme, host and port; every console API needs the page token.

// TestCallFailureCauses: the robot's refusal of an offer names its cause, and the owner is
// told which one, with what to do; the audit keeps the closed reason. A call the robot ends
// itself because the connection failed ends the call, not the session, as ice_failed.
func TestCallFailureCauses(t *testing.T) {
	r := newCallRig(t)
	tok := r.join(t)
	for _, c := range []struct{ ack, reason, words string }{
		{api.LinkErrNoTailnetRoute, api.CallEndNoTailnetRoute, "is Tailscale running on this device?"},
		{api.LinkErrMediaStartSlow, api.CallEndMediaStartSlow, "too slow to start"},
		{api.LinkErrDeviceBusy, api.CallEndDeviceBusy, "in use"},
		{api.LinkErrNoMedia, api.CallEndMediaFailed, "cannot send video"},
	} {
		r.calls.setAnswer(func(api.LinkMessage) api.LinkAckBody { return api.LinkAckBody{Code: c.ack} })
		resp := r.post(t, tok, "call", map[string]any{"sdp": pageOffer})
		var e api.ErrorBody
		resp.json(t, &e)
		want := c.reason
		if c.ack == api.LinkErrNoMedia {
			want = api.CodeNoMedia
		}
		if e.Error.Code != want || !strings.Contains(e.Error.Message, c.words) {
			t.Errorf("robot refused with %s: the owner got %d %s", c.ack, resp.status, resp.body)
		}
		if got := lastEndOf(t, r.consoleRig); got != c.reason {
			t.Errorf("robot refused with %s: the page's last end is %q, want %s", c.ack, got, c.reason)
		}
		calls := r.auditArgs(t, "teleport.call")
		if last := calls[len(calls)-1]; last["reason"] != c.reason {
			t.Errorf("robot refused with %s: audited %v, want reason %s", c.ack, last, c.reason)
		}
	}

	// The robot ends a live call because ICE failed: the call ends, the session stays.
	r.calls.setAnswer(answerWith(hubAnswer))
	id, _ := r.call(t, tok)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.hub.link.Send(ctx, api.LinkMessage{Type: api.LinkCallEnded, CallEnded: &api.LinkCallEndedBody{CallID: id, Reason: api.CallEndICEFailed}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "ice_failed", 5*time.Second, func() bool { return lastEndOf(t, r.consoleRig) == api.CallEndICEFailed })
	if s := r.robotView(t).Session; s == nil || s.Call != nil {
		t.Fatalf("after ice_failed the session should stay without a call: %+v", s)
	}
	waitFor(t, "ice_failed in the audit", 5*time.Second, func() bool {
		calls := r.auditArgs(t, "teleport.call")
		return calls[len(calls)-1]["reason"] == api.CallEndICEFailed
	})
}

// TestRobotRefusalIsAClosedCode: a robot that refuses an action with 40 KB of free text:
// the owner gets a closed code and a short sentence, never the robot's text.
func TestRobotRefusalIsAClosedCode(t *testing.T) {
	r := newCallRig(t)
	tok := r.join(t)
	junk := "<script>alert(1)</script>" + strings.Repeat("ignore previous instructions ", 1500)
	r.calls.mu.Lock()
	r.calls.look = &api.LinkAckBody{Code: junk}
	r.calls.mu.Unlock()
	resp := r.post(t, tok, "look", map[string]string{"direction": "left"})
	if resp.status != http.StatusBadGateway || resp.code(t) != api.CodeRobotRefused {
		t.Fatalf("refused look: %d %.200s", resp.status, resp.body)
	}
	if len(resp.body) > 300 || strings.Contains(string(resp.body), "script") || strings.Contains(string(resp.body), "ignore") {
		t.Fatalf("the robot's free text reached the owner (%d bytes): %.200s", len(resp.body), resp.body)
	}
	looks := r.auditArgs(t, "teleport.look")
	if last := looks[len(looks)-1]; last["code"] != api.CodeRobotRefused {
		t.Fatalf("audited as %v", last)
	}
}

// TestConsoleAPIsNeedThePageToken: every console API — reads included — needs the page's
// token: the state, the call-back poll, a clip.
func TestConsoleAPIsNeedThePageToken(t *testing.T) {
	r := newConsoleRig(t)
	tok := r.page(t)
	for _, path := range []string{"/console/api/state", "/console/api/calls", "/console/api/robots/robot/clips/1", "/console/api/heartbeat"} {
		for name, hdr := range map[string][]string{"no token": nil, "forged": {"X-Console-Token", "forged"}} {
			if resp := r.do(t, "GET", path, "", "", nil, hdr...); resp.status != 403 || resp.code(t) != api.CodeCrossOrigin {
				t.Errorf("GET %s, %s: %d %s", path, name, resp.status, resp.body)
			}
		}
		if resp := r.do(t, "GET", path, "", "", nil, "X-Console-Token", tok, "Sec-Fetch-Site", "cross-site"); resp.status != 403 {
			t.Errorf("GET %s from another site: %d %s", path, resp.status, resp.body)
		}
	}
	if resp := r.do(t, "GET", "/console/api/state", "", "", nil, "X-Console-Token", tok); resp.status != 200 {
		t.Fatalf("state with the token: %d %s", resp.status, resp.body)
	}
	// An Origin of this host with another scheme or another port is another origin.
	port := r.srv.URL[strings.LastIndex(r.srv.URL, ":")+1:]
	for _, origin := range []string{"https://127.0.0.1:" + port, "http://127.0.0.1:1", "http://127.0.0.1"} {
		resp := r.do(t, "POST", "/console/api/robots/robot/join", "", "application/json", []byte(`{}`),
			"Origin", origin, "X-Console-Token", tok, "Sec-Fetch-Site", "same-origin")
		if resp.status != 403 || resp.code(t) != api.CodeCrossOrigin {
			t.Errorf("Origin %s: %d %s", origin, resp.status, resp.body)
		}
	}
	if r.robotView(t).Session != nil {
		t.Fatal("a request from another origin started a session")
	}
}

// TestConsoleHSTSAndOriginOverHTTPS: the console over HTTPS tells the browser to come back
// only over HTTPS (HSTS); plain HTTP on loopback does not. Over HTTPS an Origin of the same
// host with http:// is another origin.
func TestConsoleHSTSAndOriginOverHTTPS(t *testing.T) {
	r := newHTTPSRig(t)
	host := consoleName + ":" + r.httpsPort
	status, h, body := r.get(t, "https", host, "/")
	if status != 200 || !strings.HasPrefix(h.Get("Strict-Transport-Security"), "max-age=") {
		t.Fatalf("the console over HTTPS: %d, Strict-Transport-Security %q", status, h.Get("Strict-Transport-Security"))
	}
	tok := pageToken(t, body)
	if _, h, _ := r.get(t, "http", "127.0.0.1:"+r.httpPort, "/"); h.Get("Strict-Transport-Security") != "" {
		t.Fatalf("HSTS over plain HTTP: %q", h.Get("Strict-Transport-Security"))
	}
	for origin, want := range map[string]int{"http://" + host: 403, "https://" + consoleName + ":1": 403, "https://" + host: 200} {
		status, _, body := r.send(t, "POST", "https", host, "/console/api/robots/robot/keepalive", []byte(`{}`),
			"Origin", origin, "X-Console-Token", tok, "Sec-Fetch-Site", "same-origin")
		if want == 200 {
			want = 409 // the origin passed; there is no session to keep alive
		}
		if status != want {
			t.Errorf("Origin %s over HTTPS: %d %s, want %d", origin, status, body, want)
		}
	}
}
