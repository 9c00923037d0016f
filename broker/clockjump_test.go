package broker

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/store"
)

// TestARestartOnAJumpedClockPurgesNothingEarly (#25.6, #38.2): a broker restarted on a wall
// clock 2 days ahead, then 100 days ahead twice, then an hour back — the broker and its store
// both on that clock, a keyed actuation and a read in between, and the purge run at each start
// as Maintain runs it — keeps every audit record and every idempotency key: a retry of the
// first settled key replays at every start and the light is never switched again.
func TestARestartOnAJumpedClockPurgesNothingEarly(t *testing.T) {
	dir := t.TempDir()
	var offset time.Duration
	wall := func() time.Time { return time.Now().Add(offset) }
	open := func() *testBroker {
		t.Helper()
		st, err := store.OpenWith(dir, store.Options{Create: true, Now: wall, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		tb := newTestBrokerOn(t, st, func(_ *Config, d *Deps) { d.Now = wall })
		tb.b.purge(context.Background()) // what Maintain does at start
		return tb
	}
	counts := func(tb *testBroker) (audit, keys int) {
		recs, err := tb.state.TailAudit(context.Background(), 100000)
		if err != nil {
			t.Fatal(err)
		}
		tb.state.DB().QueryRow(`SELECT count(*) FROM idempotency`).Scan(&keys)
		return len(recs), keys
	}
	tb := open()
	tok := tb.token(t, "robot", "text", "house:write", "house:read")
	first := tb.say(t, tok, "turn on the kitchen light", "Idempotency-Key", "settled-1").turn(t)
	for i := range 7 {
		tb.say(t, tok, "is the kitchen light on", "Idempotency-Key", fmt.Sprintf("read-%d", i))
	}
	audit, keys := counts(tb)
	t.Logf("start: %d audit records, %d keys", audit, keys)
	tb.srv.Close()
	tb.state.Close()

	for i, step := range []struct {
		name  string
		clock time.Duration
	}{
		{"+2 d", 48 * time.Hour},
		{"+100 d", 100 * 24 * time.Hour},
		{"+100 d again", 100 * 24 * time.Hour},
		{"-1 h", 100*24*time.Hour - time.Hour},
	} {
		offset = step.clock
		tb := open()
		a, k := counts(tb)
		t.Logf("%s: %d audit records, %d keys after the restart and its purge", step.name, a, k)
		if a != audit || k != keys {
			t.Fatalf("%s: a restart on a jumped clock left %d audit records and %d keys of %d and %d", step.name, a, k, audit, keys)
		}
		r := tb.say(t, tok, "turn on the kitchen light", "Idempotency-Key", "settled-1")
		if r.status != http.StatusOK || r.header.Get("Idempotent-Replayed") != "true" || r.turn(t).TurnID != first.TurnID {
			t.Fatalf("%s: a retry of the first key was not replayed: %d %s", step.name, r.status, r.body)
		}
		if n := tb.light.count(); n != 0 {
			t.Fatalf("%s: a retry of a settled key switched the light again (%d calls)", step.name, n)
		}
		// A turn in between, on the jumped clock: an actuation and a read, both keyed.
		tb.say(t, tok, "turn off the kitchen light", "Idempotency-Key", fmt.Sprintf("jumped-%d", i))
		tb.say(t, tok, "is the kitchen light on", "Idempotency-Key", fmt.Sprintf("jumped-read-%d", i))
		audit, keys = counts(tb)
		recs, _ := tb.state.TailAudit(context.Background(), 1)
		if len(recs) != 1 || recs[0].Time.Sub(wall()).Abs() > time.Minute {
			t.Fatalf("%s: the turn was not stamped on the broker's clock: %+v", step.name, recs)
		}
		tb.srv.Close()
		tb.state.Close()
	}
	t.Logf("end: %d audit records, %d keys", audit, keys)
}
