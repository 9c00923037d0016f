package robot

import (
	"context"
	"encoding/json"
	"math"
	"net/http/httptest"
	"testing"
	"time"
)

func fake(t *testing.T) (*FakeDaemon, *Daemon) {
	f := NewFakeDaemon()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, NewDaemon(srv.URL, 2*time.Second)
}

func TestDaemonClientEveryRoute(t *testing.T) {
	f, d := fake(t)
	ctx := context.Background()
	st, err := d.State(ctx)
	if err != nil || st.ControlMode != "enabled" || st.Antennas.Left != 0.1 || st.Antennas.Right != -0.1 {
		t.Fatalf("state %+v %v", st, err)
	}
	if doa, ok, err := d.DOA(ctx); err != nil || !ok || !doa.SpeechDetected {
		t.Fatalf("doa %+v %v %v", doa, ok, err)
	}
	id, err := d.Goto(ctx, Goto{Antennas: &Antennas{Left: 0.5, Right: -0.3}, Duration: 200 * time.Millisecond})
	if err != nil || id == "" {
		t.Fatal(err)
	}
	// The antenna order on the wire is [right, left].
	var g struct{ Antennas [2]float64 }
	json.Unmarshal(f.Calls()[len(f.Calls())-1].Body, &g)
	if g.Antennas != [2]float64{-0.3, 0.5} {
		t.Fatalf("antennas on the wire %v", g.Antennas)
	}
	if ids, _ := d.Running(ctx); len(ids) != 1 || ids[0] != id {
		t.Fatalf("running %v", ids)
	}
	if applied, _ := d.SetTarget(ctx, &Pose{Pitch: 0.1}, nil); applied {
		t.Fatal("set_target applied while a move runs")
	}
	if err := d.Stop(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := d.Stop(ctx, "never-started"); err != nil {
		t.Fatalf("stop of an unknown uuid (daemon answers 500) must be tolerated: %v", err)
	}
	if _, err := d.PlayMove(ctx, "pollen-robotics/reachy-mini-emotions-library", "happy"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.PlayMove(ctx, "pollen-robotics/reachy-mini-emotions-library", "moonwalk"); err == nil {
		t.Fatal("unknown move accepted")
	}
	wav := append([]byte("RIFF"), make([]byte, 100)...)
	name, err := d.UploadSound(ctx, "reply.wav", wav)
	if err != nil || name != "reply.wav" || len(f.Sound("reply.wav")) != 104 {
		t.Fatalf("upload %q %v", name, err)
	}
	if err := d.PlaySound(ctx, name); err != nil {
		t.Fatal(err)
	}
	if err := d.StopSound(ctx); err != nil {
		t.Fatal(err)
	}
	if err := d.Wobbling(ctx, true); err != nil {
		t.Fatal(err)
	}
	if err := d.SetVolume(ctx, 40); err != nil {
		t.Fatal(err)
	}
	if v, _ := d.Volume(ctx); v != 40 {
		t.Fatalf("volume %d", v)
	}
	if err := d.SetVolume(ctx, 140); err == nil {
		t.Fatal("volume 140 accepted")
	}
	if v, err := d.Status(ctx); err != nil || v == "" {
		t.Fatal(err)
	}
	if _, err := d.WakeUp(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := d.GotoSleep(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestGotoWhileMovingIsDroppedButAnswered(t *testing.T) {
	_, d := fake(t)
	ctx := context.Background()
	first, _ := d.Goto(ctx, Goto{Antennas: &Antennas{}, Duration: time.Second})
	second, err := d.Goto(ctx, Goto{Antennas: &Antennas{}, Duration: time.Second})
	if err != nil || second == "" || second == first {
		t.Fatalf("quirk: %q %v", second, err)
	}
	if ids, _ := d.Running(ctx); len(ids) != 1 {
		t.Fatalf("the second goto was not dropped: %v", ids)
	}
}

func TestPosesAreClampedToTheLimits(t *testing.T) {
	f, d := fake(t)
	by := 3.0
	d.Goto(context.Background(), Goto{Head: &Pose{Pitch: 2, Roll: -2, Yaw: 3}, BodyYaw: &by, Duration: time.Second})
	var g struct {
		HeadPose Pose    `json:"head_pose"`
		BodyYaw  float64 `json:"body_yaw"`
	}
	json.Unmarshal(f.Calls()[0].Body, &g)
	if g.HeadPose.Pitch > MaxHeadPitch+1e-9 || g.HeadPose.Roll < -MaxHeadRoll-1e-9 || g.BodyYaw > MaxBodyYaw+1e-9 ||
		math.Abs(g.HeadPose.Yaw-g.BodyYaw) > MaxHeadBodyYaw+1e-9 {
		t.Fatalf("unclamped pose on the wire: %+v", g)
	}
}
