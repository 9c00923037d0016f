package home

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/home/hometest"
)

// callWithin routes sentence and runs it on b under a turn-sized deadline.
func callWithin(t *testing.T, b Backend, kind, sentence string, budget time.Duration) (intents.Answer, time.Duration) {
	t.Helper()
	tb, err := intents.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	d := tb.Route(sentence, intents.Context{})
	in, ok := tb.Lookup(d.Intent)
	if !ok {
		t.Fatalf("%q routes to %q", sentence, d.Intent)
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	start := time.Now()
	a, err := Handler{Backend: b, Kind: kind}.Handle(ctx, intents.Call{Intent: in, Args: d.Args, Table: tb})
	if err != nil {
		t.Fatal(err)
	}
	return a, time.Since(start)
}

// TestUnmappedDeviceIsNotSetUp (#29.5): a device of the home that the configuration does not
// connect is said to be not set up, with a closed code — not "isn't answering" — for reads,
// writes, and as part of "all".
func TestUnmappedDeviceIsNotSetUp(t *testing.T) {
	house := Mapped{{Room: "kitchen", Kind: "light"}: {Backend: memEntities{NewMemory()}, Entity: "light.kitchen"}}
	for _, c := range []struct{ sentence, reply string }{
		{"turn on the bedroom light", "The bedroom light isn't set up."},
		{"is the bedroom light on", "The bedroom light isn't set up."},
	} {
		a, _ := callWithin(t, house, "light", c.sentence, 6*time.Second)
		if a.Reply != c.reply || a.Outcome != intents.OutcomeFailed || a.Code != intents.CodeNotConfigured {
			t.Errorf("%q: %+v", c.sentence, a)
		}
	}
	a, _ := callWithin(t, house, "light", "turn on all the lights", 6*time.Second)
	if !strings.HasPrefix(a.Reply, "Okay, the kitchen light is on.") || !strings.Contains(a.Reply, "bedroom") ||
		!strings.Contains(a.Reply, "aren't set up") || strings.Contains(a.Reply, "answer") || a.Outcome != intents.OutcomePartial {
		t.Errorf("all: %+v", a)
	}
}

// memEntities is a Memory behind the EntityBackend interface (entity = room).
type memEntities struct{ m *Memory }

func (e memEntities) GetEntity(ctx context.Context, kind, entity string) (State, error) {
	return e.m.Get(ctx, Device{Room: entity, Kind: kind})
}

func (e memEntities) SetEntity(ctx context.Context, kind, entity string, s State) error {
	return e.m.Set(ctx, Device{Room: entity, Kind: kind}, s)
}

// TestMQTTReadOfNoDeviceAnswersAtOnce (#29.5): a mapped entity that no device on the MQTT
// server (real mosquitto) has ever reported, and that does not answer when asked, is said in
// about a second — not after the retries of a turn's whole budget — and is not retried.
func TestMQTTReadOfNoDeviceAnswersAtOnce(t *testing.T) {
	url := hometest.StartMosquitto(t)
	hometest.StartZigbee(t, url, "zigbee2mqtt", "kitchen_light")
	m, err := DialMQTT(MQTTConfig{Broker: url})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	rel := &Reliable{Inner: m}
	house := Mapped{
		{Room: "kitchen", Kind: "light"}: {Backend: rel, Entity: "kitchen_light"},
		{Room: "bedroom", Kind: "light"}: {Backend: rel, Entity: "bedroom_lamp_typo"},
	}
	a, took := callWithin(t, house, "light", "is the bedroom light on", 6500*time.Millisecond)
	if took > 2500*time.Millisecond || a.Outcome != intents.OutcomeFailed || !strings.Contains(a.Reply, "bedroom light") {
		t.Fatalf("a read of no device took %v: %+v", took, a)
	}
	// The hub itself answers: the kitchen light is read, and the breaker did not open.
	if a, took := callWithin(t, house, "light", "is the kitchen light on", 6500*time.Millisecond); a.Outcome != "" || took > time.Second {
		t.Fatalf("the kitchen light after it: %v %+v", took, a)
	}
}
