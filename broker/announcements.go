package broker

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/announce"
	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/console"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/broker/timers"
	"github.com/reachy-broker/reachy-broker/intents"
)

// ScopeAnnounce lets an operator token speak announcements on robots.
const ScopeAnnounce = intents.ScopeAnnounce

// handleAnnounce: POST /v1/announcements {"robot": NAME | "all": true, "text": "..."}.
// The words are spoken, never stored: the audit record names who and to which robot.
func (b *Broker) handleAnnounce(w http.ResponseWriter, r *http.Request) {
	if b.d.Announcer == nil {
		b.fail(w, &apiError{Code: api.CodeBusy, Message: "announcements are not available: no robot link", RetryAfter: 5})
		return
	}
	var req api.AnnounceRequest
	body, e := b.readJSONBody(r, w)
	if e == nil {
		e = decodeJSON(body, &req)
	}
	if e != nil {
		b.fail(w, e)
		return
	}
	res, err := b.Announce(r.Context(), callerOf(r).Name, req)
	switch {
	case errors.Is(err, announce.ErrUnknownRobot):
		b.fail(w, errf(api.CodeUnknownRobot, "%s", err.Error()))
	case errors.Is(err, announce.ErrInvalid):
		b.fail(w, errf(api.CodeInvalidArgs, "%s", err.Error()))
	case errors.Is(err, announce.ErrUnaudited):
		b.log.Error("announcement refused: audit write failed", "err", err)
		b.m.auditFailures.Inc()
		b.fail(w, errf(api.CodeUnavailable, "the announcement could not be recorded, so it was not sent"))
	case err != nil:
		b.log.Error("announcement", "err", err)
		b.fail(w, errf(api.CodeInternal, "the announcement failed"))
	default:
		writeJSON(w, http.StatusOK, res)
	}
}

// Announce speaks an owner's announcement on one robot or all of them, on behalf of by (a
// device name, or the console's owner): the same path as POST /v1/announcements, for the
// teleport console's button. Errors wrap announce.ErrInvalid or announce.ErrUnaudited.
func (b *Broker) Announce(ctx context.Context, by string, req api.AnnounceRequest) (api.AnnounceResult, error) {
	if b.d.Announcer == nil {
		return api.AnnounceResult{}, errors.New("announcements are not available: no robot link")
	}
	return b.d.Announcer.Announce(ctx, by, req)
}

// KnownRobot reports whether device is one of the broker's robots: configured, or linked
// since start (announce.Announcer.Known).
func (b *Broker) KnownRobot(device string) bool {
	return slices.ContainsFunc(b.robots(), func(r console.Robot) bool { return r.Device == device })
}

// AnnouncementAudit writes an announcement's record to the audit log: by whom and to which
// robot, never the words; written pending before anything is sent, then settled in place
// to what the robots answered.
func AnnouncementAudit(s *store.Store) func(context.Context, announce.Record) error {
	return func(ctx context.Context, r announce.Record) error {
		rec := store.AuditRecord{Time: r.Time, TurnID: r.ID, Device: r.By, Route: "announce", Intent: "announce",
			Args: map[string]string{"target": r.Target}, Outcome: r.Outcome, Code: r.Code}
		if r.Settles { // the outcome of the record written pending before it was sent
			return s.SettleAudit(ctx, rec)
		}
		return s.AppendAudit(ctx, rec)
	}
}

// TimerAudit writes what the timer scheduler did on its own (a ring, a timer the hub rang, a
// missed timer) to the audit log: one record per act (timers.Record), opened pending before
// it and settled once, however often a restart makes the scheduler write it again.
func TimerAudit(s *store.Store) func(context.Context, timers.Record) error {
	return func(ctx context.Context, r timers.Record) error {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		rec := store.AuditRecord{Time: r.Time, TurnID: r.ID, Device: r.Device, Route: "timer", Intent: r.Intent,
			Args: r.Args, Outcome: r.Outcome, Code: r.Code}
		if r.Outcome == store.OutcomePending {
			return s.OpenAuditOnce(ctx, rec)
		}
		return s.SettleAuditOnce(ctx, rec)
	}
}
