package basic

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
)

func handle(t *testing.T, typ, sentence string, scopes []string) intents.Answer {
	t.Helper()
	tb, err := intents.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	d := tb.Route(sentence, intents.Context{})
	in, _ := tb.Lookup(d.Intent)
	// 23:30 UTC on 30 November is already 1 December in a home east of UTC; the demo home is London.
	now := func() time.Time { return time.Date(2026, 11, 30, 23, 30, 0, 0, time.UTC) }
	a, err := Handlers(now)[typ].Handle(context.Background(), intents.Call{Intent: in, Args: d.Args, Table: tb, Scopes: scopes})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestTimeAndDateInTheHomesZone(t *testing.T) {
	if a := handle(t, "time", "what time is it", nil); a.Reply != "It's 11:30 PM." {
		t.Fatal(a.Reply)
	}
	if a := handle(t, "date", "what's the date", nil); a.Reply != "Today is Monday, November 30." {
		t.Fatal(a.Reply)
	}
}

func TestHelpSpeaksOnlyWhatTheCallerMayDo(t *testing.T) {
	a := handle(t, "help", "what can you do", []string{"house:read"})
	if !strings.Contains(a.Reply, "is the kitchen light on") || strings.Contains(a.Reply, "turn on the kitchen light") {
		t.Fatal(a.Reply)
	}
}

func TestExpressionAndStop(t *testing.T) {
	if a := handle(t, "robot.expression", "do a little dance", nil); a.Expression != "dance" || a.Reply != "" {
		t.Fatalf("%+v", a)
	}
	if a := handle(t, "robot.stop", "stop", nil); a.Expression != intents.ExpressionStop {
		t.Fatalf("%+v", a)
	}
	seen := map[string]bool{}
	for range 40 {
		seen[handle(t, "greeting", "hello", nil).Reply] = true
	}
	if len(seen) < 2 {
		t.Fatal("greetings never vary")
	}
}

// TestUnclearIsAnsweredLocally: a sentence about the home that fits no intent is answered
// from the table's own examples, without repeating what was said.
func TestUnclearIsAnsweredLocally(t *testing.T) {
	a := handle(t, "unclear", "dim the kitchen lights to hunter2 percent", nil)
	if !strings.Contains(a.Reply, "turn on the kitchen light") || strings.Contains(a.Reply, "hunter2") || !a.FollowUp {
		t.Fatalf("%+v", a)
	}
	if a := handle(t, "unclear", "open the blinds in the bedroom", nil); !strings.Contains(a.Reply, "I can't do that here") {
		t.Fatalf("%+v", a)
	}
}
