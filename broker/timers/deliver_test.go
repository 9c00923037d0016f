package timers

import (
	"context"
	"testing"
	"time"
)

// ringTo waits (bounded) for the n-th ring sent to dev and returns when it was sent.
func (r *rig) ringTo(t *testing.T, dev string, n int, within time.Duration) time.Time {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		var got []sentMsg
		for _, m := range r.rings() {
			if m.Dev == dev {
				got = append(got, m)
			}
		}
		if len(got) >= n {
			return got[n-1].At
		}
		if time.Now().After(deadline) {
			t.Fatalf("ring %d to %s not sent within %v (rings sent: %d)", n, dev, within, len(r.rings()))
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// One robot's link is up but its hub never acks (hung), with five timers of its room due;
// another room's robot has a timer due at the same moment. The honest robot's ring — and
// its repeat, while the silent robot's rings still hang — goes out within a second.
func TestSilentRobotDoesNotDelayAnotherRobotsRing(t *testing.T) {
	r := newRig(t)
	r.svc.set.Send = 20 * time.Second // a silent robot holds each ring this long
	r.link.silent = map[string]bool{"den-robot": true}
	ctx := context.Background()
	for range 5 {
		if _, err := r.svc.Start(ctx, "den-robot", "office", "", 59*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.svc.Start(ctx, "kitchen-robot", "kitchen", "pasta", 60*time.Second); err != nil {
		t.Fatal(err)
	}
	r.clock.Set(t0.Add(60 * time.Second)) // all six are due; the silent robot's first
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	start := time.Now()
	go func() { r.svc.Run(runCtx); close(done) }()
	defer func() { cancel(); <-done }()

	if late := r.ringTo(t, "kitchen-robot", 1, 3*time.Second).Sub(start); late > time.Second {
		t.Fatalf("the honest robot's ring went out %v after it was due", late)
	}
	r.ringTo(t, "den-robot", 1, 3*time.Second) // the silent robot's rings are on their way, hanging

	// Its repeat, 30 s on, while the silent robot still holds its rings.
	waitFor(t, func() bool { return r.clock.Waiters() == 2 })
	advanced := time.Now()
	r.clock.Advance(30 * time.Second)
	if late := r.ringTo(t, "kitchen-robot", 2, 3*time.Second).Sub(advanced); late > time.Second {
		t.Fatalf("the honest robot's repeat went out %v after it was due", late)
	}
	if said(r.rings()[0]) == "" {
		t.Fatal("no sentence")
	}
	// Nothing the silent robot was sent counts as rung.
	for _, tm := range r.svc.List("den-robot", "office") {
		if tm.Rings != 0 {
			t.Fatalf("a ring the silent robot never acked counts as rung: %+v", tm)
		}
	}
}
