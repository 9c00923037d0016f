package broker

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/link"
	"github.com/reachy-broker/reachy-broker/robot"
	"github.com/reachy-broker/reachy-broker/speech"
)

// simHub is a hub with a fake daemon, linked to a broker URL.
type simHub struct {
	daemonURL string
	hub       *robot.Hub
	link      *robot.Link
	fake      *robot.FakeDaemon
	stop      context.CancelFunc
	done      chan struct{}
}

func startSimHub(t testing.TB, brokerURL, token string, tune func(*robot.Link)) *simHub {
	t.Helper()
	fake := robot.NewFakeDaemon()
	dsrv := httptest.NewServer(fake)
	t.Cleanup(dsrv.Close)
	d := robot.NewDaemon(dsrv.URL, time.Second)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := &robot.Hub{Daemon: d, Speaker: robot.DaemonSpeaker{D: d}, Motion: robot.NewMotion(d, robot.DefaultExpressions(), log), Log: log}
	l := &robot.Link{URL: brokerURL, Token: token, Log: log}
	if tune != nil {
		tune(l)
	}
	h.AttachLink(l)
	s := &simHub{hub: h, link: l, fake: fake, daemonURL: dsrv.URL}
	s.start()
	t.Cleanup(s.halt)
	return s
}

func (s *simHub) start() {
	ctx, cancel := context.WithCancel(context.Background())
	s.stop, s.done = cancel, make(chan struct{})
	done := s.done
	go func() { s.link.Run(ctx); close(done) }()
}

// halt closes the hub's link and waits until it is down.
func (s *simHub) halt() {
	s.stop()
	<-s.done
}

func (s *simHub) paths(prefix string) []string {
	var out []string
	for _, c := range s.fake.Calls() {
		if strings.HasPrefix(c.Path, prefix) {
			out = append(out, c.Path)
		}
	}
	return out
}

func waitLinked(t testing.TB, b *Broker, device string, connects int, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for time.Since(start) < within {
		if st := b.Link().Status(device); st.Online && st.Connects >= connects {
			return time.Since(start)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s not linked (%d connects) within %s: %+v", device, connects, within, b.Link().Status(device))
	return 0
}

// TestLinkNeedsScope: a token without the link scope is refused with 403 insufficient_scope,
// and a missing token with 401; the link never opens.
func TestLinkNeedsScope(t *testing.T) {
	tb := newTestBroker(t)
	r := tb.do(t, "GET", "/v1/link", tb.token(t, "robot", "turn"), "", nil)
	if r.status != 403 || r.code(t) != api.CodeInsufficientScope || !strings.Contains(r.header.Get("WWW-Authenticate"), `scope="link"`) {
		t.Fatalf("turn-only token: %d %s %s", r.status, r.body, r.header)
	}
	if r := tb.do(t, "GET", "/v1/link", "", "", nil); r.status != 401 {
		t.Fatalf("no token: %d", r.status)
	}
	h := startSimHub(t, tb.srv.URL, tb.token(t, "robot", "turn"), nil)
	time.Sleep(300 * time.Millisecond)
	if h.link.Connected() || tb.b.Link().Status("robot").Online {
		t.Fatal("a link opened without the link scope")
	}
}

// TestLinkActionsReachDaemon: each action of the closed set reaches the robot daemon
// through the hub's arbitration and is acknowledged; an action the hub refuses (an unknown
// expression) is answered with its closed code and the link carries on.
func TestLinkActionsReachDaemon(t *testing.T) {
	tb := newTestBroker(t)
	h := startSimHub(t, tb.srv.URL, tb.token(t, "robot", "turn", "link"), nil)
	waitLinked(t, tb.b, "robot", 1, 5*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	send := func(m api.LinkMessage) api.LinkAckBody {
		t.Helper()
		ack, err := tb.b.Link().Send(ctx, "robot", m)
		if err != nil {
			t.Fatalf("%s: %v", m.Type, err)
		}
		return ack
	}
	if ack := send(api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: true, Who: "Dad"}}); !ack.OK || !h.hub.SessionActive() {
		t.Fatalf("presence: %+v", ack)
	}
	var lastGoto struct {
		Antennas [2]float64 `json:"antennas"`
	}
	for _, c := range h.fake.Calls() {
		if c.Path == "/api/move/goto" {
			json.Unmarshal(c.Body, &lastGoto)
		}
	}
	if lastGoto.Antennas != [2]float64{robot.PresenceAntennas.Right, robot.PresenceAntennas.Left} {
		t.Fatalf("no 'someone is here' pose: %+v", lastGoto)
	}
	wav, _ := speech.EncodeWAV(make([]float32, speech.SampleRate/2), speech.SampleRate)
	if ack := send(api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: wav, Chime: true}}); !ack.OK {
		t.Fatalf("play: %+v", ack)
	}
	if got := strings.Join(h.paths("/api/media/"), " "); !strings.Contains(got, "upload play_sound") && !strings.Contains(got, "/api/media/sounds/upload /api/media/play_sound") {
		t.Fatalf("play did not reach the daemon: %s", got)
	}
	if ack := send(api.LinkMessage{Type: api.LinkStop}); !ack.OK || len(h.paths("/api/media/stop_sound")) == 0 {
		t.Fatalf("stop: %+v", ack)
	}
	if ack := send(api.LinkMessage{Type: api.LinkExpression, Expression: "celebrate"}); !ack.OK || len(h.paths("/api/move/play/recorded-move-dataset/")) == 0 {
		t.Fatalf("expression: %+v", ack)
	}
	if ack := send(api.LinkMessage{Type: api.LinkExpression, Expression: "self_destruct"}); ack.OK || ack.Code != api.LinkErrInvalid {
		t.Fatalf("unknown expression: %+v", ack)
	}
	if ack := send(api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: false}}); !ack.OK || h.hub.SessionActive() {
		t.Fatalf("presence off: %+v", ack)
	}
	if st := tb.b.Link().Status("robot"); !st.Online || st.Connects != 1 {
		t.Fatalf("the link did not survive: %+v", st)
	}
}

// TestLinkBackAfterBrokerRestart: the broker goes away and comes back on the same address;
// the hub's link is back within 5 s of it serving again.
func TestLinkBackAfterBrokerRestart(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "link")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	srv1 := NewHTTPServer(tb.b.Handler(), time.Second)
	go srv1.Serve(l)
	h := startSimHub(t, "http://"+addr, tok, nil)
	waitLinked(t, tb.b, "robot", 1, 5*time.Second)

	srv1.Close()
	tb.b.Link().Close()
	for i := 0; i < 200 && h.link.Connected(); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(1500 * time.Millisecond) // the hub backs off while the broker is gone
	l2, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("port %s was taken meanwhile: %v", addr, err)
	}
	srv2 := NewHTTPServer(tb.b.Handler(), time.Second)
	go srv2.Serve(l2)
	defer srv2.Close()
	took := waitLinked(t, tb.b, "robot", 2, 5*time.Second)
	t.Logf("link back %s after the broker served again", took.Round(time.Millisecond))
}

// TestHubNoticesDeadLink: a broker that accepts the link and then says nothing is dropped
// by the hub within DeadAfter, and the hub dials again.
func TestHubNoticesDeadLink(t *testing.T) {
	var dials int
	accepted := make(chan struct{}, 10)
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reg := link.New(link.Options{Ping: time.Hour, DeadAfter: time.Hour, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		dials++
		accepted <- struct{}{}
		reg.Serve(w, r, "robot") // never pings within the test
	}))
	defer silent.Close()
	start := time.Now()
	startSimHub(t, silent.URL, "t", func(l *robot.Link) {
		l.Ping, l.DeadAfter, l.MinBackoff = time.Hour, 400*time.Millisecond, 10*time.Millisecond
	})
	for i := 0; i < 2; i++ {
		select {
		case <-accepted:
		case <-time.After(5 * time.Second):
			t.Fatal("the hub did not redial a silent link")
		}
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("dead link noticed after %s", d)
	}
}

func httptestServer(t *testing.T, h http.Handler) string {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}
