package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestOneRobotCannotEvictAnothersMissedCalls (#36.4): one robot asking for dad 25 times keeps
// only its newest MaxMissedPerRobot missed calls, and the other robots' missed calls stay,
// across a restart too.
func TestOneRobotCannotEvictAnothersMissedCalls(t *testing.T) {
	dir := t.TempDir()
	st, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	at := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	add := func(device string, i int) {
		t.Helper()
		if err := st.AddMissed(ctx, "dad", MissedCall{Device: device, Room: "room of " + device, Wanted: "dad", At: at.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	add("kitchen-robot", 0)
	add("bedside", 1)
	for i := range 25 {
		add("reachy", 2+i)
	}
	st.Close()
	if st, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.Missed(ctx, "dad")
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]int{}
	for _, m := range got {
		by[m.Device]++
	}
	if by["kitchen-robot"] != 1 || by["bedside"] != 1 || by["reachy"] != MaxMissedPerRobot {
		t.Fatalf("missed calls kept per robot: %v, want kitchen-robot 1, bedside 1, reachy %d", by, MaxMissedPerRobot)
	}
	if last := got[len(got)-1]; !last.At.Equal(at.Add(26 * time.Second)) {
		t.Fatalf("the newest of reachy's calls was not kept: %+v", last)
	}
	// The owner's limit still holds over many robots.
	for i := range 10 {
		for j := range 3 {
			add(fmt.Sprintf("robot-%d", i), 100+3*i+j)
		}
	}
	if got, _ := st.Missed(ctx, "dad"); len(got) != MaxMissedPerOwner {
		t.Fatalf("an owner keeps %d missed calls, want %d", len(got), MaxMissedPerOwner)
	}
}
