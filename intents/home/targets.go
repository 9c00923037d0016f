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

// Layered is a dev broker's house: the devices Mapped connects go to their hubs, every other
// device of the home to Sim (the demo's devices, simulated in memory).
type Layered struct {
	Mapped Mapped
	Sim    Backend
}

// Get reads the device from its hub, or from the simulation.
func (l Layered) Get(ctx context.Context, d Device) (State, error) {
	if _, ok := l.Mapped[d]; ok {
		return l.Mapped.Get(ctx, d)
	}
	return l.Sim.Get(ctx, d)
}

// Set sets the device on its hub, or in the simulation.
func (l Layered) Set(ctx context.Context, d Device, s State) error {
	if _, ok := l.Mapped[d]; ok {
		return l.Mapped.Set(ctx, d, s)
	}
	return l.Sim.Set(ctx, d, s)
}

// TransientError marks a failure worth retrying (a refused connection, 5xx, not connected):
// for a write, one that was certainly not carried out.
type TransientError struct{ Err error }

func (e *TransientError) Error() string { return e.Err.Error() }
func (e *TransientError) Unwrap() error { return e.Err }

// UnknownError marks a write that was sent but never confirmed (the answer timed out, the
// connection dropped after sending): it may have landed. It is never sent again.
type UnknownError struct{ Err error }

func (e *UnknownError) Error() string { return "outcome unknown: " + e.Err.Error() }
func (e *UnknownError) Unwrap() error { return e.Err }

// Unknown reports whether err says a write may or may not have happened.
func Unknown(err error) bool {
	var ue *UnknownError
	return errors.As(err, &ue)
}

type freshKey struct{}

// Fresh marks ctx so that reads under it come from the device itself, never from a cache
// (the read-back of a retried write whose outcome is not known).
func Fresh(ctx context.Context) context.Context { return FreshSince(ctx, time.Now()) }

// FreshSince is Fresh accepting what the device reported after t (the read-back of a write
// sent at t: the device's own report of it counts).
func FreshSince(ctx context.Context, t time.Time) context.Context {
	return context.WithValue(ctx, freshKey{}, t)
}

// freshSince reports whether ctx asks for a reading from the device itself, and since when.
func freshSince(ctx context.Context) (time.Time, bool) {
	t, ok := ctx.Value(freshKey{}).(time.Time)
	return t, ok
}

// ErrUnavailable is returned at once while a hub's circuit breaker is open.
var ErrUnavailable = errors.New("the hub is not answering (circuit open)")

// Reliable wraps a hub with the rules for touching real devices:
//   - only transient failures (a refused connection, 5xx, not connected) are retried, with
//     backoff, inside the caller's deadline; a device's own refusal (4xx) is not retried;
//   - a write whose outcome is unknown (sent, then no answer) is never sent again: it is
//     read back from the device, and reported as unknown unless the read-back confirms it;
//   - only transient failures count toward the circuit breaker (one bad entity does not
//     silence the whole hub); after the cooldown one probe goes through (half-open): its
//     success closes the breaker, its failure opens it again;
//   - a hub that answers again is used at once: when Inner can tell (Recovering: a new
//     connection since the breaker opened, a health check that passes), the call that finds
//     it so is the half-open probe, whatever is left of the cooldown.
type Reliable struct {
	Inner      EntityBackend
	Attempt    time.Duration // one try's share; default 2s
	Backoff    time.Duration // first pause between tries; default 100ms
	BreakAfter int           // consecutive transient failures that open the breaker; default 3
	Cooldown   time.Duration // how long it stays open before a probe; default 20s
	// Check bounds one Recovering check made while the breaker is open; default 500ms.
	Check time.Duration
	// CheckEvery is the least time between two Recovering checks (the first comes this long
	// after the breaker opened): a hub that is down gets at most one health request this
	// often, and only while calls come. Default 1s.
	CheckEvery time.Duration
	Now        func() time.Time

	mu        sync.Mutex
	failures  int
	openUntil time.Time
	openedAt  time.Time // when the breaker last opened
	lastCheck time.Time // when the last Recovering check began (or the breaker opened)
	probing   bool      // a half-open probe is in flight
	checking  bool      // a Recovering check is in flight
}

// Recovering is a backend that can tell whether its hub answers again, so that a Reliable
// whose breaker is open lets its probe through as soon as it does instead of after the
// cooldown. The check must be cheap and bounded by ctx.
type Recovering interface {
	// AnsweringSince reports whether the hub has shown, since t, that it answers again (a
	// connection made after t, a health request answered now).
	AnsweringSince(ctx context.Context, t time.Time) bool
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

// admit says whether a call may go through: always while closed; while open, none until the
// cooldown has passed — or until Inner says its hub answers again — then exactly one probe
// at a time.
func (r *Reliable) admit(ctx context.Context) (probe bool, ok bool) {
	r.mu.Lock()
	if r.openUntil.IsZero() {
		r.mu.Unlock()
		return false, true
	}
	if r.probing {
		r.mu.Unlock()
		return false, false
	}
	if !r.now().Before(r.openUntil) {
		r.probing = true
		r.mu.Unlock()
		return true, true
	}
	every := r.CheckEvery
	if every <= 0 {
		every = time.Second
	}
	rec, can := r.Inner.(Recovering)
	if !can || r.checking || time.Since(r.lastCheck) < every {
		r.mu.Unlock()
		return false, false
	}
	r.checking, r.lastCheck = true, time.Now()
	since := r.openedAt
	check := r.Check
	if check <= 0 {
		check = 500 * time.Millisecond
	}
	r.mu.Unlock()
	cctx, cancel := context.WithTimeout(ctx, check)
	back := rec.AnsweringSince(cctx, since)
	cancel()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.checking = false
	if !back || r.probing || r.openUntil.IsZero() {
		return false, r.openUntil.IsZero() // closed meanwhile by another call's success
	}
	r.probing = true
	return true, true
}

func (r *Reliable) record(err error, probe bool) {
	_, _, n, c := r.defaults()
	r.mu.Lock()
	defer r.mu.Unlock()
	if probe {
		r.probing = false
	}
	if err == nil || !countsAgainst(err) {
		// Success, or the device's own refusal: the hub itself is answering.
		r.failures, r.openUntil = 0, time.Time{}
		return
	}
	r.failures++
	if probe || r.failures >= n {
		r.openUntil, r.failures = r.now().Add(c), 0
		r.openedAt = time.Now()
		r.lastCheck = r.openedAt
	}
}

// countsAgainst says whether a failure says the hub is unwell (and not, say, that one
// entity is misconfigured or the caller's deadline was short).
func countsAgainst(err error) bool {
	return transient(err) || Unknown(err)
}

func transient(err error) bool {
	var te *TransientError
	return errors.As(err, &te) || errors.Is(err, context.DeadlineExceeded)
}

// GetEntity reads, retrying transient failures.
func (r *Reliable) GetEntity(ctx context.Context, kind, entity string) (State, error) {
	probe, ok := r.admit(ctx)
	if !ok {
		return State{}, ErrUnavailable
	}
	var s State
	err := r.retry(ctx, true, func(actx context.Context) error {
		var err error
		s, err = r.Inner.GetEntity(actx, kind, entity)
		return err
	})
	r.record(err, probe)
	return s, err
}

// SetEntity writes once; it is retried only when it certainly was not sent. A write whose
// outcome is unknown is read back from the device and never sent again.
func (r *Reliable) SetEntity(ctx context.Context, kind, entity string, want State) error {
	probe, ok := r.admit(ctx)
	if !ok {
		return ErrUnavailable
	}
	sent := time.Now()
	err := r.retry(ctx, false, func(actx context.Context) error {
		err := r.Inner.SetEntity(actx, kind, entity, want)
		if err != nil && !Unknown(err) && !isTransient(err) && errors.Is(err, context.DeadlineExceeded) {
			err = &UnknownError{err} // cut off after it was handed over: it may have landed
		}
		return err
	})
	if Unknown(err) {
		attempt, _, _, _ := r.defaults()
		// The read-back is bounded by the turn and by one short try.
		rctx, cancel := context.WithTimeout(FreshSince(ctx, sent), min(attempt, time.Second))
		got, rerr := r.Inner.GetEntity(rctx, kind, entity)
		cancel()
		if rerr == nil && !got.Stale && got.On == want.On && (want.Temperature == 0 || got.Temperature == want.Temperature) {
			err = nil // the write did land
		}
	}
	r.record(err, probe)
	return err
}

func isTransient(err error) bool {
	var te *TransientError
	return errors.As(err, &te)
}

// retry runs op until it succeeds, fails for good, its outcome is unknown, or no honest try
// fits in ctx. A read may also be retried after one try timed out; a write never is.
func (r *Reliable) retry(ctx context.Context, read bool, op func(context.Context) error) error {
	attempt, backoff, _, _ := r.defaults()
	var err error
	for try := 0; ; try++ {
		actx, cancel := context.WithTimeout(ctx, attempt)
		err = op(actx)
		cancel()
		again := isTransient(err) || (read && errors.Is(err, context.DeadlineExceeded))
		if err == nil || ctx.Err() != nil || Unknown(err) || !again {
			return err
		}
		pause := backoff << try
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < pause+attempt/4 {
			return err // no time left for another honest try
		}
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return err
		}
	}
}
