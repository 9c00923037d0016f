package broker

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/robot"
	"github.com/reachy-broker/reachy-broker/speech"
)

func medianOf(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// playAfter waits (bounded) for the fake daemon's first call to path at or after t0.
func playAfter(b *testing.B, h *simHub, path string, t0 time.Time) time.Time {
	for i := 0; i < 2000; i++ {
		for _, c := range h.fake.Calls() {
			if c.Path == path && !c.Time.Before(t0) {
				return c.Time
			}
		}
		time.Sleep(time.Millisecond)
	}
	b.Fatalf("no %s", path)
	return time.Time{}
}

// BenchmarkConsoleActionToDaemon: a console look (same-origin POST, identity, audit, the
// robot link, the hub's arbitration) until the robot daemon receives its goto, on loopback.
// Baseline in the same run: the hub's own goto straight to the daemon. Budget: < 150 ms.
func BenchmarkConsoleActionToDaemon(b *testing.B) {
	r := newConsoleRig(b)
	tok := r.page(b)
	if resp := r.post(b, tok, "join", map[string]any{}); resp.status != 200 {
		b.Fatalf("join: %d %s", resp.status, resp.body)
	}
	d := robot.NewDaemon(r.hub.daemonURL, time.Second)
	var action, direct []time.Duration
	dirs := []string{"left", "right"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if resp := r.post(b, tok, "look", map[string]string{"direction": dirs[i%2]}); resp.status != 200 {
			b.Fatalf("look: %d %s", resp.status, resp.body)
		}
		action = append(action, playAfter(b, r.hub, "/api/move/goto", t0).Sub(t0))
		t1 := time.Now()
		d.Goto(context.Background(), robot.Goto{Head: &robot.Pose{}, Duration: 10 * time.Millisecond})
		direct = append(direct, time.Since(t1))
	}
	b.StopTimer()
	b.ReportMetric(float64(medianOf(action).Microseconds())/1000, "ms-action-to-daemon-median")
	b.ReportMetric(float64(medianOf(direct).Microseconds())/1000, "ms-direct-goto-median")
	b.ReportMetric(float64(medianOf(action))/float64(medianOf(direct)), "x-baseline")
}

// BenchmarkPushToTalk3s: a 3 s push-to-talk clip from the moment the browser would send it
// (the release) until the robot daemon is told to play it. Budget: < 500 ms.
func BenchmarkPushToTalk3s(b *testing.B) {
	r := newConsoleRig(b)
	tok := r.page(b)
	if resp := r.post(b, tok, "join", map[string]any{}); resp.status != 200 {
		b.Fatalf("join: %d %s", resp.status, resp.body)
	}
	clip := make([]float32, 3*speech.SampleRate)
	for i := range clip {
		clip[i] = 0.1 * float32(i%40-20) / 20
	}
	wav, _ := speech.EncodeWAV(clip, speech.SampleRate)
	var took []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if resp := r.post(b, tok, "talk", wav); resp.status != 200 {
			b.Fatalf("talk: %d %s", resp.status, resp.body)
		}
		took = append(took, playAfter(b, r.hub, "/api/media/play_sound", t0).Sub(t0))
	}
	b.StopTimer()
	b.ReportMetric(float64(medianOf(took).Microseconds())/1000, "ms-release-to-play-median")
}
