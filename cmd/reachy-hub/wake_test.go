package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/robot/wake"
)

// conversation is what a family says to each other, not to the robot.
var conversation = []string{
	"we should pick up the children at five and then go shopping for dinner",
	"did you remember to water the plants this morning",
	"the kettle is boiling, do you want some tea",
	"can you pass me the remote please",
	"let's watch a film tonight after the kids are asleep",
}

// countingBroker counts the requests and bytes the hub sends.
type countingBroker struct {
	mu       sync.Mutex
	requests int
	bytes    int64
}

func (c *countingBroker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n, _ := io.Copy(io.Discard, r.Body)
	c.mu.Lock()
	c.requests++
	c.bytes += n
	c.mu.Unlock()
	w.Write([]byte(`{"turn_id":"t","intent":"none","outcome":"ok"}`))
}

func simWithCountingBroker(t *testing.T, mic string) *countingBroker {
	t.Helper()
	cb := &countingBroker{}
	srv := httptest.NewServer(cb)
	defer srv.Close()
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte("rbk_x\n"), 0o600)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	if code := run(ctx, []string{"--sim", "--broker", srv.URL, "--token-file", tokenFile, mic}, io.Discard, &stderr, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	return cb
}

// TestPrivacyNothingLeavesUntilAddressed: in sim mode, a folder of ordinary conversation
// sends zero bytes to the broker; the same sentences with the wake phrase in front are each
// uploaded once. (espeak-ng says "reachy" as "reeky"; "reechy" makes it say the name.)
func TestPrivacyNothingLeavesUntilAddressed(t *testing.T) {
	plain, addressed := t.TempDir(), t.TempDir()
	for i, s := range conversation {
		writeSpeech(t, plain, fmt.Sprintf("%d.wav", i), s)
		writeSpeech(t, addressed, fmt.Sprintf("%d.wav", i), "hey reechy, "+s)
	}
	if cb := simWithCountingBroker(t, plain); cb.requests != 0 || cb.bytes != 0 {
		t.Fatalf("ordinary conversation left the robot: %d requests, %d bytes", cb.requests, cb.bytes)
	}
	if cb := simWithCountingBroker(t, addressed); cb.requests != len(conversation) {
		t.Fatalf("%d uploads for %d addressed sentences", cb.requests, len(conversation))
	}
}

// TestHubRefusesToStartWithoutItsSpotter: a missing model, a neural engine without its
// runtime, or an unspellable phrase stops the hub before it listens, saying which and how to
// fix it.
func TestHubRefusesToStartWithoutItsSpotter(t *testing.T) {
	dir := t.TempDir()
	fakeRuntime := t.TempDir()
	for _, f := range []string{wake.RuntimeLibrary, wake.MelModel, wake.EmbeddingModel} {
		os.WriteFile(filepath.Join(fakeRuntime, f), []byte("x"), 0o644)
	}
	if p, err := exec.LookPath("reachy-wake"); err == nil {
		t.Skipf("reachy-wake is on PATH (%s): the test wants a hub without it", p)
	}
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte("rbk_x\n"), 0o600)
	for _, c := range []struct{ yaml, want string }{
		{"wake_model_dir: " + filepath.Join(dir, "nowhere") + "\n", "apt-get install pocketsphinx-en-us"},
		{"wake_phrases: [hey zorblax]\n", `"zorblax"`},
		// The neural engine without ONNX Runtime and its feature models installed.
		{"wake_spotter: neural\nwake_runtime_dir: " + filepath.Join(dir, "nowhere") + "\n", "deploy/scripts/wake-neural.sh"},
		{"wake_spotter: either\nwake_runtime_dir: " + filepath.Join(dir, "nowhere") + "\n", "ONNX Runtime 1.24.1"},
		{"wake_spotter: fused\nwake_runtime_dir: " + filepath.Join(dir, "nowhere") + "\n", "deploy/scripts/wake-neural.sh"},
		// The runtime there, but not the wake process the neural engines run in.
		{"wake_spotter: neural\nwake_runtime_dir: " + fakeRuntime + "\n", "reachy-wake"},
		{"wake_spotter: fused\nwake_runtime_dir: " + fakeRuntime + "\n", "make build"},
	} {
		cfgFile := filepath.Join(dir, "hub.yaml")
		os.WriteFile(cfgFile, []byte("broker_url: http://127.0.0.1:1\ntoken_file: "+tokenFile+"\n"+c.yaml), 0o600)
		var stderr bytes.Buffer
		code := run(context.Background(), []string{"--sim", "--config", cfgFile, dir}, io.Discard, &stderr, nil)
		if code == 0 || !strings.Contains(stderr.String(), "refusing to start") || !strings.Contains(stderr.String(), c.want) {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	}
}
