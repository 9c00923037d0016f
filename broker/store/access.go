package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// run performs one access under ctx. It returns when ctx ends even if the access has not (a
// stalled disk): the abandoned access finishes or fails on its own.
//
// Accesses run on worker goroutines that stay a while after their job, so a turn does not pay
// for a new goroutine growing its stack to SQLite's depth each time; a stalled access holds
// only its own worker, and a new one starts whenever none is idle.
func (s *Store) run(ctx context.Context, op string, fn func(ctx context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	j := stateJob{ctx: ctx, op: op, fn: fn, done: make(chan error, 1)}
	select {
	case s.jobs <- j:
	default:
		go s.worker(j)
	}
	select {
	case err := <-j.done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("%s: the state store did not answer in time: %w", op, ctx.Err())
	}
}

// stateJob is one access handed to a worker.
type stateJob struct {
	ctx  context.Context
	op   string
	fn   func(ctx context.Context) error
	done chan error
}

// workerIdle is how long an access worker waits for the next job before it exits.
const workerIdle = 10 * time.Second

func (s *Store) worker(j stateJob) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		j.done <- s.access(j)
		idle.Reset(workerIdle)
		select {
		case j = <-s.jobs:
		case <-idle.C:
			return
		case <-s.closed:
			return
		}
	}
}

func (s *Store) access(j stateJob) error {
	if f := s.fault.Load(); f != nil {
		if err := (*f)(j.ctx, j.op); err != nil {
			return err
		}
	}
	return j.fn(j.ctx)
}

// write is run for an access that changes the database: its failure marks the store as
// failing (shown by /healthz) until a later write succeeds.
func (s *Store) write(ctx context.Context, op string, fn func(ctx context.Context) error) error {
	err := s.run(ctx, op, fn)
	if errors.Is(err, context.Canceled) {
		return err // the caller went away: says nothing about the store
	}
	s.noteWrite(err)
	return err
}

// noteWrite records a write's result for Health: a failure shows until a write succeeds.
func (s *Store) noteWrite(err error) {
	s.healthMu.Lock()
	if err != nil {
		s.lastErr, s.lastErrAt = err, time.Now()
	} else {
		s.lastErr = nil
	}
	s.healthMu.Unlock()
}
