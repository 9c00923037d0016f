package robot

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/robot/wake"
	"github.com/reachy-broker/reachy-broker/speech"
)

func linkTestHub(t *testing.T) (*Hub, *FakeDaemon) {
	fake := NewFakeDaemon()
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	d := NewDaemon(srv.URL, time.Second)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	return &Hub{Daemon: d, Speaker: DaemonSpeaker{D: d}, Motion: NewMotion(d, DefaultExpressions(), log), Log: log}, fake
}

// TestLinkNeverTalksOverAReply: while the hub is in its own turn (or speaking its reply), a
// link play or move is refused busy and nothing reaches the speaker; afterwards it plays.
func TestLinkNeverTalksOverAReply(t *testing.T) {
	h, fake := linkTestHub(t)
	ctx := context.Background()
	wav, _ := speech.EncodeWAV(make([]float32, speech.SampleRate/4), speech.SampleRate)
	play := api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: wav}}

	h.turnBegins()
	if ack := h.LinkAction(ctx, play); ack.OK || ack.Code != api.LinkErrBusy {
		t.Fatalf("play during a turn: %+v", ack)
	}
	if ack := h.LinkAction(ctx, api.LinkMessage{Type: api.LinkLook, Look: &api.LinkLookAction{YawDeg: 30}}); ack.Code != api.LinkErrBusy {
		t.Fatalf("look during a turn: %+v", ack)
	}
	h.turnEnds()
	h.mu.Lock()
	h.speakingUntil = time.Now().Add(time.Minute) // the reply is still being spoken
	h.mu.Unlock()
	if ack := h.LinkAction(ctx, play); ack.Code != api.LinkErrBusy {
		t.Fatalf("play over a reply: %+v", ack)
	}
	for _, c := range fake.Calls() {
		if strings.HasPrefix(c.Path, "/api/media/") {
			t.Fatalf("the speaker was touched while busy: %s", c.Path)
		}
	}
	h.mu.Lock()
	h.speakingUntil = time.Time{}
	h.mu.Unlock()
	if ack := h.LinkAction(ctx, play); !ack.OK {
		t.Fatalf("play when free: %+v", ack)
	}
	// A second link clip may follow the first: the hub's own arbitration only guards replies.
	if ack := h.LinkAction(ctx, play); !ack.OK {
		t.Fatalf("second link clip: %+v", ack)
	}
}

// TestLinkLookClampedAndChecked: a look beyond the robot's limits is clamped by the daemon
// client; NaN is refused as invalid.
func TestLinkLookClampedAndChecked(t *testing.T) {
	h, fake := linkTestHub(t)
	ctx := context.Background()
	if ack := h.LinkAction(ctx, api.LinkMessage{Type: api.LinkLook, Look: &api.LinkLookAction{YawDeg: 0, PitchDeg: 200}}); !ack.OK {
		t.Fatalf("look: %+v", ack)
	}
	calls := fake.Calls()
	body := string(calls[len(calls)-1].Body)
	if !strings.Contains(body, `"pitch":0.698`) {
		t.Fatalf("pitch not clamped to 40 degrees: %s", body)
	}
	var nan api.LinkLookAction
	nan.YawDeg = mathNaN()
	if ack := h.LinkAction(ctx, api.LinkMessage{Type: api.LinkLook, Look: &nan}); ack.Code != api.LinkErrInvalid {
		t.Fatalf("NaN look: %+v", ack)
	}
	if ack := h.LinkAction(ctx, api.LinkMessage{Type: "open_door"}); ack.Code != api.LinkErrUnknownType {
		t.Fatalf("unknown: %+v", ack)
	}
}

func mathNaN() float64 { z := 0.0; return z / z }

// deafSpotter never hears the wake phrase.
type deafSpotter struct{}

func (deafSpotter) Spot(context.Context, []float32) (wake.Detection, bool, error) {
	return wake.Detection{}, false, nil
}
func (deafSpotter) Close() error { return nil }

// TestSessionDivertsUtterances: during a teleport session what the hub hears goes up the
// link as a heard clip — without the wake phrase — and no turn reaches the broker's router.
func TestSessionDivertsUtterances(t *testing.T) {
	var turns atomic.Int32
	heard := make(chan api.LinkMessage, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/link" {
			turns.Add(1)
			http.Error(w, "no", 500)
			return
		}
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		ws.SetReadLimit(4 << 20)
		for {
			var m api.LinkMessage
			if err := wsjson.Read(r.Context(), ws, &m); err != nil {
				return
			}
			if m.Type == api.LinkHeard {
				heard <- m
			}
		}
	}))
	defer srv.Close()

	h, _ := linkTestHub(t)
	h.Broker = &BrokerClient{URL: srv.URL, Token: "t", Deadline: time.Second}
	h.Wake = wake.NewGuard(deafSpotter{}, h.Log) // no wake phrase is ever heard
	l := &Link{URL: srv.URL, Token: "t", Log: h.Log}
	h.AttachLink(l)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	lctx, stopLink := context.WithCancel(ctx)
	defer stopLink()
	go l.Run(lctx)
	for i := 0; i < 500 && !l.Connected(); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if ack := h.LinkAction(ctx, api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: true, Who: "Dad"}}); !ack.OK {
		t.Fatalf("presence: %+v", ack)
	}

	dir := t.TempDir()
	wav, err := speech.Espeak{}.Synthesize(ctx, "dinner is ready, are you coming home soon")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.wav"), wav, 0o644)
	listen := func() {
		t.Helper()
		src, err := NewFileSource([]string{dir}, 1)
		if err != nil {
			t.Fatal(err)
		}
		h.Source = src
		if err := h.Run(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// Presence alone is not consent: until the join announcement has played, the room's
	// words stay in the room (no wake phrase, so nothing at all goes up).
	listen()
	select {
	case <-heard:
		t.Fatal("an utterance went to the owner before the join announcement played")
	case <-time.After(500 * time.Millisecond):
	}
	join, _ := speech.EncodeWAV(make([]float32, speech.SampleRate/5), speech.SampleRate)
	if ack := h.LinkAction(ctx, api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: join, Chime: true, Join: true}}); !ack.OK {
		t.Fatalf("join announcement: %+v", ack)
	}
	listen()
	select {
	case m := <-heard:
		if len(m.Heard.WAV) < 44 {
			t.Fatalf("heard clip: %d bytes", len(m.Heard.WAV))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the utterance did not go up the link")
	}
	if n := turns.Load(); n != 0 {
		t.Fatalf("%d turns reached the broker during a session", n)
	}
}

// TestJoinAnnouncementAckedWhenPlayed: the join announcement is acknowledged only after it
// has played to its end, and only then does the session pass the room's words; one cut
// short by a voice in the room is answered interrupted and the session stays unannounced.
func TestJoinAnnouncementAckedWhenPlayed(t *testing.T) {
	h, fake := linkTestHub(t)
	ctx := context.Background()
	presence := func(active bool) {
		t.Helper()
		if ack := h.LinkAction(ctx, api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: active, Who: "Dad"}}); !ack.OK {
			t.Fatalf("presence: %+v", ack)
		}
	}
	wav, _ := speech.EncodeWAV(make([]float32, speech.SampleRate/2), speech.SampleRate) // 0.5 s after the 0.35 s chime
	join := api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: wav, Chime: true, Join: true}}

	presence(true)
	if !h.SessionActive() || h.SessionLive() {
		t.Fatalf("after presence: active %v, live %v; want active and not live", h.SessionActive(), h.SessionLive())
	}
	start := time.Now()
	if ack := h.LinkAction(ctx, join); !ack.OK {
		t.Fatalf("join announcement: %+v", ack)
	}
	if took := time.Since(start); took < 800*time.Millisecond {
		t.Fatalf("join announcement acknowledged after %s, before it could have played (0.85 s)", took)
	}
	if !h.SessionLive() || len(fake.Sound("link-1.wav")) == 0 {
		t.Fatalf("after the announcement played: live %v", h.SessionLive())
	}

	presence(false)
	presence(true)
	got := make(chan api.LinkAckBody, 1)
	go func() { got <- h.LinkAction(ctx, join) }()
	time.Sleep(300 * time.Millisecond)
	h.onSpeechStart(ctx) // someone in the room talks over it
	if ack := <-got; ack.OK || ack.Code != api.LinkErrInterrupted {
		t.Fatalf("announcement cut short: %+v; want interrupted", ack)
	}
	if h.SessionLive() {
		t.Fatal("a session whose announcement was cut short went live")
	}
	// The link came back during a live session: the room already heard who joined.
	if ack := h.LinkAction(ctx, api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: true, Who: "Dad", Resume: true}}); !ack.OK || !h.SessionLive() {
		t.Fatalf("resumed presence: %+v live %v", ack, h.SessionLive())
	}
}
