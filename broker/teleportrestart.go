package broker

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// A teleport session never survives the broker: a broker that stops (SIGTERM) ends each
// open session and call itself, audited as broker_restart (console.Shutdown); one that
// died (kill -9, a crash, a power cut) left their records open, and the next start closes
// them from the audit log with the same reason — so the log never shows a call that never
// ended — and tells each owner's page why its call ended.

// openSession is a teleport session the audit log leaves open: its start (ok, or pending: it
// was still joining) and no end after it.
type openSession struct {
	device, owner string
	startID       string // the start record's turn ID
	pending       bool   // still joining when the broker stopped
	callOpen      bool   // a call was started in it and never ended
}

// restartEnd is a session that the previous run ended as it stopped (broker_restart).
type restartEnd struct {
	device, owner string
	at            time.Time
}

// teleportLeftOpen reads, for each robot, the console's last session record: a start with no
// end (open), or an end as broker_restart (ended by the last stop).
func (s *State) teleportLeftOpen(ctx context.Context) (open []openSession, ended []restartEnd, err error) {
	err = s.run(ctx, "teleport sessions left open", func(ctx context.Context) error {
		rows, err := s.db.QueryContext(ctx, `SELECT seq, time, turn_id, device, intent, args, outcome FROM audit
			WHERE seq IN (SELECT max(seq) FROM audit WHERE route = 'console' AND intent IN ('teleport.start', 'teleport.end') GROUP BY device)`)
		if err != nil {
			return fmt.Errorf("teleport sessions: %w", err)
		}
		type last struct {
			seq                            int64
			at                             int64
			id, device, intent, args, outc string
		}
		var lasts []last
		for rows.Next() {
			var l last
			if err := rows.Scan(&l.seq, &l.at, &l.id, &l.device, &l.intent, &l.args, &l.outc); err != nil {
				rows.Close()
				return fmt.Errorf("teleport sessions: %w", err)
			}
			lasts = append(lasts, l)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("teleport sessions: %w", err)
		}
		for _, l := range lasts {
			var args map[string]string
			json.Unmarshal([]byte(l.args), &args)
			switch {
			case l.intent == "teleport.end" && args["reason"] == api.CallEndBrokerRestart:
				ended = append(ended, restartEnd{device: l.device, owner: args["owner"], at: time.UnixMilli(l.at).UTC()})
			case l.intent == "teleport.start" && (l.outc == OutcomeOK || l.outc == OutcomePending):
				o := openSession{device: l.device, owner: args["owner"], startID: l.id, pending: l.outc == OutcomePending}
				var callArgs string
				err := s.db.QueryRowContext(ctx, `SELECT args FROM audit WHERE route = 'console' AND intent = 'teleport.call'
					AND device = ? AND seq > ? ORDER BY seq DESC LIMIT 1`, l.device, l.seq).Scan(&callArgs)
				if err == nil {
					var ca map[string]string
					json.Unmarshal([]byte(callArgs), &ca)
					o.callOpen = ca["reason"] == "start"
				}
				open = append(open, o)
			}
		}
		return nil
	})
	return open, ended, err
}

// closeTeleportLeftOpen audits the end of every session (and call) the previous run left
// open as broker_restart, and tells the console, so each owner's page says why its call
// ended. It runs once, as the broker starts.
func (b *Broker) closeTeleportLeftOpen(ctx context.Context) {
	open, ended, err := b.d.State.teleportLeftOpen(ctx)
	if err != nil {
		b.log.Error("teleport sessions left open by the last run could not be read; their end is not audited", "err", err)
		return
	}
	now := b.d.Now().UTC()
	for _, e := range ended {
		if now.Sub(e.at) < 10*time.Minute { // recent: the owner's page may still be open
			b.console.Restarted(e.device, e.owner, api.CallEndBrokerRestart, e.at)
		}
	}
	for _, o := range open {
		rec := func(kind string, args map[string]string) AuditRecord {
			args["owner"] = o.owner
			return AuditRecord{Time: now, TurnID: newTurnID(), Device: o.device, Route: "console", Intent: kind, Args: args, Outcome: OutcomeOK}
		}
		if o.pending { // the join never finished: its start failed with the broker
			start := AuditRecord{Time: now, TurnID: o.startID, Device: o.device, Route: "console", Intent: "teleport.start",
				Args: map[string]string{"owner": o.owner}, Outcome: OutcomeFailed, Code: api.CallEndBrokerRestart}
			if err := b.d.State.SettleAudit(ctx, start); err != nil {
				b.log.Error("a join left pending by the last run could not be settled", "device", o.device, "err", err)
			}
		}
		if o.callOpen {
			if err := b.d.State.AppendAudit(ctx, rec("teleport.call", map[string]string{"reason": api.CallEndBrokerRestart})); err != nil {
				b.log.Error("the end of a call left open by the last run could not be audited", "device", o.device, "err", err)
			}
		}
		if err := b.d.State.AppendAudit(ctx, rec("teleport.end", map[string]string{"reason": api.CallEndBrokerRestart})); err != nil {
			b.log.Error("the end of a session left open by the last run could not be audited", "device", o.device, "err", err)
			continue
		}
		b.console.Restarted(o.device, o.owner, api.CallEndBrokerRestart, now)
		b.log.Warn("teleport session left open by the last run (it stopped without ending it) ended as broker_restart",
			"device", o.device, "owner", o.owner, "call", o.callOpen)
	}
}
