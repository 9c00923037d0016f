package broker

import (
	"context"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/console"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/speech"
)

// Consent through faults (issue 36, item 3): a session lives no longer than its robot's
// link (TestConsoleCallEnds), its page, or the broker; the room's control words are never
// dropped behind chatter; quiet time ends a call, whether it was said as a turn or in it.

// lastEndOf is how the robot's last session or call ended, as dad's page sees it.
func lastEndOf(t *testing.T, r *consoleRig) string {
	t.Helper()
	if e := r.robotView(t).LastEnd; e != nil {
		return e.Reason
	}
	return ""
}

// viewAs is the state as one page (tab) of the current person sees it.
func viewAs(t *testing.T, r *consoleRig, tok string) console.ViewRobot {
	t.Helper()
	var v console.View
	resp := r.do(t, "GET", "/console/api/state", "", "", nil, "X-Console-Token", tok)
	if resp.status != 200 {
		t.Fatalf("state: %d %s", resp.status, resp.body)
	}
	resp.json(t, &v)
	for _, rv := range v.Robots {
		if rv.Device == "robot" {
			return rv
		}
	}
	t.Fatal("robot not on the page")
	return console.ViewRobot{}
}

// TestSessionEndsWithItsPage: a page that stops asking (a closed tab, a sleeping laptop)
// ends its session within the page timeout — another page of the same owner polling does
// not keep it — the robot's presence pose drops, and the end is audited page_lost. A new
// tab cannot use the old session: it joins anew, and the robot plays a new chime.
func TestSessionEndsWithItsPage(t *testing.T) {
	r := newCallRig(t, func(c *Config, d *Deps) { d.PageTimeout = 2 * time.Second })
	old := r.join(t)
	r.call(t, old)
	if !r.hub.hub.SessionActive() {
		t.Fatal("no presence after the join")
	}
	// The old tab goes quiet; a second tab of the same owner keeps polling.
	tab := r.newPage(t)
	if rv := viewAs(t, r.consoleRig, tab); rv.Session == nil || rv.Session.Mine || !rv.Session.Elsewhere {
		t.Fatalf("another tab sees the session as %+v; want it held elsewhere", rv.Session)
	}
	start := time.Now()
	for time.Since(start) < 15*time.Second {
		if rv := viewAs(t, r.consoleRig, tab); rv.Session == nil {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	took := time.Since(start)
	rv := viewAs(t, r.consoleRig, tab)
	if rv.Session != nil {
		t.Fatalf("the session outlived its page by %s", took.Round(time.Millisecond))
	}
	if rv.LastEnd == nil || rv.LastEnd.Reason != api.CallEndPageLost {
		t.Fatalf("the session ended as %+v, want page_lost", rv.LastEnd)
	}
	waitFor(t, "the presence pose to drop", 5*time.Second, func() bool { return !r.hub.hub.SessionActive() })
	waitFor(t, "the page_lost end in the audit", 5*time.Second, func() bool {
		ends := r.auditArgs(t, "teleport.end")
		return len(ends) > 0 && ends[len(ends)-1]["reason"] == api.CallEndPageLost
	})
	t.Logf("the session ended %s after its page stopped (timeout 2 s)", took.Round(100*time.Millisecond))

	// The new tab: a call needs a new join, which plays a new chime.
	if resp := r.post(t, tab, "call", map[string]any{"sdp": pageOffer}); resp.status != 409 || resp.code(t) != api.CodeNoSession {
		t.Fatalf("a call from a new tab without a join: %d %s", resp.status, resp.body)
	}
	chimes := len(r.hub.paths("/api/media/play_sound"))
	if resp := r.post(t, tab, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("the new tab joins: %d %s", resp.status, resp.body)
	}
	if n := len(r.hub.paths("/api/media/play_sound")); n <= chimes {
		t.Fatal("the new tab's session began without a chime")
	}

	// A third tab while this one is live: it cannot act on it, and calling from it takes it
	// over as a new session, with a chime.
	third := r.newPage(t)
	if resp := r.post(t, third, "say", map[string]string{"text": "hello"}); resp.status != 409 || resp.code(t) != api.CodeSessionBusy {
		t.Fatalf("another tab acts on the session: %d %s", resp.status, resp.body)
	}
	chimes = len(r.hub.paths("/api/media/play_sound"))
	if resp := r.post(t, third, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("the third tab takes over: %d %s", resp.status, resp.body)
	}
	if n := len(r.hub.paths("/api/media/play_sound")); n <= chimes+1 { // the old one's goodbye, the new one's chime
		t.Fatalf("taking over played %d sounds; want a goodbye and a new chime", n-chimes)
	}
	if rv := viewAs(t, r.consoleRig, tab); rv.Session == nil || rv.Session.Mine {
		t.Fatalf("the second tab still holds the session: %+v", rv.Session)
	}
}

// TestBrokerStopEndsSessions: a broker that stops (SIGTERM: Close) ends every open session
// and call, audited broker_restart, and tells the robot; the page token of the run that
// stopped is refused by the next, which gives the page a new one that works.
func TestBrokerStopEndsSessions(t *testing.T) {
	r := newCallRig(t)
	tok := r.join(t)
	r.call(t, tok)
	r.b.Close()
	waitFor(t, "the broker_restart ends in the audit", 5*time.Second, func() bool {
		ends, calls := r.auditArgs(t, "teleport.end"), r.auditArgs(t, "teleport.call")
		return len(ends) == 1 && ends[0]["reason"] == api.CallEndBrokerRestart &&
			len(calls) == 2 && calls[1]["reason"] == api.CallEndBrokerRestart
	})
	waitFor(t, "the robot to drop its presence", 5*time.Second, func() bool { return !r.hub.hub.SessionActive() })
	if n := len(r.calls.messages(api.LinkCallEnd)); n != 1 {
		t.Fatalf("the robot was told to end the call %d times", n)
	}
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 503 {
		t.Fatalf("a join on a stopping broker: %d %s", resp.status, resp.body)
	}

	// The next run: the last session's end is on the owner's page.
	next := &consoleRig{testBroker: newTestBrokerOn(t, r.state, func(c *Config, d *Deps) {
		c.Teleport.Owners = []string{dad.Login, mom.Login}
		d.People = r.people
		d.Synthesizer = r.synth
	}), people: r.people, synth: r.synth}
	if resp := next.do(t, "GET", "/console/api/state", "", "", nil, "X-Console-Token", tok); resp.status != 403 {
		t.Fatalf("the last run's page token: %d %s", resp.status, resp.body)
	}
	var fresh struct{ Token, Boot string }
	next.do(t, "GET", "/console/api/page", "", "", nil, "Sec-Fetch-Site", "same-origin").json(t, &fresh)
	next.tabs = map[string]string{dad.Login: fresh.Token}
	rv := next.robotView(t)
	if rv.LastEnd == nil || rv.LastEnd.Reason != api.CallEndBrokerRestart || rv.Session != nil {
		t.Fatalf("after the restart the page sees %+v / %+v; want the end broker_restart", rv.LastEnd, rv.Session)
	}
	if n := len(r.auditArgs(t, "teleport.end")); n != 1 {
		t.Fatalf("the next run audited the stopped session's end again: %d ends", n)
	}
	if resp := next.do(t, "GET", "/console/api/page", "", "", nil, "Sec-Fetch-Site", "cross-site"); resp.status != 403 {
		t.Fatalf("a new page token for another site: %d %s", resp.status, resp.body)
	}
}

// TestBrokerDeathEndsSessionsAtNextStart: a broker that died (kill -9: nothing of its own
// ran) left a session with a call, and a join still waiting for its chime, open in the
// audit log; the next start ends them there as broker_restart and tells the owner's page.
func TestBrokerDeathEndsSessionsAtNextStart(t *testing.T) {
	r := newCallRig(t)
	tok := r.join(t)
	r.call(t, tok)
	// A join on the other robot that never finished: its start is pending.
	if err := r.state.AppendAudit(context.Background(), store.AuditRecord{Time: time.Now().UTC(), TurnID: "c-pending", Device: "bedside",
		Route: "console", Intent: "teleport.start", Args: map[string]string{"owner": mom.Login}, Outcome: store.OutcomePending}); err != nil {
		t.Fatal(err)
	}
	// The broker dies: no Close, no console shutdown. The next run starts on its state.
	next := &consoleRig{testBroker: newTestBrokerOn(t, r.state, func(c *Config, d *Deps) {
		c.Teleport.Owners = []string{dad.Login, mom.Login}
		d.People = r.people
		d.Synthesizer = r.synth
	}), people: r.people, synth: r.synth}
	recs, err := r.state.TailAudit(context.Background(), 50)
	if err != nil {
		t.Fatal(err)
	}
	var robotEnd, robotCall, bedsideEnd bool
	for _, rec := range recs {
		switch {
		case rec.Intent == "teleport.end" && rec.Device == "robot" && rec.Args["reason"] == api.CallEndBrokerRestart && rec.Args["owner"] == dad.Login:
			robotEnd = true
		case rec.Intent == "teleport.call" && rec.Device == "robot" && rec.Args["reason"] == api.CallEndBrokerRestart:
			robotCall = true
		case rec.Intent == "teleport.end" && rec.Device == "bedside" && rec.Args["reason"] == api.CallEndBrokerRestart:
			bedsideEnd = true
		case rec.Intent == "teleport.start" && rec.TurnID == "c-pending" && rec.Outcome != store.OutcomeFailed:
			t.Fatalf("the pending join stayed %s", rec.Outcome)
		}
	}
	if !robotEnd || !robotCall || !bedsideEnd {
		t.Fatalf("ends audited at the next start: session %v, call %v, waiting join %v", robotEnd, robotCall, bedsideEnd)
	}
	if rv := next.robotView(t); rv.LastEnd == nil || rv.LastEnd.Reason != api.CallEndBrokerRestart {
		t.Fatalf("the owner's page after the restart: %+v", rv.LastEnd)
	}
	// A third start finds nothing left open: no second end.
	newTestBrokerOn(t, r.state)
	n := 0
	recs, _ = r.state.TailAudit(context.Background(), 80)
	for _, rec := range recs {
		if rec.Intent == "teleport.end" && rec.Device == "robot" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the session's end was audited %d times", n)
	}
}

// chatter is a clip of the room talking for secs seconds.
func chatter(secs int) []byte {
	x := make([]float32, secs*speech.SampleRate)
	for i := range x {
		x[i] = 0.1
	}
	wav, _ := speech.EncodeWAV(x, speech.SampleRate)
	return wav
}

// floodChatter sends n five-second clips of chatter within the link's limits (a burst of
// four, then one a second), while each takes transcription two seconds or more:
// transcription falls behind.
func floodChatter(t *testing.T, r *consoleRig, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		sendHeard(t, r, chatter(5))
		if i >= 3 {
			time.Sleep(1100 * time.Millisecond) // the link's heard limit: a burst of 4, then 1 a second
		}
	}
}

// TestControlWordsGoAheadOfChatter: during a call the room chatters faster than it is
// transcribed, then says "hang up": the hang-up is not dropped and does not wait behind the
// chatter — the session ends long before the chatter would have been transcribed.
func TestControlWordsGoAheadOfChatter(t *testing.T) {
	r := newCallRig(t, func(c *Config, d *Deps) { d.PageTimeout = time.Minute })
	r.stt.mu.Lock()
	r.stt.delay, r.stt.long, r.stt.text = 2*time.Second, "and then we went to the shops and it was raining", "hang up"
	r.stt.mu.Unlock()
	tok := r.join(t)
	r.call(t, tok)
	floodChatter(t, r.consoleRig, 6)
	said := time.Now()
	sendHeard(t, r.consoleRig, roomClip()) // one second: "hang up"
	waitFor(t, "the room's hang up to end the session", 10*time.Second, func() bool {
		return r.robotView(t).Session == nil && lastEndOf(t, r.consoleRig) == api.CallEndHangUp
	})
	took := time.Since(said)
	if n := r.stt.calls.Load(); n >= 7 {
		t.Fatalf("the hang-up waited for all %d clips to be transcribed", n)
	}
	t.Logf("hang up acted on %s after it was said, behind %d transcriptions of chatter", took.Round(100*time.Millisecond), r.stt.calls.Load()-1)
}

// TestChatterDroppedOldestFirst: when chatter outruns transcription the oldest waiting clip
// is dropped, never the newest; the owner is told "(some speech was not transcribed)", and
// the newest clip is transcribed.
func TestChatterDroppedOldestFirst(t *testing.T) {
	r := newCallRig(t, func(c *Config, d *Deps) { d.PageTimeout = time.Minute })
	r.stt.mu.Lock()
	r.stt.delay, r.stt.long, r.stt.text = 3*time.Second, "and then we went to the shops", "see you soon"
	r.stt.mu.Unlock()
	tok := r.join(t)
	r.call(t, tok)
	floodChatter(t, r.consoleRig, 8) // 8 clips in 4.4 s, 2 transcribed meanwhile: 6 for 4 places
	sendHeard(t, r.consoleRig, roomClip())
	var clips []string
	deadline := time.Now().Add(40 * time.Second)
	for {
		clips = clips[:0]
		newest, told := false, false
		if s := r.robotView(t).Session; s != nil {
			for _, c := range s.Clips {
				clips = append(clips, c.Text+c.Note)
				newest = newest || c.Text == "see you soon"
				told = told || (c.Note == console.NoteSkipped && c.NoAudio)
			}
		}
		if newest && told {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("want the newest clip transcribed and the owner told some speech was dropped: %q (dropped at the link %d, behind transcription %d)",
				clips, r.b.Link().Stats().HeardDropped, r.b.console.Stats().HeardQueue)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r.b.console.Stats().HeardQueue == 0 || r.b.Link().Stats().HeardDropped != 0 {
		t.Fatalf("dropped behind transcription %d, at the link %d: want the console's drops only",
			r.b.console.Stats().HeardQueue, r.b.Link().Stats().HeardDropped)
	}
}

// TestQuietTimeEndsTheCall: "be quiet for an hour" said as a turn ends the session and its
// call (quiet_time); said during the call it acts the same; the owner's typed speech is
// refused and nothing is played; a join waiting for its chime while the robot speaks is
// cancelled by quiet time, and no chime plays.
func TestQuietTimeEndsTheCall(t *testing.T) {
	r := newCallRig(t)
	room := r.token(t, "robot", "text", "robot", "ask")
	tok := r.join(t)
	r.call(t, tok)
	if resp := r.say(t, room, "Be quiet for an hour, Reachy."); resp.status != 200 || resp.turn(t).Intent != "robot.quiet" {
		t.Fatalf("quiet: %d %s", resp.status, resp.body)
	}
	waitFor(t, "quiet time to end the session", 5*time.Second, func() bool {
		return r.robotView(t).Session == nil && lastEndOf(t, r.consoleRig) == api.CallEndQuietTime
	})
	waitFor(t, "the quiet_time ends in the audit", 5*time.Second, func() bool {
		ends, calls := r.auditArgs(t, "teleport.end"), r.auditArgs(t, "teleport.call")
		return len(ends) == 1 && ends[0]["reason"] == api.CallEndQuietTime && calls[len(calls)-1]["reason"] == api.CallEndQuietTime
	})
	plays := len(r.hub.paths("/api/media/play_sound"))
	if resp := r.post(t, tok, "say", map[string]string{"text": "hello"}); resp.status != 409 {
		t.Fatalf("typed speech in quiet time: %d %s", resp.status, resp.body)
	}
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 409 || resp.code(t) != api.CodeQuietTime {
		t.Fatalf("join in quiet time: %d %s", resp.status, resp.body)
	}
	if n := len(r.hub.paths("/api/media/play_sound")); n != plays {
		t.Fatalf("%d sounds played in quiet time", n-plays)
	}
	if resp := r.say(t, room, "You can talk again."); resp.status != 200 {
		t.Fatalf("quiet off: %d %s", resp.status, resp.body)
	}

	// Said during the call: the clip heard in the call acts.
	tok = r.join(t)
	r.call(t, tok)
	r.stt.say("be quiet for an hour")
	sendHeard(t, r.consoleRig, roomClip())
	waitFor(t, "quiet time heard in the call to end it", 5*time.Second, func() bool {
		return r.robotView(t).Session == nil && lastEndOf(t, r.consoleRig) == api.CallEndQuietTime
	})
	if !r.b.d.Quiet.Quiet("robot") {
		t.Fatal("quiet time heard in the call was not set")
	}
}

// TestQuietTimeCancelsAWaitingJoin: a join waits for the robot to finish its own reply
// before its chime; quiet time set meanwhile cancels it (quiet_time), and no chime plays.
func TestQuietTimeCancelsAWaitingJoin(t *testing.T) {
	synth := &replySynth{replyLen: 5 * time.Second}
	r := newConsoleRig(t, func(c *Config, d *Deps) { d.Synthesizer = synth })
	room := r.token(t, "robot", "text", "robot", "ask")
	tok := r.page(t)
	speakOwnReply(t, r)
	joined := make(chan reply, 1)
	go func() { joined <- r.post(t, tok, "join", map[string]any{}) }()
	waitFor(t, "the join to wait", 5*time.Second, func() bool { s := r.session(t); return s != nil && !s.Live })
	if resp := r.say(t, room, "Be quiet for an hour, Reachy."); resp.status != 200 || resp.turn(t).Intent != "robot.quiet" {
		t.Fatalf("quiet: %d %s", resp.status, resp.body)
	}
	select {
	case resp := <-joined:
		if resp.status != 409 || resp.code(t) != api.CodeQuietTime {
			t.Fatalf("the waiting join: %d %s", resp.status, resp.body)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the waiting join did not end when quiet time began")
	}
	time.Sleep(6 * time.Second) // the robot's own reply would be over: a waiting chime would play now
	if plays := r.hub.paths("/api/media/play_sound"); len(plays) != 1 {
		t.Fatalf("%d sounds played; want the robot's own reply alone, no join chime", len(plays))
	}
	if s := r.session(t); s != nil || r.hub.hub.SessionActive() {
		t.Fatalf("the join went on in quiet time: %+v", s)
	}
}
