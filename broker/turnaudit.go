package broker

// A turn's audit record and counters: auditRecord fills in the reply's turn ID and latencies
// and builds the record (a replay is logged as a replay of the turn it answers for), audit
// queues the record of a turn that did not act behind its reply, and countTurn counts the
// finished turn for the metrics and the operator's last-turn view. An actuation's record is
// settled in actuate.go instead.

import (
	"context"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/store"
)

// audit records a turn that did not act, written behind its reply (see auditWriter). A
// failed write is counted, shown by /healthz and retried; the turn still answers (a read is
// not worth a silence).
func (b *Broker) audit(t *turn) {
	rec := b.auditRecord(t)
	b.countTurn(t, rec)
	// Only a stalled store lets the queue fill; then a reply is not held for its record.
	if err := b.d.State.QueueAudit(context.Background(), rec); err != nil {
		b.m.auditFailures.Inc()
		b.log.Error("audit record dropped: the audit queue stayed full; the turn still answers", "turn_id", t.id, "err", err)
	}
}

// auditRecord fills in the turn's response metadata and returns its record.
func (b *Broker) auditRecord(t *turn) store.AuditRecord {
	total := time.Since(t.start)
	t.stages["total"] = total.Milliseconds()
	t.resp.TurnID = t.id
	t.resp.LatencyMS = t.stages
	if t.resp.Args == nil {
		t.resp.Args = map[string]string{}
	}
	intent := t.resp.Intent
	if intent == "" {
		intent = "-"
	}
	// The record's time is the turn's start on the broker's clock (Deps.Now: the wall clock,
	// which the store checks before it lets that time delete anything).
	rec := store.AuditRecord{Time: b.d.Now().Add(-total).UTC(), TurnID: t.id, Device: t.c.Name, Node: t.c.Node, Route: t.route, Intent: intent,
		Args: t.resp.Args, Outcome: t.resp.Outcome, Code: t.code, LatencyMS: total.Milliseconds(), Redactions: t.redacted}
	if t.replayOf != "" {
		// A replay answers for an earlier turn: it is logged as a replay of that turn, with
		// the outcome it reports kept in the code.
		t.resp.TurnID = t.replayOf
		rec.TurnID, rec.Outcome, rec.Code = t.replayOf, store.OutcomeReplayed, t.resp.Outcome
	}
	if t.clipText {
		rec.Code = strings.TrimPrefix(rec.Code+","+CodeDevClipText, ",")
	}
	return rec
}

// countTurn counts a finished turn by route and the outcome its audit record says.
func (b *Broker) countTurn(t *turn, rec store.AuditRecord) {
	b.m.turns.WithLabelValues(t.route, rec.Outcome).Inc()
	refused := ""
	if rec.Outcome == store.OutcomeDenied || rec.Outcome == store.OutcomeTimeout {
		refused = refusalReason(t.code, false)
	}
	b.ops.noteTurn(t.c.Name, LastTurn{At: rec.Time.Round(0), Route: t.route, Intent: rec.Intent, Outcome: rec.Outcome, Code: rec.Code, Refused: refused})
	b.m.stage.WithLabelValues("total").Observe(time.Since(t.start).Seconds())
}
