package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/console"
	"github.com/reachy-broker/reachy-broker/speech"
)

// switchPeople is a PersonIdentifier whose answer the test sets: who is "at the browser".
type switchPeople struct {
	mu sync.Mutex
	p  console.Person
}

func (s *switchPeople) set(p console.Person) {
	s.mu.Lock()
	s.p = p
	s.mu.Unlock()
}

func (s *switchPeople) Person(context.Context, string) (console.Person, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.p, nil
}

// toneSynth stands in for espeak: every sentence becomes a short tone.
type toneSynth struct {
	mu    sync.Mutex
	calls []string
}

func (s *toneSynth) said() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.calls...)
}

func (s *toneSynth) Synthesize(_ context.Context, text string) ([]byte, error) {
	s.mu.Lock()
	s.calls = append(s.calls, text)
	s.mu.Unlock()
	x := make([]float32, speech.SampleRate/5)
	for i := range x {
		x[i] = 0.2
	}
	return speech.EncodeWAV(x, speech.SampleRate)
}

var (
	dad = console.Person{Login: "dad@example.com", Display: "Dad", Node: "dads-laptop"}
	mom = console.Person{Login: "mom@example.com", Display: "Mom", Node: "moms-phone"}
)

type consoleRig struct {
	*testBroker
	people *switchPeople
	synth  *toneSynth
	hub    *simHub

	tabMu sync.Mutex
	tabs  map[string]string // login -> the token of that person's one open page (tab)
}

func newConsoleRig(t testing.TB, opts ...option) *consoleRig {
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
	hub := startSimHub(t, tb.srv.URL, tb.token(t, "robot", "turn", "link"), nil)
	waitLinked(t, tb.b, "robot", 1, 5*time.Second)
	return &consoleRig{testBroker: tb, people: people, synth: synth, hub: hub}
}

var tokenMeta = regexp.MustCompile(`name="console-token" content="([^"]+)"`)

// page is the per-page token of the current person's open page (tab): loaded once, the same
// page after that — a session belongs to the page that joined it.
func (r *consoleRig) page(t testing.TB) string {
	t.Helper()
	login := ""
	if r.people != nil {
		r.people.mu.Lock()
		login = r.people.p.Login
		r.people.mu.Unlock()
	}
	r.tabMu.Lock()
	tok, ok := r.tabs[login]
	r.tabMu.Unlock()
	if ok {
		return tok
	}
	tok = r.newPage(t)
	r.tabMu.Lock()
	if r.tabs == nil {
		r.tabs = map[string]string{}
	}
	r.tabs[login] = tok
	r.tabMu.Unlock()
	return tok
}

// newPage loads the console as the current person in a new tab and returns its token.
func (r *consoleRig) newPage(t testing.TB) string {
	t.Helper()
	resp := r.do(t, "GET", "/", "", "", nil)
	if resp.status != 200 {
		t.Fatalf("page: %d %s", resp.status, resp.body)
	}
	m := tokenMeta.FindSubmatch(resp.body)
	if m == nil {
		t.Fatalf("no page token in %s", resp.body)
	}
	return string(m[1])
}

func (r *consoleRig) post(t testing.TB, pageToken, action string, body any, hdr ...string) reply {
	t.Helper()
	var b []byte
	ctype := "application/json"
	switch v := body.(type) {
	case []byte:
		b, ctype = v, "audio/wav"
	default:
		b, _ = json.Marshal(v)
	}
	h := append([]string{"Origin", r.srv.URL, "X-Console-Token", pageToken, "Sec-Fetch-Site", "same-origin"}, hdr...)
	return r.do(t, "POST", "/console/api/robots/robot/"+action, "", ctype, b, h...)
}

func (r *consoleRig) view(t *testing.T) console.View {
	t.Helper()
	var v console.View
	r.do(t, "GET", "/console/api/state", "", "", nil, "X-Console-Token", r.page(t)).json(t, &v)
	return v
}

func (r *consoleRig) robotView(t *testing.T) console.ViewRobot {
	t.Helper()
	for _, rv := range r.view(t).Robots {
		if rv.Device == "robot" {
			return rv
		}
	}
	t.Fatal("robot not on the page")
	return console.ViewRobot{}
}

// TestConsoleIdentity: owners get the page with a strict CSP and no third-party asset;
// another tailnet user and a tagged node get a 403 page that says who they are and why.
func TestConsoleIdentity(t *testing.T) {
	r := newConsoleRig(t)
	resp := r.do(t, "GET", "/", "", "", nil)
	if resp.status != 200 || !strings.Contains(resp.header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Fatalf("owner: %d %v", resp.status, resp.header)
	}
	if regexp.MustCompile(`(src|href)="(https?:)?//`).Match(resp.body) {
		t.Fatalf("the page links a third-party asset: %s", resp.body)
	}
	r.people.set(console.Person{Login: "guest@example.com", Node: "guest-laptop"})
	resp = r.do(t, "GET", "/", "", "", nil)
	if resp.status != 403 || !bytes.Contains(resp.body, []byte("guest@example.com")) || !bytes.Contains(resp.body, []byte("teleport.owners")) {
		t.Fatalf("other user: %d %s", resp.status, resp.body)
	}
	r.people.set(console.Person{Login: dad.Login, Node: "robot", Tags: []string{"tag:robot"}})
	resp = r.do(t, "GET", "/", "", "", nil)
	if resp.status != 403 || !bytes.Contains(resp.body, []byte("tagged node")) {
		t.Fatalf("tagged node: %d %s", resp.status, resp.body)
	}
	if resp := r.do(t, "GET", "/console/api/state", "", "", nil); resp.status != 403 || resp.code(t) != api.CodeNotOwner {
		t.Fatalf("tagged node, JSON: %d %s", resp.status, resp.body)
	}
}

// TestConsoleCrossOrigin: a state-changing call from another origin, another site, or
// without the page's token is refused, and nothing reaches the robot.
func TestConsoleCrossOrigin(t *testing.T) {
	r := newConsoleRig(t)
	tok := r.page(t)
	before := len(r.hub.fake.Calls())
	for name, hdr := range map[string][]string{
		"other origin":  {"Origin", "https://evil.example", "X-Console-Token", tok},
		"other site":    {"Origin", r.srv.URL, "Sec-Fetch-Site", "cross-site", "X-Console-Token", tok},
		"no origin":     {"X-Console-Token", tok},
		"no page token": {"Origin", r.srv.URL},
		"forged token":  {"Origin", r.srv.URL, "X-Console-Token", "forged"},
	} {
		resp := r.do(t, "POST", "/console/api/robots/robot/join", "", "application/json", []byte(`{}`), hdr...)
		if resp.status != 403 || resp.code(t) != api.CodeCrossOrigin {
			t.Errorf("%s: %d %s", name, resp.status, resp.body)
		}
	}
	// Another owner's page token is not this owner's.
	r.people.set(mom)
	momTok := r.page(t)
	r.people.set(dad)
	if resp := r.post(t, momTok, "join", map[string]any{}); resp.status != 403 {
		t.Errorf("someone else's page token: %d %s", resp.status, resp.body)
	}
	if got := len(r.hub.fake.Calls()); got != before {
		t.Fatalf("a refused request reached the robot: %d calls", got-before)
	}
	if r.robotView(t).Session != nil {
		t.Fatal("a refused join started a session")
	}
}

// TestConsoleSession: join announces and shows presence, a second owner sees who is
// connected, typed and push-to-talk speech reach the speaker, an oversized clip is 413,
// moves reach the daemon, and the audit has every action by kind — no words.
func TestConsoleSession(t *testing.T) {
	r := newConsoleRig(t)
	tok := r.page(t)
	if resp := r.post(t, tok, "say", map[string]string{"text": "hello"}); resp.status != 409 || resp.code(t) != api.CodeNoSession {
		t.Fatalf("say before join: %d %s", resp.status, resp.body)
	}
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("join: %d %s", resp.status, resp.body)
	}
	if said := r.synth.said(); !r.hub.hub.SessionActive() || len(said) == 0 || said[0] != "Dad is joining." {
		t.Fatalf("join: session %v, announced %q", r.hub.hub.SessionActive(), said)
	}
	if n := len(r.hub.paths("/api/media/play_sound")); n != 1 {
		t.Fatalf("announcement plays: %d", n)
	}

	r.people.set(mom)
	momTok := r.page(t)
	resp := r.post(t, momTok, "join", map[string]any{})
	if resp.status != 409 || resp.code(t) != api.CodeSessionBusy || !bytes.Contains(resp.body, []byte("Dad is connected")) {
		t.Fatalf("second owner: %d %s", resp.status, resp.body)
	}
	if s := r.robotView(t).Session; s == nil || s.Display != "Dad" || s.Mine {
		t.Fatalf("mom's view of the session: %+v", s)
	}
	if resp := r.post(t, momTok, "leave", map[string]any{}); resp.status != 409 {
		t.Fatalf("mom ends dad's session: %d", resp.status)
	}
	r.people.set(dad)

	if resp := r.post(t, tok, "say", map[string]string{"text": "I'll be home on Friday"}); resp.status != 200 {
		t.Fatalf("say: %d %s", resp.status, resp.body)
	}
	three := make([]float32, 3*speech.SampleRate)
	wav, _ := speech.EncodeWAV(three, speech.SampleRate)
	if resp := r.post(t, tok, "talk", wav); resp.status != 200 {
		t.Fatalf("talk: %d %s", resp.status, resp.body)
	}
	if n := len(r.hub.paths("/api/media/play_sound")); n != 3 {
		t.Fatalf("plays after say and talk: %d", n)
	}
	long, _ := speech.EncodeWAV(make([]float32, 31*speech.SampleRate), speech.SampleRate)
	if resp := r.post(t, tok, "talk", long); resp.status != 413 || resp.code(t) != api.CodeTooLarge {
		t.Fatalf("31 s clip: %d %s", resp.status, resp.body)
	}
	huge := make([]byte, 3<<20)
	if resp := r.post(t, tok, "talk", huge); resp.status != 413 || resp.code(t) != api.CodeTooLarge {
		t.Fatalf("3 MiB clip: %d %s", resp.status, resp.body)
	}
	if resp := r.post(t, tok, "talk", []byte("RIFF not really")); resp.status != 400 || resp.code(t) != api.CodeInvalidAudio {
		t.Fatalf("junk clip: %d %s", resp.status, resp.body)
	}
	if resp := r.post(t, tok, "look", map[string]string{"direction": "left"}); resp.status != 200 {
		t.Fatalf("look: %d %s", resp.status, resp.body)
	}
	if resp := r.post(t, tok, "look", map[string]string{"direction": "behind"}); resp.status != 400 {
		t.Fatalf("bad look: %d %s", resp.status, resp.body)
	}
	if resp := r.post(t, tok, "expression", map[string]string{"expression": "self_destruct"}); resp.status != 400 || resp.code(t) != api.CodeInvalidArgs {
		t.Fatalf("unknown expression: %d %s", resp.status, resp.body)
	}
	if resp := r.post(t, tok, "expression", map[string]string{"expression": "nod"}); resp.status != 200 {
		t.Fatalf("expression: %d %s", resp.status, resp.body)
	}
	if resp := r.post(t, tok, "leave", map[string]any{}); resp.status != 200 || r.hub.hub.SessionActive() {
		t.Fatalf("leave: %d %s", resp.status, resp.body)
	}

	recs, _ := r.state.TailAudit(context.Background(), 50)
	var kinds []string
	for _, rec := range recs {
		if rec.Route != "console" {
			continue
		}
		kinds = append(kinds, rec.Intent)
		if rec.Args["owner"] != dad.Login || rec.Device != "robot" {
			t.Errorf("audit record without who or which robot: %+v", rec)
		}
		b, _ := json.Marshal(rec)
		if bytes.Contains(b, []byte("Friday")) || bytes.Contains(b, []byte("hello")) {
			t.Errorf("audit carries words: %s", b)
		}
	}
	got := strings.Join(kinds, " ")
	for _, want := range []string{"teleport.start", "teleport.say", "teleport.talk", "teleport.look", "teleport.expression", "teleport.end"} {
		if !strings.Contains(got, want) {
			t.Errorf("audit lacks %s: %s", want, got)
		}
	}
}

// TestConsoleHearAndHangUp: during a session the room's utterances reach the page as clips
// with their transcript and not the router; "stop" stops the robot; "hang up" ends it.
func TestConsoleHearAndHangUp(t *testing.T) {
	r := newConsoleRig(t)
	tok := r.page(t)
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("join: %d %s", resp.status, resp.body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	utter := func(text string) {
		t.Helper()
		r.stt.say(text)
		room := make([]float32, speech.SampleRate)
		for i := range room {
			room[i] = 0.2 // a microphone whose samples sit around 0.2: whisper gets them around 0
		}
		wav, _ := speech.EncodeWAV(room, speech.SampleRate)
		if !r.hub.hub.SessionActive() {
			t.Fatal("no session on the hub")
		}
		if err := r.hub.link.Send(ctx, api.LinkMessage{Type: api.LinkHeard, Heard: &api.LinkHeardBody{WAV: wav}}); err != nil {
			t.Fatal(err)
		}
	}
	before := r.light.count()
	utter("turn on the kitchen light")
	var clips int
	for i := 0; i < 200; i++ {
		if s := r.robotView(t).Session; s != nil && len(s.Clips) == 1 {
			clips = 1
			if s.Clips[0].Text != "turn on the kitchen light" {
				t.Fatalf("clip transcript: %+v", s.Clips[0])
			}
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if clips != 1 || r.light.count() != before {
		t.Fatalf("clip on the page: %d; light switched: %v", clips, r.light.count() != before)
	}
	r.stt.mu.Lock()
	if n := len(r.stt.heard); n == 0 {
		t.Error("whisper was given nothing")
	} else if mid := r.stt.heard[n/2]; math.Abs(float64(mid)) > 0.01 {
		t.Errorf("whisper was given audio centred on %.3f; want the microphone's offset taken out", mid)
	}
	r.stt.mu.Unlock()
	cl := r.do(t, "GET", "/console/api/robots/robot/clips/1", "", "", nil, "X-Console-Token", r.page(t))
	if cl.status != 200 || !bytes.HasPrefix(cl.body, []byte("RIFF")) {
		t.Fatalf("clip audio: %d", cl.status)
	}
	r.people.set(mom)
	if cl := r.do(t, "GET", "/console/api/robots/robot/clips/1", "", "", nil, "X-Console-Token", r.page(t)); cl.status != 404 {
		t.Fatalf("another owner heard dad's clip: %d", cl.status)
	}
	r.people.set(dad)

	stops := len(r.hub.paths("/api/media/stop_sound"))
	utter("stop")
	for i := 0; i < 200 && len(r.hub.paths("/api/media/stop_sound")) == stops; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if len(r.hub.paths("/api/media/stop_sound")) == stops || !r.hub.hub.SessionActive() {
		t.Fatal(`"stop" did not stop the robot, or ended the session`)
	}
	utter("okay, hang up now")
	for i := 0; i < 300 && r.hub.hub.SessionActive(); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if r.hub.hub.SessionActive() || r.robotView(t).Session != nil {
		t.Fatal(`"hang up" did not end the session`)
	}
	recs, _ := r.state.TailAudit(context.Background(), 5)
	last := recs[len(recs)-1]
	for _, rec := range recs {
		if rec.Intent == "teleport.end" {
			last = rec
		}
	}
	if last.Intent != "teleport.end" || last.Args["reason"] != "hang_up" {
		t.Fatalf("end not audited as hang_up: %+v", last)
	}
}

// TestConsoleIdleTimeout: a session with nothing happening ends by itself.
func TestConsoleIdleTimeout(t *testing.T) {
	r := newConsoleRig(t, func(c *Config, d *Deps) { c.Teleport.IdleTimeout = 300 * time.Millisecond })
	tok := r.page(t)
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("join: %d %s", resp.status, resp.body)
	}
	for i := 0; i < 300 && r.hub.hub.SessionActive(); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if r.hub.hub.SessionActive() || r.robotView(t).Session != nil {
		t.Fatal("the idle session did not end")
	}
}

// TestConsoleAuditFailureStopsAction: if the audit log cannot record a join, the robot is
// never told, and the owner hears why.
func TestConsoleAuditFailureStopsAction(t *testing.T) {
	r := newConsoleRig(t)
	tok := r.page(t)
	r.state.DB().Exec(`DROP TRIGGER IF EXISTS audit_append_only`)
	r.state.DB().Exec(`CREATE TRIGGER no_audit BEFORE INSERT ON audit BEGIN SELECT RAISE(ABORT, 'disk full'); END`)
	resp := r.post(t, tok, "join", map[string]any{})
	if resp.status != 503 || resp.code(t) != api.CodeUnavailable {
		t.Fatalf("join with a broken audit: %d %s", resp.status, resp.body)
	}
	if r.hub.hub.SessionActive() {
		t.Fatal("the robot showed presence without an audit record")
	}
}

func heardMessage(wav []byte) api.LinkMessage {
	return api.LinkMessage{Type: api.LinkHeard, Heard: &api.LinkHeardBody{WAV: wav}}
}

// TestHangUpAsATurn: "hang up" reaching the broker as an ordinary turn of the robot (its
// link was down when it was said) still ends that robot's session.
func TestHangUpAsATurn(t *testing.T) {
	r := newConsoleRig(t)
	tok := r.page(t)
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("join: %d %s", resp.status, resp.body)
	}
	robotTok := r.token(t, "robot", "text", "turn")
	if resp := r.say(t, robotTok, "end the call"); resp.status != 200 || resp.turn(t).Intent != "session.end" {
		t.Fatalf("hang up as a turn: %d %s", resp.status, resp.body)
	}
	if r.robotView(t).Session != nil {
		t.Fatal("the session is still on")
	}
	if resp := r.say(t, robotTok, "hang up"); resp.turn(t).Reply != "There is no call to hang up." {
		t.Fatalf("hang up without a call: %s", resp.body)
	}
}
