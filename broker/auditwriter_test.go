package broker

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/store"
)

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
	tb.state.SetFault(f)
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
	for ; queued <= 2*store.AuditQueueLen; queued++ { // the writer holds a batch; the queue holds the rest
		// Long enough that only a full queue refuses: on a loaded machine a short wait can
		// end before the writer has taken its batch, and the queue is then not yet full.
		ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
		err := tb.state.QueueAudit(ctx, store.AuditRecord{Time: time.Now(), TurnID: fmt.Sprintf("q%d", queued), Device: "robot",
			Route: "utterance", Intent: "time.now", Outcome: store.OutcomeOK})
		cancel()
		if err != nil {
			break
		}
	}
	if queued < store.AuditQueueLen || queued > store.AuditQueueLen+store.AuditMaxBatch {
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
	err := tb.state.AppendAudit(ctx, store.AuditRecord{Time: time.Now(), TurnID: "announce-1", Device: "owner", Route: "announce", Intent: "announce", Outcome: store.OutcomePending})
	cancel()
	if err == nil {
		t.Fatal("AppendAudit returned success while the store was stalled")
	}
	tb.state.SetFault(nil)
	close(release)
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	recs, err := tb.state.TailAudit(ctx, 2*store.AuditQueueLen)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != queued+1 || recs[0].TurnID != r.turn(t).TurnID || recs[len(recs)-1].TurnID != fmt.Sprintf("q%d", queued-1) {
		t.Fatalf("after the disk answered again the log has %d records (want the first read and the %d queued)", len(recs), queued)
	}
}
