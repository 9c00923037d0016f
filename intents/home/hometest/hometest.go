// Package hometest starts the real home servers tests talk to: a mosquitto MQTT broker on a
// loopback port, and a fake Zigbee2MQTT device that obeys set messages and reports its state.
// Only tests import it; it must never be linked into a binary.
package hometest

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
)

// StartMosquitto runs mosquitto (installed by the README's test command) on 127.0.0.1 and
// returns its tcp:// URL. It is stopped when the test ends.
func StartMosquitto(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("mosquitto")
	if err != nil {
		if _, statErr := os.Stat("/usr/sbin/mosquitto"); statErr != nil {
			t.Fatalf("mosquitto is not installed (make test installs it): %v", err)
		}
		bin = "/usr/sbin/mosquitto"
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().(*net.TCPAddr)
	l.Close()
	conf := filepath.Join(t.TempDir(), "mosquitto.conf")
	os.WriteFile(conf, []byte(fmt.Sprintf("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n", addr.Port)), 0o600)
	cmd := exec.Command(bin, "-c", conf)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr.String(), 200*time.Millisecond)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("mosquitto did not start on %s", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return "tcp://" + addr.String()
}

// Zigbee is a fake Zigbee2MQTT device network: each named device obeys <prefix>/<name>/set
// and publishes its retained state to <prefix>/<name>, counting the sets it received.
type Zigbee struct {
	client mqtt.Client
	mu     sync.Mutex
	sets   map[string]int
	state  map[string]map[string]any
}

// StartZigbee connects devices named names to the MQTT broker at url.
func StartZigbee(t testing.TB, url, prefix string, names ...string) *Zigbee {
	t.Helper()
	z := &Zigbee{sets: map[string]int{}, state: map[string]map[string]any{}}
	opts := mqtt.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("zigbee-%d", time.Now().UnixNano()))
	z.client = mqtt.NewClient(opts)
	if tok := z.client.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("zigbee fake: connect: %v", tok.Error())
	}
	t.Cleanup(func() { z.client.Disconnect(100) })
	for _, n := range names {
		name := n
		z.state[name] = map[string]any{"state": "OFF"}
		z.publish(prefix, name)
		tok := z.client.Subscribe(prefix+"/"+name+"/set", 1, func(_ mqtt.Client, m mqtt.Message) {
			var p map[string]any
			if json.Unmarshal(m.Payload(), &p) != nil {
				return
			}
			z.mu.Lock()
			z.sets[name]++
			for k, v := range p {
				if s, ok := v.(string); ok {
					v = strings.ToUpper(s)
				}
				z.state[name][k] = v
			}
			z.mu.Unlock()
			z.publish(prefix, name)
		})
		if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("zigbee fake: subscribe: %v", tok.Error())
		}
	}
	return z
}

func (z *Zigbee) publish(prefix, name string) {
	z.mu.Lock()
	b, _ := json.Marshal(z.state[name])
	z.mu.Unlock()
	z.client.Publish(prefix+"/"+name, 1, true, b).WaitTimeout(5 * time.Second)
}

// Sets is how many set messages a device received.
func (z *Zigbee) Sets(name string) int {
	z.mu.Lock()
	defer z.mu.Unlock()
	return z.sets[name]
}

// State is a device's current state field ("ON"/"OFF").
func (z *Zigbee) State(name string) string {
	z.mu.Lock()
	defer z.mu.Unlock()
	s, _ := z.state[name]["state"].(string)
	return s
}
