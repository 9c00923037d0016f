package broker

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
)

// TestOneAuditRecordPerActuation (#29.6): a write is one audit record. It is written
// pending before the light is touched (audit first: a crash then leaves the pending record),
// and that same record — same sequence number — takes the outcome; no second row. A settled
// record can never be rewritten.
func TestOneAuditRecordPerActuation(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "text", "house:write")
	tb.light.block = make(chan struct{})
	done := make(chan reply, 1)
	go func() { done <- tb.say(t, tok, "turn on the kitchen light") }()

	var pending store.AuditRecord
	for deadline := time.Now().Add(10 * time.Second); pending.Seq == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no pending record while the light was being switched")
		}
		recs, _ := tb.state.TailAudit(context.Background(), 5)
		for _, r := range recs {
			if r.Intent == "house.light.set" && r.Outcome == store.OutcomePending {
				pending = r
			}
		}
	}
	close(tb.light.block)
	var res reply
	select {
	case res = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the turn did not answer")
	}
	if tr := res.turn(t); tr.Outcome != store.OutcomeOK || tr.TurnID != pending.TurnID {
		t.Fatalf("turn %+v, pending record %+v", tr, pending)
	}
	recs, err := tb.state.TailAudit(context.Background(), 10)
	if err != nil {
		t.Fatal(err)
	}
	var rows []store.AuditRecord
	for _, r := range recs {
		if r.TurnID == pending.TurnID {
			rows = append(rows, r)
		}
	}
	if len(rows) != 1 || rows[0].Seq != pending.Seq || rows[0].Outcome != store.OutcomeOK || rows[0].Args["room"] != "kitchen" {
		t.Fatalf("want the pending record (seq %d) settled to ok in place, got %+v", pending.Seq, rows)
	}
	if _, err := tb.state.DB().Exec(`UPDATE audit SET outcome = 'failed' WHERE seq = ?`, pending.Seq); err == nil {
		t.Fatal("a settled record was rewritten")
	}
	if _, err := tb.state.DB().Exec(`UPDATE audit SET intent = 'time.now', outcome = 'ok' WHERE outcome = 'pending'`); err != nil {
		t.Fatal(err) // no pending record is left: nothing to update, nothing refused
	}
}

// refusedSay synthesizes speech the robot refuses to play (not a WAV) once refuse is set.
type refusedSay struct {
	toneSynth
	refuse atomic.Bool
}

func (s *refusedSay) Synthesize(ctx context.Context, text string) ([]byte, error) {
	if s.refuse.Load() {
		return []byte("not a wav at all"), nil
	}
	return s.toneSynth.Synthesize(ctx, text)
}

// TestRefusedConsoleActionIsOneFailedRecord (#29.6): a console action the robot refuses is
// one record, failed with its closed code — not "ok" and then "failed". The join is one
// record too, settled to ok once the robot announced it.
func TestRefusedConsoleActionIsOneFailedRecord(t *testing.T) {
	synth := &refusedSay{}
	r := newConsoleRig(t, func(c *Config, d *Deps) { d.Synthesizer = synth })
	tok := r.page(t)
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("join: %d %s", resp.status, resp.body)
	}
	synth.refuse.Store(true)
	if resp := r.post(t, tok, "say", map[string]string{"text": "hello"}); resp.status != 502 || resp.code(t) != api.CodeRobotRefused {
		t.Fatalf("say: %d %s", resp.status, resp.body)
	}
	recs, err := r.state.TailAudit(context.Background(), 20)
	if err != nil {
		t.Fatal(err)
	}
	var says, starts []store.AuditRecord
	for _, rec := range recs {
		switch rec.Intent {
		case "teleport.say":
			says = append(says, rec)
		case "teleport.start":
			starts = append(starts, rec)
		}
	}
	if len(says) != 1 || says[0].Outcome != store.OutcomeFailed || says[0].Code != api.CodeRobotRefused {
		t.Fatalf("the refused say: %+v", says)
	}
	if len(starts) != 1 || starts[0].Outcome != store.OutcomeOK {
		t.Fatalf("the join: %+v", starts)
	}
}

// TestConsoleActionOutcomeNeverRewritesASettledRecord: an outcome for an action whose
// record is already settled (or was never written) is appended, never written over it.
func TestConsoleActionOutcomeNeverRewritesASettledRecord(t *testing.T) {
	tb := newTestBroker(t)
	ctx := context.Background()
	rec := store.AuditRecord{Time: time.Now(), TurnID: "c-1", Device: "robot", Route: "console", Intent: "teleport.look", Outcome: store.OutcomePending}
	if err := tb.state.AppendAudit(ctx, rec); err != nil {
		t.Fatal(err)
	}
	rec.Outcome = store.OutcomeOK
	if err := tb.state.SettleAudit(ctx, rec); err != nil {
		t.Fatal(err)
	}
	rec.Outcome, rec.Code = store.OutcomeFailed, "robot_refused"
	if err := tb.state.SettleAudit(ctx, rec); err != nil {
		t.Fatal(err)
	}
	recs, _ := tb.state.TailAudit(ctx, 5)
	if len(recs) != 2 || recs[0].Outcome != store.OutcomeOK || recs[1].Outcome != store.OutcomeFailed {
		t.Fatalf("%+v", recs)
	}
}
