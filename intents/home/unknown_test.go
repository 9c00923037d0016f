package home

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
)

// sentNoAnswer is a backend whose writes to some rooms are sent and never confirmed.
type sentNoAnswer struct {
	*Memory
	unknown map[string]bool
}

func (b sentNoAnswer) Set(ctx context.Context, d Device, s State) error {
	if b.unknown[d.Room] {
		return &UnknownError{context.DeadlineExceeded}
	}
	return b.Memory.Set(ctx, d, s)
}

// TestUnknownWriteIsSaidAsUnknown: a write that was sent and never confirmed is said the way
// docs/home.md promises — never as "isn't answering", which would tell the family it did not
// happen — on the Home Assistant path (the hub took the request and never answered, and the
// read-back timed out too), for one room and within "all".
func TestUnknownWriteIsSaidAsUnknown(t *testing.T) {
	f := newFakeHA()
	f.mode, f.slowness = "slow-all", 600*time.Millisecond
	h, _ := haHome(t, f)
	a, _ := run(t, h, "turn on the kitchen light", 3*time.Second)
	if a.Outcome != intents.OutcomeUnknown || a.Reply != replyUnknown {
		t.Fatalf("Home Assistant, one room: outcome %q, reply %q", a.Outcome, a.Reply)
	}

	b := sentNoAnswer{NewMemory(), map[string]bool{"office": true}}
	if a := call(t, b, "light", "turn on the office light"); a.Outcome != intents.OutcomeUnknown || a.Reply != replyUnknown {
		t.Fatalf("one room: outcome %q, reply %q", a.Outcome, a.Reply)
	}
	a = call(t, b, "light", "turn off all the lights")
	want := "I turned off four of five lights; the house didn't answer in time for the office light, so I can't tell whether that worked."
	if a.Outcome != intents.OutcomePartial || a.Reply != want {
		t.Fatalf("all: outcome %q, reply %q", a.Outcome, a.Reply)
	}
	all := sentNoAnswer{NewMemory(), map[string]bool{"kitchen": true, "living room": true, "bedroom": true, "office": true, "kids room": true}}
	if a := call(t, all, "light", "turn off all the lights"); a.Outcome != intents.OutcomeUnknown || a.Reply != replyUnknown {
		t.Fatalf("all unknown: outcome %q, reply %q", a.Outcome, a.Reply)
	}
	mixed := flakyUnknown{sentNoAnswer{NewMemory(), map[string]bool{"office": true}}, "kitchen"}
	a = call(t, mixed, "light", "turn off all the lights")
	want = "I turned off three of five lights; the kitchen light didn't answer, and the house didn't answer in time for the office light, so I can't tell whether that worked."
	if a.Reply != want {
		t.Fatalf("mixed: %q", a.Reply)
	}
}

// flakyUnknown also fails one room's write as certainly not sent.
type flakyUnknown struct {
	sentNoAnswer
	dead string
}

func (f flakyUnknown) Set(ctx context.Context, d Device, s State) error {
	if d.Room == f.dead {
		return &TransientError{net.ErrClosed}
	}
	return f.sentNoAnswer.Set(ctx, d, s)
}

// TestUnknownServiceCallsAreSaidAsUnknown: a home.service call Home Assistant took and never
// answered, and a webhook that took the request and never answered, are both said as
// unknown, not as a failure.
func TestUnknownServiceCallsAreSaidAsUnknown(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // took the request; the answer never comes in time
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	tb, err := intents.Parse([]byte(goodNight), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in, _ := tb.Lookup("routine.good_night")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	a, err := Service{HA: &HomeAssistant{BaseURL: srv.URL, Token: "ha-token"}}.Handle(ctx, intents.Call{Intent: in, Table: tb})
	if err != nil || a.Outcome != intents.OutcomeUnknown || a.Reply != replyUnknown {
		t.Fatalf("home.service: outcome %q, reply %q, err %v", a.Outcome, a.Reply, err)
	}
	hook, _ := tb.Lookup("routine.movie")
	hook.Handler.URL, hook.Handler.Timeout = srv.URL, "300ms"
	a, _ = Webhook{}.Handle(context.Background(), intents.Call{Intent: hook, Args: map[string]string{}, Table: tb})
	if a.Outcome != intents.OutcomeUnknown || a.Reply != replyUnknown {
		t.Fatalf("webhook: outcome %q, reply %q", a.Outcome, a.Reply)
	}
}
