package home

import (
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/intents/home/hometest"
)

// recoveryBound is how soon after its backend answers again a write must go through.
const recoveryBound = 2 * time.Second

// openBreaker writes through h until its breaker is open (a write answered "isn't
// answering" without being sent: at once, or after the breaker's bounded recovery check),
// bounded.
func openBreaker(t *testing.T, h Handler, sentence string) {
	t.Helper()
	for i := 0; i < 10; i++ {
		a, took := run(t, h, sentence, 3*time.Second)
		if a.Reply == "The office light isn't answering right now." && took < 700*time.Millisecond && i >= 2 {
			t.Logf("breaker open after %d writes: %q in %v", i, a.Reply, took.Round(time.Millisecond))
			return
		}
	}
	t.Fatal("the breaker never opened on a hub that does not answer")
}

// firstWorkingWrite says sentence through h every 100 ms from now until it works, and
// returns how long that took (bounded by limit).
func firstWorkingWrite(t *testing.T, h Handler, sentence, want string, limit time.Duration) (time.Duration, bool) {
	t.Helper()
	start := time.Now()
	for time.Since(start) < limit {
		if a, _ := run(t, h, sentence, 3*time.Second); a.Reply == want {
			return time.Since(start), true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return time.Since(start), false
}

// TestWriteWorksSoonAfterMosquittoAnswersAgain: mosquitto is frozen (SIGSTOP) until the
// breaker of the house's one Reliable (production cooldown, 20 s) is open; once it answers
// again (SIGCONT) the client reconnects, and the first write that follows goes through within
// 2 s — the reconnect is the breaker's half-open probe — not 20 s later.
func TestWriteWorksSoonAfterMosquittoAnswersAgain(t *testing.T) {
	mq := hometest.StartMosquittoServer(t)
	z := hometest.StartZigbee(t, mq.URL, "zigbee2mqtt", "office_light")
	m, err := DialMQTT(MQTTConfig{Broker: mq.URL, Connect: time.Second, Retry: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if _, ok := waitConnected(m, 3*time.Second); !ok {
		t.Fatal("never connected")
	}
	h := mqttOffice(m) // one Reliable for every write, as the broker has
	mq.Pause()
	openBreaker(t, h, "turn on the office light")
	time.Sleep(time.Second)
	mq.Resume()
	took, ok := firstWorkingWrite(t, h, "turn off the office light", "Okay, the office light is off.", 5*time.Second)
	t.Logf("mosquitto answered again: the first write went through %v later", took.Round(time.Millisecond))
	if !ok || took > recoveryBound {
		t.Fatalf("no write went through within %v of mosquitto answering again (took %v)", recoveryBound, took)
	}
	// The acknowledgement is mosquitto's; the device hears the write a moment later. It
	// must be off then, and stay off: a write reported as not answering while mosquitto was
	// frozen may land when it wakes, but never after the newer one.
	if !deviceSettles(z, "office_light", "OFF", 3*time.Second, time.Second) {
		t.Fatalf("the device is %q, not OFF and staying so, after the write went through", z.State("office_light"))
	}
}

// deviceSettles reports whether the fake device's state becomes want within limit and then
// keeps it for hold (every wait bounded).
func deviceSettles(z *hometest.Zigbee, name, want string, limit, hold time.Duration) bool {
	deadline := time.Now().Add(limit)
	for z.State(name) != want {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	for end := time.Now().Add(hold); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if z.State(name) != want {
			return false
		}
	}
	return true
}

// TestWriteWorksSoonAfterHomeAssistantAnswersAgain: Home Assistant hangs until the breaker
// (production cooldown, 20 s) is open; once it answers again, the first write that follows
// goes through within 2 s (a health request to its API is the breaker's half-open check).
func TestWriteWorksSoonAfterHomeAssistantAnswersAgain(t *testing.T) {
	ha := hometest.StartHomeAssistant(t)
	rel := &Reliable{Inner: &HomeAssistant{BaseURL: ha.URL, Token: ha.Token}, Attempt: 300 * time.Millisecond}
	h := Handler{Backend: Mapped{{Room: "office", Kind: "light"}: {Backend: rel, Entity: "light.office"}}, Kind: "light"}
	if a, _ := run(t, h, "turn on the office light", 2*time.Second); a.Reply != "Okay, the office light is on." {
		t.Fatalf("before the hang: %q", a.Reply)
	}
	ha.Hang()
	openBreaker(t, h, "turn off the office light")
	time.Sleep(time.Second)
	ha.Answer()
	took, ok := firstWorkingWrite(t, h, "turn off the office light", "Okay, the office light is off.", 5*time.Second)
	t.Logf("Home Assistant answered again: the first write went through %v later", took.Round(time.Millisecond))
	if !ok || took > recoveryBound {
		t.Fatalf("no write went through within %v of Home Assistant answering again (took %v)", recoveryBound, took)
	}
}
