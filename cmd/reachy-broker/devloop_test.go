package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents/home/hometest"
)

// devToken creates a token on a started broker through its control socket.
func devToken(t *testing.T, stateDir string, scopes ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	c, err := dialControl(ctx, stateDir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tok, _, err := c.CreateToken(ctx, "laptop", scopes, "")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// sayTo posts an utterance and returns the reply and its outcome.
func sayTo(t *testing.T, api, token, text string) (reply, outcome string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"text": text})
	req, _ := http.NewRequest("POST", "http://"+api+"/v1/utterances", strings.NewReader(string(body)))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 15 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tr struct{ Reply, Outcome string }
	if err := json.NewDecoder(resp.Body).Decode(&tr); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%q: %d %v", text, resp.StatusCode, err)
	}
	return tr.Reply, tr.Outcome
}

const porchIntent = `
intents:
  - name: porch.hello
    kind: read
    description: the porch says hello
    handler: {type: reply, text: PORCH_TEXT}
    patterns: ['say hi to the porch']
    examples: [say hi to the porch]
`

// TestDevIntentsLayerOverTheDemoHome (#29.5): `reachy-broker --dev --intents FILE` serves the
// file's intents over the demo home; the device its house section connects (a light on a
// real mosquitto, Zigbee2MQTT-style) is switched there, every other device stays simulated;
// --state-dir is where its state lives; SIGHUP reloads the file.
func TestDevIntentsLayerOverTheDemoHome(t *testing.T) {
	url := hometest.StartMosquitto(t)
	z := hometest.StartZigbee(t, url, "zigbee2mqtt", "bedroom_lamp")
	dir := t.TempDir()
	file := filepath.Join(dir, "mine.yaml")
	house := "house:\n  mqtt: {broker: " + url + "}\n  devices:\n    - {room: bedroom, kind: light, via: mqtt, entity: bedroom_lamp}\n"
	write := func(text string) {
		if err := os.WriteFile(file, []byte(house+strings.Replace(porchIntent, "PORCH_TEXT", text, 1)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("The porch says hello.")
	state := filepath.Join(dir, "state")
	api, _, out := startBroker(t, "--dev", "--intents", file, "--state-dir", state, "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0")
	if !strings.Contains(out.String(), file+" is layered over the demo home") {
		t.Errorf("start-up does not say what it layered:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(state, "broker.db")); err != nil {
		t.Fatalf("--state-dir not used: %v", err)
	}
	tok := devToken(t, state, "text", "house:read", "house:write")

	if r, _ := sayTo(t, api, tok, "say hi to the porch"); r != "The porch says hello." {
		t.Fatalf("the file's intent: %q", r)
	}
	if r, o := sayTo(t, api, tok, "turn on the kitchen light"); r != "Okay, the kitchen light is on." || o != "ok" {
		t.Fatalf("a simulated demo light: %q %s", r, o)
	}
	if r, o := sayTo(t, api, tok, "turn on the bedroom light"); r != "Okay, the bedroom light is on." || o != "ok" {
		t.Fatalf("the connected light: %q %s", r, o)
	}
	for deadline := time.Now().Add(5 * time.Second); z.State("bedroom_lamp") != "ON"; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the bedroom lamp on mosquitto is %s", z.State("bedroom_lamp"))
		}
	}
	if z.Sets("bedroom_lamp") != 1 {
		t.Fatalf("%d sets of the bedroom lamp", z.Sets("bedroom_lamp"))
	}

	write("The porch says good evening.")
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if r, _ := sayTo(t, api, tok, "say hi to the porch"); r == "The porch says good evening." {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the edited file was not reloaded:\n%s", out)
		}
	}
}

// TestStateDirFlagStandsInForStateDir (#29.5): a config file without state_dir starts with
// --state-dir; a light of the home its house section does not connect is "not set up", with
// the closed code not_configured in the audit — not "isn't answering".
func TestStateDirFlagStandsInForStateDir(t *testing.T) {
	url := hometest.StartMosquitto(t)
	hometest.StartZigbee(t, url, "zigbee2mqtt", "kitchen_lamp")
	dir := t.TempDir()
	file := filepath.Join(dir, "home.yaml")
	os.WriteFile(file, []byte("house:\n  mqtt: {broker: "+url+"}\n  devices:\n    - {room: kitchen, kind: light, via: mqtt, entity: kitchen_lamp}\n"), 0o600)
	state := filepath.Join(dir, "state")
	api, _, _ := startBroker(t, "--config", file, "--dev", "--state-dir", state, "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0")
	tok := devToken(t, state, "text", "house:write")
	start := time.Now()
	r, o := sayTo(t, api, tok, "turn on the bedroom light")
	if r != "The bedroom light isn't set up." || o != "failed" || time.Since(start) > 2*time.Second {
		t.Fatalf("an unconnected light: %q %s after %v", r, o, time.Since(start))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := dialControl(ctx, state)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	recs, err := c.TailAudit(ctx, 1)
	if err != nil || len(recs) != 1 || recs[0].Intent != "house.light.set" || recs[0].Outcome != store.OutcomeFailed || recs[0].Code != "not_configured" {
		t.Fatalf("audit: %v %+v", err, recs)
	}
}
