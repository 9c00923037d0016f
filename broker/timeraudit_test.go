package broker

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/broker/timers"
)

// TestATimerRingIsOneAuditRecord: each ring of a timer is written pending before it is sent
// and then given its outcome in place, so `reachyctl audit tail` shows one line per ring —
// not an "ok" line followed by an "error" line for a ring that never reached the robot.
func TestATimerRingIsOneAuditRecord(t *testing.T) {
	st, err := store.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	audit := TimerAudit(st)
	ring := func(outcome, code string) {
		t.Helper()
		rec := timers.Record{Time: time.Now(), ID: "tm-1", Device: "kitchen-robot", Intent: "timer.ring",
			Args: map[string]string{"label": "pasta", "duration": "60"}, Outcome: "pending"}
		if err := audit(ctx, rec); err != nil {
			t.Fatal(err)
		}
		rec.Outcome, rec.Code, rec.Settles = outcome, code, true
		if err := audit(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	ring("error", "not_delivered") // the link was down
	ring("ok", "")                 // tried again: played
	recs, err := st.TailAudit(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		if r.Intent == "timer.ring" {
			got = append(got, r.Outcome+"/"+r.Code)
		}
	}
	if strings.Join(got, " ") != "error/not_delivered ok/" {
		t.Fatalf("timer.ring records %v, want one per ring with its outcome", got)
	}
}
