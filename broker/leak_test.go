package broker

import (
	"runtime"
	"testing"
	"time"
)

// TestNoGoroutineLeak: after turns of every kind (answered, refused, cut at a deadline,
// clarified) and the server and its state store closing (the store keeps a few goroutines
// of its own while open: the audit writer, idle access workers), the goroutine count returns
// to where it was.
func TestNoGoroutineLeak(t *testing.T) {
	runtime.GC()
	before := runtime.NumGoroutine()
	func() {
		tb := newTestBroker(t, func(c *Config, d *Deps) { c.Turn.Budget = time.Second })
		tok := tb.token(t, "robot", "turn", "text", "house:write", "house:read")
		tb.stt.say("hey reachy turn on the light")
		for range 3 {
			tb.say(t, tok, "turn on the kitchen light")
			tb.say(t, tok, "turn on the light")
			tb.say(t, "bad-token", "hello")
			tb.turnAudio(t, tok)
		}
		tb.light.block = make(chan struct{}) // handler honours its deadline
		tb.say(t, tok, "turn on the office light")
		close(tb.light.block)
		tb.srv.CloseClientConnections()
		tb.srv.Close()
		tb.state.Close()
	}()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		runtime.GC()
	}
	if after := runtime.NumGoroutine(); after > before+2 {
		buf := make([]byte, 1<<16)
		n := runtime.Stack(buf, true)
		t.Fatalf("%d goroutines before, %d after:\n%s", before, after, buf[:n])
	}
}
