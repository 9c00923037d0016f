package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tailscale.com/envknob"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/brokertest"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
	"github.com/reachy-broker/reachy-broker/intents/home"
	"github.com/reachy-broker/reachy-broker/robot"
	"github.com/reachy-broker/reachy-broker/robot/call"
	"github.com/reachy-broker/reachy-broker/robot/call/media"
	"github.com/reachy-broker/reachy-broker/speech"
)

// TestMain: started as a call's media process by a hub under test (the tests name this
// binary with call.binary), the test binary serves the media, as reachy-call would.
func TestMain(m *testing.M) {
	if os.Getenv(call.MediaProcessEnv) != "" {
		os.Exit(media.Main())
	}
	if mode := os.Getenv(ringKillEnv); mode != "" {
		runRingKillChild(mode) // a process of the kill sweep (ringkill_test.go)
	}
	envknob.Setenv("TS_DISABLE_PORTMAPPER", "1")
	os.Exit(m.Run())
}

// scriptedTranscriber stands in for whisper (a generated model's words are meaningless): it
// returns the next scripted sentence for each utterance.
type scriptedTranscriber struct {
	mu    sync.Mutex
	lines []string
}

func (s *scriptedTranscriber) Transcribe(ctx context.Context, samples []float32) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.lines) == 0 {
		return "", nil
	}
	l := s.lines[0]
	s.lines = s.lines[1:]
	return l, nil
}

func writeSpeech(t *testing.T, dir, name, text string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	wav, err := speech.Espeak{}.Synthesize(ctx, text)
	if err != nil {
		t.Fatalf("espeak-ng: %v", err)
	}
	os.WriteFile(filepath.Join(dir, name), wav, 0o644)
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// TestSimOverTailnet runs the hub in sim mode against a real broker on an in-process tailnet.
func TestSimOverTailnet(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	controlURL := brokertest.StartControl(t)
	dir := t.TempDir()
	cfg, table, err := broker.DevConfig("127.0.0.1:0", filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Devices = []broker.DeviceConfig{{Name: "reachy", Room: "living room"}}
	state, err := store.Init(cfg.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	defer state.Close()
	tn, err := broker.StartTailnet(ctx, broker.TailnetConfig{Hostname: "broker", StateDir: filepath.Join(dir, "ts"), Ephemeral: true, ControlURL: controlURL})
	if err != nil {
		t.Fatal(err)
	}
	defer tn.Close()
	house := home.NewMemory()
	handlers := basic.Handlers(time.Now)
	handlers["home.light"] = home.Handler{Backend: house, Kind: "light"}
	stt := &scriptedTranscriber{lines: []string{"hey reachy, turn on the kitchen light", "hey reachy, do a little dance"}}
	b, err := broker.New(broker.Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Identifier: tn,
		Transcriber: stt, Synthesizer: speech.Espeak{}, Handlers: handlers, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	l, err := tn.Listen(broker.TailnetPort)
	if err != nil {
		t.Fatal(err)
	}
	srv := broker.NewHTTPServer(b.Handler(), cfg.Turn.Budget)
	go srv.Serve(l)
	defer srv.Close()
	ip, _ := tn.IPs()

	robotNode := brokertest.StartNode(t, ctx, controlURL, "reachy")
	tok, _, err := state.CreateToken(ctx, "reachy", []string{"turn", "house:write", "robot"}, "reachy")
	if err != nil {
		t.Fatal(err)
	}
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte(tok+"\n"), 0o600)
	mic := filepath.Join(dir, "mic")
	os.MkdirAll(mic, 0o755)
	writeSpeech(t, mic, "1.wav", "hey reachy, turn on the kitchen light")
	writeSpeech(t, mic, "2.wav", "hey reachy, do a little dance")
	out := filepath.Join(dir, "out")

	// The first packets may race the DERP handshake; the hub's own retries cover that.
	var stderr bytes.Buffer
	code := run(ctx, []string{"--sim", "--broker", fmt.Sprintf("http://%s:%d", ip, broker.TailnetPort), "--token-file", tokenFile, "--out", out, mic},
		io.Discard, &stderr, robotNode.HTTPClient())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var turns []robot.Turn
	readJSON(t, filepath.Join(out, "turns.json"), &turns)
	if len(turns) != 2 {
		t.Fatalf("%d turns: %+v\n%s", len(turns), turns, stderr.String())
	}
	if turns[0].Reply.Intent != "house.light.set" || turns[0].Reply.Reply != "Okay, the kitchen light is on." || turns[0].SoundPlayed == "" {
		t.Fatalf("first turn %+v", turns[0])
	}
	if s, _ := house.Get(ctx, home.Device{Room: "kitchen", Kind: "light"}); !s.On || house.Sets(home.Device{Room: "kitchen", Kind: "light"}) != 1 {
		t.Fatal("the kitchen light was not switched exactly once")
	}
	if turns[1].Reply.Intent != "robot.expression" || turns[1].Reply.Expression != "dance" {
		t.Fatalf("second turn %+v", turns[1])
	}
	if turns[0].Key == "" || turns[0].Key == turns[1].Key {
		t.Fatal("each utterance needs its own idempotency key")
	}
	// The reply was uploaded and played, the dance played, on the fake daemon.
	var calls []robot.Call
	readJSON(t, filepath.Join(out, "daemon-calls.json"), &calls)
	var paths []string
	for _, c := range calls {
		paths = append(paths, c.Path)
	}
	joined := strings.Join(paths, " ")
	for _, want := range []string{"/api/media/wobbling/enable", "/api/media/sounds/upload", "/api/media/play_sound", "/api/move/play/recorded-move-dataset/pollen-robotics/reachy-mini-dances-library/groovy"} {
		if !strings.Contains(joined, want) {
			t.Errorf("daemon never got %s: %s", want, joined)
		}
	}
	if _, err := os.Stat(filepath.Join(out, turns[0].SoundPlayed)); err != nil {
		t.Errorf("reply audio not written out: %v", err)
	}
	// Motions in order: listening, thinking, speaking for the first utterance.
	var motions []robot.MotionEvent
	readJSON(t, filepath.Join(out, "motions.json"), &motions)
	var states []string
	for _, m := range motions {
		states = append(states, m.State)
		if m.Moved.Sub(m.Changed) > 100*time.Millisecond {
			t.Errorf("motion %s started %v after the state change", m.State, m.Moved.Sub(m.Changed))
		}
	}
	if s := strings.Join(states, ","); !strings.Contains(s, "listening,thinking,speaking") {
		t.Fatalf("motion order %s", s)
	}
	// The broker saw the robot's node.
	recs, _ := state.TailAudit(ctx, 5)
	if len(recs) < 2 || recs[0].Node != "reachy" || recs[0].Device != "reachy" {
		t.Fatalf("audit %+v", recs)
	}
}

// TestUnreachableBrokerPlaysTheFallback: with no broker at all the robot still says something.
func TestUnreachableBrokerPlaysTheFallback(t *testing.T) {
	dir := t.TempDir()
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + l.Addr().String()
	l.Close()
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte("rbk_x\n"), 0o600)
	cfgFile := filepath.Join(dir, "hub.yaml")
	os.WriteFile(cfgFile, []byte("broker_url: "+dead+"\ntoken_file: "+tokenFile+"\nbroker_deadline: 1s\n"), 0o600)
	writeSpeech(t, dir, "hello.wav", "hey reachy, what time is it")
	out := filepath.Join(dir, "out")
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"--sim", "--config", cfgFile, "--out", out, filepath.Join(dir, "hello.wav")}, io.Discard, &stderr, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var turns []robot.Turn
	readJSON(t, filepath.Join(out, "turns.json"), &turns)
	if len(turns) != 1 || !turns[0].Fallback || turns[0].SoundPlayed != "fallback.wav" {
		t.Fatalf("%+v", turns)
	}
}

func TestWorldReadableTokenIsRefused(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte("rbk_x\n"), 0o644)
	l, _ := net.Listen("tcp", "127.0.0.1:0") // a port of our own, closed: nothing answers there
	dead := "http://" + l.Addr().String()
	l.Close()
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"--sim", "--broker", dead, "--token-file", tokenFile, dir}, io.Discard, &stderr, nil); code == 0 || !strings.Contains(stderr.String(), "0600") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
}

// TestSimWithoutModel: against a real dev broker with no whisper model, the sim does not call
// the broker unreachable and does not retry: one request, the fallback, failure "busy".
func TestSimWithoutModel(t *testing.T) {
	dir := t.TempDir()
	b, state := newDevBroker(t, dir)
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		b.Handler().ServeHTTP(w, r)
	}))
	defer srv.Close()
	tok, _, _ := state.CreateToken(context.Background(), "reachy", []string{"turn"}, "")
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte(tok+"\n"), 0o600)
	writeSpeech(t, dir, "hello.wav", "hey reachy, what time is it")
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	start := time.Now()
	if code := run(context.Background(), []string{"--sim", "--broker", srv.URL, "--token-file", tokenFile, "--out", out, filepath.Join(dir, "hello.wav")}, &stdout, &stderr, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var turns []robot.Turn
	readJSON(t, filepath.Join(out, "turns.json"), &turns)
	if len(turns) != 1 || !turns[0].Fallback || turns[0].Failure != "busy" || !strings.Contains(turns[0].Err, "no whisper model") {
		t.Fatalf("%+v", turns)
	}
	if n := requests.Load(); n != 1 || time.Since(start) > 10*time.Second {
		t.Fatalf("%d requests in %v: a permanent 503 was retried", n, time.Since(start))
	}
	if o := stdout.String(); !strings.Contains(o, "wrote fallback.wav, turns.json, motions.json, daemon-calls.json, sounds.json (the 1 sounds the robot played, as numbered WAVs) to "+out) {
		t.Fatalf("the sim does not say what it wrote where: %q", stdout.String())
	}
}

// TestSimDrivesAnExternalDaemon: --daemon URL points the sim at another daemon (here a fake
// like 'reachyctl fake-daemon' serves) instead of the built-in one.
func TestSimDrivesAnExternalDaemon(t *testing.T) {
	dir := t.TempDir()
	fake := robot.NewFakeDaemon()
	daemonSrv := httptest.NewServer(fake)
	defer daemonSrv.Close()
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + l.Addr().String()
	l.Close()
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte("rbk_x\n"), 0o600)
	cfgFile := filepath.Join(dir, "hub.yaml")
	os.WriteFile(cfgFile, []byte("broker_url: "+dead+"\ntoken_file: "+tokenFile+"\nbroker_deadline: 1s\n"), 0o600)
	writeSpeech(t, dir, "hello.wav", "hey reachy, what time is it")
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"--sim", "--config", cfgFile, "--daemon", daemonSrv.URL, filepath.Join(dir, "hello.wav")}, io.Discard, &stderr, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var paths []string
	for _, c := range fake.Calls() {
		paths = append(paths, c.Path)
	}
	if j := strings.Join(paths, " "); !strings.Contains(j, "/api/media/sounds/upload") || !strings.Contains(j, "/api/media/play_sound") {
		t.Fatalf("the external daemon was not driven: %s", j)
	}
}

// TestHubHelpAndVersion: --help exits 0 with the usage; --version prints the version.
func TestHubHelpAndVersion(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"--help"}, &stdout, &stderr, nil); code != 0 || !strings.Contains(stderr.String(), "usage: reachy-hub") || !strings.Contains(stderr.String(), "-daemon") {
		t.Fatalf("--help: exit %d %s", code, stderr.String())
	}
	if code := run(context.Background(), []string{"--version"}, &stdout, &stderr, nil); code != 0 || !strings.Contains(stdout.String(), "reachy-hub ") {
		t.Fatalf("--version: exit %d %s", code, stdout.String())
	}
}

// TestHubNamesTheMissingFlag: without a broker or a token the hub says which flag to pass.
func TestHubNamesTheMissingFlag(t *testing.T) {
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"--sim", t.TempDir()}, io.Discard, &stderr, nil); code != 2 || !strings.Contains(stderr.String(), "--broker URL") {
		t.Fatalf("no broker: exit %d %s", code, stderr.String())
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"--sim", "--broker", "127.0.0.1:8092", t.TempDir()}, io.Discard, &stderr, nil); code != 2 || !strings.Contains(stderr.String(), "--token-file FILE") {
		t.Fatalf("no token: exit %d %s", code, stderr.String())
	}
}
