package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestConcurrentReadsAreAllAudited: many turns at once are group-committed, and every one of
// them is in the log, in this process (a reader flushes the queue first) and after a restart
// (Close commits what is queued).
func TestConcurrentReadsAreAllAudited(t *testing.T) {
	dir := t.TempDir()
	st, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	const workers, each = 16, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				errs <- st.QueueAudit(context.Background(), AuditRecord{Time: time.Now(), TurnID: fmt.Sprintf("t%d-%d", w, i),
					Device: "robot", Route: "utterance", Intent: "time.now", Outcome: OutcomeOK})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	recs, err := st.TailAudit(context.Background(), 1000)
	if err != nil || len(recs) != workers*each {
		t.Fatalf("the log shows %d of %d turns right after them (%v)", len(recs), workers*each, err)
	}
	// Records queued right before a shutdown are committed by Close.
	for i := range 50 {
		if err := st.QueueAudit(context.Background(), AuditRecord{Time: time.Now(), TurnID: fmt.Sprintf("late-%d", i),
			Device: "robot", Route: "utterance", Intent: "time.now", Outcome: OutcomeOK}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := st.QueueAudit(context.Background(), AuditRecord{TurnID: "after"}); err == nil {
		t.Fatal("a closed store took a record")
	}
	st, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs, err = st.TailAudit(context.Background(), 1000)
	if err != nil || len(recs) != workers*each+50 || recs[len(recs)-1].TurnID != "late-49" {
		t.Fatalf("after a restart the log has %d records (want %d): %v", len(recs), workers*each+50, err)
	}
}
