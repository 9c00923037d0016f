package broker

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"
)

// IdempotencyTTL is how long a result is replayed for the same Idempotency-Key.
const IdempotencyTTL = 24 * time.Hour

// idem makes a retried request replay the first one's result: a concurrent duplicate waits
// for the first to finish, a later one reads the stored result. An actuation never runs twice.
type idem struct {
	state *State
	mu    sync.Mutex
	busy  map[string]chan struct{}
}

func newIdem(s *State) *idem { return &idem{state: s, busy: map[string]chan struct{}{}} }

type storedResult struct {
	TurnID string
	Status int
	Body   []byte
}

// begin returns a stored result, or a release function the caller must call with the result
// once it has one (after storing it).
func (i *idem) begin(ctx context.Context, device, key string) (*storedResult, func(), error) {
	k := device + "\x00" + key
	for {
		i.mu.Lock()
		ch, running := i.busy[k]
		if !running {
			ch = make(chan struct{})
			i.busy[k] = ch
			i.mu.Unlock()
			r, err := i.lookup(ctx, device, key)
			if err != nil || r != nil {
				i.release(k, ch)
				return r, nil, err
			}
			return nil, func() { i.release(k, ch) }, nil
		}
		i.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
}

func (i *idem) release(k string, ch chan struct{}) {
	i.mu.Lock()
	delete(i.busy, k)
	i.mu.Unlock()
	close(ch)
}

func (i *idem) lookup(ctx context.Context, device, key string) (*storedResult, error) {
	var r storedResult
	err := i.state.db.QueryRowContext(ctx, `SELECT turn_id, status, body FROM idempotency WHERE device = ? AND key = ? AND created >= ?`,
		device, key, time.Now().Add(-IdempotencyTTL).UnixMilli()).Scan(&r.TurnID, &r.Status, &r.Body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("idempotency lookup: %w", err)
	}
	return &r, nil
}

func (i *idem) store(ctx context.Context, device, key string, r storedResult) error {
	_, err := i.state.db.ExecContext(ctx, `INSERT OR REPLACE INTO idempotency (device, key, turn_id, status, body, created) VALUES (?, ?, ?, ?, ?, ?)`,
		device, key, r.TurnID, r.Status, r.Body, time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("idempotency store: %w", err)
	}
	return nil
}

func (i *idem) purge(ctx context.Context) error {
	_, err := i.state.db.ExecContext(ctx, `DELETE FROM idempotency WHERE created < ?`, time.Now().Add(-IdempotencyTTL).UnixMilli())
	return err
}
