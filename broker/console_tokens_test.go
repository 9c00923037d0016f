package broker

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// stepClock is a clock a test moves by hand.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *stepClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *stepClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// loadPages serves n plain GET / of the console in process, as n page loads would.
func loadPages(tb testing.TB, h http.Handler, n int) {
	tb.Helper()
	for i := 0; i < n; i++ {
		req := httptest.NewRequest("GET", "/", nil)
		req.Host, req.RemoteAddr = "127.0.0.1", "127.0.0.1:40000"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			tb.Fatalf("page load %d: %d %s", i, rec.Code, rec.Body.String())
		}
	}
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestConsolePageLoadsDoNotAccumulate (#25.13): 50,000 page loads leave the broker's memory
// where it was (each used to store a 12-hour token, scanned on every call), a page token
// from before them still works, and a token past its 12 hours, tampered with, or another
// owner's is refused.
func TestConsolePageLoadsDoNotAccumulate(t *testing.T) {
	clock := &stepClock{t: time.Now()}
	r := newConsoleRig(t, func(c *Config, d *Deps) { d.Now = clock.now })
	first := r.page(t)
	h := r.b.Handler()

	loads := 50_000
	if raceDetector {
		loads = 5_000 // -race is 10x slower, and its heap says nothing about production
	}
	loadPages(t, h, 100) // warm up the template and the pools
	before := heapInUse()
	start := time.Now()
	loadPages(t, h, loads)
	took := time.Since(start)
	after := heapInUse()
	growth := int64(after) - int64(before)
	t.Logf("%d page loads in %s; heap %+.1f MB", loads, took.Round(time.Millisecond), float64(growth)/(1<<20))
	if !raceDetector && growth > 3<<20 {
		t.Fatalf("%d page loads grew the heap by %.1f MB: page loads are being kept", loads, float64(growth)/(1<<20))
	}

	if resp := r.post(t, first, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("the first page's token after 50,000 more page loads: %d %s", resp.status, resp.body)
	}
	tampered := []byte(first)
	tampered[len(tampered)/2] ^= 1 // a bit in the middle: never only padding
	for name, tok := range map[string]string{"tampered": string(tampered), "truncated": first[:len(first)-2],
		"empty": "", "not base64": strings.Repeat("!", len(first))} {
		if resp := r.post(t, tok, "look", map[string]string{"direction": "left"}); resp.status != 403 || resp.code(t) != api.CodeCrossOrigin {
			t.Errorf("%s token: %d %s", name, resp.status, resp.body)
		}
	}
	r.people.set(mom)
	momTok := r.page(t)
	r.people.set(dad)
	if resp := r.post(t, momTok, "look", map[string]string{"direction": "left"}); resp.status != 403 {
		t.Errorf("another owner's page token: %d %s", resp.status, resp.body)
	}
	clock.add(11*time.Hour + 59*time.Minute)
	if resp := r.post(t, first, "look", map[string]string{"direction": "left"}); resp.status == 403 {
		t.Fatalf("a page token before its 12 hours: %d %s", resp.status, resp.body)
	}
	clock.add(2 * time.Minute)
	calls := len(r.hub.fake.Calls())
	if resp := r.post(t, first, "look", map[string]string{"direction": "left"}); resp.status != 403 || resp.code(t) != api.CodeCrossOrigin {
		t.Fatalf("a page token past its 12 hours: %d %s", resp.status, resp.body)
	}
	if got := len(r.hub.fake.Calls()); got != calls {
		t.Fatal("a refused call reached the robot")
	}
	if fresh := r.newPage(t); fresh == first || r.post(t, fresh, "join", map[string]any{}).status != 200 {
		t.Fatal("a fresh page does not work after the old one expired")
	}
}

// BenchmarkConsoleCallAfterManyPageLoads is one console call's token check (and routing)
// after 50,000 page loads: it costs what it costs after one.
func BenchmarkConsoleCallAfterManyPageLoads(b *testing.B) {
	r := newConsoleRig(b)
	tok := r.page(b)
	h := r.b.Handler()
	loadPages(b, h, 50_000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		req := httptest.NewRequest("POST", "/console/api/robots/robot/no-such-action", bytes.NewReader([]byte(`{}`)))
		req.Host, req.RemoteAddr = "127.0.0.1", "127.0.0.1:40000"
		req.Header.Set("Origin", "http://127.0.0.1")
		req.Header.Set("X-Console-Token", tok)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 404 {
			b.Fatalf("%d %s", rec.Code, rec.Body.String())
		}
	}
}
