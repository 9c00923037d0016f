package broker

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/broker/timers"
)

// TestATimerRingIsOneAuditRecord: a ring is one act and one record, opened pending before it
// is first sent and settled once — however often a restart makes the scheduler open or settle
// it again (a kill after the hub played it: the re-sent ring is answered "already played"),
// so `reachyctl audit tail` shows one line per ring, never two "ok" for one ring nor a
// pending one left beside it.
func TestATimerRingIsOneAuditRecord(t *testing.T) {
	st, err := store.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	audit := TimerAudit(st)
	write := func(id, outcome, code string) {
		t.Helper()
		rec := timers.Record{Time: time.Now(), ID: id, Device: "kitchen-robot", Intent: "timer.ring",
			Args: map[string]string{"label": "pasta", "duration": "60"}, Outcome: outcome, Code: code}
		if err := audit(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	// Ring 1: opened, the broker killed after the hub played it, opened again by the next
	// broker, played ("already played"), then settled again after a second kill.
	write("tm-1-1", "pending", "")
	write("tm-1-1", "pending", "")
	write("tm-1-1", "ok", "")
	write("tm-1-1", "pending", "")
	write("tm-1-1", "error", "not_delivered")
	// Ring 2: its pending write was lost with the process; its outcome is its one record.
	write("tm-1-2", "ok", "rang_on_hub")
	write("tm-1-2", "ok", "rang_on_hub")
	recs, err := st.TailAudit(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		if r.Intent == "timer.ring" {
			got = append(got, r.TurnID+" "+r.Outcome+"/"+r.Code)
		}
	}
	if strings.Join(got, ", ") != "tm-1-1 ok/, tm-1-2 ok/rang_on_hub" {
		t.Fatalf("timer.ring records %v, want one per ring, settled once", got)
	}
}
