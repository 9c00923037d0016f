package main

import (
	"bufio"
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
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/broker/timers"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
	"github.com/reachy-broker/reachy-broker/robot"
)

// The kill sweep: a broker and a hub, each its own process, ring a timer; one of them is
// killed -9 at a step of 1 ms (or coarser) after the broker opened the ring's audit record,
// and started again. Whatever the step, each ring is played once on the robot and is one
// audit record, settled (ok), with none left pending.

// ringKillEnv makes the test binary a child of the sweep: "broker" or "hub".
const ringKillEnv = "REACHY_RINGKILL_CHILD"

// runRingKillChild is a child process of the sweep; it runs until it is killed.
func runRingKillChild(mode string) {
	switch mode {
	case "broker":
		ringKillBroker(os.Getenv("REACHY_RINGKILL_STATE"), os.Getenv("REACHY_RINGKILL_ADDR"))
	case "hub":
		args := strings.Split(os.Getenv("REACHY_RINGKILL_ARGS"), "\x1f")
		os.Exit(run(context.Background(), args, io.Discard, os.Stderr, nil))
	}
	os.Exit(2)
}

// ringKillBroker is the broker process: timers ring twice, 1 s apart; it prints each audit
// write of a timer ("audit ID OUTCOME/CODE"), once it is written, "linked true" when the
// robot's link is up and "live N" when the number of live timers changes.
func ringKillBroker(stateDir, addr string) {
	cfg, table, err := broker.DevConfig("127.0.0.1:0", stateDir)
	if err != nil {
		panic(err)
	}
	cfg.Devices = []broker.DeviceConfig{{Name: "reachy", Room: "kitchen"}, {Name: "laptop", Room: "kitchen"}}
	state, err := store.Init(stateDir)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var out sync.Mutex
	audit := broker.TimerAudit(state)
	var b *broker.Broker
	svc, err := timers.Open(ctx, timers.Deps{DB: state.DB(), Audit: func(ctx context.Context, r timers.Record) error {
		err := audit(ctx, r)
		if err == nil {
			out.Lock()
			fmt.Printf("audit %s %s/%s\n", r.ID, r.Outcome, r.Code)
			out.Unlock()
		}
		return err
	}, RoomOf: cfg.DeviceRoom, FollowUp: func(d string) { b.OpenFollowUp(d) }, Logger: quiet,
		Settings: timers.Settings{Rings: 2, Every: time.Second, Retry: 300 * time.Millisecond, Send: 3 * time.Second}})
	if err != nil {
		panic(err)
	}
	handlers := basic.Handlers(time.Now)
	svc.Register(handlers)
	b, err = broker.New(broker.Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Handlers: handlers, Logger: quiet})
	if err != nil {
		panic(err)
	}
	var l net.Listener
	for try := 0; ; try++ {
		if l, err = net.Listen("tcp", addr); err == nil || try == 100 {
			break
		}
		time.Sleep(20 * time.Millisecond) // the killed broker's port is being released
	}
	if err != nil {
		panic(err)
	}
	svc.SetLink(b.Robots())
	go http.Serve(l, b.Handler())
	go b.ConnectTimers(ctx, svc)
	go svc.Run(ctx)
	out.Lock()
	fmt.Println("listening " + l.Addr().String())
	out.Unlock()
	linked, live := false, -1
	for {
		up, n := len(b.Robots().Connected()) > 0, svc.Pending()
		out.Lock()
		if up != linked {
			linked = up
			fmt.Println("linked " + strconv.FormatBool(up))
		}
		if n != live {
			live = n
			fmt.Println("live " + strconv.Itoa(n))
		}
		out.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
}

// killChild is one child process of the sweep, its stdout read line by line.
type killChild struct {
	cmd   *exec.Cmd
	lines chan string
}

func startKillChild(t *testing.T, env ...string) *killChild {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &killChild{cmd: cmd, lines: make(chan string, 256)}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(c.kill)
	return c
}

func (c *killChild) kill() {
	c.cmd.Process.Kill() // SIGKILL: nothing of the process runs after it
	c.cmd.Wait()
}

// expect waits (bounded) for a line with the prefix and returns it with when it was read.
func (c *killChild) expect(t *testing.T, prefix string, within time.Duration) (string, time.Time) {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				t.Fatalf("the child exited before %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l, time.Now()
			}
		case <-deadline:
			t.Fatalf("no %q from the child within %v", prefix, within)
		}
	}
}

// playLog is the robot daemon both hub processes drive (it outlives them): what was played.
type playLog struct {
	fake *robot.FakeDaemon
	mu   sync.Mutex
	play []string
	at   []time.Time
}

func (p *playLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/api/media/play_sound" {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var b struct {
			File string `json:"file"`
		}
		json.Unmarshal(body, &b)
		p.mu.Lock()
		p.play, p.at = append(p.play, b.File), append(p.at, time.Now())
		p.mu.Unlock()
	}
	p.fake.ServeHTTP(w, r)
}

func (p *playLog) count(prefix string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, f := range p.play {
		if strings.HasPrefix(f, prefix) {
			n++
		}
	}
	return n
}

// ringTrial is what one kill left: the ring records and the plays.
type ringTrial struct {
	records []string // "ID outcome/code", oldest first
	chimes  int      // broker rings' chimes played
	local   int      // the hub's own rings played
	played  time.Duration
}

// ringKillTrial rings one timer (two rings) with victim ("broker" or "hub") killed -9 at
// offset after the broker opened the first ring's record, and started again.
func ringKillTrial(t *testing.T, victim string, offset time.Duration) ringTrial {
	dir := t.TempDir()
	stateDir := filepath.Join(dir, "state")
	st, err := store.Init(stateDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	hubTok, _, _ := st.CreateToken(ctx, "reachy", []string{"turn", "link"}, "")
	laptop, _, _ := st.CreateToken(ctx, "laptop", []string{"text", "timer"}, "")
	st.Close() // the broker process holds the database alone

	plays := &playLog{fake: robot.NewFakeDaemon()}
	daemon := httptest.NewServer(plays)
	defer daemon.Close()

	startBroker := func(addr string) (*killChild, string) {
		c := startKillChild(t, ringKillEnv+"=broker", "REACHY_RINGKILL_STATE="+stateDir, "REACHY_RINGKILL_ADDR="+addr)
		l, _ := c.expect(t, "listening ", 30*time.Second)
		return c, strings.TrimPrefix(l, "listening ")
	}
	b, addr := startBroker("127.0.0.1:0")
	tokenFile := filepath.Join(dir, "hub.token")
	os.WriteFile(tokenFile, []byte(hubTok+"\n"), 0o600)
	cfgFile := filepath.Join(dir, "hub.yaml")
	// The hub's own ring waits 30 s: within a trial only the broker rings.
	os.WriteFile(cfgFile, []byte("broker_url: http://"+addr+"\ntoken_file: "+tokenFile+"\nbroker_deadline: 2s\ntimer_local_after: 30s\nambient: {off: true}\n"), 0o600)
	mic := filepath.Join(dir, "mic")
	os.MkdirAll(mic, 0o755)
	args := strings.Join([]string{"--sim", "--link", "--config", cfgFile, "--daemon", daemon.URL, "--out", filepath.Join(dir, "out"), mic}, "\x1f")
	startHub := func() *killChild { return startKillChild(t, ringKillEnv+"=hub", "REACHY_RINGKILL_ARGS="+args) }
	h := startHub()
	b.expect(t, "linked true", 30*time.Second)

	body, _ := json.Marshal(map[string]string{"text": "set a pasta timer for 1 second"})
	req, _ := http.NewRequest("POST", "http://"+addr+"/v1/utterances", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+laptop)
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("set the timer: HTTP %d", resp.StatusCode)
	}
	b.expect(t, "live 1", 10*time.Second)
	line, opened := b.expect(t, "audit t-", 15*time.Second)
	id := strings.TrimSuffix(strings.Fields(line)[1], "-1") // the timer's ID
	if !strings.HasSuffix(line, " pending/") {
		t.Fatalf("the first audit write of the ring is %q, want it pending", line)
	}
	time.Sleep(time.Until(opened.Add(offset)))
	switch victim {
	case "broker":
		b.kill()
		b, _ = startBroker(addr)
	case "hub":
		h.kill()
		h = startHub()
	}
	// The timer ends after its second ring: wait for it (bounded), then stop both.
	b.expect(t, "live 0", 30*time.Second)
	var tr ringTrial
	for waited := 0; waited < 50 && plays.count("timer-chime") < 2; waited++ {
		time.Sleep(10 * time.Millisecond) // the chime's call may trail the ack's line by a hair
	}
	h.kill()
	b.kill()
	st, err = store.Open(stateDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs, err := st.TailAudit(ctx, 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Intent == "timer.ring" {
			tr.records = append(tr.records, r.TurnID+" "+r.Outcome+"/"+r.Code)
		}
	}
	tr.chimes, tr.local = plays.count("timer-chime"), plays.count("timer-local")
	plays.mu.Lock()
	if i := slices.Index(plays.play, "timer-chime.wav"); i >= 0 {
		tr.played = plays.at[i].Sub(opened)
	}
	plays.mu.Unlock()
	for i := range tr.records {
		tr.records[i] = strings.Replace(tr.records[i], id, "T", 1)
	}
	return tr
}

// TestRingKillSweep kills the broker, then the hub, at steps after the broker opened the first
// ring's record (REACHY_RING_SWEEP="from:to:step" in ms; default 0:30:6), each trial with
// both processes new. Each trial's timer must have rung twice on the robot (two chimes, none
// of the hub's own) and left exactly two ring records, both ok.
func TestRingKillSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two processes per trial")
	}
	from, to, step := 0, 30, 6
	if s := os.Getenv("REACHY_RING_SWEEP"); s != "" {
		if _, err := fmt.Sscanf(s, "%d:%d:%d", &from, &to, &step); err != nil || step <= 0 {
			t.Fatalf("REACHY_RING_SWEEP=%q: want from:to:step in ms", s)
		}
	}
	victims := []string{"broker", "hub"}
	if v := os.Getenv("REACHY_RING_SWEEP_VICTIM"); v != "" {
		victims = []string{v}
	}
	bad := 0
	for _, victim := range victims {
		for ms := from; ms <= to; ms += step {
			tr := ringKillTrial(t, victim, time.Duration(ms)*time.Millisecond)
			ok := strings.Join(tr.records, ", ") == "T-1 ok/, T-2 ok/" && tr.chimes == 2 && tr.local == 0
			verdict := "ok"
			if !ok {
				verdict = "FAIL"
				bad++
			}
			t.Logf("kill -9 %s at +%2d ms: records [%s], chimes %d, local rings %d, first chime at +%v  %s",
				victim, ms, strings.Join(tr.records, ", "), tr.chimes, tr.local, tr.played.Round(100*time.Microsecond), verdict)
		}
	}
	if bad > 0 {
		t.Fatalf("%d trials rang other than once per ring, or audited other than one settled record per ring", bad)
	}
}
