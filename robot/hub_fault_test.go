package robot

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/speech"
)

// micDir writes n spoken utterances into a directory the FileSource reads as the microphone.
func micDir(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := speech.Espeak{}.Synthesize(ctx, "hey reachy, what time is it")
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		os.WriteFile(filepath.Join(dir, string(rune('a'+i))+".wav"), b, 0o644)
	}
	return dir
}

// gapSource records the longest pause between two reads of the microphone.
type gapSource struct {
	Source
	last   time.Time
	maxGap time.Duration
}

func (g *gapSource) Read(ctx context.Context) ([]float32, error) {
	now := time.Now()
	if !g.last.IsZero() && now.Sub(g.last) > g.maxGap {
		g.maxGap = now.Sub(g.last)
	}
	defer func() { g.last = time.Now() }()
	return g.Source.Read(ctx)
}

// TestHungDaemonDoesNotStallListening: a daemon that never answers must not stop the hub
// reading its microphone: motion calls run off the audio path and are bounded.
func TestHungDaemonDoesNotStallListening(t *testing.T) {
	release := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hung.Close()
	defer close(release)
	var turns atomic.Int32
	brokerSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		turns.Add(1)
		w.Write([]byte(`{"turn_id":"t","intent":"time.now","outcome":"ok","reply":"It's noon."}`))
	}))
	defer brokerSrv.Close()

	fs, err := NewFileSource([]string{micDir(t, 2)}, 1)
	if err != nil {
		t.Fatal(err)
	}
	src := &gapSource{Source: fs}
	d := NewDaemon(hung.URL, time.Second)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := &Hub{Source: src, Broker: &BrokerClient{URL: brokerSrv.URL, Token: "t"}, Daemon: d, Speaker: DaemonSpeaker{D: d},
		Motion: NewMotion(d, DefaultExpressions(), log), Log: log}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := h.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if turns.Load() != 2 {
		t.Fatalf("the broker got %d turns, want 2", turns.Load())
	}
	// Each daemon call waits its full 1 s timeout; none of that may sit between two reads.
	if src.maxGap > 300*time.Millisecond {
		t.Fatalf("the microphone went unread for %v while the daemon hung", src.maxGap)
	}
}

// TestBrokerFailuresPlayTheFallback: whatever the broker cannot do — a 500, a 503 that names
// no Retry-After (no speech model), a refused token — the robot says its fallback at once, and
// a failure a retry cannot fix is asked only once.
func TestBrokerFailuresPlayTheFallback(t *testing.T) {
	mic := micDir(t, 1)
	for _, tc := range []struct {
		name, failure string
		status        int
		body          string
		retryAfter    string
		wantRequests  int32
	}{
		{"internal error", "refused", 500, `{"error":{"code":"internal","message":"speech-to-text failed"}}`, "", 1},
		{"no speech model", "busy", 503, `{"error":{"code":"busy","message":"speech-to-text is not available"}}`, "", 1},
		{"revoked token", "refused", 401, `{"error":{"code":"unauthenticated","message":"the token is not valid"}}`, "", 1},
		{"busy past the deadline", "busy", 503, `{"error":{"code":"busy","message":"speech-to-text is busy"}}`, "1", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var requests atomic.Int32
			brokerSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				requests.Add(1)
				if tc.retryAfter != "" {
					w.Header().Set("Retry-After", tc.retryAfter)
				}
				w.WriteHeader(tc.status)
				w.Write([]byte(tc.body))
			}))
			defer brokerSrv.Close()
			fake := NewFakeDaemon()
			daemonSrv := httptest.NewServer(fake)
			defer daemonSrv.Close()
			src, _ := NewFileSource([]string{mic}, 1)
			d := NewDaemon(daemonSrv.URL, time.Second)
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			var mu sync.Mutex
			var got []Turn
			h := &Hub{Source: src, Broker: &BrokerClient{URL: brokerSrv.URL, Token: "t", Deadline: 1500 * time.Millisecond, Backoff: 10 * time.Millisecond},
				Daemon: d, Speaker: DaemonSpeaker{D: d}, Motion: NewMotion(d, DefaultExpressions(), log), Log: log,
				Fallback: Chime(), OnTurn: func(t Turn) { mu.Lock(); got = append(got, t); mu.Unlock() }}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := h.Run(ctx); err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || !got[0].Fallback || got[0].SoundPlayed != "fallback.wav" || got[0].Failure != tc.failure {
				t.Fatalf("turns %+v", got)
			}
			if n := requests.Load(); n != tc.wantRequests {
				t.Fatalf("the broker was asked %d times, want %d", n, tc.wantRequests)
			}
		})
	}
}
