package broker

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/timers"
	"github.com/reachy-broker/reachy-broker/robot"
)

// TestOperatorStatus (#29.1): reachyctl's status over the control socket names each robot
// the broker knows (configured or linked) with its room and link, the pending timers and
// who will ring each (nobody, for a room without a robot), and whether speech-to-text is
// configured; /healthz and /metrics carry the same facts as counts, without any name.
func TestOperatorStatus(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var svc *timers.Service
	var tb *testBroker
	tb = newTestBroker(t, func(c *Config, d *Deps) {
		var err error
		svc, err = timers.Open(context.Background(), timers.Deps{DB: d.State.DB(), Audit: TimerAudit(d.State), RoomOf: c.DeviceRoom,
			Robots: func() []string { return tb.b.RobotNames() }, Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		d.Timers, d.SpeechModel = svc, "/models/ggml-tiny.en.bin"
	})
	svc.SetLink(tb.b.Robots())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	live := &LiveStatus{}
	served := make(chan struct{})
	go func() { defer close(served); ServeControlWith(ctx, tb.state, live, quiet) }()
	defer func() { cancel(); <-served }()

	// The living room's robot links; the bedroom's is configured and offline.
	tok := tb.token(t, "robot", "link")
	l := &robot.Link{URL: tb.srv.URL, Token: tok, Version: "test-hub", Log: quiet,
		Handle: func(context.Context, api.LinkMessage) api.LinkAckBody { return api.LinkAckBody{OK: true} }}
	linkDone := make(chan struct{})
	lctx, stopLink := context.WithCancel(ctx)
	go func() { l.Run(lctx); close(linkDone) }()
	defer func() { stopLink(); <-linkDone }()
	waitLinked(t, tb.b, "robot", 1, 10*time.Second)
	if _, err := svc.Start(ctx, "laptop", "bedroom", "pasta", time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Start(ctx, "laptop", "kitchen", "egg", time.Hour); err != nil {
		t.Fatal(err)
	}

	dir := tb.state.Dir()
	c, err := DialControl(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Status(ctx); err == nil || !strings.Contains(err.Error(), "starting") {
		t.Fatalf("status before the broker is attached: %v", err)
	}
	live.Attach(tb.b)
	st, err := c.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	robots := map[string]RobotStatus{}
	for _, r := range st.Robots {
		robots[r.Device] = r
	}
	if r := robots["robot"]; !r.Linked || !r.Configured || r.Room != "living room" || r.LinkSince.IsZero() || r.Version != "test-hub" {
		t.Fatalf("linked robot: %+v", r)
	}
	if r := robots["bedside"]; r.Linked || !r.Configured || r.Room != "bedroom" || !r.LinkSince.IsZero() {
		t.Fatalf("offline robot: %+v", r)
	}
	ringsOn := map[string]string{}
	for _, tm := range st.Timers {
		ringsOn[tm.Label] = strings.Join(tm.RingsOn, ",") + "/" + map[bool]string{true: "linked", false: "not linked"}[tm.Linked]
	}
	if ringsOn["pasta"] != "bedside/not linked" || ringsOn["egg"] != "/not linked" {
		t.Fatalf("who rings the timers: %v", ringsOn)
	}
	if !st.SpeechToText.Configured || st.SpeechToText.Model != "ggml-tiny.en.bin" || st.Agent.Configured {
		t.Fatalf("models: %+v %+v", st.SpeechToText, st.Agent)
	}

	// The admin endpoints: counts, no names.
	admin := httptest.NewServer(tb.b.AdminHandler())
	defer admin.Close()
	get := func(path string) string {
		resp, err := http.Get(admin.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	health := get("/healthz")
	var h struct {
		Robots struct{ Configured, Known, Linked int }
		Timers struct {
			Pending      int `json:"pending"`
			NobodyToRing int `json:"nobody_to_ring"`
		}
		Sessions int `json:"teleport_sessions"`
	}
	if err := json.Unmarshal([]byte(health), &h); err != nil {
		t.Fatal(err)
	}
	if h.Robots.Configured != 2 || h.Robots.Linked != 1 || h.Timers.Pending != 2 || h.Timers.NobodyToRing != 1 || h.Sessions != 0 {
		t.Fatalf("healthz: %s", health)
	}
	for _, name := range []string{"bedside", `"robot"`, "pasta", "bedroom", "kitchen"} {
		if strings.Contains(health, name) {
			t.Fatalf("healthz names %s: %s", name, health)
		}
	}
	metrics := get("/metrics")
	for _, want := range []string{"reachy_robots_configured 2", "reachy_robots_linked 1", "reachy_timers_pending 2",
		"reachy_timers_nobody_to_ring 1", "reachy_teleport_sessions 0", "reachy_speech_to_text_configured 1", "reachy_agent_configured 0"} {
		if !strings.Contains(metrics, want+"\n") {
			t.Fatalf("metrics lack %q", want)
		}
	}
}
