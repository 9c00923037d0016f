package store

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestReadRecordsAreBatchedOffTheReplyPath (#29.11): read turns' records arriving at a
// turn's pace (one a millisecond or so) are committed together, many per commit — not a
// commit per turn — while a record someone waits for (an actuation's ordering flush, a
// reader) is committed at once.
func TestReadRecordsAreBatchedOffTheReplyPath(t *testing.T) {
	st, err := Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var commits atomic.Int64
	f := func(ctx context.Context, op string) error {
		if op == "audit" {
			commits.Add(1)
		}
		return nil
	}
	st.SetFault(f)
	ctx := context.Background()
	const turns = 40
	for i := range turns {
		rec := AuditRecord{Time: time.Now(), TurnID: "t" + string(rune('a'+i%26)), Device: "robot", Route: "utterance", Intent: "time.now", Outcome: OutcomeOK}
		if err := st.QueueAudit(ctx, rec); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	recs, err := st.TailAudit(ctx, 2*turns)
	if err != nil || len(recs) != turns {
		t.Fatalf("%v: %d records", err, len(recs))
	}
	if waited := time.Since(start); waited > 500*time.Millisecond {
		t.Errorf("a reader waited %v for the queued records", waited)
	}
	t.Logf("%d commits for %d records", commits.Load(), turns)
	if n := commits.Load(); n > turns/4 {
		t.Fatalf("%d commits for %d read records arriving a millisecond apart", n, turns)
	}
}
