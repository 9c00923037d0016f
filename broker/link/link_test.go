package link

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// serve puts a registry behind a test server; every caller is the device "robot".
func serve(t *testing.T, o Options) (*Registry, string) {
	t.Helper()
	o.Logger = quiet()
	r := New(o)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { r.Serve(w, req, "robot") }))
	t.Cleanup(srv.Close)
	t.Cleanup(r.Close)
	return r, srv.URL
}

func dial(t *testing.T, ctx context.Context, url string) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	return ws
}

func read(t *testing.T, ctx context.Context, ws *websocket.Conn) api.LinkMessage {
	t.Helper()
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var m api.LinkMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type != api.LinkPing {
			return m
		}
	}
}

func write(t *testing.T, ctx context.Context, ws *websocket.Conn, raw string) {
	t.Helper()
	if err := ws.Write(ctx, websocket.MessageText, []byte(raw)); err != nil {
		t.Fatal(err)
	}
}

func waitOnline(t *testing.T, r *Registry, want bool) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if r.Status("robot").Online == want {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("link online=%v never happened", want)
}

// TestUnknownTypeRefusedLinkSurvives: a frame of an unknown type (or not JSON) is answered
// with a closed code, and the next action still goes through and is acknowledged.
func TestUnknownTypeRefusedLinkSurvives(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, url := serve(t, Options{})
	ws := dial(t, ctx, url)
	waitOnline(t, r, true)

	write(t, ctx, ws, `{"type":"format_disk","id":"x1"}`)
	if m := read(t, ctx, ws); m.Type != api.LinkAck || m.ID != "x1" || m.Ack == nil || m.Ack.OK || m.Ack.Code != api.LinkErrUnknownType {
		t.Fatalf("unknown type: %+v", m)
	}
	write(t, ctx, ws, `{"type":"state","state":"idle","password":"x"}`)
	if m := read(t, ctx, ws); m.Ack == nil || m.Ack.Code != api.LinkErrInvalid {
		t.Fatalf("unknown field: %+v", m)
	}
	write(t, ctx, ws, `not json`)
	if m := read(t, ctx, ws); m.Ack == nil || m.Ack.Code != api.LinkErrInvalid {
		t.Fatalf("not JSON: %+v", m)
	}

	got := make(chan api.LinkAckBody, 1)
	go func() {
		ack, err := r.Send(ctx, "robot", api.LinkMessage{Type: api.LinkExpression, Expression: "happy"})
		if err != nil {
			t.Error(err)
		}
		got <- ack
	}()
	m := read(t, ctx, ws)
	if m.Type != api.LinkExpression || m.Expression != "happy" || m.ID == "" {
		t.Fatalf("action after refusals: %+v", m)
	}
	write(t, ctx, ws, `{"type":"ack","id":"`+m.ID+`","ack":{"ok":true}}`)
	if ack := <-got; !ack.OK {
		t.Fatalf("ack: %+v", ack)
	}
}

// TestSendRefusals: only the closed set of actions goes down, never to a robot that is offline.
func TestSendRefusals(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, url := serve(t, Options{AckTimeout: 200 * time.Millisecond})
	if _, err := r.Send(ctx, "robot", api.LinkMessage{Type: api.LinkStop}); !errors.Is(err, ErrOffline) {
		t.Fatalf("offline: %v", err)
	}
	ws := dial(t, ctx, url)
	waitOnline(t, r, true)
	for _, typ := range []string{api.LinkHeard, api.LinkAck, "say_text", ""} {
		if _, err := r.Send(ctx, "robot", api.LinkMessage{Type: typ}); !errors.Is(err, ErrNotAction) {
			t.Fatalf("%q sent down: %v", typ, err)
		}
	}
	// A hub that never acks: Send gives up with ErrNoAck, not forever.
	if _, err := r.Send(ctx, "robot", api.LinkMessage{Type: api.LinkStop}); !errors.Is(err, ErrNoAck) {
		t.Fatalf("no ack: %v", err)
	}
	_ = ws
}

// TestDeadLinkNoticed: a hub that goes silent is dropped within DeadAfter, and a pending
// Send fails with ErrLinkDown instead of waiting for its own timeout.
func TestDeadLinkNoticed(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, url := serve(t, Options{Ping: 50 * time.Millisecond, DeadAfter: 300 * time.Millisecond, AckTimeout: 5 * time.Second})
	var events []EventKind
	evc := make(chan EventKind, 10)
	defer r.Subscribe(func(e Event) { evc <- e.Kind })()
	ws := dial(t, ctx, url)
	waitOnline(t, r, true)
	start := time.Now()
	_, err := r.Send(ctx, "robot", api.LinkMessage{Type: api.LinkStop}) // the "hub" never reads nor answers
	if !errors.Is(err, ErrLinkDown) {
		t.Fatalf("send on a dead link: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("dead link noticed after %s", d)
	}
	waitOnline(t, r, false)
	for len(events) < 2 {
		select {
		case k := <-evc:
			events = append(events, k)
		case <-ctx.Done():
			t.Fatalf("events: %v", events)
		}
	}
	if events[0] != EventUp || events[1] != EventDown {
		t.Fatalf("events: %v", events)
	}
	_ = ws
}

// TestNewLinkReplacesOld: a hub that reconnects takes over; the stale link is closed.
func TestNewLinkReplacesOld(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, url := serve(t, Options{})
	old := dial(t, ctx, url)
	waitOnline(t, r, true)
	fresh := dial(t, ctx, url)
	for i := 0; i < 200 && r.Status("robot").Connects < 2; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if _, _, err := old.Read(ctx); err == nil || !strings.Contains(err.Error(), "replaced") {
		t.Fatalf("old link not closed: %v", err)
	}
	go func() {
		m := read(t, ctx, fresh)
		write(t, ctx, fresh, `{"type":"ack","id":"`+m.ID+`","ack":{"ok":true}}`)
	}()
	if ack, err := r.Send(ctx, "robot", api.LinkMessage{Type: api.LinkStop}); err != nil || !ack.OK {
		t.Fatalf("send on the new link: %+v %v", ack, err)
	}
	if st := r.Status("robot"); !st.Online || st.Connects != 2 {
		t.Fatalf("status: %+v", st)
	}
}
