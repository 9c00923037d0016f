package wake

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Stats count what the guard saw. Errors, panics, stalls and busy calls all answered "not
// addressed": nothing was uploaded for them.
type Stats struct {
	Calls    int `json:"calls"`
	Detected int `json:"detected"`
	Errors   int `json:"errors"` // the engine returned an error
	Panics   int `json:"panics"` // the engine crashed (a Go panic in or around it)
	Stalls   int `json:"stalls"` // the engine missed its deadline
	Busy     int `json:"busy"`   // a stalled call still held the engine
	// SecondListens counts utterances the engine heard again with their steady noise taken
	// out (Sphinx; what the second listen costs: each is decoded twice).
	SecondListens int `json:"second_listens"`
}

// Guard runs a Spotter one call at a time under a deadline. Whatever goes wrong — an error, a
// panic, a call that never returns — Addressed answers false ("not addressed"), logs and
// counts it; the hub's loop never waits longer than Timeout. A stalled engine keeps its
// goroutine until it returns; calls meanwhile answer false at once without touching it.
type Guard struct {
	Spotter Spotter
	// Timeout bounds one call; 0 means 2 s plus the audio's own length.
	Timeout time.Duration
	Log     *slog.Logger

	mu    sync.Mutex
	busy  bool
	stats Stats
}

// NewGuard wraps s.
func NewGuard(s Spotter, log *slog.Logger) *Guard {
	if log == nil {
		log = slog.Default()
	}
	return &Guard{Spotter: s, Log: log}
}

type spotResult struct {
	d        Detection
	ok       bool
	err      error
	panicked bool
}

// Addressed reports whether samples hold a wake phrase, and where.
func (g *Guard) Addressed(ctx context.Context, samples []float32) (Detection, bool) {
	g.mu.Lock()
	g.stats.Calls++
	if g.busy {
		g.stats.Busy++
		g.mu.Unlock()
		g.Log.Warn("wake spotter still stalled: treating speech as not addressed")
		return Detection{}, false
	}
	g.busy = true
	g.mu.Unlock()

	timeout := g.Timeout
	if timeout <= 0 {
		timeout = 2*time.Second + time.Duration(len(samples))*time.Second/SampleRate
	}
	done := make(chan spotResult, 1)
	go func() {
		var r spotResult
		defer func() {
			if p := recover(); p != nil {
				r = spotResult{err: fmt.Errorf("wake spotter panicked: %v", p), panicked: true}
			}
			g.mu.Lock()
			g.busy = false
			g.mu.Unlock()
			done <- r
		}()
		r.d, r.ok, r.err = g.Spotter.Spot(ctx, samples)
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case r := <-done:
		if r.err != nil {
			switch {
			case r.panicked:
				g.count(func(s *Stats) { s.Panics++ })
			case ctx.Err() == nil:
				g.count(func(s *Stats) { s.Errors++ })
			}
			g.Log.Warn("wake spotter failed: treating speech as not addressed", "err", r.err)
			return Detection{}, false
		}
		if r.ok {
			g.count(func(s *Stats) { s.Detected++ })
		}
		return r.d, r.ok
	case <-t.C:
		g.count(func(s *Stats) { s.Stalls++ })
		g.Log.Warn("wake spotter stalled: treating speech as not addressed", "timeout", timeout)
		return Detection{}, false
	case <-ctx.Done():
		return Detection{}, false
	}
}

func (g *Guard) count(f func(*Stats)) {
	g.mu.Lock()
	f(&g.stats)
	g.mu.Unlock()
}

// Stats returns a copy of the counters.
func (g *Guard) Stats() Stats {
	g.mu.Lock()
	st := g.stats
	g.mu.Unlock()
	if c, ok := g.Spotter.(interface{ SecondListens() int }); ok {
		st.SecondListens = c.SecondListens()
	}
	return st
}
