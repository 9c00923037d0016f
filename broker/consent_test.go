package broker

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/console"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/robot"
	"github.com/reachy-broker/reachy-broker/speech"
)

// replySynth stands in for espeak: the console's announcements are short tones, every other
// sentence (a turn's reply) lasts replyLen — how long the robot is busy speaking it.
type replySynth struct {
	mu       sync.Mutex
	replyLen time.Duration
}

func (s *replySynth) Synthesize(_ context.Context, text string) ([]byte, error) {
	s.mu.Lock()
	n := int(s.replyLen.Seconds() * speech.SampleRate)
	s.mu.Unlock()
	if strings.HasSuffix(text, " is joining.") || strings.HasSuffix(text, " has left.") {
		n = speech.SampleRate / 5
	}
	x := make([]float32, n)
	for i := range x {
		x[i] = 0.1
	}
	return speech.EncodeWAV(x, speech.SampleRate)
}

// speakOwnReply makes the sim hub hear "what time is it" and run a real turn through the
// broker; when it returns, the robot is speaking its reply (replyLen long).
func speakOwnReply(t *testing.T, r *consoleRig) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h := r.hub.hub
	h.Broker = &robot.BrokerClient{URL: r.srv.URL, Token: r.token(t, "robot", "turn"), Deadline: 10 * time.Second}
	dir := t.TempDir()
	wav, err := speech.Espeak{}.Synthesize(ctx, "what time is it")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.wav"), wav, 0o644)
	src, err := robot.NewFileSource([]string{dir}, 1)
	if err != nil {
		t.Fatal(err)
	}
	h.Source = src
	r.stt.say("hey reachy what time is it")
	var turns []robot.Turn
	h.OnTurn = func(tn robot.Turn) { turns = append(turns, tn) }
	if err := h.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if len(r.hub.paths("/api/media/play_sound")) == 0 {
		t.Fatalf("the hub did not speak its own reply: %+v", turns)
	}
}

// roomClip is a second of the room, as the hub sends it up during a session.
func roomClip() []byte {
	room := make([]float32, speech.SampleRate)
	for i := range room {
		room[i] = 0.2
	}
	wav, _ := speech.EncodeWAV(room, speech.SampleRate)
	return wav
}

func (r *consoleRig) session(t *testing.T) *console.ViewSession {
	t.Helper()
	return r.robotView(t).Session
}

// TestJoinWhileRobotSpeaksWaitsForChime: an owner joins while the robot speaks its own
// reply. The hub answers the join chime busy; the broker offers it again until the robot
// has played it, and only then is the session live. A heard clip sent before that (a hub
// that diverts too early) never reaches the owner, and is not even transcribed.
func TestJoinWhileRobotSpeaksWaitsForChime(t *testing.T) {
	synth := &replySynth{replyLen: 4 * time.Second}
	r := newConsoleRig(t, func(c *Config, d *Deps) { d.Synthesizer = synth })
	tok := r.page(t)
	speakOwnReply(t, r)
	replyAt := time.Now()

	joined := make(chan reply, 1)
	go func() { joined <- r.post(t, tok, "join", map[string]any{}) }()
	for i := 0; i < 300; i++ {
		if s := r.session(t); s != nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	s := r.session(t)
	if s == nil || !s.Mine || s.Live {
		t.Fatalf("while the robot speaks its reply the join must be pending, not live: %+v", s)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	calls := r.stt.calls.Load()
	if err := r.hub.link.Send(ctx, heardMessage(roomClip())); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if s := r.session(t); s == nil || len(s.Clips) != 0 {
		t.Fatalf("the room reached the owner before the chime played: %+v", s)
	}
	if r.stt.calls.Load() != calls {
		t.Fatal("a clip heard before the chime played was transcribed")
	}

	var resp reply
	select {
	case resp = <-joined:
	case <-time.After(25 * time.Second):
		t.Fatal("the join never finished")
	}
	if resp.status != 200 {
		t.Fatalf("join: %d %s", resp.status, resp.body)
	}
	if took := time.Since(replyAt); took < 2*time.Second {
		t.Fatalf("the join finished %s after the 4 s reply began: it did not wait for the chime", took)
	}
	plays := r.hub.paths("/api/media/play_sound")
	if len(plays) != 2 {
		t.Fatalf("want the reply, then the join chime and announcement played: %d plays", len(plays))
	}
	if !r.hub.hub.SessionLive() {
		t.Fatal("the hub does not pass the room's words after the announcement played")
	}
	if s := r.session(t); s == nil || !s.Live || len(s.Clips) != 0 {
		t.Fatalf("after the chime: %+v; want live and no clip from before it", s)
	}
	r.stt.say("hello from the kitchen")
	if err := r.hub.link.Send(ctx, heardMessage(roomClip())); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		if s := r.session(t); s != nil && len(s.Clips) == 1 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the room's words after the chime did not reach the owner")
}

// TestJoinNeverAnnouncedNeverLive: a robot that never plays the join chime (it keeps
// speaking) leaves the session not live: the join ends with not_announced for the owner, the
// robot drops the presence pose, the audit records the end with a closed outcome, and
// nothing the hub sends meanwhile reaches the owner.
func TestJoinNeverAnnouncedNeverLive(t *testing.T) {
	synth := &replySynth{replyLen: 20 * time.Second}
	r := newConsoleRig(t, func(c *Config, d *Deps) {
		d.Synthesizer = synth
		c.Teleport.JoinTimeout = 1500 * time.Millisecond
	})
	tok := r.page(t)
	speakOwnReply(t, r)
	joined := make(chan reply, 1)
	go func() { joined <- r.post(t, tok, "join", map[string]any{}) }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	calls := r.stt.calls.Load()
	for i := 0; i < 300 && r.session(t) == nil; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	r.hub.link.Send(ctx, heardMessage(roomClip()))
	var resp reply
	select {
	case resp = <-joined:
	case <-time.After(15 * time.Second):
		t.Fatal("the join never ended")
	}
	if resp.status != 503 || resp.code(t) != api.CodeNotAnnounced || !strings.Contains(string(resp.body), "could not announce you") {
		t.Fatalf("unannounced join: %d %s", resp.status, resp.body)
	}
	if r.session(t) != nil || r.hub.hub.SessionActive() || r.hub.hub.SessionLive() {
		t.Fatalf("an unannounced join left a session: view %+v, hub presence %v", r.session(t), r.hub.hub.SessionActive())
	}
	if r.stt.calls.Load() != calls {
		t.Fatal("a clip heard during an unannounced join was transcribed")
	}
	if resp := r.post(t, tok, "say", map[string]string{"text": "hello"}); resp.status != 409 {
		t.Fatalf("say after an unannounced join: %d %s", resp.status, resp.body)
	}
	recs, _ := r.state.TailAudit(context.Background(), 20)
	var end *store.AuditRecord
	for i := range recs {
		if recs[i].Route == "console" && recs[i].Intent == "teleport.end" {
			end = &recs[i]
		}
	}
	if end == nil || end.Outcome != store.OutcomeFailed || end.Code != api.CodeNotAnnounced || end.Args["reason"] != "not_announced" {
		t.Fatalf("the unannounced join's end is not audited with a closed outcome: %+v", end)
	}
}

// TestHeardFloodBounded: a hub floods heard frames during a live session (200 clips of
// 0.96 MB frames). The broker holds bounded memory, drops the excess with a count, keeps
// the session running, and another robot's room still reaches its owner at once.
func TestHeardFloodBounded(t *testing.T) {
	// Dad's page is not polled while his robot floods: its heartbeat must outlast the test.
	r := newConsoleRig(t, func(c *Config, d *Deps) { d.PageTimeout = 10 * time.Minute })
	r.stt.mu.Lock()
	r.stt.delay = 50 * time.Millisecond // each transcription costs time, like whisper
	r.stt.mu.Unlock()
	bedside := startSimHub(t, r.srv.URL, r.token(t, "bedside", "turn", "link"), nil)
	waitLinked(t, r.b, "bedside", 1, 5*time.Second)
	tok := r.page(t)
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("dad joins robot: %d %s", resp.status, resp.body)
	}
	r.people.set(mom)
	momTok := r.page(t)
	if resp := r.do(t, "POST", "/console/api/robots/bedside/join", "", "application/json", []byte(`{}`),
		"Origin", r.srv.URL, "X-Console-Token", momTok, "Sec-Fetch-Site", "same-origin"); resp.status != 200 {
		t.Fatalf("mom joins bedside: %d %s", resp.status, resp.body)
	}
	r.people.set(dad)

	big := make([]float32, 360_000) // 22.5 s: a 0.72 MB WAV, a 0.96 MB frame in base64
	for i := range big {
		big[i] = 0.1
	}
	flood, _ := speech.EncodeWAV(big, speech.SampleRate)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	frames, within := 200, 2*time.Second
	if raceDetector { // -race decodes a frame many times slower, and its memory says nothing
		frames, within = 40, 5*time.Second
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	for i := 0; i < frames; i++ {
		if err := r.hub.link.Send(ctx, heardMessage(flood)); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
	}
	time.Sleep(200 * time.Millisecond) // the broker's reader takes the last frames in
	grew := int64(heap()) - int64(before)
	t.Logf("heap grew %d MB during the flood; %d dropped at the link, %d transcribed", grew>>20, r.b.Link().Stats().HeardDropped, r.stt.calls.Load())
	if grew > 48<<20 && !raceDetector {
		t.Errorf("a heard flood held %d MB", grew>>20)
	}
	if r.b.Link().Stats().HeardDropped == 0 {
		t.Error("no heard clip was dropped or counted")
	}

	// Mom's robot hears something now: it reaches her page without waiting behind dad's robot.
	r.people.set(mom)
	start := time.Now()
	if err := bedside.link.Send(ctx, heardMessage(roomClip())); err != nil {
		t.Fatal(err)
	}
	got := false
	for time.Since(start) < 10*time.Second && !got {
		for _, rv := range r.view(t).Robots {
			if rv.Device == "bedside" && rv.Session != nil && len(rv.Session.Clips) == 1 {
				got = true
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	if took := time.Since(start); !got || took > within {
		t.Fatalf("another robot's clip reached its owner after %s (arrived %v): it waited behind the flood", took.Round(time.Millisecond), got)
	}
	r.people.set(dad)
	if s := r.session(t); s == nil || !s.Live || !r.hub.hub.SessionActive() {
		t.Fatalf("the flooding robot's session did not keep running: %+v", s)
	}
}

// TestMalformedFloodLogsBounded: a hub that sends thousands of malformed, unknown or binary
// frames writes a bounded number of log lines, then one summary of what was suppressed;
// the link stays up and is counted.
func TestMalformedFloodLogsBounded(t *testing.T) {
	const logEvery = 2 * time.Second
	logs := &syncBuffer{}
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		d.Logger = slog.New(slog.NewTextHandler(logs, nil))
		d.Link.LogInterval = logEvery
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, tb.srv.URL+"/v1/link", &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": {"Bearer " + tb.token(t, "robot", "link")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 20)
	pong := make(chan struct{})
	go func() { // the broker answers each bad frame; keep reading so it never blocks
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				return
			}
			if bytes.Contains(b, []byte(`"id":"last"`)) {
				close(pong)
			}
		}
	}()
	waitLinked(t, tb.b, "robot", 1, 5*time.Second)
	linesBefore := logs.lines()
	start := time.Now()
	frames := [][]byte{[]byte(`{"type":`), []byte(`{"type":"ack","bogus":1}`), []byte(`{"type":"open_door"}`)}
	const n = 3000
	for i := 0; i < n; i++ {
		typ := websocket.MessageText
		if i%4 == 3 {
			typ = websocket.MessageBinary
		}
		if err := ws.Write(ctx, typ, frames[i%len(frames)]); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
	}
	// A ping after the flood: its pong says the broker has read every bad frame.
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"ping","id":"last"}`)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-pong:
	case <-ctx.Done():
		t.Fatal("the link stopped answering after the flood")
	}
	// Three kinds of bad frame: each may write 5 lines and one summary per interval.
	took := time.Since(start)
	flood, bound := logs.lines()-linesBefore, 3*6*(int(took/logEvery)+1)
	t.Logf("%d malformed frames in %s wrote %d log lines (bound %d)", n, took.Round(time.Millisecond), flood, bound)
	if flood > bound {
		t.Fatalf("%d bad frames wrote %d log lines", n, flood)
	}
	if got := tb.b.Link().Stats().Malformed; got != n {
		t.Fatalf("malformed frames counted: %d of %d", got, n)
	}
	for i := 0; i < 400 && !strings.Contains(logs.String(), "suppressed="); i++ {
		time.Sleep(10 * time.Millisecond) // the interval ends: one summary per kind of line
	}
	if !strings.Contains(logs.String(), "suppressed=") {
		t.Fatalf("no summary of the suppressed lines:\n%s", logs.String())
	}
	if st := tb.b.Link().Status("robot"); !st.Online || st.Connects != 1 {
		t.Fatalf("the link did not stay up: %+v", st)
	}
}

func (s *syncBuffer) lines() int { return strings.Count(s.String(), "\n") }
