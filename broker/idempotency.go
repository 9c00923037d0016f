package broker

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// IdempotencyTTL is how long a result is replayed for the same Idempotency-Key.
const IdempotencyTTL = 24 * time.Hour

// maxKeysPerDevice caps the idempotency records one device may hold: a robot cannot fill the
// disk with keys. The oldest settled records give way first.
const maxKeysPerDevice = 2000

// idem makes a retried request (same device, Idempotency-Key, route and body) never act
// twice. A concurrent duplicate waits for the first to finish. An actuation's record is made
// durable, pending, before its handler runs, and settled afterwards; a later duplicate replays
// the settled answer, or, when the outcome is not known (the broker died mid-turn, the write
// timed out), answers from a read-back of the device. Only what a replay needs is stored:
// the intent, its allowlisted arguments, the outcome and, for actuations, the short reply
// built from them — never audio, an agent's answer or a clarification.
type idem struct {
	state *State
	mu    sync.Mutex
	busy  map[string]chan struct{}
}

func newIdem(s *State) *idem { return &idem{state: s, busy: map[string]chan struct{}{}} }

// idemRecord is one stored key.
type idemRecord struct {
	Route    string
	BodyHash []byte
	TurnID   string
	Pending  bool // the actuation's outcome was never settled (crash, store failure)
	Intent   string
	Kind     string
	Scope    string
	Args     map[string]string
	Outcome  string
	Code     string
	Status   int
	Reply    string // actuations only
	Expr     string
}

// acted says whether the record is of a turn that acted on the world.
func (r *idemRecord) acted() bool { return r.Kind == "write" || r.Kind == "robot" }

func bodyHash(route, query string, body []byte) []byte {
	h := sha256.New()
	h.Write([]byte(route))
	h.Write([]byte{0})
	h.Write([]byte(query))
	h.Write([]byte{0})
	h.Write(body)
	return h.Sum(nil)
}

// errKeyRunning is begin's answer when a request with the same key is still running in this
// process when ctx ends.
var errKeyRunning = errors.New("an earlier request with this Idempotency-Key is still running")

// begin takes the key for this process (a concurrent duplicate waits, up to ctx) and returns
// its stored record, if any; the look-up itself waits at most idemLookupWait. The caller must
// call release when done.
func (i *idem) begin(ctx context.Context, device, key string) (*idemRecord, func(), error) {
	k := device + "\x00" + key
	for {
		i.mu.Lock()
		ch, running := i.busy[k]
		if !running {
			ch = make(chan struct{})
			i.busy[k] = ch
			i.mu.Unlock()
			release := func() { i.release(k, ch) }
			lctx, cancel := context.WithTimeout(ctx, idemLookupWait)
			r, err := i.lookup(lctx, device, key)
			cancel()
			if err != nil {
				release()
				return nil, nil, err
			}
			return r, release, nil
		}
		i.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, nil, errKeyRunning
			}
			return nil, nil, ctx.Err()
		}
	}
}

// running reports whether a request with the key is being answered in this process.
func (i *idem) running(device, key string) bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	_, ok := i.busy[device+"\x00"+key]
	return ok
}

func (i *idem) release(k string, ch chan struct{}) {
	i.mu.Lock()
	delete(i.busy, k)
	i.mu.Unlock()
	close(ch)
}

// lookup finds a key's record. Expiry is the purge's job alone (on the retention clock, which
// a jump cannot move): a clock that leaps a day forward must not make every stored answer vanish and
// every retry run again.
func (i *idem) lookup(ctx context.Context, device, key string) (*idemRecord, error) {
	var r idemRecord
	var args string
	err := i.state.run(ctx, "idempotency lookup", func(ctx context.Context) error {
		return i.state.db.QueryRowContext(ctx, `SELECT route, body_hash, turn_id, pending, intent, kind, scope, args, outcome, code, status, reply, expression
			FROM idempotency WHERE device = ? AND key = ?`, device, key).
			Scan(&r.Route, &r.BodyHash, &r.TurnID, &r.Pending, &r.Intent, &r.Kind, &r.Scope, &args, &r.Outcome, &r.Code, &r.Status, &r.Reply, &r.Expr)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("idempotency lookup: %w", err)
	}
	json.Unmarshal([]byte(args), &r.Args)
	return &r, nil
}

// upsert writes a record inside tx (with the audit row it belongs to).
// created is the retention clock's time (clock.go), which a jumped wall clock cannot move.
func upsertIdem(ctx context.Context, tx *sql.Tx, device, key string, r idemRecord, keyCap int, created time.Time) error {
	args, _ := json.Marshal(allowlistArgs(r.Args))
	_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO idempotency
		(device, key, route, body_hash, turn_id, pending, intent, kind, scope, args, outcome, code, status, reply, expression, created)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		device, key, r.Route, r.BodyHash, r.TurnID, r.Pending, r.Intent, r.Kind, r.Scope, string(args), r.Outcome, r.Code, r.Status, r.Reply, r.Expr, created.UnixMilli())
	if err != nil {
		return fmt.Errorf("idempotency store: %w", err)
	}
	// The cap: a device holding too many keys loses its oldest settled ones.
	_, err = tx.ExecContext(ctx, `DELETE FROM idempotency WHERE device = ? AND pending = 0 AND key IN (
		SELECT key FROM idempotency WHERE device = ? ORDER BY created DESC LIMIT -1 OFFSET ?)`, device, device, keyCap)
	if err != nil {
		return fmt.Errorf("idempotency cap: %w", err)
	}
	return nil
}

// store writes a settled record of a turn that did not act (its replay runs it again; the
// record only binds the key to its route and body).
func (i *idem) store(ctx context.Context, device, key string, r idemRecord) error {
	return i.state.write(ctx, "idempotency store", func(ctx context.Context) error {
		tx, err := i.state.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := upsertIdem(ctx, tx, device, key, r, i.state.keyCap(), i.state.clock.now(time.Now())); err != nil {
			return err
		}
		return tx.Commit()
	})
}

// purge removes expired records and gives the space back. now is the retention clock's
// time (State.RetentionNow), never the wall clock's alone.
func (i *idem) purge(ctx context.Context, now time.Time) error {
	err := i.state.write(ctx, "idempotency purge", func(ctx context.Context) error {
		_, err := i.state.db.ExecContext(ctx, `DELETE FROM idempotency WHERE created < ?`, now.Add(-IdempotencyTTL).UnixMilli())
		return err
	})
	if err != nil {
		return err
	}
	return i.state.Vacuum(ctx)
}
