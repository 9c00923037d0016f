package robot

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/robot/call"
	"github.com/reachy-broker/reachy-broker/robot/call/calltest"
	"github.com/reachy-broker/reachy-broker/robot/call/media"
	"github.com/reachy-broker/reachy-broker/speech"
)

// callTestHub is a hub on the fake daemon with the simulator's call media, attached to a
// link that is not connected (what it sends up is dropped).
func callTestHub(t *testing.T) (*Hub, *FakeDaemon) {
	h, fake := linkTestHub(t)
	cfg := call.Config{}
	cfg.DefaultsFrom(call.Sim())
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// This test binary is the media program: TestMain serves the media when it finds
	// call.MediaProcessEnv.
	h.Call = &call.Manager{Config: cfg, OutDir: t.TempDir(), Media: call.MediaCommand{Path: self}}
	h.AttachLink(&Link{})
	t.Cleanup(func() { h.endCall("test over") })
	return h, fake
}

// TestMain: started as a call's media process by a hub under test, this test binary serves
// the media, as reachy-call would.
func TestMain(m *testing.M) {
	if os.Getenv(call.MediaProcessEnv) != "" {
		os.Exit(media.Main())
	}
	os.Exit(m.Run())
}

func offerMsg(id, sdp string) api.LinkMessage {
	return api.LinkMessage{Type: api.LinkCallOffer, CallOffer: &api.LinkCallOfferAction{CallID: id, SDP: sdp}}
}

// joinSession starts a session and plays its join announcement to the end.
func joinSession(t *testing.T, h *Hub) {
	t.Helper()
	ctx := context.Background()
	if ack := h.LinkAction(ctx, api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: true, Who: "Dad"}}); !ack.OK {
		t.Fatalf("presence: %+v", ack)
	}
	wav, _ := speech.EncodeWAV(make([]float32, speech.SampleRate/5), speech.SampleRate)
	if ack := h.LinkAction(ctx, api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: wav, Chime: true, Join: true}}); !ack.OK {
		t.Fatalf("join announcement: %+v", ack)
	}
}

// startCall makes a browser, offers, and waits (bounded) for the first keyframe.
func startCall(t *testing.T, h *Hub, id string) *calltest.Browser {
	t.Helper()
	b := calltest.NewBrowser(t, false)
	ack := h.LinkAction(context.Background(), offerMsg(id, b.Offer()))
	if !ack.OK || ack.Answer == nil || ack.Answer.CallID != id {
		t.Fatalf("offer after the join: %+v", ack)
	}
	b.Accept(ack.Answer.SDP)
	deadline := time.Now().Add(5 * time.Second)
	for b.Stats().Keyframes == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no keyframe within 5 s of the answer")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return b
}

// mediaStopsWithin fails unless b's media stopped within d of at (checked 1.5 s later).
func mediaStopsWithin(t *testing.T, b *calltest.Browser, at time.Time, d time.Duration) {
	t.Helper()
	time.Sleep(d + 500*time.Millisecond)
	if last := b.Stats().LastPacket; last.After(at.Add(d)) {
		t.Errorf("media still arrived %s after the call should have stopped", last.Sub(at).Round(time.Millisecond))
	}
}

// TestCallOnlyAfterThePlayedJoin: no call before a session, nor before its join
// announcement has played to its end; after it, the call is answered, the daemon hands over
// the devices first, and the antennas show the camera.
func TestCallOnlyAfterThePlayedJoin(t *testing.T) {
	calltest.NeedGst(t)
	h, fake := callTestHub(t)
	ctx := context.Background()
	b := calltest.NewBrowser(t, false)
	offer := b.Offer()
	if ack := h.LinkAction(ctx, offerMsg("c1", offer)); ack.Code != api.LinkErrNotLive {
		t.Fatalf("offer without a session: %+v, want not_live", ack)
	}
	h.LinkAction(ctx, api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: true, Who: "Dad"}})
	if ack := h.LinkAction(ctx, offerMsg("c1", offer)); ack.Code != api.LinkErrNotLive {
		t.Fatalf("offer before the join played: %+v, want not_live", ack)
	}
	for _, c := range fake.Calls() {
		if c.Path == "/api/media/release" {
			t.Fatal("the daemon released the camera before the join played")
		}
	}
	if ack := h.LinkAction(ctx, offerMsg("", offer)); ack.Code != api.LinkErrInvalid {
		t.Fatalf("offer without a call id: %+v", ack)
	}
	joinSession(t, h)
	b = startCall(t, h, "c1")
	if ack := h.LinkAction(ctx, offerMsg("c2", calltest.NewBrowser(t, false).Offer())); ack.Code != api.LinkErrBusy {
		t.Fatalf("a second call while one is on: %+v, want busy", ack)
	}
	deadline := time.Now().Add(3 * time.Second)
	for !hasCameraPose(fake) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !hasCameraPose(fake) {
		t.Error("the antennas never showed the camera")
	}
	endAt := time.Now()
	if ack := h.LinkAction(ctx, api.LinkMessage{Type: api.LinkCallEnd, CallEnd: &api.LinkCallEndAction{CallID: "c1", Reason: api.CallEndOwnerLeft}}); !ack.OK {
		t.Fatalf("call_end: %+v", ack)
	}
	if took := time.Since(endAt); took > time.Second {
		t.Errorf("call_end took %s", took)
	}
	mediaStopsWithin(t, b, endAt, time.Second)
	paths := []string{}
	for _, c := range fake.Calls() {
		if c.Path == "/api/media/release" || c.Path == "/api/media/acquire" {
			paths = append(paths, c.Path)
		}
	}
	if !slices.Equal(paths, []string{"/api/media/release", "/api/media/acquire"}) {
		t.Errorf("daemon media calls %v, want release then acquire", paths)
	}
}

// hasCameraPose reports whether the daemon was sent the camera's antenna pose.
func hasCameraPose(fake *FakeDaemon) bool {
	want := wireAntennas(CameraAntennas)
	for _, c := range fake.Calls() {
		if c.Path != "/api/move/goto" {
			continue
		}
		var g struct {
			Antennas *[2]float64 `json:"antennas"`
		}
		if json.Unmarshal(c.Body, &g) == nil && g.Antennas != nil && *g.Antennas == want {
			return true
		}
	}
	return false
}

// TestCallStopsWithTheSessionAndTheLink: the session ending and the link dropping each stop
// the call's media within a second.
func TestCallStopsWithTheSessionAndTheLink(t *testing.T) {
	calltest.NeedGst(t)
	h, _ := callTestHub(t)
	ctx := context.Background()

	joinSession(t, h)
	b := startCall(t, h, "c1")
	at := time.Now()
	h.LinkDown(ctx)
	mediaStopsWithin(t, b, at, time.Second)
	if h.Call.Active() != "" {
		t.Fatal("the call outlived the link")
	}

	joinSession(t, h)
	b = startCall(t, h, "c2")
	at = time.Now()
	h.LinkAction(ctx, api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: false}})
	mediaStopsWithin(t, b, at, time.Second)
	if h.Call.Active() != "" {
		t.Fatal("the call outlived the session")
	}
}
