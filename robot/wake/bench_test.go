package wake

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
	"syscall"
	"testing"

	"github.com/reachy-broker/reachy-broker/speech"
)

// BenchmarkSpotRealTime reports each engine's real-time factor on one core (CPU seconds of
// this thread per second of audio, so a busy machine does not inflate it) and the process's
// peak RSS with the model loaded: on a 3 s command in a quiet room (one listen), and on a
// sentence without the phrase over a fan's steady noise, 10 dB under it (PocketSphinx's first
// listen hears nothing, so it denoises and listens again: the most it costs). The neural
// engine needs its runtime directory (deploy/scripts/wake-neural.sh, for the architecture the
// benchmark is built for); without it its half is skipped. The fused engine runs both. `make wake-bench-arm64` runs both
// under qemu for the robot's CPU.
func BenchmarkSpotRealTime(b *testing.B) {
	for _, engine := range []string{EngineSphinx, EngineNeural, EngineFused} {
		b.Run(engine, func(b *testing.B) {
			b.Run("command", func(b *testing.B) {
				benchSpot(b, engine, say(b, "hey reechy, turn on the kitchen light please"))
			})
			b.Run("steady-noise-not-addressed", func(b *testing.B) {
				x := say(b, "the peaches are really cheap at the market today")
				x = mix(x, seededPink(5, len(x)), 10, 0)
				if !newDenoiser().steadyNoiseUnderVoice(x) {
					b.Fatal("this noise does not call for a second listen")
				}
				benchSpot(b, engine, x)
			})
		})
	}
}

func say(b *testing.B, text string) []float32 {
	b.Helper()
	out, err := exec.Command("espeak-ng", "--stdout", text).Output()
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
	return clip.Samples
}

func benchSpot(b *testing.B, engine string, samples []float32) {
	s, err := New(Options{Engine: engine, Phrases: []string{"hey reachy"}})
	if errors.Is(err, ErrRuntime) || (engine == EngineFused && errors.Is(err, ErrModel)) {
		b.Skipf("%s: %v", engine, err) // no runtime here, or a build without a fitted fusion
	}
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
		if _, _, err := s.Spot(context.Background(), samples); err != nil {
			b.Fatal(err)
		}
	}
	used := cpu() - start
	b.StopTimer()
	audio := float64(len(samples)) / SampleRate * float64(b.N)
	b.ReportMetric(used/audio, "rtf-cpu")
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	b.ReportMetric(float64(ru.Maxrss)/1024, "peak-rss-MB")
}
