package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
	"github.com/reachy-broker/reachy-broker/intents/home"
)

// TestOperatorTour follows the README tour: a dev broker, a token, say, audit tail, bench.
func TestOperatorTour(t *testing.T) {
	dir := t.TempDir()
	cfg, table, err := broker.DevConfig("127.0.0.1:0", dir)
	if err != nil {
		t.Fatal(err)
	}
	state, err := broker.InitState(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer state.Close()
	handlers := basic.Handlers(time.Now)
	handlers["home.light"] = home.Handler{Backend: home.NewMemory(), Kind: "light"}
	b, err := broker.New(broker.Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Handlers: handlers,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(b.Handler())
	defer srv.Close()

	code, out, errs := ctl(t, "token", "create", "--state-dir", dir, "--device", "laptop", "--scopes", "text,house:write", "--json")
	var tok struct{ Token, Device string }
	if code != 0 || json.Unmarshal([]byte(out), &tok) != nil || !strings.HasPrefix(tok.Token, "rbk_") {
		t.Fatalf("token create: exit %d %q %q", code, out, errs)
	}
	code, out, _ = ctl(t, "say", "--broker", srv.URL, "--token", tok.Token, "turn on the kitchen light")
	if code != 0 || !strings.Contains(out, "Okay, the kitchen light is on.") {
		t.Fatalf("say: exit %d\n%s", code, out)
	}
	code, out, _ = ctl(t, "audit", "tail", "--state-dir", dir)
	if code != 0 || !strings.Contains(out, "house.light.set") || !strings.Contains(out, `"room":"kitchen"`) {
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
	if code, out, _ := ctl(t, "say", "--broker", srv.URL, "--token", tok.Token, "hello"); code == 0 || !strings.Contains(out, "unauthenticated") {
		t.Fatalf("revoked token still works: exit %d %s", code, out)
	}
}

// TestStateInitAndCheck (#11.6): reachyctl never creates a state database by accident; it
// says how to, `state init` does, and `state check` runs the integrity check.
func TestStateInitAndCheck(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := ctl(t, "state", "check", "--state-dir", dir); code != 1 || !strings.Contains(errs, "reachyctl state init") {
		t.Fatalf("check of a missing database: exit %d %s", code, errs)
	}
	if code, out, errs := ctl(t, "state", "init", "--state-dir", dir); code != 0 || !strings.Contains(out, "ready") {
		t.Fatalf("init: exit %d %s %s", code, out, errs)
	}
	if code, out, errs := ctl(t, "state", "check", "--state-dir", dir); code != 0 || !strings.Contains(out, "ready") {
		t.Fatalf("check: exit %d %s %s", code, out, errs)
	}
}
