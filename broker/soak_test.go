package broker

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
	"github.com/reachy-broker/reachy-broker/intents/home"
	"github.com/reachy-broker/reachy-broker/intents/home/hometest"
)

// The soak child is a broker process whose lights are real MQTT devices (a fake Zigbee2MQTT
// in the parent, through a real mosquitto). Each time its light handler runs it appends the
// request's Idempotency-Key to runs.log (fsynced) before touching the device, so the parent
// can prove no key ever ran twice and every run has its audit record.
const (
	soakEnv     = "REACHY_BROKER_SOAK_CHILD"
	soakMQTTEnv = "REACHY_BROKER_SOAK_MQTT"
	soakHangEnv = "REACHY_BROKER_SOAK_HANG_ROOM" // after switching this room's light, hang
)

type keyCtx struct{}

// keyedLight logs each run's key, then switches the light through the real backend.
type keyedLight struct {
	home.Handler
	log  *os.File
	mu   *sync.Mutex
	hang string
}

func (k keyedLight) Handle(ctx context.Context, c intents.Call) (intents.Answer, error) {
	if c.Intent.Kind == intents.KindWrite {
		key, _ := ctx.Value(keyCtx{}).(string)
		k.mu.Lock()
		fmt.Fprintf(k.log, "%s %s %s\n", key, c.Args["room"], c.Args["state"])
		k.log.Sync()
		k.mu.Unlock()
	}
	a, err := k.Handler.Handle(ctx, c)
	if c.Args["room"] == k.hang && k.hang != "" {
		fmt.Println("actuated")
		select {} // the parent kills us here: switched, not yet settled
	}
	return a, err
}

func runSoakChild(dir string) {
	cfg, table, err := DevConfig("127.0.0.1:0", dir)
	if err != nil {
		panic(err)
	}
	state, err := store.Open(dir)
	if err != nil {
		panic(err)
	}
	m, err := home.DialMQTT(home.MQTTConfig{Broker: os.Getenv(soakMQTTEnv)})
	if err != nil {
		panic(err)
	}
	rel := &home.Reliable{Inner: m, Attempt: time.Second}
	house := home.Mapped{}
	for _, room := range []string{"kitchen", "bedroom", "office", "kids room"} {
		house[home.Device{Room: room, Kind: "light"}] = home.Target{Backend: rel, Entity: strings.ReplaceAll(room, " ", "_") + "_light"}
	}
	runs, err := os.OpenFile(filepath.Join(dir, "runs.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		panic(err)
	}
	handlers := basic.Handlers(time.Now)
	handlers["home.light"] = keyedLight{Handler: home.Handler{Backend: house, Kind: "light"}, log: runs, mu: &sync.Mutex{}, hang: os.Getenv(soakHangEnv)}
	cfg.Limits.RatePerMinute, cfg.Limits.Burst = 60000, 1000
	b, err := New(Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Handlers: handlers,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		panic(err)
	}
	l, err := ListenLoopback("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	api := b.Handler()
	go ServeControl(context.Background(), state, slog.New(slog.NewTextHandler(io.Discard, nil)))
	fmt.Println("listening " + l.Addr().String())
	http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), keyCtx{}, r.Header.Get("Idempotency-Key"))))
	}))
}

func startSoakChild(t *testing.T, dir, mqttURL, hang string) *child {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), soakEnv+"="+dir, soakMQTTEnv+"="+mqttURL, soakHangEnv+"="+hang)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	c := &child{cmd: cmd, out: bufio.NewScanner(stdout)}
	c.addr = strings.TrimPrefix(c.waitFor(t, "listening "), "listening ")
	return c
}

func soakSetup(t *testing.T) (dir, mqttURL, tok string, z *hometest.Zigbee) {
	t.Helper()
	dir = t.TempDir()
	mqttURL = hometest.StartMosquitto(t)
	z = hometest.StartZigbee(t, mqttURL, "zigbee2mqtt", "kitchen_light", "bedroom_light", "office_light", "kids_room_light")
	st, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tok, _, err = st.CreateToken(context.Background(), "robot", []string{"text", "house:read", "house:write"}, "")
	if err != nil {
		t.Fatal(err)
	}
	return dir, mqttURL, tok, z
}

func post(addr, tok, text, key string, timeout time.Duration) (*http.Response, api.TurnResponse, error) {
	body, _ := json.Marshal(map[string]string{"text": text})
	req, _ := http.NewRequest("POST", "http://"+addr+"/v1/utterances", strings.NewReader(string(body)))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	resp, err := (&http.Client{Timeout: timeout}).Do(req)
	if err != nil {
		return nil, api.TurnResponse{}, err
	}
	defer resp.Body.Close()
	var tr api.TurnResponse
	json.NewDecoder(resp.Body).Decode(&tr)
	return resp, tr, nil
}

// TestKilledMidActuationIsAnsweredByReadBack (#11.1): the broker switches the office light
// and is killed before it can settle the key. After a restart the retry does not switch
// again; it says what it may have done, from a read-back of the device.
func TestKilledMidActuationIsAnsweredByReadBack(t *testing.T) {
	dir, mqttURL, tok, z := soakSetup(t)
	c := startSoakChild(t, dir, mqttURL, "office")
	go post(c.addr, tok, "turn on the office light", "mid-1", 10*time.Second)
	c.waitFor(t, "actuated")
	c.cmd.Process.Signal(os.Kill)
	c.cmd.Wait()

	c2 := startSoakChild(t, dir, mqttURL, "")
	resp, tr, err := post(c2.addr, tok, "turn on the office light", "mid-1", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if want := "I may have done that already — the office light is on now."; tr.Reply != want || tr.Outcome != store.OutcomeUnknown ||
		resp.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("retry after the crash: %d %+v", resp.StatusCode, tr)
	}
	if n := z.Sets("office_light"); n != 1 {
		t.Fatalf("the office light got %d set commands", n)
	}
	// The running broker's state, as reachyctl reads it; its socket may still be starting
	// (the child says "listening" when its API is up).
	var st *ControlClient
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if st, err = DialControl(context.Background(), dir); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// The replay did not act, so its record is written behind the reply: give it a moment.
	var recs []store.AuditRecord
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		recs, _ = st.TailAudit(context.Background(), 10)
		var pending, replayed bool
		for _, r := range recs {
			pending = pending || (r.Outcome == store.OutcomePending && r.Args["room"] == "office")
			replayed = replayed || (r.Outcome == store.OutcomeReplayed && r.Code == store.OutcomeUnknown)
		}
		if pending && replayed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("audit: %+v", recs)
		}
	}
}

// TestKillNineSoak kills the broker every few seconds while four clients send keyed house
// commands through a real mosquitto, retrying each key until it is answered. No key may run
// its handler twice, the devices may not get more commands than there were runs, and every
// run must have its audit record.
func TestKillNineSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("a minute of kill -9")
	}
	duration := 60 * time.Second
	if d, err := time.ParseDuration(os.Getenv("REACHY_SOAK")); err == nil {
		duration = d
	}
	dir, mqttURL, tok, z := soakSetup(t)
	var addr atomic.Pointer[string]
	c := startSoakChild(t, dir, mqttURL, "")
	addr.Store(&c.addr)

	stop := time.Now().Add(duration)
	var wg sync.WaitGroup
	var answered atomic.Int64
	rooms := []string{"kitchen", "bedroom", "office", "kids room"}
	for ci, room := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(stop); i++ {
				state := "on"
				if i%2 == 1 {
					state = "off"
				}
				key := fmt.Sprintf("c%d-%d", ci, i)
				for time.Now().Before(stop.Add(15 * time.Second)) {
					resp, _, err := post(*addr.Load(), tok, "turn "+state+" the "+room+" light", key, 5*time.Second)
					if err == nil && resp.StatusCode == 200 {
						answered.Add(1)
						break
					}
					time.Sleep(50 * time.Millisecond)
				}
				time.Sleep(100 * time.Millisecond) // a household's pace, not a benchmark's
			}
		}()
	}
	kills := 0
	for time.Now().Before(stop) {
		time.Sleep(time.Duration(1500+kills*137%1500) * time.Millisecond)
		c.cmd.Process.Signal(os.Kill)
		c.cmd.Wait()
		kills++
		c = startSoakChild(t, dir, mqttURL, "")
		addr.Store(&c.addr)
	}
	wg.Wait()
	sets := func() int {
		n := 0
		for _, room := range rooms {
			n += z.Sets(strings.ReplaceAll(room, " ", "_") + "_light")
		}
		return n
	}
	// Let the devices catch up with what is still in flight (bounded).
	for last, deadline := -1, time.Now().Add(10*time.Second); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		n := sets()
		if n == last {
			break
		}
		last = n
	}

	c.cmd.Process.Signal(os.Kill) // the broker holds its database alone while it runs
	c.cmd.Wait()

	runsLog, err := os.ReadFile(filepath.Join(dir, "runs.log"))
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]int{}
	total := 0
	for _, line := range strings.Split(strings.TrimSpace(string(runsLog)), "\n") {
		if line == "" {
			continue
		}
		key, _, _ := strings.Cut(line, " ")
		runs[key]++
		total++
	}
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for key, n := range runs {
		if n > 1 {
			t.Errorf("key %s ran its handler %d times", key, n)
		}
		var turnID string
		var records int
		if err := st.DB().QueryRow(`SELECT turn_id FROM idempotency WHERE device = 'robot' AND key = ?`, key).Scan(&turnID); err != nil {
			continue // a settled key the per-device cap let go; the count below still holds
		}
		// One record per actuation: written pending before the handler ran, then settled in
		// place (or left pending by a kill). Replays of it are records of their own.
		st.DB().QueryRow(`SELECT count(*) FROM audit WHERE turn_id = ? AND outcome != 'replayed'`, turnID).Scan(&records)
		if records != 1 {
			t.Errorf("key %s (turn %s) ran with %d audit records, want its one", key, turnID, records)
		}
	}
	commands := sets()
	var actuationRows int
	st.DB().QueryRow(`SELECT count(*) FROM audit WHERE intent LIKE 'house.%' AND outcome != 'replayed'`).Scan(&actuationRows)
	if actuationRows < total {
		t.Errorf("%d handler runs, only %d audit records of actuations", total, actuationRows)
	}
	outcomes := map[string]int{}
	rows, _ := st.DB().Query(`SELECT outcome || '/' || code, count(*) FROM audit GROUP BY 1`)
	for rows.Next() {
		var o string
		var n int
		rows.Scan(&o, &n)
		outcomes[o] = n
	}
	rows.Close()
	t.Logf("%v: %d kills, %d answers, %d handler runs, %d device commands; audit %v", duration, kills, answered.Load(), total, commands, outcomes)
	if commands > total {
		t.Errorf("the devices got %d commands from %d handler runs", commands, total)
	}
	if kills < 3 || answered.Load() < 20 {
		t.Fatalf("the soak did too little: %d kills, %d answers", kills, answered.Load())
	}
}
