package timers

import (
	"context"
	"testing"
	"time"
)

// A pasta timer with six minutes left; the broker is down for a minute, and meanwhile the
// wall clock is stepped two days ahead, or a day back (NTP, an operator, a board without a
// real-time clock). When the broker is back the timer has five minutes left: it is not
// dropped as missed, and it rings neither early nor a day late.
func TestRestartOnASteppedWallClockKeepsWhatTimersHadLeft(t *testing.T) {
	for name, step := range map[string]time.Duration{"two days ahead": 48 * time.Hour, "a day back": -24 * time.Hour} {
		t.Run(name, func(t *testing.T) {
			r := newRig(t)
			r.call(HandlerStart, map[string]string{"duration": "600", "label": "pasta"})
			r.tickAt(4 * time.Minute)
			r.db.Close()
			r.clock.Advance(time.Minute)
			r.clock.Jump(step)
			r.open()
			r.svc.Tick(context.Background())
			if r.svc.Pending() != 1 || len(r.rings()) != 0 {
				t.Fatalf("after the restart: %d live, %d rings", r.svc.Pending(), len(r.rings()))
			}
			if a := r.call(HandlerStatus, nil); a.Reply != "The pasta timer has five minutes left." {
				t.Fatalf("status %q", a.Reply)
			}
			back := r.clock.Now()
			r.clock.Set(back.Add(5*time.Minute - time.Second))
			r.svc.Tick(context.Background())
			if n := len(r.rings()); n != 0 {
				t.Fatalf("rang a second early (%d rings)", n)
			}
			r.clock.Set(back.Add(5 * time.Minute))
			r.svc.Tick(context.Background())
			if rings := r.rings(); len(rings) != 1 || said(rings[0]) != "Your pasta timer is done." {
				t.Fatalf("rings %+v", rings)
			}
			// A second restart, the clock as it now is, changes nothing.
			r.db.Close()
			r.open()
			if ts := r.svc.List("laptop", "kitchen"); len(ts) != 1 || ts[0].Rings != 1 || !ts[0].NextRing.Equal(back.Add(5*time.Minute+30*time.Second)) {
				t.Fatalf("after a second restart: %+v", ts)
			}
		})
	}
}

// The machine rebooted (the boot clock starts again) and came up with its wall clock a day
// behind, as a board without a real-time clock does: the wall clock is not trusted
// backward. At least the machine's uptime has passed since the last checkpoint; the timer
// never rings early.
func TestRebootWithAWallClockBehindNeverRingsEarly(t *testing.T) {
	r := newRig(t)
	r.call(HandlerStart, map[string]string{"duration": "600", "label": "pasta"})
	r.tickAt(4 * time.Minute)
	r.svc.checkpoint(context.Background()) // as Run does every checkpointEvery
	r.db.Close()
	r.clock.Reboot(2 * time.Minute)
	r.clock.Jump(-24 * time.Hour)
	r.open()
	back := r.clock.Now()
	if a := r.call(HandlerStatus, nil); a.Reply != "The pasta timer has four minutes left." {
		t.Fatalf("status %q", a.Reply)
	}
	r.clock.Set(back.Add(4*time.Minute - time.Second))
	r.svc.Tick(context.Background())
	if n := len(r.rings()); n != 0 {
		t.Fatalf("rang early (%d rings)", n)
	}
	r.clock.Set(back.Add(4 * time.Minute))
	r.svc.Tick(context.Background())
	if n := len(r.rings()); n != 1 {
		t.Fatalf("%d rings at its time", n)
	}
}
