package timers

import (
	"context"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// 1,000 pending timers cost < 5 MB of heap and no goroutine of their own.
func TestThousandPendingTimersBudget(t *testing.T) {
	r := newRig(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.svc.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	r.svc.set.MaxPerRoom = 2000
	// The fake link records every message it is given; with no robot connected it is given
	// none, so only the service's own memory is measured.
	r.link.mu.Lock()
	r.link.connected = nil
	r.link.mu.Unlock()
	waitFor(t, func() bool { return r.clock.Waiters() == 2 })

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	goroutines := runtime.NumGoroutine()
	for i := range 1000 {
		label := []string{"", "pasta", "eggs", "tea"}[i%4]
		if _, err := r.svc.Start(context.Background(), "laptop", "kitchen", label, time.Duration(60+i)*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, func() bool { return r.clock.Waiters() == 2 }) // the scheduler sleeps again
	runtime.GC()
	runtime.ReadMemStats(&after)
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("1000 pending timers: heap grew by %.2f MB; goroutines %d -> %d", float64(grew)/(1<<20), goroutines, runtime.NumGoroutine())
	if grew > 5<<20 {
		t.Fatalf("1000 pending timers cost %d bytes of heap, budget 5 MB", grew)
	}
	if n := runtime.NumGoroutine(); n > goroutines+2 {
		t.Fatalf("goroutines grew from %d to %d with 1000 timers", goroutines, n)
	}
	if r.svc.Pending() != 1000 {
		t.Fatalf("%d pending", r.svc.Pending())
	}
	// They ring at their times, in order, from the one scheduler.
	r.link.mu.Lock()
	r.link.connected = []string{"kitchen-robot"}
	r.link.mu.Unlock()
	r.clock.Set(t0.Add(62 * time.Second))
	waitFor(t, func() bool { return len(r.rings()) == 3 })
}

// BenchmarkRingLateness measures how late a timer rings after its due time with the wall
// clock: the scheduler's wake-up, the audit write, the state update and the send to the link
// (an in-process fake here; TestRingLatenessOverLink measures the real link on loopback).
// Budget: 250 ms. Reported as ms-late-p50 and ms-late-max.
func BenchmarkRingLateness(b *testing.B) {
	r := newRig(b)
	svc, err := Open(context.Background(), Deps{DB: r.db, Link: r.link, Synth: textSynth{}, Audit: r.svc.d.Audit,
		RoomOf: func(d string) string { return rooms[d] }, Settings: Settings{Rings: 1}})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { svc.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	var late []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.link.reset()
		tm, err := svc.Start(ctx, "laptop", "kitchen", "pasta", 20*time.Millisecond)
		if err != nil {
			b.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for len(r.link.of(api.LinkRing)) == 0 {
			if time.Now().After(deadline) {
				b.Fatal("no ring")
			}
			time.Sleep(time.Millisecond)
		}
		late = append(late, r.link.of(api.LinkRing)[0].At.Sub(tm.Due))
	}
	b.StopTimer()
	sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
	b.ReportMetric(float64(late[len(late)/2].Microseconds())/1000, "ms-late-p50")
	b.ReportMetric(float64(late[len(late)-1].Microseconds())/1000, "ms-late-max")
	if late[len(late)/2] > 250*time.Millisecond {
		b.Fatalf("median lateness %v over the 250 ms budget", late[len(late)/2])
	}
}
