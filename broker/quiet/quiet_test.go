package quiet

import (
	"context"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// TestQuietTimeLastsItsLength: from the handler, on an injected clock: a length is kept to
// the second, no length lasts twelve hours, "off" ends it, a length out of range is refused
// and sets nothing, and starting quiet time stops the robot's speech (the stop handler runs).
func TestQuietTimeLastsItsLength(t *testing.T) {
	c := &clock{t: time.Date(2026, 12, 1, 21, 0, 0, 0, time.UTC)}
	q := New(c.now)
	stops := 0
	h := q.Handler(intents.HandlerFunc(func(context.Context, intents.Call) (intents.Answer, error) {
		stops++
		return intents.Answer{Reply: "Okay.", Expression: intents.ExpressionStop}, nil
	}))
	call := func(args map[string]string) intents.Answer {
		t.Helper()
		a, err := h.Handle(context.Background(), intents.Call{Device: "robot", Args: args})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	if a := call(map[string]string{"state": "on", "duration": "3600"}); a.Reply != "" || a.Expression != intents.ExpressionStop || stops != 1 {
		t.Fatalf("start: %+v, stops %d", a, stops)
	}
	c.t = c.t.Add(time.Hour - time.Second)
	if !q.Quiet("robot") || q.Quiet("bedside") {
		t.Fatal("quiet time is per robot and lasts its length")
	}
	c.t = c.t.Add(time.Second)
	if q.Quiet("robot") {
		t.Fatal("quiet time outlived its length")
	}
	call(map[string]string{"state": "on"})
	c.t = c.t.Add(12*time.Hour - time.Second)
	if !q.Quiet("robot") {
		t.Fatal("quiet time without a length ended early")
	}
	c.t = c.t.Add(time.Second)
	if q.Quiet("robot") {
		t.Fatal("quiet time without a length lasted past twelve hours")
	}
	call(map[string]string{"state": "on"})
	if a := call(map[string]string{"state": "off"}); a.Reply == "" || q.Quiet("robot") {
		t.Fatalf("off: %+v, still quiet %v", a, q.Quiet("robot"))
	}
	for _, secs := range []string{"59", "43201", "0", "-60", "sixty"} {
		a := call(map[string]string{"state": "on", "duration": secs})
		if a.Reply != Refusal || a.Outcome != intents.OutcomeFailed || q.Quiet("robot") {
			t.Fatalf("%s s: %+v, quiet %v", secs, a, q.Quiet("robot"))
		}
	}
	for _, secs := range []string{"60", "43200"} {
		if a := call(map[string]string{"state": "on", "duration": secs}); a.Reply != "" || !q.Quiet("robot") {
			t.Fatalf("%s s: %+v", secs, a)
		}
		q.End("robot")
	}
}
