package store

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

// maxKeysPerDevice caps the idempotency records one device may hold: a robot cannot fill the
// disk with keys. The oldest settled records give way first.
const maxKeysPerDevice = 2000

// Idempotency keys make a retried request (same device, Idempotency-Key, route and body)
// never act twice. A concurrent duplicate waits for the first to finish (BeginKey). An
// actuation's key is made durable, pending, before its handler runs (RecordActuation), and
// settled afterwards (SettleActuation); a later duplicate replays the settled answer, or, when
// the outcome is not known (the broker died mid-turn, the write timed out), the broker answers
// from a read-back of the device. Only what a replay needs is stored: the intent, its
// allowlisted arguments, the outcome and, for actuations, the short reply built from them —
// never audio, an agent's answer or a clarification.
type keyLocks struct {
	mu   sync.Mutex
	busy map[string]chan struct{}
}

// keyLookupWait bounds the look-up of a request's Idempotency-Key. A healthy store answers
// in microseconds; one that does not (a frozen or failing disk) must not spend the turn: the
// turn goes on without the key's record, and may then only read — it never acts, so a
// retried actuation cannot run twice behind a look-up that failed.
const keyLookupWait = 500 * time.Millisecond

// Key is one stored Idempotency-Key.
type Key struct {
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

// Acted says whether the key is of a turn that acted on the world.
func (r *Key) Acted() bool { return r.Kind == "write" || r.Kind == "robot" }

// BodyHash binds a key to its request: route, query and body.
func BodyHash(route, query string, body []byte) []byte {
	h := sha256.New()
	h.Write([]byte(route))
	h.Write([]byte{0})
	h.Write([]byte(query))
	h.Write([]byte{0})
	h.Write(body)
	return h.Sum(nil)
}

// ErrKeyRunning is BeginKey's answer when a request with the same key is still running in this
// process when ctx ends.
var ErrKeyRunning = errors.New("an earlier request with this Idempotency-Key is still running")

// BeginKey takes the key for this process (a concurrent duplicate waits, up to ctx) and returns
// its stored record, if any (nil: none); the look-up itself waits at most keyLookupWait. The
// caller must call release when done.
func (s *Store) BeginKey(ctx context.Context, device, key string) (rec *Key, release func(), err error) {
	i := &s.keys
	k := device + "\x00" + key
	for {
		i.mu.Lock()
		ch, running := i.busy[k]
		if !running {
			ch = make(chan struct{})
			if i.busy == nil {
				i.busy = map[string]chan struct{}{}
			}
			i.busy[k] = ch
			i.mu.Unlock()
			release := func() { i.release(k, ch) }
			lctx, cancel := context.WithTimeout(ctx, keyLookupWait)
			r, err := s.lookupKey(lctx, device, key)
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
				return nil, nil, ErrKeyRunning
			}
			return nil, nil, ctx.Err()
		}
	}
}

func (i *keyLocks) release(k string, ch chan struct{}) {
	i.mu.Lock()
	delete(i.busy, k)
	i.mu.Unlock()
	close(ch)
}

// lookupKey finds a key's record. Expiry is the purge's job alone (retention.go), which no
// jumped clock moves: a clock that leaps a day forward must not make every stored answer
// vanish and every retry run again.
func (s *Store) lookupKey(ctx context.Context, device, key string) (*Key, error) {
	var r Key
	var args string
	err := s.run(ctx, "idempotency lookup", func(ctx context.Context) error {
		return s.db.QueryRowContext(ctx, `SELECT route, body_hash, turn_id, pending, intent, kind, scope, args, outcome, code, status, reply, expression
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
// created is the wall clock's time; only a purge by a clock the store trusts removes it.
func upsertIdem(ctx context.Context, tx *sql.Tx, device, key string, r Key, keyCap int, created time.Time) error {
	args, _ := json.Marshal(AllowlistArgs(r.Args))
	_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO idempotency
		(device, key, route, body_hash, turn_id, pending, intent, kind, scope, args, outcome, code, status, reply, expression, created)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		device, key, r.Route, r.BodyHash, r.TurnID, r.Pending, r.Intent, r.Kind, r.Scope, string(args), r.Outcome, r.Code, r.Status, r.Reply, r.Expr, created.UnixMilli())
	if err != nil {
		return fmt.Errorf("idempotency store: %w", err)
	}
	// The cap: a device holding too many keys loses the settled ones written longest ago —
	// in the order they were written (rowid), never by the wall clock, which may have jumped.
	_, err = tx.ExecContext(ctx, `DELETE FROM idempotency WHERE device = ? AND pending = 0 AND key IN (
		SELECT key FROM idempotency WHERE device = ? ORDER BY rowid DESC LIMIT -1 OFFSET ?)`, device, device, keyCap)
	if err != nil {
		return fmt.Errorf("idempotency cap: %w", err)
	}
	return nil
}

// StoreKey writes a settled key of a turn that did not act (its replay runs it again; the
// record only binds the key to its route and body).
func (s *Store) StoreKey(ctx context.Context, device, key string, r Key) error {
	return s.write(ctx, "idempotency store", func(ctx context.Context) error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := upsertIdem(ctx, tx, device, key, r, s.keyCap(), s.clock.wall()); err != nil {
			return err
		}
		return tx.Commit()
	})
}
