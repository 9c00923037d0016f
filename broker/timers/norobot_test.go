package timers

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A timer set where no robot can ring it says so at once; a configured robot of the room
// that is offline now may still link in time, so it is not warned about.
func TestTimerSetWhereNoRobotCanRingItSaysSo(t *testing.T) {
	r := newRig(t)
	r.link.connected = []string{"den-robot"} // another room's robot only
	a := r.call(HandlerStart, map[string]string{"duration": "180", "label": "pasta"})
	if !strings.HasPrefix(a.Reply, "Okay. Pasta timer set for three minutes.") || !strings.Contains(a.Reply, "no robot is linked in the kitchen to ring it") {
		t.Fatalf("reply %q does not say no robot can ring it", a.Reply)
	}
	if got := r.svc.Snapshot(); len(got) != 1 || len(got[0].RingsOn) != 0 || got[0].Room != "kitchen" || got[0].Label != "pasta" {
		t.Fatalf("status %+v: want the pasta timer with nobody to ring it", got)
	}

	r.robots = []string{"kitchen-robot", "den-robot"} // configured, offline
	a = r.call(HandlerStart, map[string]string{"duration": "60", "label": "egg"})
	if a.Reply != "Okay. Egg timer set for one minute." {
		t.Fatalf("reply %q: a configured robot of the room may still link", a.Reply)
	}
	for _, in := range r.svc.Snapshot() {
		if in.Label == "egg" && (len(in.RingsOn) != 1 || in.RingsOn[0] != "kitchen-robot" || in.Linked) {
			t.Fatalf("status %+v: want kitchen-robot, not linked", in)
		}
	}
}

// A timer that comes due with no robot linked in its room waits NoRobotWait for one, then
// is let go: audited missed (no_robot), shown by the status, and never rung on a robot that
// links afterwards.
func TestTimerDueWithNobodyToRingIsMissedAndNeverRingsLater(t *testing.T) {
	r := newRig(t)
	r.link.connected = nil
	r.call(HandlerStart, map[string]string{"duration": "60", "label": "pasta"})
	r.tickAt(60 * time.Second)
	r.tickAt(100 * time.Second)
	if r.svc.Pending() != 1 {
		t.Fatal("the timer was let go before a robot had a chance to link")
	}
	r.tickAt(121 * time.Second)
	if r.svc.Pending() != 0 {
		t.Fatal("a timer due with nobody to ring it is still waiting a minute later")
	}
	r.mu.Lock()
	var missed []Record
	for _, rec := range r.audits {
		if rec.Outcome == "missed" {
			missed = append(missed, rec)
		}
	}
	r.mu.Unlock()
	if len(missed) != 1 || missed[0].Code != MissedNoRobot || missed[0].Args["label"] != "pasta" {
		t.Fatalf("missed audit records %+v, want one no_robot", missed)
	}
	if m := r.svc.MissedTimers(); len(m) != 1 || m[0].Reason != MissedNoRobot || m[0].Label != "pasta" || m[0].Room != "kitchen" {
		t.Fatalf("status of missed timers %+v", m)
	}
	// A robot of the room links an hour later: nothing rings, and its copy is empty.
	r.link.mu.Lock()
	r.link.connected = []string{"kitchen-robot"}
	r.link.mu.Unlock()
	r.svc.HubConnected(context.Background(), "kitchen-robot")
	r.tickAt(time.Hour)
	if n := len(r.rings()); n != 0 {
		t.Fatalf("the missed timer rang %d times on a robot that linked afterwards", n)
	}
	if p := r.svc.pendingFor(placeOf("kitchen-robot", "kitchen")); len(p) != 0 {
		t.Fatalf("the robot's copy still holds the missed timer: %+v", p)
	}
}

// A timer that came due with nobody to ring it while the broker ran does not start its wait
// for a robot afresh when the broker restarts: restarted ten minutes later, it is let go as
// missed, not rung on the robot that links then.
func TestTimerDueWithNobodyIsNotRungAfterARestart(t *testing.T) {
	r := newRig(t)
	r.link.connected = nil
	r.call(HandlerStart, map[string]string{"duration": "60", "label": "pasta"})
	r.tickAt(60 * time.Second)
	r.clock.Set(t0.Add(90 * time.Second))
	r.svc.checkpoint(context.Background()) // the broker ran on past the due time
	r.db.Close()
	r.clock.Set(t0.Add(10 * time.Minute))
	r.open()
	r.svc.Tick(context.Background()) // at start-up: the hub has not redialled yet
	r.link.mu.Lock()
	r.link.connected = []string{"kitchen-robot"}
	r.link.mu.Unlock()
	r.tickAt(10*time.Minute + 5*time.Second)
	if n := len(r.rings()); n != 0 || r.svc.Pending() != 0 {
		t.Fatalf("%d rings, %d live: a timer due with nobody to ring it rang after a restart", n, r.svc.Pending())
	}
	if m := r.svc.MissedTimers(); len(m) != 1 || m[0].Reason != MissedNoRobot {
		t.Fatalf("missed %+v", m)
	}
}
