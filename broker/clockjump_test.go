package broker

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/store"
)

// TestARestartOnAJumpedClockPurgesNothingEarly (#25.6): a broker restarted with the wall
// clock two days ahead must keep its idempotency keys (a retry of a settled key replays, the
// light is not switched again), and a second restart 100 days ahead must keep the audit log.
// Both purges run as the broker runs them at start (Broker.purge), on the jumped clock.
func TestARestartOnAJumpedClockPurgesNothingEarly(t *testing.T) {
	dir := t.TempDir()
	state, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	tb := newTestBrokerOn(t, state)
	tok := tb.token(t, "robot", "text", "house:write", "house:read")
	first := tb.say(t, tok, "turn on the kitchen light", "Idempotency-Key", "settled-1").turn(t)
	tb.say(t, tok, "is the kitchen light on", "Idempotency-Key", "read-1")
	if tb.light.count() != 2 {
		t.Fatalf("setup: %d handler calls", tb.light.count())
	}
	tb.srv.Close()
	state.Close()

	restart := func(ahead time.Duration) *testBroker {
		t.Helper()
		st, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		jumped := func() time.Time { return time.Now().Add(ahead) }
		tb := newTestBrokerOn(t, st, func(_ *Config, d *Deps) { d.Now = jumped })
		tb.b.purge(context.Background()) // what Maintain does at start
		return tb
	}

	// Two days ahead: the key is still there, the retry replays and nothing switches.
	tb2 := restart(48 * time.Hour)
	r := tb2.say(t, tok, "turn on the kitchen light", "Idempotency-Key", "settled-1")
	if r.status != http.StatusOK || r.header.Get("Idempotent-Replayed") != "true" || r.turn(t).TurnID != first.TurnID {
		t.Fatalf("a retry after a restart two days ahead was not replayed: %d %s", r.status, r.body)
	}
	if n := tb2.light.count(); n != 0 {
		t.Fatalf("a retry of a settled key switched the light again after the clock jumped (%d calls)", n)
	}
	recs, err := tb2.state.TailAudit(context.Background(), 100)
	if err != nil || len(recs) < 3 {
		t.Fatalf("audit after a 2-day jump: %d records, %v", len(recs), err)
	}
	before := len(recs)
	tb2.srv.Close()
	tb2.state.Close()

	// A hundred days ahead with a 90-day retention: the audit history stays.
	tb3 := restart(100 * 24 * time.Hour)
	recs, err = tb3.state.TailAudit(context.Background(), 100)
	if err != nil || len(recs) < before {
		t.Fatalf("a restart 100 days ahead removed audit history: %d of %d records left, %v", len(recs), before, err)
	}
}

// TestTheRetentionClockFollowsMeasuredTime: the trusted time moves with the monotonic clock
// from the newest record, never ahead of the wall clock, and a clock set back is obeyed (it
// only keeps records longer).
