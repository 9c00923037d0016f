package broker

import (
	"context"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
)

// A teleport session never survives the broker: a broker that stops (SIGTERM) ends each
// open session and call itself, audited as broker_restart (console.Shutdown); one that
// died (kill -9, a crash, a power cut) left their records open, and the next start closes
// them from the audit log with the same reason — so the log never shows a call that never
// ended — and tells each owner's page why its call ended.

// closeTeleportLeftOpen audits the end of every session (and call) the previous run left
// open as broker_restart, and tells the console, so each owner's page says why its call
// ended. It runs once, as the broker starts.
func (b *Broker) closeTeleportLeftOpen(ctx context.Context) {
	open, ended, err := b.d.State.TeleportLeftOpen(ctx)
	if err != nil {
		b.log.Error("teleport sessions left open by the last run could not be read; their end is not audited", "err", err)
		return
	}
	now := b.d.Now().UTC()
	for _, e := range ended {
		if now.Sub(e.At) < 10*time.Minute { // recent: the owner's page may still be open
			b.console.Restarted(e.Device, e.Owner, api.CallEndBrokerRestart, e.At)
		}
	}
	for _, o := range open {
		rec := func(kind string, args map[string]string) store.AuditRecord {
			args["owner"] = o.Owner
			return store.AuditRecord{Time: now, TurnID: newTurnID(), Device: o.Device, Route: "console", Intent: kind, Args: args, Outcome: store.OutcomeOK}
		}
		if o.Pending { // the join never finished: its start failed with the broker
			start := store.AuditRecord{Time: now, TurnID: o.StartID, Device: o.Device, Route: "console", Intent: "teleport.start",
				Args: map[string]string{"owner": o.Owner}, Outcome: store.OutcomeFailed, Code: api.CallEndBrokerRestart}
			if err := b.d.State.SettleAudit(ctx, start); err != nil {
				b.log.Error("a join left pending by the last run could not be settled", "device", o.Device, "err", err)
			}
		}
		if o.CallOpen {
			if err := b.d.State.AppendAudit(ctx, rec("teleport.call", map[string]string{"reason": api.CallEndBrokerRestart})); err != nil {
				b.log.Error("the end of a call left open by the last run could not be audited", "device", o.Device, "err", err)
			}
		}
		if err := b.d.State.AppendAudit(ctx, rec("teleport.end", map[string]string{"reason": api.CallEndBrokerRestart})); err != nil {
			b.log.Error("the end of a session left open by the last run could not be audited", "device", o.Device, "err", err)
			continue
		}
		b.console.Restarted(o.Device, o.Owner, api.CallEndBrokerRestart, now)
		b.log.Warn("teleport session left open by the last run (it stopped without ending it) ended as broker_restart",
			"device", o.Device, "owner", o.Owner, "call", o.CallOpen)
	}
}
