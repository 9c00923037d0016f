package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer the broker's goroutines and the test may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var adminRE = regexp.MustCompile(`reachy-broker ready" api=(\S+) admin=(\S+)`)

// startBroker runs the broker in process and returns its API and admin addresses once ready.
func startBroker(t *testing.T, args ...string) (api, admin string, out *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out = &syncBuffer{}
	done := make(chan int, 1)
	go func() { done <- run(ctx, args, out) }()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("broker exited %d:\n%s", code, out)
			}
		case <-time.After(15 * time.Second):
			t.Error("broker did not stop")
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if m := adminRE.FindStringSubmatch(out.String()); m != nil {
			return m[1], m[2], out
		}
		select {
		case code := <-done:
			t.Fatalf("broker exited %d before it was ready:\n%s", code, out)
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("broker not ready:\n%s", out)
	return "", "", nil
}

func healthz(t *testing.T, admin string) map[string]any {
	t.Helper()
	resp, err := http.Get("http://" + admin + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	json.NewDecoder(resp.Body).Decode(&v)
	return v
}

// TestTwoDevBrokersSideBySide: with --listen and --admin on ports of their own, two dev
// brokers run at once, each with its own health endpoint; the banner names the state dir and
// a token command for it.
func TestTwoDevBrokersSideBySide(t *testing.T) {
	var admins []string
	for i := range 2 {
		dir := filepath.Join(t.TempDir(), "state")
		_, admin, out := startBroker(t, "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0", "--state-dir", dir)
		if h := healthz(t, admin); h["status"] != "ok" {
			t.Fatalf("broker %d healthz: %v", i, h)
		}
		if !strings.Contains(out.String(), "token create --state-dir "+dir) {
			t.Fatalf("the banner does not give a token command for %s:\n%s", dir, out)
		}
		admins = append(admins, admin)
	}
	if admins[0] == admins[1] {
		t.Fatalf("both on %s", admins[0])
	}
}

// TestFlagErrors: --admin and --listen must be loopback, and the error names the flag; an
// address in use says what is probably holding it.
func TestFlagErrors(t *testing.T) {
	var out syncBuffer
	if code := run(context.Background(), []string{"--admin", "0.0.0.0:0"}, &out); code != 2 || !strings.Contains(out.String(), "--admin 0.0.0.0:0") {
		t.Fatalf("non-loopback --admin: exit %d\n%s", code, out.String())
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	out = syncBuffer{}
	code := run(context.Background(), []string{"--listen", l.Addr().String(), "--admin", "127.0.0.1:0", "--state-dir", t.TempDir()}, &out)
	if code != 1 || !strings.Contains(out.String(), "--listen "+l.Addr().String()+" is already in use: is another reachy-broker running") {
		t.Fatalf("address in use: exit %d\n%s", code, out.String())
	}
}

// TestHelpAndVersion: --help exits 0 with the usage, --version names whisper.cpp's version.
func TestHelpAndVersion(t *testing.T) {
	var out syncBuffer
	if code := run(context.Background(), []string{"--help"}, &out); code != 0 || !strings.Contains(out.String(), "usage: reachy-broker") || !strings.Contains(out.String(), "-admin") {
		t.Fatalf("--help: exit %d\n%s", code, out.String())
	}
	out = syncBuffer{}
	if code := run(context.Background(), []string{"--version"}, &out); code != 0 || !regexp.MustCompile(`reachy-broker .*\nwhisper\.cpp 1\.\d+\.\d+`).MatchString(out.String()) {
		t.Fatalf("--version: exit %d\n%s", code, out.String())
	}
}

// TestSIGHUPReloadHealth: a broken file on SIGHUP keeps the broker serving and /healthz says
// the table is stale and why; a good file makes it fresh again.
func TestSIGHUPReloadHealth(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	good := "state_dir: " + filepath.Join(dir, "state") + "\n"
	os.WriteFile(path, []byte(good), 0o600)
	_, admin, out := startBroker(t, "--config", path, "--dev", "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0")
	for _, want := range []string{"has no house section", "has no home section"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("start-up does not say it %q:\n%s", want, out)
		}
	}
	waitHealth := func(status string) map[string]any {
		t.Helper()
		for range 250 {
			if h := healthz(t, admin); h["status"] == status {
				return h
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("healthz never said %s:\n%s", status, out)
		return nil
	}
	os.WriteFile(path, []byte(good+"turn: {budget: 9s}\n"), 0o600)
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
	h := waitHealth("degraded")
	if it := h["intent_table"].(map[string]any); !strings.Contains(it["error"].(string), "[turn] changed") {
		t.Fatalf("healthz: %v", h)
	}
	os.WriteFile(path, []byte(good), 0o600)
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
	waitHealth("ok")
}

// TestMissingStateIsRefusedUntilInit (#11.6): outside dev mode a missing state database
// (a state disk that did not mount) stops the broker with a message saying what to do;
// --init creates it and exits; then the broker starts.
func TestMissingStateIsRefusedUntilInit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	state := filepath.Join(dir, "state")
	os.WriteFile(path, []byte("state_dir: "+state+"\nlisten: {loopback: 127.0.0.1:0}\n"), 0o600)
	var out syncBuffer
	code := run(context.Background(), []string{"--config", path, "--admin", "127.0.0.1:0"}, &out)
	if code != 1 || !strings.Contains(out.String(), "missing or empty") || !strings.Contains(out.String(), "reachy-broker --init") {
		t.Fatalf("missing state: exit %d\n%s", code, out.String())
	}
	out = syncBuffer{}
	if code := run(context.Background(), []string{"--config", path, "--init"}, &out); code != 0 {
		t.Fatalf("--init: exit %d\n%s", code, out.String())
	}
	if _, err := os.Stat(filepath.Join(state, "broker.db")); err != nil {
		t.Fatal(err)
	}
	_, admin, _ := startBroker(t, "--config", path, "--admin", "127.0.0.1:0")
	if h := healthz(t, admin); h["status"] != "ok" || h["state"] != "ok" {
		t.Fatalf("healthz: %v", h)
	}
}

// TestDevBrokerAnswersOnlyToItsOwnNames: the service as started (dev mode with the
// console) refuses a request for a foreign Host on the API and on the admin listener with
// 421 unknown_host, and answers its loopback names.
func TestDevBrokerAnswersOnlyToItsOwnNames(t *testing.T) {
	apiAddr, admin, _ := startBroker(t, "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0", "--state-dir", t.TempDir(), "--dev-owner", "dad@example.com")
	get := func(addr, path, host string) (int, string) {
		req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	_, apiPort, _ := net.SplitHostPort(apiAddr)
	_, adminPort, _ := net.SplitHostPort(admin)
	for _, c := range []struct{ addr, path, port string }{{apiAddr, "/", apiPort}, {apiAddr, "/v1/intents", apiPort}, {admin, "/healthz", adminPort}} {
		if code, body := get(c.addr, c.path, "evil.example:"+c.port); code != http.StatusMisdirectedRequest || !strings.Contains(body, `"unknown_host"`) {
			t.Errorf("foreign Host, %s: %d %s", c.path, code, body)
		}
	}
	if code, body := get(apiAddr, "/", "localhost:"+apiPort); code != 200 || !strings.Contains(body, "console-token") {
		t.Errorf("console at localhost: %d %.200s", code, body)
	}
	if code, _ := get(admin, "/healthz", "127.0.0.1:"+adminPort); code != 200 {
		t.Errorf("healthz at 127.0.0.1: %d", code)
	}
}
