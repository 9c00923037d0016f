package broker

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"sort"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/broker/timers"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/robot"
)

// BenchmarkTimerRingOverLink measures how late a timer's ring reaches the robot after its due
// time: the scheduler, the audit write, the state update and the robot link (a real
// WebSocket on loopback to a real hub-side link client). Budget: 250 ms. Reported as
// ms-late-p50 and ms-late-max; the ring carries no speech here (synthesis is warmed ahead
// of the due time in production).
func BenchmarkTimerRingOverLink(b *testing.B) {
	dir := b.TempDir()
	cfg, table, err := DevConfig("127.0.0.1:0", dir)
	if err != nil {
		b.Fatal(err)
	}
	cfg.Devices = []DeviceConfig{{Name: "reachy", Room: "kitchen"}}
	state, err := store.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer state.Close()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	br, err := New(Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(br.Handler())
	defer srv.Close()
	svc, err := timers.Open(context.Background(), timers.Deps{DB: state.DB(), Audit: TimerAudit(state), RoomOf: cfg.DeviceRoom,
		Settings: timers.Settings{Rings: 1}, Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	svc.SetLink(br.Robots())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go br.ConnectTimers(ctx, svc)
	go svc.Run(ctx)

	tok, _, err := state.CreateToken(ctx, "reachy", []string{"link"}, "")
	if err != nil {
		b.Fatal(err)
	}
	rang := make(chan time.Time, 16)
	l := &robot.Link{URL: srv.URL, Token: tok, Log: quiet, Handle: func(ctx context.Context, m api.LinkMessage) api.LinkAckBody {
		if m.Type == api.LinkRing {
			rang <- time.Now()
		}
		return api.LinkAckBody{OK: true}
	}}
	linkDone := make(chan struct{})
	go func() { l.Run(ctx); close(linkDone) }()
	defer func() { cancel(); <-linkDone }()
	for deadline := time.Now().Add(10 * time.Second); !br.Link().Status("reachy").Online; {
		if time.Now().After(deadline) {
			b.Fatal("the hub did not link")
		}
		time.Sleep(5 * time.Millisecond)
	}
	var late []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t, err := svc.Start(ctx, "laptop", "kitchen", "pasta", 30*time.Millisecond)
		if err != nil {
			b.Fatal(err)
		}
		select {
		case at := <-rang:
			late = append(late, at.Sub(t.Due))
		case <-time.After(5 * time.Second):
			b.Fatal("no ring reached the robot")
		}
	}
	b.StopTimer()
	sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
	b.ReportMetric(float64(late[len(late)/2].Microseconds())/1000, "ms-late-p50")
	b.ReportMetric(float64(late[len(late)-1].Microseconds())/1000, "ms-late-max")
	if late[len(late)/2] > 250*time.Millisecond {
		b.Fatalf("median ring %v after due, over the 250 ms budget", late[len(late)/2])
	}
}

// A ring opens the robot's follow-up window: "stop" said right after it needs no wake phrase.
func TestRingOpensTheFollowUpWindow(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "turn", "robot")
	tb.stt.say("stop")
	if tr := tb.turnAudio(t, tok).turn(t); tr.Outcome != store.OutcomeIgnored {
		t.Fatalf("without a wake phrase or an open window: %+v", tr)
	}
	tb.b.OpenFollowUp("robot")
	if tr := tb.turnAudio(t, tok).turn(t); tr.Intent != "robot.stop" || tr.Outcome != store.OutcomeOK {
		t.Fatalf("after a ring: %+v", tr)
	}
}

// A spoken turn and a typed call reach the same timer handlers.
func TestTimerTypedCallAndSpokenTurnShareTheHandlers(t *testing.T) {
	var svc *timers.Service
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		var err error
		svc, err = timers.Open(context.Background(), timers.Deps{DB: d.State.DB(), Audit: TimerAudit(d.State), RoomOf: c.DeviceRoom})
		if err != nil {
			t.Fatal(err)
		}
		svc.Register(d.Handlers)
	})
	tok := tb.token(t, "robot", "text", "intent", "timer")
	r := tb.do(t, "POST", "/v1/intents/timer.start", tok, "application/json", []byte(`{"duration": "180", "label": "pasta"}`))
	if tr := r.turn(t); r.status != 200 || tr.Reply != "Okay. Pasta timer set for three minutes." {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if tr := tb.say(t, tok, "how long is left on the pasta timer").turn(t); tr.Intent != "timer.status" || tr.Reply != "The pasta timer has three minutes left." {
		t.Fatalf("%+v", tr)
	}
	recs, err := tb.state.TailAudit(context.Background(), 5)
	if err != nil {
		t.Fatal(err)
	}
	if r := recs[len(recs)-2]; r.Intent != "timer.start" || r.Args["duration"] != "180" || r.Args["label"] != "pasta" {
		t.Fatalf("audit of the start: %+v", r)
	}
	if r := tb.do(t, "POST", "/v1/intents/timer.start", tok, "application/json", []byte(`{"duration": "90000"}`)); r.status != 400 || r.code(t) != api.CodeInvalidArgs {
		t.Fatalf("a 25 h timer: %d %s", r.status, r.body)
	}
	if tr := tb.say(t, tok, "cancel the timer").turn(t); tr.Reply != "Okay, I cancelled the pasta timer." || svc.Pending() != 0 {
		t.Fatalf("%+v", tr)
	}
}
