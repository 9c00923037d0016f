package robot

import (
	"context"
	"encoding/base64"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/speech"
)

// TestBargeIn: while the robot speaks a long reply, a new utterance stops the sound.
func TestBargeIn(t *testing.T) {
	long := make([]float32, 20*speech.SampleRate) // a 20 s reply
	for i := range long {
		long[i] = 0.1
	}
	wav, _ := speech.EncodeWAV(long, speech.SampleRate)
	var mu sync.Mutex
	n := 0
	brokerSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		n++
		mu.Unlock()
		w.Write([]byte(`{"turn_id":"t","intent":"general.ask","outcome":"ok","reply":"A very long story.","audio":"` + base64.StdEncoding.EncodeToString(wav) + `"}`))
	}))
	defer brokerSrv.Close()
	fake := NewFakeDaemon()
	daemonSrv := httptest.NewServer(fake)
	defer daemonSrv.Close()

	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, f := range []string{"a.wav", "b.wav"} {
		b, err := speech.Espeak{}.Synthesize(ctx, "hey reachy, tell me a story")
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	src, err := NewFileSource([]string{dir}, 1)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDaemon(daemonSrv.URL, time.Second)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := &Hub{Source: src, Broker: &BrokerClient{URL: brokerSrv.URL, Token: "t"}, Daemon: d, Speaker: DaemonSpeaker{D: d},
		Motion: NewMotion(d, DefaultExpressions(), log), Log: log}
	if err := h.Run(ctx); err != nil {
		t.Fatal(err)
	}
	var seq []string
	for _, c := range fake.Calls() {
		if strings.HasPrefix(c.Path, "/api/media/") {
			seq = append(seq, strings.TrimPrefix(c.Path, "/api/media/"))
		}
	}
	got := strings.Join(seq, " ")
	if !strings.Contains(got, "play_sound stop_sound") {
		t.Fatalf("no barge-in: %s", got)
	}
}
