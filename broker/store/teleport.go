package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// The teleport console's sessions as the audit log left them: the broker's next start
// closes (as broker_restart) what a run that died left open.

// OpenSession is a teleport session the audit log leaves open: its start (ok, or pending: it
// was still joining) and no end after it.
type OpenSession struct {
	Device, Owner string
	StartID       string // the start record's turn ID
	Pending       bool   // still joining when the broker stopped
	CallOpen      bool   // a call was started in it and never ended
}

// RestartEnd is a session that the previous run ended as it stopped (broker_restart).
type RestartEnd struct {
	Device, Owner string
	At            time.Time
}

// TeleportLeftOpen reads, for each robot, the console's last session record: a start with no
// end (open), or an end as broker_restart (ended by the last stop).
func (s *Store) TeleportLeftOpen(ctx context.Context) (open []OpenSession, ended []RestartEnd, err error) {
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
				ended = append(ended, RestartEnd{Device: l.device, Owner: args["owner"], At: time.UnixMilli(l.at).UTC()})
			case l.intent == "teleport.start" && (l.outc == OutcomeOK || l.outc == OutcomePending):
				o := OpenSession{Device: l.device, Owner: args["owner"], StartID: l.id, Pending: l.outc == OutcomePending}
				var callArgs string
				err := s.db.QueryRowContext(ctx, `SELECT args FROM audit WHERE route = 'console' AND intent = 'teleport.call'
					AND device = ? AND seq > ? ORDER BY seq DESC LIMIT 1`, l.device, l.seq).Scan(&callArgs)
				if err == nil {
					var ca map[string]string
					json.Unmarshal([]byte(callArgs), &ca)
					o.CallOpen = ca["reason"] == "start"
				}
				open = append(open, o)
			}
		}
		return nil
	})
	return open, ended, err
}
