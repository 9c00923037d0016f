package broker

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/announce"
	"github.com/reachy-broker/reachy-broker/broker/api"
)

// quietClock is the broker's clock in a test: it moves only when the test says so.
type quietClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *quietClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *quietClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// speechLink records what each robot was sent to play: the spoken words, or the chime alone.
type speechLink struct {
	mu    sync.Mutex
	plays map[string][]api.LinkPlayAction
}

func (l *speechLink) Send(ctx context.Context, dev string, m api.LinkMessage) (api.LinkAckBody, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if m.Type == api.LinkPlay {
		l.plays[dev] = append(l.plays[dev], *m.Play)
	}
	return api.LinkAckBody{OK: true}, nil
}

func (l *speechLink) Connected() []string { return []string{"robot", "bedside"} }

// last reports whether dev's last play carried words (false: the chime alone).
func (l *speechLink) last(t *testing.T, dev string) (spoken bool) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.plays[dev]
	if len(p) == 0 {
		t.Fatalf("%s was sent nothing to play", dev)
	}
	if !p[len(p)-1].Chime {
		t.Fatalf("%s: an announcement without its chime", dev)
	}
	return len(p[len(p)-1].WAV) > 0
}

// TestQuietTime: "be quiet for an hour" said to a robot makes an announcement there the
// chime alone (another robot still hears the words) and refuses a teleport join with
// quiet_time and a sentence for the page; a question asked directly is still answered; "you
// can talk again" ends it; a quiet time with a length ends by itself when it is over.
func TestQuietTime(t *testing.T) {
	clk := &quietClock{t: time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)}
	ann := &speechLink{plays: map[string][]api.LinkPlayAction{}}
	r := newConsoleRig(t, func(c *Config, d *Deps) {
		d.Now = clk.Now
		d.Announcer = &announce.Announcer{Link: ann, Synth: &toneSynth{}, Audit: AnnouncementAudit(d.State)}
	})
	room := r.token(t, "robot", "text", "robot", "ask")
	op := r.token(t, "mom-phone", "announce")
	announceAll := func() {
		t.Helper()
		if resp := r.do(t, "POST", "/v1/announcements", op, "application/json", []byte(`{"all": true, "text": "Dinner is ready"}`)); resp.status != 200 {
			t.Fatalf("announce: %d %s", resp.status, resp.body)
		}
	}
	say := func(text, intent string) api.TurnResponse {
		t.Helper()
		resp := r.say(t, room, text)
		if resp.status != 200 {
			t.Fatalf("%q: %d %s", text, resp.status, resp.body)
		}
		tr := resp.turn(t)
		if tr.Intent != intent {
			t.Fatalf("%q: %s, want %s", text, tr.Intent, intent)
		}
		return tr
	}
	tok := r.page(t)
	join := func() reply {
		t.Helper()
		return r.post(t, tok, "join", map[string]any{})
	}

	announceAll()
	if !ann.last(t, "robot") {
		t.Fatal("before quiet time the announcement was not spoken")
	}
	if tr := say("Be quiet for an hour, Reachy.", "robot.quiet"); tr.Reply != "" {
		t.Fatalf("quiet time answered out loud: %q", tr.Reply)
	}
	announceAll()
	if ann.last(t, "robot") {
		t.Fatal("in quiet time the announcement was spoken, not the chime alone")
	}
	if !ann.last(t, "bedside") {
		t.Fatal("another robot's announcement became the chime")
	}
	resp := join()
	if resp.status != 409 || resp.code(t) != api.CodeQuietTime || !strings.Contains(string(resp.body), "quiet time for another 60 minutes") {
		t.Fatalf("join in quiet time: %d %s", resp.status, resp.body)
	}
	if r.hub.hub.SessionActive() {
		t.Fatal("a refused join started a session")
	}
	if tr := say("what time is it", "time.now"); tr.Reply == "" {
		t.Fatal("a question asked directly was not answered in quiet time")
	}
	// Wishes and reports set nothing; "you can talk again" ends it.
	say("You can talk again.", "robot.quiet")
	announceAll()
	if !ann.last(t, "robot") {
		t.Fatal("after \"you can talk again\" the announcement was still the chime alone")
	}
	if resp := join(); resp.status != 200 {
		t.Fatalf("join after quiet time: %d %s", resp.status, resp.body)
	}
	// Quiet time that starts during a session ends it (quiet_time), and the goodbye is the
	// chime alone.
	say("Mute, the baby's asleep.", "robot.quiet")
	waitFor(t, "the session to end as quiet_time", 5*time.Second, func() bool {
		rv := r.robotView(t)
		return rv.Session == nil && rv.LastEnd != nil && rv.LastEnd.Reason == api.CallEndQuietTime
	})
	if resp := r.post(t, tok, "leave", map[string]any{}); resp.status != 409 || resp.code(t) != api.CodeNoSession {
		t.Fatalf("leave after quiet time ended the session: %d %s", resp.status, resp.body)
	}
	for _, s := range r.synth.said() {
		if strings.Contains(s, "has left") {
			t.Fatalf("the console spoke %q in quiet time", s)
		}
	}
	say("okay reachy, you can speak again", "robot.quiet")

	// A length: over by itself when it is.
	say("Mute for twenty minutes.", "robot.quiet")
	clk.advance(19 * time.Minute)
	if resp := join(); resp.status != 409 || resp.code(t) != api.CodeQuietTime {
		t.Fatalf("join a minute before quiet time ends: %d %s", resp.status, resp.body)
	}
	announceAll()
	if ann.last(t, "robot") {
		t.Fatal("an announcement inside the quiet time was spoken")
	}
	clk.advance(time.Minute)
	announceAll()
	if !ann.last(t, "robot") {
		t.Fatal("quiet time did not end after its length")
	}
	if resp := join(); resp.status != 200 {
		t.Fatalf("join after quiet time ended: %d %s", resp.status, resp.body)
	}
}

// TestQuietTimeOutOfRange: a length the robot cannot be quiet for is refused out loud and
// sets nothing.
func TestQuietTimeOutOfRange(t *testing.T) {
	ann := &speechLink{plays: map[string][]api.LinkPlayAction{}}
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		d.Announcer = &announce.Announcer{Link: ann, Synth: &toneSynth{}, Audit: AnnouncementAudit(d.State)}
	})
	room := tb.token(t, "robot", "text", "robot")
	for _, s := range []string{"be quiet for 30 seconds", "mute for 13 hours"} {
		resp := tb.say(t, room, s)
		if tr := resp.turn(t); tr.Intent != "robot.quiet" || !strings.Contains(tr.Reply, "one minute to twelve hours") {
			t.Fatalf("%q: %d %s", s, resp.status, resp.body)
		}
	}
	if resp := tb.do(t, "POST", "/v1/announcements", tb.token(t, "mom-phone", "announce"), "application/json", []byte(`{"robot": "robot", "text": "Dinner"}`)); resp.status != 200 {
		t.Fatalf("announce: %d %s", resp.status, resp.body)
	}
	if !ann.last(t, "robot") {
		t.Fatal("a refused quiet time silenced the announcement")
	}
}
