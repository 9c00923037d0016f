package wake

import (
	"context"
	"os/exec"
	"runtime"
	"syscall"
	"testing"

	"github.com/reachy-broker/reachy-broker/speech"
)

// BenchmarkSpotRealTime reports the spotter's real-time factor on one core (CPU seconds of
// this thread per second of audio, so a busy machine does not inflate it) on a 3 s command,
// and the process's peak RSS with the model loaded.
func BenchmarkSpotRealTime(b *testing.B) {
	out, err := exec.Command("espeak-ng", "--stdout", "hey reechy, turn on the kitchen light please").Output()
	if err != nil {
		b.Skip("espeak-ng missing: run deploy/scripts/deps.sh")
	}
	if len(out) >= 44 {
		fixHeader(out)
	}
	clip, err := speech.DecodeWAV(out, 0)
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSphinx(Options{Phrases: []string{"hey reachy"}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := func() float64 {
		var ru syscall.Rusage
		syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru)
		return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
	}
	b.ResetTimer()
	start := cpu()
	for i := 0; i < b.N; i++ {
		if _, _, err := s.Spot(context.Background(), clip.Samples); err != nil {
			b.Fatal(err)
		}
	}
	used := cpu() - start
	b.StopTimer()
	audio := float64(len(clip.Samples)) / SampleRate * float64(b.N)
	b.ReportMetric(used/audio, "rtf-cpu")
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	b.ReportMetric(float64(ru.Maxrss)/1024, "peak-rss-MB")
}
