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
	"strings"
	"testing"
	"time"

	"tailscale.com/envknob"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
)

const childEnv = "REACHY_BROKER_CRASH_CHILD"

func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		runCrashChild(dir)
		return
	}
	if dir := os.Getenv(soakEnv); dir != "" {
		runSoakChild(dir)
		return
	}
	// The in-process tailnet must not try to open ports on the home router.
	envknob.Setenv("TS_DISABLE_PORTMAPPER", "1")
	os.Exit(m.Run())
}

// runCrashChild is the broker process the crash test kills: its office light never answers.
func runCrashChild(dir string) {
	cfg, table, err := DevConfig("127.0.0.1:0", dir)
	if err != nil {
		panic(err)
	}
	state, err := store.Init(dir)
	if err != nil {
		panic(err)
	}
	handlers := basic.Handlers(time.Now)
	handlers["home.light"] = intents.HandlerFunc(func(ctx context.Context, c intents.Call) (intents.Answer, error) {
		if c.Args["room"] == "office" {
			fmt.Println("handler-entered")
			select {} // mid-turn forever: the parent kills us here
		}
		return intents.Answer{Reply: "Okay."}, nil
	})
	b, err := New(Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Handlers: handlers,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		panic(err)
	}
	l, err := ListenLoopback("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	fmt.Println("listening " + l.Addr().String())
	http.Serve(l, b.Handler())
}

type child struct {
	cmd  *exec.Cmd
	addr string
	out  *bufio.Scanner
}

func startChild(t *testing.T, dir string) *child {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	c := &child{cmd: cmd, out: bufio.NewScanner(stdout)}
	line := c.waitFor(t, "listening ")
	c.addr = strings.TrimPrefix(line, "listening ")
	return c
}

func (c *child) waitFor(t *testing.T, prefix string) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		for c.out.Scan() {
			if strings.HasPrefix(c.out.Text(), prefix) {
				got <- c.out.Text()
				return
			}
		}
		close(got)
	}()
	select {
	case l, ok := <-got:
		if !ok {
			t.Fatalf("child exited before %q", prefix)
		}
		return l
	case <-time.After(30 * time.Second):
		t.Fatalf("child never said %q", prefix)
	}
	return ""
}

func (c *child) say(t *testing.T, token, text, key string) (*http.Response, api.TurnResponse) {
	t.Helper()
	req, _ := http.NewRequest("POST", "http://"+c.addr+"/v1/utterances", strings.NewReader(`{"text":"`+text+`"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tr api.TurnResponse
	json.NewDecoder(resp.Body).Decode(&tr)
	return resp, tr
}

// TestKillMinusNineLosesNothingCommitted kills the broker process mid-turn and checks that
// every answered turn's audit record and idempotency entry survived.
func TestKillMinusNineLosesNothingCommitted(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	tok, _, err := st.CreateToken(context.Background(), "robot", []string{"text", "house:write"}, "")
	if err != nil {
		t.Fatal(err)
	}
	st.Close() // the broker holds the database alone while it runs
	c := startChild(t, dir)
	ids := map[string]string{}
	for i, room := range []string{"kitchen", "bedroom", "living room"} {
		key := fmt.Sprintf("k%d", i)
		resp, tr := c.say(t, tok, "turn on the "+room+" light", key)
		if resp.StatusCode != 200 || tr.Outcome != store.OutcomeOK {
			t.Fatalf("%s: %d %+v", room, resp.StatusCode, tr)
		}
		ids[key] = tr.TurnID
	}
	go func() { // this request dies with the process: its error is expected and ignored
		req, _ := http.NewRequest("POST", "http://"+c.addr+"/v1/utterances", strings.NewReader(`{"text":"turn on the office light"}`))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", "k-mid")
		if resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	c.waitFor(t, "handler-entered")
	if err := c.cmd.Process.Signal(os.Kill); err != nil {
		t.Fatal(err)
	}
	c.cmd.Wait()

	st, err = store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := st.TailAudit(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range recs {
		seen[r.TurnID] = true
	}
	for key, id := range ids {
		if !seen[id] {
			t.Errorf("audit record of %s (%s) lost", key, id)
		}
		r, release, err := st.BeginKey(context.Background(), "robot", key)
		if err == nil {
			release()
		}
		if err != nil || r == nil || r.TurnID != id {
			t.Errorf("idempotency entry %s lost: %+v %v", key, r, err)
		}
	}
	st.Close()
	// After a restart a retry replays the stored answer instead of switching again.
	c2 := startChild(t, dir)
	resp, tr := c2.say(t, tok, "turn on the kitchen light", "k0")
	if tr.TurnID != ids["k0"] || resp.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("retry after restart: %+v %v", tr, resp.Header)
	}
}
