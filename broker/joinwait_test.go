package broker

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/robot"
)

// scriptedHub is a hub on the robot link whose answers the test writes: it records every
// action it is sent and acks each with answer.
type scriptedHub struct {
	link   *robot.Link
	mu     sync.Mutex
	sent   []api.LinkMessage
	answer func(m api.LinkMessage) api.LinkAckBody
}

func (h *scriptedHub) messages() []api.LinkMessage {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]api.LinkMessage(nil), h.sent...)
}

// joinPlays counts the join chimes the hub was offered.
func (h *scriptedHub) joinPlays() (offered int) {
	for _, m := range h.messages() {
		if m.Type == api.LinkPlay && m.Play != nil && m.Play.Join {
			offered++
		}
	}
	return offered
}

// newScriptedRig is a console rig whose robot "robot" is a scripted hub, not the sim hub.
func newScriptedRig(t *testing.T, answer func(m api.LinkMessage) api.LinkAckBody, opts ...option) (*consoleRig, *scriptedHub) {
	t.Helper()
	people := &switchPeople{p: dad}
	synth := &toneSynth{}
	all := append([]option{func(c *Config, d *Deps) {
		c.Teleport.Owners = []string{dad.Login, mom.Login}
		d.People = people
		d.Synthesizer = synth
	}}, opts...)
	tb := newTestBroker(t, all...)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go tb.b.RunConsole(ctx)
	h := &scriptedHub{answer: answer}
	h.link = &robot.Link{URL: tb.srv.URL, Token: tb.token(t, "robot", "turn", "link"), Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Handle: func(_ context.Context, m api.LinkMessage) api.LinkAckBody {
			h.mu.Lock()
			h.sent = append(h.sent, m)
			answer := h.answer
			h.mu.Unlock()
			return answer(m)
		}}
	lctx, lcancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { h.link.Run(lctx); close(done) }()
	t.Cleanup(func() { lcancel(); <-done })
	waitLinked(t, tb.b, "robot", 1, 5*time.Second)
	return &consoleRig{testBroker: tb, people: people, synth: synth}, h
}

// TestBusyJoinRetriedWhenIdle: the hub answers the join chime busy (it is speaking its own
// reply) and reports idle over the link a little later. The broker offers the chime again
// as soon as the robot is idle — not at its next backoff step — and until the hub acks the
// chime as played the session is not live: a clip the hub sends meanwhile reaches nobody
// and is not transcribed, and no call offer or other media action goes down.
func TestBusyJoinRetriedWhenIdle(t *testing.T) {
	var mu sync.Mutex
	busy := true
	var playedAt time.Time
	r, h := newScriptedRig(t, func(m api.LinkMessage) api.LinkAckBody {
		mu.Lock()
		defer mu.Unlock()
		if m.Type == api.LinkPlay && m.Play != nil && m.Play.Join {
			if busy {
				return api.LinkAckBody{Code: api.LinkErrBusy}
			}
			playedAt = time.Now()
		}
		return api.LinkAckBody{OK: true}
	})
	tok := r.page(t)
	joined := make(chan reply, 1)
	start := time.Now()
	go func() { joined <- r.post(t, tok, "join", map[string]any{}) }()

	// The backoff offers the chime at about 0, 0.25, 0.75, 1.75 and 3.75 s: the robot goes
	// idle at 2 s, between two steps.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for time.Since(start) < 2*time.Second {
		if s := r.session(t); s != nil && s.Live {
			t.Fatalf("the session went live while the robot answered busy: %+v", s)
		}
		time.Sleep(50 * time.Millisecond)
	}
	calls := r.stt.calls.Load()
	if err := h.link.Send(ctx, heardMessage(roomClip())); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if s := r.session(t); s == nil || s.Live || len(s.Clips) != 0 || r.stt.calls.Load() != calls {
		t.Fatalf("before the chime played: session %+v, transcriptions %d -> %d", s, calls, r.stt.calls.Load())
	}
	mu.Lock()
	busy = false
	mu.Unlock()
	idleAt := time.Now()
	if err := h.link.Send(ctx, api.LinkMessage{Type: api.LinkState, State: api.HubIdle}); err != nil {
		t.Fatal(err)
	}
	var resp reply
	select {
	case resp = <-joined:
	case <-time.After(25 * time.Second):
		t.Fatal("the join never finished")
	}
	if resp.status != 200 {
		t.Fatalf("join: %d %s", resp.status, resp.body)
	}
	mu.Lock()
	late := playedAt.Sub(idleAt)
	mu.Unlock()
	if late > 700*time.Millisecond {
		t.Fatalf("the chime was offered again %s after the robot reported idle; want at once", late)
	}
	if offered := h.joinPlays(); offered < 2 {
		t.Fatalf("want the busy chime offered again: %d offers", offered)
	}
	// Nothing but the presence pose and the chime went down before the chime played.
	for _, m := range h.messages() {
		switch m.Type {
		case api.LinkPresence, api.LinkPlay:
		default:
			t.Fatalf("%s sent to the robot during the join", m.Type)
		}
	}
	if s := r.session(t); s == nil || !s.Live || len(s.Clips) != 0 {
		t.Fatalf("after the chime: %+v; want live and no clip from before it", s)
	}
}
