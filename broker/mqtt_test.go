package broker

import (
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/intents/home"
	"github.com/reachy-broker/reachy-broker/intents/home/hometest"
)

// TestKitchenLightOverMQTTSwitchesExactlyOnce: the demo home wired to a real mosquitto; the
// robot's request and its retries (same Idempotency-Key, some concurrent) switch the device once.
func TestKitchenLightOverMQTTSwitchesExactlyOnce(t *testing.T) {
	url := hometest.StartMosquitto(t)
	z := hometest.StartZigbee(t, url, "zigbee2mqtt", "kitchen_light")
	m, err := home.DialMQTT(home.MQTTConfig{Broker: url})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	rel := &home.Reliable{Inner: m}
	house := home.Mapped{{Room: "kitchen", Kind: "light"}: {Backend: rel, Entity: "kitchen_light"}}
	tb := newTestBroker(t, func(c *Config, d *Deps) { d.Handlers["home.light"] = home.Handler{Backend: house, Kind: "light"} })
	tb.stt.say("Hey Reachy, turn on the kitchen light.")
	tok := tb.token(t, "robot", "turn", "house:write")
	var wg sync.WaitGroup
	replies := make([]api.TurnResponse, 3)
	for i := range replies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			replies[i] = tb.turnAudio(t, tok, "Idempotency-Key", "utt-42").turn(t)
		}()
	}
	wg.Wait()
	retry := tb.turnAudio(t, tok, "Idempotency-Key", "utt-42").turn(t)
	for _, r := range append(replies, retry) {
		if r.Reply != "Okay, the kitchen light is on." || r.TurnID != replies[0].TurnID {
			t.Fatalf("%+v", r)
		}
	}
	time.Sleep(200 * time.Millisecond) // any stray duplicate would have arrived by now
	if z.State("kitchen_light") != "ON" || z.Sets("kitchen_light") != 1 {
		t.Fatalf("device is %s after %d set messages", z.State("kitchen_light"), z.Sets("kitchen_light"))
	}
}

// TestOneSentenceForAnUnknownOutcome: a write the broker cut at its deadline and one a home
// handler reports as unknown are said the same way, the way docs/home.md promises.
func TestOneSentenceForAnUnknownOutcome(t *testing.T) {
	if replyWriteUnknown != home.ReplyUnknown {
		t.Fatalf("broker %q, home %q", replyWriteUnknown, home.ReplyUnknown)
	}
}
