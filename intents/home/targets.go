package home

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// EntityBackend talks to one kind of home hub about named entities (a Home Assistant entity
// id, a Zigbee2MQTT friendly name). Set must set, never toggle.
type EntityBackend interface {
	GetEntity(ctx context.Context, kind, entity string) (State, error)
	SetEntity(ctx context.Context, kind, entity string, s State) error
}

// Target is where one device of the home lives.
type Target struct {
	Backend EntityBackend
	Entity  string
}

// Mapped is the Backend of a configured home: each device maps to an entity on a hub.
type Mapped map[Device]Target

// ErrNoSuchDevice is returned for a device the configuration does not map.
var ErrNoSuchDevice = errors.New("device is not configured")

// Get reads the device's state from its hub.
func (m Mapped) Get(ctx context.Context, d Device) (State, error) {
	t, ok := m[d]
	if !ok {
		return State{}, fmt.Errorf("%s %s: %w", d.Room, d.Kind, ErrNoSuchDevice)
	}
	return t.Backend.GetEntity(ctx, d.Kind, t.Entity)
}

// Set sets the device's state on its hub.
func (m Mapped) Set(ctx context.Context, d Device, s State) error {
	t, ok := m[d]
	if !ok {
		return fmt.Errorf("%s %s: %w", d.Room, d.Kind, ErrNoSuchDevice)
	}
	return t.Backend.SetEntity(ctx, d.Kind, t.Entity, s)
}

// TransientError marks a failure worth retrying (timeouts, 5xx, a dropped connection).
type TransientError struct{ Err error }

func (e *TransientError) Error() string { return e.Err.Error() }
func (e *TransientError) Unwrap() error { return e.Err }

// ErrUnavailable is returned at once while a hub's circuit breaker is open.
var ErrUnavailable = errors.New("the hub is not answering (circuit open)")

// Reliable wraps a hub with the rules for touching real devices: only transient errors are
// retried, with backoff, inside the caller's deadline; a write that timed out is read back
// before any retry (it may have happened); and after repeated failures a circuit breaker
// makes a dead hub answer at once instead of making the family wait.
type Reliable struct {
	Inner      EntityBackend
	Attempt    time.Duration // one try's share; default 2s
	Backoff    time.Duration // first pause between tries; default 100ms
	BreakAfter int           // consecutive failures that open the breaker; default 3
	Cooldown   time.Duration // how long it stays open; default 20s
	Now        func() time.Time

	mu        sync.Mutex
	failures  int
	openUntil time.Time
}

func (r *Reliable) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Reliable) defaults() (time.Duration, time.Duration, int, time.Duration) {
	a, b, n, c := r.Attempt, r.Backoff, r.BreakAfter, r.Cooldown
	if a <= 0 {
		a = 2 * time.Second
	}
	if b <= 0 {
		b = 100 * time.Millisecond
	}
	if n <= 0 {
		n = 3
	}
	if c <= 0 {
		c = 20 * time.Second
	}
	return a, b, n, c
}

func (r *Reliable) open() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.now().Before(r.openUntil)
}

func (r *Reliable) record(err error) {
	_, _, n, c := r.defaults()
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil {
		r.failures = 0
		return
	}
	r.failures++
	if r.failures >= n {
		r.openUntil, r.failures = r.now().Add(c), 0
	}
}

func transient(err error) bool {
	var te *TransientError
	return errors.As(err, &te) || errors.Is(err, context.DeadlineExceeded)
}

// GetEntity reads, retrying transient failures.
func (r *Reliable) GetEntity(ctx context.Context, kind, entity string) (State, error) {
	var s State
	err := r.retry(ctx, func(actx context.Context) error {
		var err error
		s, err = r.Inner.GetEntity(actx, kind, entity)
		return err
	}, nil)
	return s, err
}

// SetEntity writes; after a timed-out write it reads back before trying again.
func (r *Reliable) SetEntity(ctx context.Context, kind, entity string, want State) error {
	return r.retry(ctx, func(actx context.Context) error {
		return r.Inner.SetEntity(actx, kind, entity, want)
	}, func(actx context.Context) bool {
		got, err := r.Inner.GetEntity(actx, kind, entity)
		return err == nil && got.On == want.On && (want.Temperature == 0 || got.Temperature == want.Temperature)
	})
}

func (r *Reliable) retry(ctx context.Context, op func(context.Context) error, reconciled func(context.Context) bool) error {
	if r.open() {
		return ErrUnavailable
	}
	attempt, backoff, _, _ := r.defaults()
	var err error
	for try := 0; ; try++ {
		actx, cancel := context.WithTimeout(ctx, attempt)
		err = op(actx)
		timedOut := errors.Is(actx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded)
		cancel()
		if err == nil {
			break
		}
		if ctx.Err() != nil || !transient(err) {
			break
		}
		if timedOut && reconciled != nil {
			rctx, cancel := context.WithTimeout(ctx, attempt)
			ok := reconciled(rctx)
			cancel()
			if ok {
				err = nil // the write did happen: never send it twice
				break
			}
		}
		pause := backoff << try
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < pause+attempt/4 {
			break // no time left for another honest try
		}
		select {
		case <-time.After(pause):
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	r.record(err)
	return err
}
