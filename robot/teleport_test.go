package robot

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
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
