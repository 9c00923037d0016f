package broker

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConcurrentReadsAreAllAudited: many turns at once are group-committed, and every one of
// them is in the log, in this process (a reader flushes the queue first) and after a restart
// (Close commits what is queued).
func TestConcurrentReadsAreAllAudited(t *testing.T) {
	dir := t.TempDir()
	st, err := InitState(dir)
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
	st, err = OpenState(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs, err = st.TailAudit(context.Background(), 1000)
	if err != nil || len(recs) != workers*each+50 || recs[len(recs)-1].TurnID != "late-49" {
		t.Fatalf("after a restart the log has %d records (want %d): %v", len(recs), workers*each+50, err)
	}
}

// TestStalledAuditDoesNotHoldTheReply: a read's record is written behind its reply, so a disk
// that stops answering does not hold the turn; the record lands once the disk answers again.
// A record someone must have before acting (AppendAudit) still waits, and gives up at its
// deadline.
func TestStalledAuditDoesNotHoldTheReply(t *testing.T) {
	tb := newTestBroker(t, func(c *Config, d *Deps) { c.Turn.Budget = time.Second })
	tok := tb.token(t, "robot", "text")
	release := make(chan struct{})
	f := func(ctx context.Context, op string) error {
		if op == "audit" {
			<-release
		}
		return nil
	}
	tb.state.fault.Store(&f)
	start := time.Now()
	r := tb.say(t, tok, "what time is it")
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Fatalf("a stalled audit write held a read %v", took)
	}
	if r.status != http.StatusOK || r.turn(t).Intent != "time.now" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	// A queue filled by a stalled store costs the next read 100 ms, not its budget; that
	// record is dropped and counted, and the queued ones are kept.
	queued := 0
	for ; queued <= 2*auditQueueLen; queued++ { // the writer holds a batch; the queue holds the rest
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		err := tb.state.QueueAudit(ctx, AuditRecord{Time: time.Now(), TurnID: fmt.Sprintf("q%d", queued), Device: "robot",
			Route: "utterance", Intent: "time.now", Outcome: OutcomeOK})
		cancel()
		if err != nil {
			break
		}
	}
	if queued < auditQueueLen || queued > auditQueueLen+auditMaxBatch {
		t.Fatalf("the queue took %d records while the store was stalled", queued)
	}
	start = time.Now()
	if r := tb.say(t, tok, "what time is it"); r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Fatalf("a full audit queue held a read %v", took)
	}
	if m := httptestRecorder(tb.b.AdminHandler(), "/metrics"); !strings.Contains(m, "reachy_audit_write_failures_total 1\n") {
		t.Fatalf("the dropped record is not counted: %s", grepLines(m, "reachy_audit"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	err := tb.state.AppendAudit(ctx, AuditRecord{Time: time.Now(), TurnID: "announce-1", Device: "owner", Route: "announce", Intent: "announce", Outcome: OutcomePending})
	cancel()
	if err == nil {
		t.Fatal("AppendAudit returned success while the store was stalled")
	}
	tb.state.fault.Store(nil)
	close(release)
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	recs, err := tb.state.TailAudit(ctx, 2*auditQueueLen)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != queued+1 || recs[0].TurnID != r.turn(t).TurnID || recs[len(recs)-1].TurnID != fmt.Sprintf("q%d", queued-1) {
		t.Fatalf("after the disk answered again the log has %d records (want the first read and the %d queued)", len(recs), queued)
	}
}
