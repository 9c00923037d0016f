package main

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/announce"
	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/timers"
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
	link := &playedLink{}
	dev := startDevBroker(t, dir, func(db *devBroker, d *broker.Deps) {
		d.Announcer = &announce.Announcer{Link: link, Audit: broker.AnnouncementAudit(db.state)}
	})
	state, srv := dev.state, dev.srv
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

// TestTimerTour follows the README's timer lines: a pasta timer set by text rings on the
// room's robot at its time, and can be asked about.
func TestTimerTour(t *testing.T) {
	clock := timers.NewManualClock(time.Now())
	link := &ringLink{}
	var svc *timers.Service
	dev := startDevBroker(t, t.TempDir(), func(db *devBroker, d *broker.Deps) {
		var err error
		svc, err = timers.Open(context.Background(), timers.Deps{DB: db.state.DB(), Clock: clock, Link: link, Audit: broker.TimerAudit(db.state),
			RoomOf: func(string) string { return db.table.Home.DeviceRoom }})
		if err != nil {
			t.Fatal(err)
		}
		for k, h := range svc.Handlers() {
			d.Handlers[k] = h
		}
	})
	state, srv := dev.state, dev.srv
	tok, _, err := state.CreateToken(context.Background(), "laptop", []string{"text", "timer"}, "")
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := ctl(t, "say", "--broker", srv.URL, "--token", tok, "set a pasta timer for 3 seconds")
	if code != 0 || !strings.Contains(out, "timer.start") || !strings.Contains(out, "Okay. Pasta timer set for three seconds.") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	code, out, _ = ctl(t, "say", "--broker", srv.URL, "--token", tok, "how long is left on the pasta timer")
	if code != 0 || !strings.Contains(out, "The pasta timer has three seconds left.") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	clock.Advance(3 * time.Second)
	svc.Tick(context.Background())
	if len(link.rings) != 1 || link.rings[0] != "reachy-sim" {
		t.Fatalf("rings %v", link.rings)
	}
}

// ringLink is one robot of the demo home's device room with its link up.
type ringLink struct{ rings []string }

func (l *ringLink) Send(ctx context.Context, dev string, m api.LinkMessage) (api.LinkAckBody, error) {
	if m.Type == api.LinkRing {
		l.rings = append(l.rings, dev)
	}
	return api.LinkAckBody{OK: true}, nil
}

func (l *ringLink) Connected() []string { return []string{"reachy-sim"} }
