package main

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/announce"
	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
)

type playedLink struct {
	mu     sync.Mutex
	played []string
}

func (l *playedLink) Send(ctx context.Context, dev string, m api.LinkMessage) (api.LinkAckBody, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if m.Type == api.LinkPlay && m.Play.Chime {
		l.played = append(l.played, dev)
	}
	return api.LinkAckBody{OK: true}, nil
}

func (l *playedLink) Connected() []string { return []string{"reachy-kitchen", "reachy-den"} }

func TestAnnounceCommand(t *testing.T) {
	dir := t.TempDir()
	cfg, table, err := broker.DevConfig("127.0.0.1:0", dir)
	if err != nil {
		t.Fatal(err)
	}
	state, err := broker.OpenState(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer state.Close()
	link := &playedLink{}
	b, err := broker.New(broker.Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Handlers: basic.Handlers(time.Now),
		Announcer: &announce.Announcer{Link: link, Audit: broker.AnnouncementAudit(state)}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(b.Handler())
	defer srv.Close()
	tok, _, err := state.CreateToken(context.Background(), "mom-laptop", []string{"announce"}, "")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := ctl(t, "announce", "--broker", srv.URL, "--token", tok, "--robot", "reachy-kitchen", "Dinner is ready")
	if code != 0 || !strings.Contains(out, "announced on reachy-kitchen") {
		t.Fatalf("exit %d %q %q", code, out, errs)
	}
	code, out, _ = ctl(t, "announce", "--broker", srv.URL, "--token", tok, "--all", "Dinner is ready")
	if code != 0 || !strings.Contains(out, "announced on reachy-den, reachy-kitchen") {
		t.Fatalf("exit %d %q", code, out)
	}
	if code, _, _ := ctl(t, "announce", "--broker", srv.URL, "--token", tok, "Dinner is ready"); code != 2 {
		t.Fatalf("no robot named: exit %d", code)
	}
	code, out, _ = ctl(t, "announce", "--broker", srv.URL, "--token", tok, "--robot", "reachy-attic", "Dinner is ready")
	if code != 1 || !strings.Contains(out, "not delivered") {
		t.Fatalf("unknown robot: exit %d %q", code, out)
	}
	noScope, _, _ := state.CreateToken(context.Background(), "kid-tablet", []string{"text"}, "")
	if code, _, errs := ctl(t, "announce", "--broker", srv.URL, "--token", noScope, "--all", "Dinner"); code != 1 || !strings.Contains(errs, "insufficient_scope") {
		t.Fatalf("without the scope: exit %d %q", code, errs)
	}
	if len(link.played) != 3 {
		t.Fatalf("played %v", link.played)
	}
	code, out, _ = ctl(t, "audit", "tail", "--state-dir", dir)
	if code != 0 || !strings.Contains(out, "announce") || strings.Contains(out, "Dinner") {
		t.Fatalf("audit: %s", out)
	}
}
