package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/broker/timers"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
	"github.com/reachy-broker/reachy-broker/robot"
	"github.com/reachy-broker/reachy-broker/speech"
)

// timerBroker is a broker with its timers on the robot link, served on a loopback address
// the test owns (so a second broker can come back on it).
type timerBroker struct {
	b     *broker.Broker
	svc   *timers.Service
	state *store.Store
	srv   *http.Server
	addr  string
	stop  context.CancelFunc
	wg    sync.WaitGroup
	link  *recordingRobots
}

// recordingRobots is the broker's robot link, recording what the robots acked.
type recordingRobots struct {
	broker.Robots
	mu    sync.Mutex
	acked []api.LinkMessage
}

func (r *recordingRobots) Send(ctx context.Context, dev string, m api.LinkMessage) (api.LinkAckBody, error) {
	ack, err := r.Robots.Send(ctx, dev, m)
	r.mu.Lock()
	if err == nil {
		r.acked = append(r.acked, m)
	}
	r.mu.Unlock()
	return ack, err
}

// holds reports whether a robot acked a copy of its timers holding n timers.
func (r *recordingRobots) holds(n int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.acked {
		if m.Type == api.LinkTimers && len(m.Timers) == n {
			return true
		}
	}
	return false
}

func startTimerBroker(t *testing.T, stateDir, addr string) *timerBroker {
	t.Helper()
	cfg, table, err := broker.DevConfig("127.0.0.1:0", stateDir)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Devices = []broker.DeviceConfig{{Name: "reachy", Room: "kitchen"}, {Name: "laptop", Room: "kitchen"}}
	state, err := store.Init(stateDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	tb := &timerBroker{state: state, stop: cancel}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	tb.svc, err = timers.Open(ctx, timers.Deps{DB: state.DB(), Synth: speech.Espeak{}, Audit: broker.TimerAudit(state),
		RoomOf: cfg.DeviceRoom, FollowUp: func(d string) { tb.b.OpenFollowUp(d) }, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	handlers := basic.Handlers(time.Now)
	tb.svc.Register(handlers)
	tb.b, err = broker.New(broker.Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Handlers: handlers, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	var l net.Listener
	for try := 0; ; try++ {
		if l, err = net.Listen("tcp", addr); err == nil || try == 50 {
			break
		}
		time.Sleep(20 * time.Millisecond) // the previous broker's port is being released
	}
	if err != nil {
		t.Fatal(err)
	}
	tb.addr = l.Addr().String()
	tb.srv = &http.Server{Handler: tb.b.Handler(), ReadHeaderTimeout: 5 * time.Second}
	tb.link = &recordingRobots{Robots: tb.b.Robots()}
	tb.svc.SetLink(tb.link)
	tb.wg.Add(3)
	go func() { defer tb.wg.Done(); tb.srv.Serve(l) }()
	go func() { defer tb.wg.Done(); tb.b.ConnectTimers(ctx, tb.svc) }()
	go func() { defer tb.wg.Done(); tb.svc.Run(ctx) }()
	t.Cleanup(tb.kill)
	return tb
}

// kill stops the broker the hard way: the link drops, the API stops answering, no timer
// rings from it.
func (tb *timerBroker) kill() {
	tb.stop()
	tb.b.Link().Close()
	tb.srv.Close()
	tb.wg.Wait()
	tb.state.Close()
}

func (tb *timerBroker) say(t *testing.T, token, text string) api.TurnResponse {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"text": text})
	req, _ := http.NewRequest("POST", "http://"+tb.addr+"/v1/utterances", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tr api.TurnResponse
	if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&tr) != nil {
		t.Fatalf("say %q: HTTP %d", text, resp.StatusCode)
	}
	return tr
}

func waitUntil(t *testing.T, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %v", within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// simHub runs reachy-hub --sim --link against addr until the test ends.
func simHub(t *testing.T, dir, addr, token string, extraConfig string) (out string) {
	t.Helper()
	tokenFile := filepath.Join(dir, "hub.token")
	os.WriteFile(tokenFile, []byte(token+"\n"), 0o600)
	cfgFile := filepath.Join(dir, "hub.yaml")
	os.WriteFile(cfgFile, []byte("broker_url: http://"+addr+"\ntoken_file: "+tokenFile+"\nbroker_deadline: 2s\n"+extraConfig), 0o600)
	writeSpeech(t, dir, "hello.wav", "hey reachy, what time is it")
	out = filepath.Join(dir, "out")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var stderr bytes.Buffer
	go func() {
		defer close(done)
		run(ctx, []string{"--sim", "--link", "--config", cfgFile, "--out", out, filepath.Join(dir, "hello.wav")}, io.Discard, &stderr, nil)
	}()
	t.Cleanup(func() { cancel(); <-done })
	return out
}

// soundsPlayed reads the sim's daemon-calls.json: the sound files played, in order, and when.
func soundsPlayed(out string) (names []string, at []time.Time) {
	b, err := os.ReadFile(filepath.Join(out, "daemon-calls.json"))
	if err != nil {
		return nil, nil
	}
	var calls []robot.Call
	if json.Unmarshal(b, &calls) != nil {
		return nil, nil
	}
	for _, c := range calls {
		if c.Path != "/api/media/play_sound" {
			continue
		}
		var body struct {
			File string `json:"file"`
		}
		json.Unmarshal(c.Body, &body)
		names = append(names, body.File)
		at = append(at, c.Time)
	}
	return names, at
}

func count(names []string, prefix string) int {
	n := 0
	for _, s := range names {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}

// TestSimLinkRingsATimer: "set a pasta timer for 1 second" said on a laptop rings on the
// kitchen's sim hub over the robot link — the chime, then the sentence — as
// daemon-calls.json shows; the ring's delay after the due time is measured on loopback.
func TestSimLinkRingsATimer(t *testing.T) {
	dir := t.TempDir()
	tb := startTimerBroker(t, filepath.Join(dir, "state"), "127.0.0.1:0")
	hubTok, _, _ := tb.state.CreateToken(context.Background(), "reachy", []string{"turn", "link", "text", "robot"}, "")
	laptop, _, _ := tb.state.CreateToken(context.Background(), "laptop", []string{"text", "timer"}, "")
	// The hub would ring a timer itself only if the broker's ring were a minute late.
	out := simHub(t, dir, tb.addr, hubTok, "timer_local_after: 60s\n")
	waitUntil(t, 10*time.Second, func() bool { return len(tb.link.Connected()) == 1 })
	tr := tb.say(t, laptop, "set a pasta timer for 1 second")
	if tr.Intent != "timer.start" || tr.Reply != "Okay. Pasta timer set for one second." {
		t.Fatalf("%+v", tr)
	}
	due := tb.svc.List("laptop", "kitchen")[0].Due
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		names, _ := soundsPlayed(out)
		if count(names, "timer-t-") == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the ring was not played within 30s; sounds played: %v; timers live: %d", names, tb.svc.Pending())
		}
	}
	names, at := soundsPlayed(out)
	var chimeAt time.Time
	for i, n := range names {
		if n == "timer-chime.wav" {
			chimeAt = at[i]
		}
	}
	if count(names, "timer-chime.wav") != 1 || chimeAt.IsZero() || count(names, "timer-local") != 0 {
		t.Fatalf("sounds %v", names)
	}
	t.Logf("the timer's chime played on the sim robot %v after its due time (loopback link, espeak sentence, fake daemon upload)", chimeAt.Sub(due).Round(time.Millisecond))
	// "okay" said at the robot silences it: no repeat.
	if tr := tb.say(t, hubTok, "okay"); tr.Intent != "robot.stop" || tr.Reply != "Okay." || tb.svc.Pending() != 0 {
		t.Fatalf("okay: %+v, %d timers live", tr, tb.svc.Pending())
	}
}

// TestHubRingsLocallyWhenTheBrokerIsKilled: the hub holds the kitchen's pending timer; the
// broker dies before it is due; the hub rings it itself, and when a broker is back on the same
// state the timer is over — rung once, by the hub, never again by the broker.
func TestHubRingsLocallyWhenTheBrokerIsKilled(t *testing.T) {
	dir := t.TempDir()
	stateDir := filepath.Join(dir, "state")
	tb := startTimerBroker(t, stateDir, "127.0.0.1:0")
	hubTok, _, _ := tb.state.CreateToken(context.Background(), "reachy", []string{"turn", "link"}, "")
	laptop, _, _ := tb.state.CreateToken(context.Background(), "laptop", []string{"text", "timer"}, "")
	out := simHub(t, dir, tb.addr, hubTok, "timer_local_after: 300ms\n")
	waitUntil(t, 10*time.Second, func() bool { return len(tb.link.Connected()) == 1 })
	tb.say(t, laptop, "set an eggs timer for 5 seconds") // long enough to kill the broker first, even on a busy machine
	waitUntil(t, 5*time.Second, func() bool { return tb.link.holds(1) })
	addr := tb.addr
	tb.kill()

	waitUntil(t, 15*time.Second, func() bool {
		names, _ := soundsPlayed(out)
		return count(names, "timer-local") == 1
	})
	// A broker comes back on the same state and address: the hub reports the ring, and the
	// broker — which would otherwise ring the overdue timer — lets it go.
	tb2 := startTimerBroker(t, stateDir, addr)
	waitUntil(t, 15*time.Second, func() bool { return tb2.svc.Pending() == 0 })
	names, _ := soundsPlayed(out)
	if count(names, "timer-local") != 1 || count(names, "timer-chime") != 0 || count(names, "timer-t-") != 0 {
		t.Fatalf("the timer rang more than once or by the broker: %v", names)
	}
}
