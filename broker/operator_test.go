package broker

import (
	"context"
	"errors"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/console"
	"github.com/reachy-broker/reachy-broker/intents"
)

// failingCalendar is a calendar backend that is down.
type failingCalendar struct{}

func (failingCalendar) Handle(context.Context, intents.Call) (intents.Answer, error) {
	return intents.Answer{}, errors.New("dial tcp: connection refused")
}

func metricsText(t *testing.T, tb *testBroker) string {
	t.Helper()
	srv := httptest.NewServer(tb.b.AdminHandler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func wantMetric(t *testing.T, text, line string) {
	t.Helper()
	if !strings.Contains(text, line+"\n") {
		t.Errorf("/metrics has no %q", line)
	}
}

// TestOperatorSeesEveryTruth: refused turns are counted by reason and are the robot's last
// turn in the status (a busy turn is not audited); the status shows privacy mode, missed
// calls and the last call's outcome and reason; calls are counted started and ended by
// reason; a backend that fails is down in the status and /metrics with its last error.
func TestOperatorSeesEveryTruth(t *testing.T) {
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		d.Transcriber = nil // a production broker without a model
		c.Teleport.Owners = []string{dad.Login}
		d.Handlers["calendar"] = failingCalendar{}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go tb.b.RunConsole(ctx)

	// The robot speaks: no model, refused busy. Not audited, but its last turn.
	robot := tb.token(t, "robot", "turn", "text", "calendar:read")
	if r := tb.turnAudio(t, robot); r.status != 503 {
		t.Fatalf("audio turn without a model: %d %s", r.status, r.body)
	}
	st := tb.b.Status(ctx)
	rs := findRobot(t, st, "robot")
	if rs.Turn == nil || rs.Turn.Refused != RefusedNoModel || rs.Turn.Route != "turn" || rs.LastTurn.IsZero() {
		t.Fatalf("the refused turn is not the robot's last turn: %+v", rs.Turn)
	}
	// A denied one from the laptop, the calendar down, and a missed call from the robot.
	laptop := tb.token(t, "laptop", "text")
	tb.say(t, laptop, "turn on the kitchen light")
	if r := tb.say(t, robot, "is dad busy"); r.turn(t).Outcome != store.OutcomeFailed {
		t.Fatalf("calendar down: %s", r.body)
	}
	if r := tb.say(t, robot, "call dad"); !strings.Contains(r.turn(t).Reply, "missed call") {
		t.Fatalf("call dad: %s", r.body)
	}
	if err := tb.state.SetPrivacy(ctx, "robot", true, time.Now()); err != nil {
		t.Fatal(err)
	}
	// A call starts and the room hangs up (the console's audited actions).
	for _, a := range []console.Action{{Owner: dad.Login, Device: "robot", Kind: "teleport.call", Arg: "start", OK: true},
		{Owner: dad.Login, Device: "robot", Kind: "teleport.call", Arg: "hang_up", OK: true}} {
		if err := tb.b.auditConsole(ctx, a); err != nil {
			t.Fatal(err)
		}
	}

	st = tb.b.Status(ctx)
	rs = findRobot(t, st, "robot")
	if !rs.Privacy {
		t.Error("privacy mode not shown")
	}
	if c := rs.LastCall; c == nil || c.State != "ended" || c.Reason != "hang_up" || c.Owner != dad.Login {
		t.Errorf("last call: %+v", rs.LastCall)
	}
	if len(st.MissedCalls) != 1 || st.MissedCalls[0].Wanted != "dad" || st.MissedCalls[0].Robot != "robot" || st.MissedCalls[0].Owner != dad.Login {
		t.Errorf("missed calls: %+v", st.MissedCalls)
	}
	if len(st.Backends) != 1 || st.Backends[0].Name != "calendar" || st.Backends[0].Up || st.Backends[0].LastError == "" {
		t.Errorf("backends: %+v", st.Backends)
	}
	m := metricsText(t, tb)
	wantMetric(t, m, `reachy_turns_refused_total{reason="no_model"} 1`)
	wantMetric(t, m, `reachy_turns_refused_total{reason="denied"} 1`)
	wantMetric(t, m, `reachy_teleport_calls_started_total 1`)
	wantMetric(t, m, `reachy_teleport_calls_ended_total{reason="hang_up"} 1`)
	wantMetric(t, m, `reachy_backend_up{backend="calendar"} 0`)
}

func findRobot(t *testing.T, st Status, name string) RobotStatus {
	t.Helper()
	for _, r := range st.Robots {
		if r.Device == name {
			return r
		}
	}
	t.Fatalf("no robot %q in the status: %+v", name, st.Robots)
	return RobotStatus{}
}
