package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
)

// childArgsEnv makes the test binary run the broker itself (main's run), as a process of its
// own the tests can signal: the arguments are in the variable, separated by newlines.
const childArgsEnv = "REACHY_BROKER_TEST_CHILD_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(childArgsEnv); args != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := run(ctx, strings.Split(args, "\n"), os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// brokerProcess is a broker running as a subprocess.
type brokerProcess struct {
	cmd   *exec.Cmd
	api   string
	admin string
	done  chan error
	log   *syncBuffer
}

var readyRE = regexp.MustCompile(`reachy-broker ready" api=(\S+) admin=(\S+)`)

// startBrokerProcess starts `reachy-broker args...` as a subprocess and waits until it is
// ready; the test's cleanup kills it if it still runs.
func startBrokerProcess(t *testing.T, args ...string) *brokerProcess {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childArgsEnv+"="+strings.Join(args, "\n"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &brokerProcess{cmd: cmd, done: make(chan error, 1), log: &syncBuffer{}}
	ready := make(chan [2]string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			p.log.Write([]byte(line + "\n"))
			if m := readyRE.FindStringSubmatch(line); m != nil {
				select {
				case ready <- [2]string{m[1], m[2]}:
				default:
				}
			}
		}
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-p.done
		}
	})
	select {
	case a := <-ready:
		p.api, p.admin = a[0], a[1]
	case err := <-p.done:
		t.Fatalf("the broker exited before it was ready (%v):\n%s", err, p.log)
	case <-time.After(60 * time.Second):
		t.Fatalf("the broker was not ready in 60 s:\n%s", p.log)
	}
	return p
}

// stop sends SIGTERM and waits for a clean exit.
func (p *brokerProcess) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("the broker did not exit cleanly on SIGTERM (%v):\n%s", err, p.log)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the broker did not stop on SIGTERM:\n%s", p.log)
	}
}

// say posts an utterance and returns the status and the reply's outcome.
func (p *brokerProcess) say(ctx context.Context, token, text, key string) (int, string, error) {
	body := strings.NewReader(fmt.Sprintf(`{"text": %q}`, text))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+p.api+"/v1/utterances", body)
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	var v struct {
		Outcome string `json:"outcome"`
		Reply   string `json:"reply"`
	}
	b, _ := io.ReadAll(resp.Body)
	json.Unmarshal(b, &v)
	return resp.StatusCode, v.Outcome + ": " + v.Reply, nil
}

// sqlite3 runs the sqlite3 command-line shell, as an operator or a backup script would.
func sqlite3(t *testing.T, args ...string) (string, error) {
	t.Helper()
	bin, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("sqlite3 is not installed (deploy/scripts/deps.sh installs it)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// TestAnOperatorsSqlite3CannotSplitTheBrokerFromItsState (#25.1): while a broker runs under
// load, an operator's `sqlite3 broker.db "select count(*) from tokens"` (and a backup
// script's `.backup`) must not checkpoint and delete the broker's write-ahead log behind its
// back. The broker holds the database's lock for its lifetime, so the shell is told the
// database is locked; the broker keeps answering every actuation, a token revoked through
// reachyctl's path (the control socket) is refused at once and a new one works; an online
// backup (`reachyctl state backup`) is a complete, consistent database; and after SIGTERM
// broker.db is a sound database holding everything.
func TestAnOperatorsSqlite3CannotSplitTheBrokerFromItsState(t *testing.T) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("sqlite3 is not installed (deploy/scripts/deps.sh installs it)")
	}
	dir := filepath.Join(t.TempDir(), "state")
	p := startBrokerProcess(t, "--dev", "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0", "--state-dir", dir)
	ctx := context.Background()
	ctl, err := dialControl(ctx, dir)
	if err != nil {
		t.Fatalf("reachyctl's way in: %v\n%s", err, p.log)
	}
	defer ctl.Close()
	robot, _, err := ctl.CreateToken(ctx, "robot", []string{"text", "house:read", "house:write"}, "")
	if err != nil {
		t.Fatal(err)
	}
	old, _, err := ctl.CreateToken(ctx, "old-tablet", []string{"text", "house:read"}, "")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "broker.db")

	// The load: 300 keyed actuations from four clients.
	const turns = 300
	var failed atomic.Int32
	var firstFailure atomic.Value
	var wg sync.WaitGroup
	next := atomic.Int32{}
	lctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > turns {
					return
				}
				state := []string{"on", "off"}[i%2]
				status, reply, err := p.say(lctx, robot, "turn "+state+" the kitchen light", "load-"+strconv.Itoa(int(i)))
				if err != nil || status != http.StatusOK {
					failed.Add(1)
					firstFailure.CompareAndSwap(nil, fmt.Sprintf("%d %s %v", status, reply, err))
				}
			}
		}()
	}

	// Meanwhile, the operator looks, three times, and a script tries a backup of its own.
	for i := range 3 {
		out, err := sqlite3(t, db, "select count(*) from tokens")
		if err == nil {
			t.Errorf("sqlite3 read #%d of a running broker's database succeeded (%q): the broker's lock is gone", i+1, out)
		} else if !strings.Contains(out, "locked") {
			t.Errorf("sqlite3 read #%d failed, but not because the broker holds the lock: %s", i+1, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if out, err := sqlite3(t, db, ".backup "+filepath.Join(t.TempDir(), "script.db")); err == nil {
		t.Errorf("a backup script read a running broker's database behind its back: %s", out)
	}
	if _, err := os.Stat(db + "-shm"); err == nil {
		t.Error("the broker keeps a memory-mapped -shm file: its WAL index must live in its own memory")
	}

	// The owner revokes a token and makes a new one, while the load runs.
	if n, err := ctl.RevokeTokens(ctx, "old-tablet"); err != nil || n != 1 {
		t.Fatalf("revoke: %d, %v", n, err)
	}
	if status, reply, _ := p.say(ctx, old, "what time is it", ""); status != http.StatusUnauthorized {
		t.Errorf("a revoked token still works: %d %s", status, reply)
	}
	fresh, _, err := ctl.CreateToken(ctx, "new-tablet", []string{"text", "house:read"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if status, reply, _ := p.say(ctx, fresh, "what time is it", ""); status != http.StatusOK {
		t.Errorf("a new token is refused: %d %s", status, reply)
	}

	// An online backup, taken under load, is a whole and consistent database.
	backup := filepath.Join(t.TempDir(), "backup.db")
	if err := ctl.Backup(ctx, backup); err != nil {
		t.Fatalf("online backup: %v", err)
	}
	if out, err := sqlite3(t, backup, "pragma integrity_check; select count(*) from tokens;"); err != nil || out != "ok\n3" {
		t.Errorf("the backup: %q, %v", out, err)
	}

	wg.Wait()
	if n := failed.Load(); n > 0 {
		t.Errorf("%d of %d actuations failed under the operator's reads; first: %v", n, turns, firstFailure.Load())
	}
	if resp, err := http.Get("http://" + p.admin + "/healthz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("healthz after the reads: %v %v", resp, err)
	}
	p.stop(t)

	out, err := sqlite3(t, db, "pragma integrity_check; select count(*) from tokens; select count(*) from audit where outcome = 'ok' and intent = 'house.light.set';")
	if err != nil || !strings.HasPrefix(out, "ok\n3\n") {
		t.Fatalf("broker.db after SIGTERM: %q, %v", out, err)
	}
	if n, _ := strconv.Atoi(out[strings.LastIndex(out, "\n")+1:]); n != turns {
		t.Errorf("the audit log holds %d settled light actuations, want %d", n, turns)
	}
}

// dialControl reaches a started broker's control socket, waiting (bounded) for it to listen.
func dialControl(ctx context.Context, dir string) (*broker.ControlClient, error) {
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		c, err := broker.DialControl(ctx, dir)
		if err == nil || time.Now().After(deadline) {
			return c, err
		}
	}
}
