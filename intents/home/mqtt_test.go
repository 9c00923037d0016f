package home

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/home/hometest"
)

func TestMQTTAgainstMosquitto(t *testing.T) {
	url := hometest.StartMosquitto(t)
	z := hometest.StartZigbee(t, url, "zigbee2mqtt", "kitchen_light", "bedroom_ac")
	m, err := DialMQTT(MQTTConfig{Broker: url})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if s, err := m.GetEntity(ctx, "light", "kitchen_light"); err != nil || s.On {
		t.Fatalf("initial state: %+v %v", s, err)
	}
	if err := m.SetEntity(ctx, "light", "kitchen_light", State{On: true}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); z.State("kitchen_light") != "ON" && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if z.State("kitchen_light") != "ON" || z.Sets("kitchen_light") != 1 {
		t.Fatalf("device state %s after %d sets", z.State("kitchen_light"), z.Sets("kitchen_light"))
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if s, _ := m.GetEntity(ctx, "light", "kitchen_light"); s.On {
			break
		}
	}
	if s, _ := m.GetEntity(ctx, "light", "kitchen_light"); !s.On {
		t.Fatal("reported state never reached the broker")
	}
	short, cancel2 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel2()
	if _, err := m.GetEntity(short, "light", "no_such_device"); err == nil {
		t.Fatal("a device that never reported answered")
	}
}

// TestMQTTStartsWithoutTheServerAndReconnectsWithinSeconds: mosquitto down at start is not
// fatal (writes fail at once as not sent, the house says it is unavailable); once it comes
// up, and again after it is killed and restarted, the client is back within seconds — not
// paho's default of up to ten minutes.
func TestMQTTStartsWithoutTheServerAndReconnectsWithinSeconds(t *testing.T) {
	mq := hometest.StartMosquittoServer(t)
	mq.Kill()
	m, err := DialMQTT(MQTTConfig{Broker: mq.URL, Connect: 200 * time.Millisecond, Retry: 300 * time.Millisecond})
	if err != nil {
		t.Fatalf("the broker must start without mosquitto: %v", err)
	}
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err = m.SetEntity(ctx, "light", "kitchen_light", State{On: true})
	var te *TransientError
	if !errors.As(err, &te) || Unknown(err) {
		t.Fatalf("a write while disconnected must fail as not sent: %v", err)
	}
	for _, phase := range []string{"first start", "restart after a kill"} {
		if err := mq.Start(); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		for !m.Connected() && time.Since(start) < 10*time.Second {
			time.Sleep(20 * time.Millisecond)
		}
		if took := time.Since(start); !m.Connected() || took > 3*time.Second {
			t.Fatalf("%s: connected=%v after %v", phase, m.Connected(), took)
		}
		mq.Kill()
		for m.Connected() && time.Since(start) < 20*time.Second {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// TestStaleMQTTReadIsSaidAsLastIHeard: with mosquitto gone, a cached state is reported as
// stale, and the handler says "last I heard"; a read-back (Fresh) never uses the cache.
func TestStaleMQTTReadIsSaidAsLastIHeard(t *testing.T) {
	mq := hometest.StartMosquittoServer(t)
	hometest.StartZigbee(t, mq.URL, "zigbee2mqtt", "kitchen_light")
	m, err := DialMQTT(MQTTConfig{Broker: mq.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	h := Handler{Backend: Mapped{{Room: "kitchen", Kind: "light"}: {Backend: m, Entity: "kitchen_light"}}, Kind: "light"}
	if a, _ := run(t, h, "is the kitchen light on", 2*time.Second); a.Reply != "The kitchen light is off." {
		t.Fatalf("connected: %q", a.Reply)
	}
	mq.Kill()
	for deadline := time.Now().Add(10 * time.Second); m.Connected() && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if a, _ := run(t, h, "is the kitchen light on", 2*time.Second); a.Reply != "Last I heard, the kitchen light is off." {
		t.Fatalf("disconnected: %q", a.Reply)
	}
	ctx, cancel := context.WithTimeout(Fresh(context.Background()), 200*time.Millisecond)
	defer cancel()
	if s, err := m.GetEntity(ctx, "light", "kitchen_light"); err == nil {
		t.Fatalf("a read-back answered from the cache: %+v", s)
	}
}

// TestHungMosquittoWriteIsNotResent: a frozen mosquitto never acknowledges; the write is
// reported as unknown, never sent again, and the device gets at most the one command.
func TestHungMosquittoWriteIsNotResent(t *testing.T) {
	mq := hometest.StartMosquittoServer(t)
	z := hometest.StartZigbee(t, mq.URL, "zigbee2mqtt", "garage_light")
	m, err := DialMQTT(MQTTConfig{Broker: mq.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	rel := &Reliable{Inner: m, Attempt: 300 * time.Millisecond, Backoff: 20 * time.Millisecond}
	h := Handler{Backend: Mapped{{Room: "office", Kind: "light"}: {Backend: rel, Entity: "garage_light"}}, Kind: "light"}
	mq.Pause()
	a, _ := run(t, h, "turn on the office light", 1500*time.Millisecond)
	mq.Resume()
	if a.Outcome != intents.OutcomeUnknown && a.Outcome != intents.OutcomeFailed {
		t.Fatalf("a hung server's write was reported as %q: %q", a.Outcome, a.Reply)
	}
	time.Sleep(500 * time.Millisecond) // anything still queued would arrive by now
	if n := z.Sets("garage_light"); n > 1 {
		t.Fatalf("the device got %d commands after the robot gave up", n)
	}
}
