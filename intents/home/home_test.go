package home

import (
	"context"
	"errors"
	"testing"

	"github.com/reachy-broker/reachy-broker/intents"
)

type flaky struct {
	*Memory
	dead map[string]bool
}

func (f flaky) Set(ctx context.Context, d Device, s State) error {
	if f.dead[d.Room] {
		return errors.New("no answer")
	}
	return f.Memory.Set(ctx, d, s)
}

func (f flaky) Get(ctx context.Context, d Device) (State, error) {
	if f.dead[d.Room] {
		return State{}, errors.New("no answer")
	}
	return f.Memory.Get(ctx, d)
}

func call(t *testing.T, b Backend, kind, sentence string) intents.Answer {
	t.Helper()
	tb, err := intents.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	d := tb.Route(sentence, intents.Context{})
	in, _ := tb.Lookup(d.Intent)
	a, err := Handler{Backend: b, Kind: kind}.Handle(context.Background(), intents.Call{Intent: in, Args: d.Args, Table: tb})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestLightsSetAndRead(t *testing.T) {
	m := NewMemory()
	if a := call(t, m, "light", "turn on the kitchen light"); a.Reply != "Okay, the kitchen light is on." {
		t.Fatal(a.Reply)
	}
	if a := call(t, m, "light", "turn on the kitchen light"); a.Reply != "Okay, the kitchen light is on." || m.Sets(Device{"kitchen", "light"}) != 2 {
		t.Fatal("writes must set, not toggle")
	}
	if a := call(t, m, "light", "is the kitchen light on"); a.Reply != "The kitchen light is on." {
		t.Fatal(a.Reply)
	}
	if a := call(t, m, "light", "are any lights on"); a.Reply != "Only the kitchen light is on." {
		t.Fatal(a.Reply)
	}
	if a := call(t, m, "light", "turn off all the lights"); a.Reply != "Okay, all five lights are off." {
		t.Fatal(a.Reply)
	}
}

func TestPartialFailureIsReportedTruthfully(t *testing.T) {
	f := flaky{NewMemory(), map[string]bool{"office": true}}
	a := call(t, f, "light", "turn off all the lights")
	if a.Reply != "I turned off four of five lights; the office light didn't answer." {
		t.Fatal(a.Reply)
	}
	if a := call(t, f, "light", "turn on the office light"); a.Reply != "The office light isn't answering right now." {
		t.Fatal(a.Reply)
	}
}

func TestACTemperature(t *testing.T) {
	m := NewMemory()
	if a := call(t, m, "ac", "set the bedroom ac to twenty two degrees"); a.Reply != "Okay, the bedroom AC is set to 22 degrees." {
		t.Fatal(a.Reply)
	}
	if a := call(t, m, "ac", "is the bedroom ac on"); a.Reply != "The bedroom AC is on, set to 22 degrees." {
		t.Fatal(a.Reply)
	}
}
