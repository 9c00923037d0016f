package main

import (
	"database/sql"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents/home"
)

// TestOperatorTour follows the README tour: a dev broker (as 'make run' starts it, in the
// default dev state dir), a token, say, audit tail, bench.
func TestOperatorTour(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir := broker.DevStateDir()
	srv := startDevBroker(t, dir, func(_ *devBroker, d *broker.Deps) {
		d.Handlers["home.light"] = home.Handler{Backend: home.NewMemory(), Kind: "light"}
	}).srv

	// Without --state-dir, reachyctl uses the dev broker's.
	code, out, errs := ctl(t, "token", "create", "--device", "laptop", "--scopes", "text,house:write", "--json")
	var tok struct{ Token, Device string }
	if code != 0 || json.Unmarshal([]byte(out), &tok) != nil || !strings.HasPrefix(tok.Token, "rbk_") {
		t.Fatalf("token create: exit %d %q %q", code, out, errs)
	}
	code, out, _ = ctl(t, "say", "--broker", srv.URL, "--token", tok.Token, "turn on the kitchen light")
	if code != 0 || !strings.Contains(out, "Okay, the kitchen light is on.") {
		t.Fatalf("say: exit %d\n%s", code, out)
	}
	// The broker's address without a scheme works too.
	code, out, _ = ctl(t, "say", "--broker", strings.TrimPrefix(srv.URL, "http://"), "--token", tok.Token, "what time is it")
	if code != 0 || !strings.Contains(out, "time.now") {
		t.Fatalf("say without a scheme: exit %d\n%s", code, out)
	}
	code, out, _ = ctl(t, "audit", "tail")
	if code != 0 || !strings.HasPrefix(out, "TIME") || !strings.Contains(out, "house.light.set") || !strings.Contains(out, "room=kitchen") {
		t.Fatalf("audit tail: exit %d\n%s", code, out)
	}
	code, out, _ = ctl(t, "bench", "--broker", srv.URL, "--token", tok.Token, "--concurrency", "2", "--turns", "20")
	if code != 0 || !strings.Contains(out, "total: 20 ok, 0 errors") || !strings.Contains(out, "p99") {
		t.Fatalf("bench: exit %d\n%s", code, out)
	}
	code, out, _ = ctl(t, "intents", "remote", "--broker", srv.URL, "--token", tok.Token)
	if code != 0 || !strings.Contains(out, "house.light.set") || strings.Contains(out, "calendar.status") {
		t.Fatalf("intents remote: exit %d\n%s", code, out)
	}
	code, out, _ = ctl(t, "token", "list", "--state-dir", dir)
	if code != 0 || !strings.Contains(out, "laptop") || strings.Contains(out, tok.Token) {
		t.Fatalf("token list must never show the secret: %s", out)
	}
	ctl(t, "token", "revoke", "--state-dir", dir, "--device", "laptop")
	// A refusal is a sentence on stderr, and a dev broker says where its tokens live.
	code, out, errs = ctl(t, "say", "--broker", srv.URL, "--token", tok.Token, "hello")
	if code == 0 || !strings.Contains(errs, "the broker refused: the token is not valid for this dev broker, whose tokens are in "+dir+" (unauthenticated, HTTP 401)") || strings.Contains(errs, "{") {
		t.Fatalf("revoked token: exit %d %q %q", code, out, errs)
	}
}

// TestStateDirMustHoldState: token and audit commands refuse a directory with no broker
// database instead of creating one the broker never reads.
func TestStateDirMustHoldState(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "typo")
	for _, args := range [][]string{
		{"token", "create", "--state-dir", dir, "--device", "laptop", "--scopes", "text"},
		{"audit", "tail", "--state-dir", dir},
	} {
		t.Run(args[0], func(t *testing.T) {
			t.Parallel()
			code, _, errs := ctl(t, args...)
			if code != 1 || !strings.Contains(errs, "no broker state in "+dir) {
				t.Fatalf("%v: exit %d %q", args, code, errs)
			}
		})
	}
	t.Cleanup(func() {
		if _, err := os.Stat(filepath.Join(dir, "broker.db")); err == nil {
			t.Error("a database was created in the wrong directory")
		}
	})
}

// TestTokenWaitsForAStartingBroker: 'reachy-broker --dev &' then 'reachyctl token create' at
// once works: the command waits briefly for the database the broker is creating.
func TestTokenWaitsForAStartingBroker(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	started := make(chan struct{})
	go func() {
		defer close(started)
		time.Sleep(300 * time.Millisecond)
		if st, err := store.Init(dir); err == nil { // what a starting dev broker does
			st.Close()
		}
	}()
	defer func() { <-started }()
	if code, _, errs := ctl(t, "token", "create", "--state-dir", dir, "--device", "laptop", "--scopes", "text"); code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
}

// TestTokenWaitsForTheTablesOfAStartingBroker: the broker's database file can exist a moment
// before its tables do; the command waits for them too, and a file that never gets them is
// refused with the fix once the wait is over.
func TestTokenWaitsForTheTablesOfAStartingBroker(t *testing.T) {
	fileOnly := func(t *testing.T) string {
		dir := filepath.Join(t.TempDir(), "state")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("sqlite", filepath.Join(dir, "broker.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`CREATE TABLE starting (x)`); err != nil { // a file, no broker tables
			t.Fatal(err)
		}
		return dir
	}
	t.Run("tables arrive", func(t *testing.T) {
		t.Parallel()
		dir := fileOnly(t)
		started := make(chan struct{})
		go func() {
			defer close(started)
			time.Sleep(300 * time.Millisecond)
			if st, err := store.Init(dir); err == nil {
				st.Close()
			}
		}()
		defer func() { <-started }()
		if code, _, errs := ctl(t, "token", "create", "--state-dir", dir, "--device", "laptop", "--scopes", "text"); code != 0 {
			t.Fatalf("exit %d %s", code, errs)
		}
	})
	t.Run("tables never arrive", func(t *testing.T) {
		t.Parallel()
		dir := fileOnly(t)
		if code, _, errs := ctl(t, "token", "create", "--state-dir", dir, "--device", "laptop", "--scopes", "text"); code != 1 || !strings.Contains(errs, "reachy-broker --init") {
			t.Fatalf("exit %d %q", code, errs)
		}
	})
}

// TestBrokerNotRunning: a refused connection says to check the broker is running at that URL.
func TestBrokerNotRunning(t *testing.T) {
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close()
	code, _, errs := ctl(t, "say", "--broker", addr, "--token", "rbk_x", "hello")
	if code != 1 || !strings.Contains(errs, "is the broker running at http://"+addr+"?") {
		t.Fatalf("exit %d %q", code, errs)
	}
}

// TestBenchKeepsAConnectionPerWorker: reachyctl bench reuses one connection per request in
// flight, so it measures the broker and not TCP set-up (the default transport keeps 2).
func TestBenchKeepsAConnectionPerWorker(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Write([]byte(`{"turn_id":"t","intent":"time.now","outcome":"ok","reply":"It's noon."}`))
	}))
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	code, out, errs := ctl(t, "bench", "--broker", srv.URL, "--token", "rbk_x", "--concurrency", "8", "--turns", "400")
	if code != 0 || !strings.Contains(out, "total: 400 ok") {
		t.Fatalf("exit %d %s %s", code, out, errs)
	}
	if n := conns.Load(); n > 16 { // a few extra dials may race at start-up; the default transport makes hundreds
		t.Fatalf("%d connections for 8 workers", n)
	}
}

// TestHelpAndVersion: help on any command exits 0; --version names whisper.cpp's version.
func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"say", "--help"}, {"token", "-h"}} {
		if code, _, errs := ctl(t, args...); code != 0 || !strings.Contains(errs, "usage: reachyctl") {
			t.Fatalf("%v: exit %d %q", args, code, errs)
		}
	}
	if code, out, _ := ctl(t, "--version"); code != 0 || !strings.Contains(out, "reachyctl ") || !strings.Contains(out, "whisper.cpp 1.") {
		t.Fatalf("--version: exit %d %q", code, out)
	}
}

// TestStateInitAndCheck (#11.6): reachyctl never creates a state database by accident; it
// says how to, `state init` does, and `state check` runs the integrity check.
func TestStateInitAndCheck(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := ctl(t, "state", "check", "--state-dir", dir); code != 1 || !strings.Contains(errs, "state init") {
		t.Fatalf("check of a missing database: exit %d %s", code, errs)
	}
	if code, out, errs := ctl(t, "state", "init", "--state-dir", dir); code != 0 || !strings.Contains(out, "ready") {
		t.Fatalf("init: exit %d %s %s", code, out, errs)
	}
	if code, out, errs := ctl(t, "state", "check", "--state-dir", dir); code != 0 || !strings.Contains(out, "ready") {
		t.Fatalf("check: exit %d %s %s", code, out, errs)
	}
}

// TestStateBackup (#25.1): `reachyctl state backup FILE` takes a consistent copy of a running
// broker's state through its control socket, and of a stopped broker's by opening the file;
// the copy holds the tokens and opens on its own; an existing FILE is never overwritten.
func TestStateBackup(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	startDevBroker(t, dir, nil)
	if code, _, errs := ctl(t, "token", "create", "--state-dir", dir, "--device", "laptop", "--scopes", "text"); code != 0 {
		t.Fatalf("token create: exit %d %s", code, errs)
	}
	running := filepath.Join(t.TempDir(), "running.db")
	if code, out, errs := ctl(t, "state", "backup", running, "--state-dir", dir); code != 0 || !strings.Contains(out, "consistent copy") {
		t.Fatalf("backup of a running broker: exit %d %s %s", code, out, errs)
	}
	copyDir := t.TempDir()
	if err := os.Rename(running, filepath.Join(copyDir, "broker.db")); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(copyDir)
	if err != nil {
		t.Fatalf("the backup does not open as a broker state: %v", err)
	}
	list, _ := st.ListTokens(t.Context(), "laptop")
	if len(list) != 1 {
		t.Fatalf("the backup holds %d tokens of laptop, want 1", len(list))
	}
	stopped := filepath.Join(t.TempDir(), "stopped.db")
	if code, _, errs := ctl(t, "state", "backup", stopped, "--state-dir", copyDir); code == 0 || !strings.Contains(errs, "locked") {
		t.Fatalf("a state held open elsewhere must be refused, not copied around its lock: exit %d %s", code, errs)
	}
	st.Close()
	if code, _, errs := ctl(t, "state", "backup", stopped, "--state-dir", copyDir); code != 0 {
		t.Fatalf("backup of a stopped broker's state: exit %d %s", code, errs)
	}
	if code, _, errs := ctl(t, "state", "backup", stopped, "--state-dir", copyDir); code == 0 || !strings.Contains(errs, "exists") {
		t.Fatalf("an existing file was overwritten: exit %d %s", code, errs)
	}
}
