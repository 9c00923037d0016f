package broker

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/robot"
)

// callHub is a sim hub whose call signalling the test scripts: it answers offers with
// answer(), and records every call and presence message in the order they arrive.
type callHub struct {
	*simHub
	mu     sync.Mutex
	answer func(m api.LinkMessage) api.LinkAckBody
	got    []api.LinkMessage // call_offer, call_end, presence, look — in order
	look   *api.LinkAckBody  // when set, every look is answered with it
}

func (h *callHub) setAnswer(f func(m api.LinkMessage) api.LinkAckBody) {
	h.mu.Lock()
	h.answer = f
	h.mu.Unlock()
}

func (h *callHub) messages(types ...string) []api.LinkMessage {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []api.LinkMessage
	for _, m := range h.got {
		if slices.Contains(types, m.Type) {
			out = append(out, m)
		}
	}
	return out
}

// answerWith is a hub that answers every offer with a fixed answer SDP.
func answerWith(sdp string) func(api.LinkMessage) api.LinkAckBody {
	return func(m api.LinkMessage) api.LinkAckBody {
		return api.LinkAckBody{OK: true, Answer: &api.LinkCallAnswer{CallID: m.CallOffer.CallID, SDP: sdp}}
	}
}

// hubAnswer is an answer as the hub writes it: one host candidate on its tailnet address.
const hubAnswer = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n" +
	"a=candidate:1 1 udp 2130706431 100.64.0.2 40001 typ host\r\n"

func startCallHub(t testing.TB, brokerURL, token string) *callHub {
	t.Helper()
	fake := robot.NewFakeDaemon()
	dsrv := httptest.NewServer(fake)
	t.Cleanup(dsrv.Close)
	d := robot.NewDaemon(dsrv.URL, time.Second)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := &robot.Hub{Daemon: d, Speaker: robot.DaemonSpeaker{D: d}, Motion: robot.NewMotion(d, robot.DefaultExpressions(), log), Log: log}
	l := &robot.Link{URL: brokerURL, Token: token, Log: log}
	h.AttachLink(l)
	ch := &callHub{simHub: &simHub{hub: h, link: l, fake: fake, daemonURL: dsrv.URL}, answer: answerWith(hubAnswer)}
	inner := l.Handle
	l.Handle = func(ctx context.Context, m api.LinkMessage) api.LinkAckBody {
		switch m.Type {
		case api.LinkCallOffer, api.LinkCallEnd, api.LinkPresence, api.LinkLook:
			ch.mu.Lock()
			ch.got = append(ch.got, m)
			answer, look := ch.answer, ch.look
			ch.mu.Unlock()
			switch m.Type {
			case api.LinkCallOffer:
				return answer(m)
			case api.LinkLook:
				if look != nil {
					return *look
				}
			case api.LinkCallEnd:
				return api.LinkAckBody{OK: true}
			}
		}
		return inner(ctx, m)
	}
	ch.start()
	t.Cleanup(ch.halt)
	return ch
}

type callRig struct {
	*consoleRig
	calls *callHub
}

func newCallRig(t testing.TB, opts ...option) *callRig {
	t.Helper()
	r := newConsoleBroker(t, opts...)
	hub := startCallHub(t, r.srv.URL, r.token(t, "robot", "turn", "link"))
	waitLinked(t, r.b, "robot", 1, 5*time.Second)
	r.hub = hub.simHub
	return &callRig{consoleRig: r, calls: hub}
}

// newConsoleBroker is a broker running its console with dad and mom as owners, and no hub.
func newConsoleBroker(t testing.TB, opts ...option) *consoleRig {
	t.Helper()
	people := &switchPeople{p: dad}
	synth := &toneSynth{}
	all := append([]option{func(c *Config, d *Deps) {
		c.Teleport.Owners = []string{dad.Login, mom.Login}
		d.People = people
		d.Synthesizer = synth
	}}, opts...)
	tb := newTestBroker(t, all...)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go tb.b.RunConsole(ctx)
	return &consoleRig{testBroker: tb, people: people, synth: synth}
}

// A receive-only video, send-and-receive audio offer with host candidates: what the page sends.
const pageOffer = "v=0\r\no=- 4 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n" +
	"m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=sendrecv\r\na=candidate:1 1 udp 2113937151 100.64.0.7 50000 typ host\r\n" +
	"m=video 9 UDP/TLS/RTP/SAVPF 96\r\na=recvonly\r\n"

func (r *callRig) join(t *testing.T) string {
	t.Helper()
	tok := r.page(t)
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("join: %d %s", resp.status, resp.body)
	}
	return tok
}

func (r *callRig) call(t *testing.T, tok string) (string, string) {
	t.Helper()
	resp := r.post(t, tok, "call", map[string]any{"sdp": pageOffer})
	var ans struct {
		CallID string `json:"call_id"`
		SDP    string `json:"sdp"`
	}
	if resp.status != 200 {
		t.Fatalf("call: %d %s", resp.status, resp.body)
	}
	resp.json(t, &ans)
	return ans.CallID, ans.SDP
}

func (r *callRig) auditArgs(t *testing.T, kind string) []map[string]string {
	t.Helper()
	recs, err := r.state.TailAudit(context.Background(), 50)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, rec := range recs {
		if rec.Intent == kind {
			a := map[string]string{"outcome": string(rec.Outcome), "code": rec.Code}
			for k, v := range rec.Args {
				a[k] = v
			}
			out = append(out, a)
		}
	}
	return out
}

func waitFor(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: not within %s", what, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestConsoleCallSignalling: the owner holding a live session posts an offer and gets the
// hub's answer; the call shows live in the state; leaving stops the call's media before
// the presence pose drops, and the page is told why it ended. Start and end are audited
// with who and the closed reason, never the SDP.
func TestConsoleCallSignalling(t *testing.T) {
	r := newCallRig(t)
	tok := r.page(t)
	if resp := r.post(t, tok, "call", map[string]any{"sdp": pageOffer}); resp.status != 409 || resp.code(t) != api.CodeNoSession {
		t.Fatalf("call before join: %d %s", resp.status, resp.body)
	}
	if n := len(r.calls.messages(api.LinkCallOffer)); n != 0 {
		t.Fatalf("an offer reached the robot without a session: %d", n)
	}
	r.join(t)
	id, sdp := r.call(t, tok)
	offers := r.calls.messages(api.LinkCallOffer)
	if len(offers) != 1 || offers[0].CallOffer.CallID != id || offers[0].CallOffer.SDP != pageOffer || !strings.HasPrefix(sdp, "v=0") {
		t.Fatalf("offer on the link %+v; answer %q id %q", offers, sdp, id)
	}
	rv := r.robotView(t)
	if rv.Session == nil || rv.Session.Call == nil || rv.Session.Call.State != "live" || rv.Session.Call.ID != id || rv.Session.IdleDeadline == nil {
		t.Fatalf("state after the answer: %+v", rv.Session)
	}
	r.people.set(mom)
	if s := r.robotView(t).Session; s == nil || s.Call != nil || s.IdleDeadline != nil {
		t.Fatalf("another owner sees dad's call: %+v", s)
	}
	r.people.set(dad)

	if resp := r.post(t, tok, "leave", map[string]any{}); resp.status != 200 {
		t.Fatalf("leave: %d %s", resp.status, resp.body)
	}
	got := r.calls.messages(api.LinkCallEnd, api.LinkPresence)
	var order []string
	for _, m := range got {
		switch {
		case m.Type == api.LinkCallEnd:
			order = append(order, "call_end:"+m.CallEnd.CallID+":"+m.CallEnd.Reason)
		case !m.Presence.Active:
			order = append(order, "presence_off")
		}
	}
	if want := []string{"call_end:" + id + ":owner_left", "presence_off"}; !slices.Equal(order, want) {
		t.Fatalf("after leave the hub got %v, want %v", order, want)
	}
	rv = r.robotView(t)
	if rv.Session != nil || rv.LastEnd == nil || rv.LastEnd.Reason != api.CallEndOwnerLeft {
		t.Fatalf("state after leave: session %+v, last end %+v", rv.Session, rv.LastEnd)
	}
	calls := r.auditArgs(t, "teleport.call")
	if len(calls) != 2 || calls[0]["reason"] != "start" || calls[1]["reason"] != "owner_left" || calls[1]["owner"] != dad.Login {
		t.Fatalf("call audit: %v", calls)
	}
	recs, _ := r.state.TailAudit(context.Background(), 50)
	for _, rec := range recs {
		for _, v := range rec.Args {
			if strings.Contains(v, "v=0") || strings.Contains(v, "candidate") {
				t.Fatalf("SDP in the audit log: %+v", rec)
			}
		}
	}
}

// TestConsoleCallRefusals: offers the call must never carry (the owner's camera, not an
// SDP) and hub refusals come back as closed codes, and each
// failed call is audited with its code; the session carries on.
func TestConsoleCallRefusals(t *testing.T) {
	r := newCallRig(t)
	tok := r.join(t)
	for name, offer := range map[string]string{
		"camera sent":       strings.Replace(pageOffer, "a=recvonly", "a=sendrecv", 1),
		"camera only":       strings.Replace(pageOffer, "a=recvonly", "a=sendonly", 1),
		"camera by default": strings.Replace(pageOffer, "a=recvonly\r\n", "", 1), // SDP's default is sendrecv
		"not sdp":           "hello",
		"empty":             "",
		"too large":         pageOffer + strings.Repeat("a=x\r\n", 20000),
	} {
		resp := r.post(t, tok, "call", map[string]any{"sdp": offer})
		if resp.status/100 != 4 || (resp.code(t) != api.CodeInvalidArgs && resp.code(t) != api.CodeTooLarge) {
			t.Errorf("%s: %d %s", name, resp.status, resp.body)
		}
	}
	if n := len(r.calls.messages(api.LinkCallOffer)); n != 0 {
		t.Fatalf("%d refused offers reached the robot", n)
	}
	for code, want := range map[string]string{api.LinkErrNotLive: api.CodeNotLive, api.LinkErrNoMedia: api.CodeNoMedia} {
		r.calls.setAnswer(func(api.LinkMessage) api.LinkAckBody { return api.LinkAckBody{Code: code} })
		resp := r.post(t, tok, "call", map[string]any{"sdp": pageOffer})
		if resp.code(t) != want {
			t.Errorf("hub %s: %d %s", code, resp.status, resp.body)
		}
	}
	// An answer for another call, or no answer at all, is not a call.
	r.calls.setAnswer(func(m api.LinkMessage) api.LinkAckBody {
		return api.LinkAckBody{OK: true, Answer: &api.LinkCallAnswer{CallID: "other", SDP: "v=0\r\n"}}
	})
	if resp := r.post(t, tok, "call", map[string]any{"sdp": pageOffer}); resp.code(t) != api.CodeNoMedia {
		t.Errorf("answer for another call: %d %s", resp.status, resp.body)
	}
	// Every failed offer was told to stop (a late answer must not leave media on).
	if ends := r.calls.messages(api.LinkCallEnd); len(ends) != 3 {
		t.Errorf("call_end after failed offers: %d, want 3", len(ends))
	}
	calls := r.auditArgs(t, "teleport.call")
	var codes []string
	for _, a := range calls {
		if a["reason"] != "start" {
			codes = append(codes, a["reason"]+"/"+a["code"])
		}
	}
	if len(calls) != 6 || !slices.Equal(codes, []string{"media_failed/not_live", "media_failed/no_media", "media_failed/no_media"}) {
		slices.Sort(codes)
		if !slices.Equal(codes, []string{"media_failed/no_media", "media_failed/no_media", "media_failed/not_live"}) {
			t.Fatalf("failed calls audited as %v (%d records)", codes, len(calls))
		}
	}
	if s := r.robotView(t).Session; s == nil || !s.Live || s.Call != nil {
		t.Fatalf("the session after failed calls: %+v", s)
	}
	// Offline: refused before anything is sent.
	// Offline: the session ends with the link, so nothing is sent.
	offers := len(r.calls.messages(api.LinkCallOffer))
	r.hub.halt()
	waitFor(t, "the link to drop", 5*time.Second, func() bool { return !r.b.Link().Status("robot").Online })
	waitFor(t, "the session to end", 5*time.Second, func() bool { return r.robotView(t).Session == nil })
	if resp := r.post(t, tok, "call", map[string]any{"sdp": pageOffer}); resp.status != 409 || resp.code(t) != api.CodeNoSession {
		t.Fatalf("call while offline: %d %s", resp.status, resp.body)
	}
	if n := len(r.calls.messages(api.LinkCallOffer)); n != offers {
		t.Fatalf("an offer reached an offline robot: %d", n-offers)
	}
}

// TestConsoleCallEnds: the robot's link dropping mid-call ends the session with
// robot_offline; the hub reporting failed media ends the call (not the session) with
// media_failed; the room's hang up reported by the hub ends the session; a report for
// another call is ignored.
func TestConsoleCallEnds(t *testing.T) {
	r := newCallRig(t)
	tok := r.join(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	lastEnd := func() string {
		if e := r.robotView(t).LastEnd; e != nil {
			return e.Reason
		}
		return ""
	}
	ended := func(id, reason string) {
		t.Helper()
		if err := r.hub.link.Send(ctx, api.LinkMessage{Type: api.LinkCallEnded, CallEnded: &api.LinkCallEndedBody{CallID: id, Reason: reason}}); err != nil {
			t.Fatal(err)
		}
	}

	id, _ := r.call(t, tok)
	ended("not-this-call", api.CallEndHangUp)
	ended(id, "something the hub made up")
	waitFor(t, "media_failed", 5*time.Second, func() bool { return lastEnd() == api.CallEndMediaFailed })
	if s := r.robotView(t).Session; s == nil || s.Call != nil {
		t.Fatalf("after failed media the session should stay without a call: %+v", s)
	}

	id, _ = r.call(t, tok)
	ended(id, api.CallEndHangUp)
	waitFor(t, "hang_up", 5*time.Second, func() bool { return lastEnd() == api.CallEndHangUp && r.robotView(t).Session == nil })

	// A session never outlives its robot's link: without a call it ends too, and the robot
	// that links again has no session and no presence — the next join plays a new chime.
	r.join(t)
	r.hub.halt()
	waitFor(t, "offline", 5*time.Second, func() bool { return !r.b.Link().Status("robot").Online })
	waitFor(t, "a session without a call to end with its link", 5*time.Second, func() bool {
		return lastEnd() == api.CallEndRobotOffline && r.robotView(t).Session == nil
	})
	chimes := len(r.hub.paths("/api/media/play_sound"))
	r.hub.start()
	waitLinked(t, r.b, "robot", 2, 10*time.Second)
	time.Sleep(300 * time.Millisecond) // what the broker would send a relinked robot arrives now
	if s := r.robotView(t).Session; s != nil || r.hub.hub.SessionActive() {
		t.Fatalf("the relinked robot resumed a session: broker %+v, robot presence %v", s, r.hub.hub.SessionActive())
	}
	if resp := r.post(t, tok, "call", map[string]any{"sdp": pageOffer}); resp.status != 409 || resp.code(t) != api.CodeNoSession {
		t.Fatalf("a call on the relinked robot without a new join: %d %s", resp.status, resp.body)
	}
	tok = r.join(t)
	if n := len(r.hub.paths("/api/media/play_sound")); n <= chimes {
		t.Fatal("the new session began without its chime")
	}
	r.call(t, tok)
	r.hub.halt()
	waitFor(t, "robot_offline", 5*time.Second, func() bool { return lastEnd() == api.CallEndRobotOffline && r.robotView(t).Session == nil })
	// The end's record is written as the session ends: give a slow (-race) run a moment.
	var got map[string]string
	waitFor(t, "the offline end's audit record", 5*time.Second, func() bool {
		ends := r.auditArgs(t, "teleport.end")
		got = ends[len(ends)-1]
		return got["reason"] == api.CallEndRobotOffline
	})
	if got["owner"] != dad.Login {
		t.Fatalf("offline end audited as %v", got)
	}
}

// TestConsoleLookAtAndKeepalive: a click on the video turns the head (x, y in [-1, 1],
// validated, mapped into the camera's field of view); "I'm still here" keeps an idle session.
func TestConsoleLookAtAndKeepalive(t *testing.T) {
	r := newCallRig(t, func(c *Config, d *Deps) { c.Teleport.IdleTimeout = 1500 * time.Millisecond })
	tok := r.join(t)
	for _, bad := range []map[string]any{{"x": 1.5, "y": 0}, {"x": 0, "y": -1.01}, {"x": 0}, {"x": "1", "y": 0}, {"x": 0, "y": 0, "z": 1}} {
		if resp := r.post(t, tok, "look_at", bad); resp.status != 400 || resp.code(t) != api.CodeInvalidArgs {
			t.Errorf("look_at %v: %d %s", bad, resp.status, resp.body)
		}
	}
	if n := len(r.calls.messages(api.LinkLook)); n != 0 {
		t.Fatalf("%d invalid looks reached the robot", n)
	}
	if resp := r.post(t, tok, "look_at", map[string]any{"x": 1, "y": -1}); resp.status != 200 {
		t.Fatalf("look_at: %d %s", resp.status, resp.body)
	}
	looks := r.calls.messages(api.LinkLook)
	if len(looks) != 1 || looks[0].Look.YawDeg >= -20 || looks[0].Look.PitchDeg >= -10 {
		t.Fatalf("a click at the top right should turn right and up: %+v", looks)
	}
	if a := r.auditArgs(t, "teleport.look"); len(a) != 1 || a[0]["direction"] != "point" {
		t.Fatalf("look_at audit: %v", a)
	}
	// Keepalive every 500 ms for 3 s keeps the session past its 1.5 s idle timeout.
	for i := 0; i < 6; i++ {
		time.Sleep(500 * time.Millisecond)
		if resp := r.post(t, tok, "keepalive", map[string]any{}); resp.status != 200 {
			t.Fatalf("keepalive %d: %d %s", i, resp.status, resp.body)
		}
	}
	if s := r.robotView(t).Session; s == nil || s.IdleDeadline == nil || time.Until(*s.IdleDeadline) < time.Second {
		t.Fatalf("keepalive did not hold the session: %+v", s)
	}
	waitFor(t, "the idle end", 5*time.Second, func() bool {
		e := r.robotView(t).LastEnd
		return e != nil && e.Reason == api.CallEndIdle
	})
}

// TestCallSignallingNeverLeavesTheTailnet: the broker trusts neither side's session
// description. A compromised robot's answer naming public, LAN, relay, reflexive and mDNS
// candidates reaches the page with only its tailnet host candidate; an answer with none
// ends the call (no_robot_address) before the page sees it, the hub is told to stop, and
// the session goes on. The owner's offer reaches the robot without the owner's LAN,
// global IPv6 or mDNS addresses.
func TestCallSignallingNeverLeavesTheTailnet(t *testing.T) {
	r := newCallRig(t)
	tok := r.join(t)
	hostile := "v=0\r\no=- 1 1 IN IP4 203.0.113.50\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 102\r\n" +
		"c=IN IP4 203.0.113.50\r\n" +
		"a=candidate:1 1 udp 2130706431 203.0.113.50 40001 typ host\r\n" +
		"a=candidate:2 1 udp 2130706431 192.168.1.77 40002 typ host\r\n" +
		"a=candidate:3 1 udp 16777215 100.64.0.9 3478 typ relay raddr 203.0.113.50 rport 3478\r\n" +
		"a=candidate:4 1 udp 1694498815 198.51.100.3 40004 typ srflx raddr 192.168.1.77 rport 40002\r\n" +
		"a=candidate:5 1 udp 2130706431 5b0e6d2c-robot.local 40005 typ host\r\n" +
		"a=candidate:6 1 udp 2130706431 100.64.0.2 40006 typ host\r\n"
	r.calls.setAnswer(answerWith(hostile))
	id, sdp := r.call(t, tok)
	for _, leak := range []string{"203.0.113.50", "192.168.1.77", "typ relay", "198.51.100.3", ".local"} {
		if strings.Contains(sdp, leak) {
			t.Errorf("the robot's %s reached the page:\n%s", leak, sdp)
		}
	}
	if !strings.Contains(sdp, "100.64.0.2 40006 typ host") {
		t.Fatalf("the robot's tailnet candidate was lost:\n%s", sdp)
	}

	// Nothing left to reach: the call ends with a closed code and the hub stops its media.
	r.calls.setAnswer(answerWith(strings.Replace(hostile, "a=candidate:6 1 udp 2130706431 100.64.0.2 40006 typ host\r\n", "", 1)))
	resp := r.post(t, tok, "call", map[string]any{"sdp": pageOffer})
	if resp.status != 502 || resp.code(t) != api.CodeNoRobotAddress {
		t.Fatalf("an answer with no tailnet address: %d %s", resp.status, resp.body)
	}
	if strings.Contains(string(resp.body), "203.0.113.50") {
		t.Fatalf("the refusal carries the robot's address: %s", resp.body)
	}
	offers := r.calls.messages(api.LinkCallOffer)
	last := offers[len(offers)-1].CallOffer.CallID
	waitFor(t, "the hub told to stop the refused call", 3*time.Second, func() bool {
		for _, m := range r.calls.messages(api.LinkCallEnd) {
			if m.CallEnd.CallID == last {
				return true
			}
		}
		return false
	})
	var codes []string
	for _, a := range r.auditArgs(t, "teleport.call") {
		codes = append(codes, a["code"])
	}
	if !slices.Contains(codes, api.CodeNoRobotAddress) {
		t.Errorf("the refused answer is not audited with its code: %v", codes)
	}
	if s := r.robotView(t).Session; s == nil || !s.Live {
		t.Fatalf("the session ended with the refused answer: %+v", s)
	}
	_ = id

	// The owner's offer: every address but the tailnet's is gone before the robot sees it.
	r.calls.setAnswer(answerWith(hubAnswer))
	owner := "v=0\r\no=- 4 2 IN IP4 192.168.1.23\r\ns=-\r\nt=0 0\r\n" +
		"m=audio 50000 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 192.168.1.23\r\na=sendrecv\r\n" +
		"a=candidate:1 1 udp 2122260223 192.168.1.23 50000 typ host\r\n" +
		"a=candidate:2 1 udp 2122197247 2a01:4f8:1:2::17 50001 typ host\r\n" +
		"a=candidate:3 1 udp 2122129151 0b2e6a1f-owner.local 50002 typ host\r\n" +
		"a=candidate:4 1 udp 1686052607 203.0.113.9 61000 typ srflx raddr 192.168.1.23 rport 50000\r\n" +
		"m=video 9 UDP/TLS/RTP/SAVPF 96\r\na=recvonly\r\n"
	if resp := r.post(t, tok, "call", map[string]any{"sdp": owner}); resp.status != 200 {
		t.Fatalf("an offer with only addresses to remove is still a call (ICE learns the browser's address from its checks): %d %s", resp.status, resp.body)
	}
	offers = r.calls.messages(api.LinkCallOffer)
	got := offers[len(offers)-1].CallOffer.SDP
	for _, leak := range []string{"192.168.1", "2a01:4f8", ".local", "203.0.113.9", "a=candidate"} {
		if strings.Contains(got, leak) {
			t.Errorf("the owner's %s reached the robot:\n%s", leak, got)
		}
	}
}

// TestCallTimeToLiveIsMeasured: the operator's metrics say how long calls take to go live
// (offer → the robot's answer), one observation per live call.
func TestCallTimeToLiveIsMeasured(t *testing.T) {
	r := newCallRig(t)
	tok := r.join(t)
	r.call(t, tok)
	m := httptestRecorder(r.b.AdminHandler(), "/metrics")
	if !strings.Contains(m, "reachy_teleport_call_time_to_live_seconds_count 1\n") {
		t.Fatalf("no time to live in the metrics: %s", grepLines(m, "reachy_teleport"))
	}
}
