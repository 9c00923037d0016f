package timers

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/quiet"
	"github.com/reachy-broker/reachy-broker/intents"
)

// TestQuietTimeRepeatsChimeOnly: in a robot's quiet time a timer's first ring keeps its
// sentence (the family asked for the timer and is waiting for it) and its repeats are the
// hub's chime alone; a robot that is not quiet hears every sentence.
func TestQuietTimeRepeatsChimeOnly(t *testing.T) {
	clock := NewManualClock(t0)
	link := &fakeLink{connected: []string{"kitchen-robot", "den-robot"}}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "state.db")+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	quietTimes := quiet.New(clock.Now)
	svc, err := Open(context.Background(), Deps{DB: db, Clock: clock, Link: link, Synth: textSynth{},
		Audit:  func(context.Context, Record) error { return nil },
		RoomOf: func(d string) string { return map[string]string{"kitchen-robot": "kitchen", "den-robot": "office"}[d] },
		Quiet:  quietTimes.Quiet})
	if err != nil {
		t.Fatal(err)
	}
	for dev, room := range map[string]string{"kitchen-robot": "kitchen", "den-robot": "office"} {
		if _, err := svc.Handlers()[HandlerStart].Handle(context.Background(), intents.Call{Device: dev, Room: room,
			Args: map[string]string{"duration": "60", "label": "eggs"}}); err != nil {
			t.Fatal(err)
		}
	}
	quietTimes.Start("kitchen-robot", time.Hour)
	for _, at := range []time.Duration{60, 90, 120} {
		clock.Set(t0.Add(at * time.Second))
		svc.Tick(context.Background())
	}
	got := map[string][]string{}
	for _, m := range link.of("ring") {
		got[m.Dev] = append(got[m.Dev], said(m))
	}
	if q := got["kitchen-robot"]; len(q) != 3 || q[0] != "Your eggs timer is done." || q[1] != "" || q[2] != "" {
		t.Fatalf("the quiet robot heard %q, want the sentence once, then the chime alone", q)
	}
	if o := got["den-robot"]; len(o) != 3 || o[1] != "Your eggs timer is done." || o[2] != o[1] {
		t.Fatalf("the other robot heard %q, want every sentence", o)
	}
}
