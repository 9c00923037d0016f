package broker

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Outcomes of a turn, as the audit log records them.
const (
	OutcomeOK      = "ok"
	OutcomeDenied  = "denied"
	OutcomeInvalid = "invalid"
	OutcomeError   = "error"
	OutcomeTimeout = "timeout"
	OutcomeIgnored = "ignored" // no wake phrase: only the fact is recorded
)

// AuditRecord is one line of the audit log: what was done, never what was said.
type AuditRecord struct {
	Seq        int64             `json:"seq"`
	Time       time.Time         `json:"time"`
	TurnID     string            `json:"turn_id"`
	Device     string            `json:"device"`
	Node       string            `json:"node,omitempty"`
	Route      string            `json:"route"`
	Intent     string            `json:"intent"`
	Args       map[string]string `json:"args"`
	Outcome    string            `json:"outcome"`
	Code       string            `json:"code,omitempty"`
	LatencyMS  int64             `json:"latency_ms"`
	Redactions []string          `json:"redactions,omitempty"`
}

// auditableArgs are the only argument names ever written to the log: closed vocabularies.
// Free text (general.ask's question) never is.
var auditableArgs = map[string]bool{"room": true, "state": true, "temperature": true, "person": true, "expression": true,
	"owner": true, "direction": true, "reason": true, // the teleport console's: a login and closed values
	"duration": true, "label": true, "target": true} // timers and announcements: closed values, robot names

func allowlistArgs(args map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range args {
		if auditableArgs[k] {
			out[k] = v
		}
	}
	return out
}

// AppendAudit writes one record.
func (s *State) AppendAudit(ctx context.Context, r AuditRecord) error {
	args, _ := json.Marshal(allowlistArgs(r.Args))
	stmt, err := s.prepared(ctx, insertAuditSQL)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	_, err = stmt.ExecContext(ctx,
		r.Time.UnixMilli(), r.TurnID, r.Device, r.Node, r.Route, r.Intent, string(args), r.Outcome, r.Code, r.LatencyMS, strings.Join(r.Redactions, ","))
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// TailAudit returns the last n records, oldest first.
func (s *State) TailAudit(ctx context.Context, n int) ([]AuditRecord, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq, time, turn_id, device, node, route, intent, args, outcome, code, latency_ms, redactions
		FROM (SELECT * FROM audit ORDER BY seq DESC LIMIT ?) ORDER BY seq`, n)
	if err != nil {
		return nil, fmt.Errorf("audit tail: %w", err)
	}
	defer rows.Close()
	var out []AuditRecord
	for rows.Next() {
		var r AuditRecord
		var t int64
		var args, red string
		if err := rows.Scan(&r.Seq, &t, &r.TurnID, &r.Device, &r.Node, &r.Route, &r.Intent, &args, &r.Outcome, &r.Code, &r.LatencyMS, &red); err != nil {
			return nil, err
		}
		r.Time = time.UnixMilli(t).UTC()
		json.Unmarshal([]byte(args), &r.Args)
		if red != "" {
			r.Redactions = strings.Split(red, ",")
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// LastTurn is the time of device's last turn or utterance (zero when none is recorded).
func (s *State) LastTurn(ctx context.Context, device string) (time.Time, error) {
	var t int64
	err := s.db.QueryRowContext(ctx, `SELECT time FROM audit WHERE device = ? AND route IN ('turn', 'utterance', 'intent')
		ORDER BY seq DESC LIMIT 1`, device).Scan(&t)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("last turn: %w", err)
	}
	return time.UnixMilli(t).UTC(), nil
}

// PurgeAudit removes records older than the retention period.
func (s *State) PurgeAudit(ctx context.Context, retention time.Duration) (int64, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM audit WHERE time < ?`, time.Now().Add(-retention).UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("audit purge: %w", err)
	}
	return res.RowsAffected()
}
