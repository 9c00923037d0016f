package broker

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
)

// This file holds the two rules that make an actuation safe to retry and to crash in the
// middle of (DESIGN §2 rules 8 and 9):
//
//   - audited first: before a write or robot handler runs, its audit intent (outcome
//     "pending") and, with an Idempotency-Key, its pending key record are committed in one
//     transaction. If that commit fails, nothing is actuated and the caller hears
//     `unavailable` (503). After the handler, the outcome is appended and the key settled.
//   - exactly once: a retried key (same device, route and body) replays the settled answer;
//     a key still pending (the broker died mid-turn, or the outcome could not be stored) or
//     whose write timed out is answered from a read-back of the device, never run again.

// Spoken answers of the exactly-once rules.
const (
	replyUnavailable  = "Sorry, I can't keep a record of that right now, so I didn't do it."
	replyMayHaveDone  = "I may have done that already, but I can't check it right now."
	replyWriteUnknown = "Sorry, the house didn't answer in time, so I can't tell whether that worked."
	replyTooLate      = "Sorry, keeping a record of that took too long, so I didn't do it."
)

// readBacker is implemented by handlers that can say what the device's state is now, for a
// retried actuation whose outcome is not known.
type readBacker interface {
	ReadBack(ctx context.Context, c intents.Call) (intents.Answer, error)
}

// callResult is what a turn-shaped call answered: a status and a *api.TurnResponse or
// *apiError. Status 0 means the caller went away before anything was decided.
type callResult struct {
	status   int
	v        any
	replayed bool // answered from a stored key
}

// writeResult writes a callResult as the HTTP answer.
func (b *Broker) writeResult(w http.ResponseWriter, res callResult) {
	if res.status == 0 {
		return
	}
	if res.replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	b.respond(w, res.status, res.v)
}

// withIdempotency runs fn under the request's Idempotency-Key, bound to its path, query and
// body, and writes what it answered.
func (b *Broker) withIdempotency(w http.ResponseWriter, r *http.Request, t *turn, body []byte, fn func() (int, any)) {
	key := r.Header.Get("Idempotency-Key")
	var hash []byte
	if key != "" { // a request without a key is never compared: hashing its audio would be waste
		hash = store.BodyHash(r.URL.Path, r.URL.RawQuery, body)
	}
	b.writeResult(w, b.idempotent(r.Context(), t, key, r.URL.Path, hash, fn))
}

// idempotent runs fn once per Idempotency-Key: a retry with the key replays the stored
// result (or re-runs a request that did not act), a reuse of the key with another route or
// body is refused as idempotency_conflict. An empty key just runs fn.
func (b *Broker) idempotent(ctx context.Context, t *turn, key, path string, hash []byte, fn func() (int, any)) callResult {
	result := func(status int, v any) callResult { return callResult{status: status, v: v} }
	if key == "" {
		return result(fn())
	}
	if len(key) > 200 {
		return result(b.errorResult(t, errf(api.CodeInvalidArgs, "Idempotency-Key is longer than 200 characters")))
	}
	if strings.IndexFunc(key, func(r rune) bool { return r < 0x21 || r > 0x7e }) >= 0 {
		return result(b.errorResult(t, errf(api.CodeInvalidArgs, "Idempotency-Key holds a character other than printable ASCII")))
	}
	stored, release, err := b.d.State.BeginKey(ctx, t.c.Name, key)
	if err != nil {
		if ctx.Err() != nil && !isDeadline(ctx) {
			return callResult{} // the caller went away
		}
		if errors.Is(err, store.ErrKeyRunning) {
			return result(b.errorResult(t, errf(api.CodeTimeout, "an earlier request with this Idempotency-Key is still running")))
		}
		// The store did not answer: a read is still answered; an actuation is refused, since
		// whether this key already acted cannot be known. Nothing is stored under the key.
		b.log.Error("idempotency lookup failed: this turn may read but not act", "err", err)
		t.storeDown = true
		return result(fn())
	}
	defer release()
	t.key, t.path, t.hash = key, path, hash
	if stored != nil {
		if stored.Route != path || string(stored.BodyHash) != string(hash) {
			return result(b.errorResult(t, errf(api.CodeIdempotencyConflict, "this Idempotency-Key was used for another request; use a new key for a new request")))
		}
		if stored.Acted() {
			status, v := b.replay(ctx, t, stored)
			return callResult{status: status, v: v, replayed: status == http.StatusOK}
		}
		// A request that did not act runs again: nothing of its answer was kept.
	}
	status, v := fn()
	if !t.acted && !t.storeDown && storable(ctx, status, v) {
		rec := store.Key{Route: path, BodyHash: hash, TurnID: t.id, Intent: t.resp.Intent, Kind: t.resp.Kind,
			Args: t.resp.Args, Outcome: t.resp.Outcome, Code: t.code, Status: status}
		if err := b.d.State.StoreKey(b.stateCtx(ctx, t), t.c.Name, key, rec); err != nil {
			b.log.Warn("idempotency store", "err", err)
		}
	}
	return result(status, v)
}

// storable says whether a result that did not act is worth binding to its key: not when the
// caller went away, and not for faults a retry may not meet (busy, rate limits, time-outs,
// internal errors, an unavailable store).
func storable(ctx context.Context, status int, v any) bool {
	if ctx.Err() != nil && !isDeadline(ctx) {
		return false
	}
	if e, ok := v.(*apiError); ok {
		switch e.Code {
		case api.CodeBusy, api.CodeRateLimited, api.CodeTimeout, api.CodeInternal, api.CodeUnavailable:
			return false
		}
	}
	return status < 500
}

func isDeadline(ctx context.Context) bool { return ctx.Err() == context.DeadlineExceeded }

// actuate runs a write or robot intent under the audited-first rule. It returns an error
// (unavailable) without running the handler when the audit intent cannot be committed.
func (b *Broker) actuate(ctx context.Context, t *turn, table *intents.Table, in *intents.Intent, args map[string]string) (intents.Answer, string, *apiError) {
	if _, ok := b.d.Handlers[in.Handler.Type]; !ok {
		a, outcome := b.runHandler(ctx, t, table, in, args) // "I can't do that yet": nothing to record
		return a, outcome, nil
	}
	args, err := b.checkArgs(in, args)
	if err != nil {
		t.code = api.CodeInvalidArgs
		return intents.Answer{Reply: replyInvalid, Expression: intents.ExpressionConfused}, store.OutcomeInvalid, nil
	}
	t.resp.Args = store.AllowlistArgs(args)
	if t.storeDown {
		b.m.auditFailures.Inc()
		b.log.Error("the state store did not answer the key's look-up: not actuating", "turn_id", t.id, "intent", in.Name)
		return intents.Answer{}, "", errf(api.CodeUnavailable, "%s", replyUnavailable)
	}
	rec := b.auditRecord(t)
	rec.Outcome, rec.LatencyMS = store.OutcomePending, 0
	var pending *store.Key
	if t.key != "" {
		pending = &store.Key{Route: t.path, BodyHash: t.hash, TurnID: t.id, Pending: true, Intent: in.Name, Kind: string(in.Kind),
			Scope: in.Scope, Args: args, Outcome: store.OutcomePending, Status: http.StatusOK}
	}
	if err := b.d.State.RecordActuation(ctx, rec, t.key, pending); err != nil {
		b.m.auditFailures.Inc()
		b.log.Error("the audit intent could not be written: not actuating", "turn_id", t.id, "intent", in.Name, "err", err)
		return intents.Answer{}, "", errf(api.CodeUnavailable, "%s", replyUnavailable)
	}
	t.acted, t.pending = true, pending
	if !time.Now().Before(t.workDeadline()) {
		// The record took the whole turn (a stalled disk, a process that was stopped): the
		// caller has been told, or is about to be, that the turn ran out. Acting now would do
		// it late and unannounced, so it is not done, and the record says so.
		t.code = api.CodeTimeout
		b.log.Error("the audit intent was written after the turn's deadline: not actuating", "turn_id", t.id, "intent", in.Name)
		return intents.Answer{Reply: replyTooLate, Expression: intents.ExpressionSorry}, store.OutcomeFailed, nil
	}
	// From here the write runs to the turn's deadline even if the caller hangs up, so its
	// outcome is known and stored rather than cut off half-way.
	ans, outcome := b.runHandler(context.WithoutCancel(ctx), t, table, in, args)
	if outcome == store.OutcomeTimeout {
		// A write that timed out may still have landed: say so, and never send it again.
		outcome, ans.Reply = store.OutcomeUnknown, replyWriteUnknown
	}
	return ans, outcome, nil
}

// settle writes an actuation's outcome into its pending audit record and settles its key, in
// one transaction. If that fails both stay pending, and a retry is answered by a read-back.
func (b *Broker) settle(ctx context.Context, t *turn, rec store.AuditRecord) {
	var r *store.Key
	if t.pending != nil {
		done := *t.pending
		done.Pending, done.Outcome, done.Code = false, t.resp.Outcome, t.code
		done.Reply, done.Expr = t.resp.Reply, t.resp.Expression
		r = &done
	}
	if err := b.d.State.SettleActuation(ctx, rec, t.key, r); err != nil {
		b.m.auditFailures.Inc()
		b.log.Error("the outcome of an actuation could not be written; a retry will read the device back", "turn_id", t.id, "err", err)
	}
}

// replay answers a retried key of a turn that acted: the stored answer, or a read-back when
// its outcome is not known. It re-checks the caller's scopes and re-synthesizes the audio.
func (b *Broker) replay(ctx context.Context, t *turn, rec *store.Key) (int, any) {
	if !t.c.Has(rec.Scope) {
		e := errf(api.CodeInsufficientScope, "this token lacks the %s scope", rec.Scope)
		e.Scope = rec.Scope
		return b.errorResult(t, e)
	}
	t.replayOf = rec.TurnID
	t.resp.Intent, t.resp.Kind, t.resp.Args = rec.Intent, rec.Kind, rec.Args
	since := time.Now()
	if rec.Pending || rec.Outcome == store.OutcomeUnknown || rec.Outcome == store.OutcomeTimeout || rec.Outcome == store.OutcomePending {
		ans := b.readBack(ctx, t, rec)
		ans.Outcome = store.OutcomeUnknown
		since = t.mark("read_back", since)
		return b.finish(ctx, t, ans, store.OutcomeUnknown, since)
	}
	ans := intents.Answer{Reply: rec.Reply, Expression: rec.Expr}
	t.code = rec.Code
	return b.finish(ctx, t, ans, rec.Outcome, since)
}

// readBack asks the device what its state is now: "I may have done that already — the
// kitchen light is on now."
func (b *Broker) readBack(ctx context.Context, t *turn, rec *store.Key) intents.Answer {
	sorry := intents.Answer{Reply: replyMayHaveDone, Expression: intents.ExpressionConfused}
	table := b.d.Table()
	in, ok := table.Lookup(rec.Intent)
	if !ok {
		return sorry
	}
	rb, ok := b.d.Handlers[in.Handler.Type].(readBacker)
	if !ok {
		return sorry
	}
	hctx, cancel := context.WithDeadline(ctx, t.workDeadline())
	defer cancel()
	ans, err := rb.ReadBack(hctx, intents.Call{Intent: in, Args: rec.Args, Device: t.c.Name, Room: t.c.room, Scopes: t.c.Scopes, Table: table})
	if err != nil || ans.Reply == "" {
		b.log.Warn("read-back of a retried actuation failed", "intent", rec.Intent, "err", err)
		return sorry
	}
	ans.Reply = "I may have done that already — " + lowerFirst(ans.Reply)
	return ans
}

func lowerFirst(s string) string {
	if s == "" || strings.HasPrefix(s, "I ") {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// stateCtx bounds a state access that follows the turn's work: the turn's own deadline, but
// never less than a short grace, and not cancelled by the caller going away (the record
// of what was done must still be written).
func (b *Broker) stateCtx(ctx context.Context, t *turn) context.Context {
	dl := t.deadline
	if floor := time.Now().Add(500 * time.Millisecond); dl.Before(floor) {
		dl = floor
	}
	c, cancel := context.WithDeadline(context.WithoutCancel(ctx), dl)
	context.AfterFunc(c, cancel)
	return c
}
