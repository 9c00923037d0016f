package whisper

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

var (
	tinyEnOnce sync.Once
	tinyEnPath string
	tinyEnErr  error
)

// tinyEnModel writes a tiny.en-shaped random model once per benchmark binary.
func tinyEnModel(b *testing.B) string {
	tinyEnOnce.Do(func() {
		tinyEnPath = filepath.Join(filepath.Dir(testModelPath), "ggml-test-tiny.en.bin")
		tinyEnErr = WriteTestModel(tinyEnPath, testShapes["tiny.en"], 2)
	})
	if tinyEnErr != nil {
		b.Fatal(tinyEnErr)
	}
	return tinyEnPath
}

// BenchmarkTranscribe: a 3 s espeak-ng clip on the tiny.en-shaped model, full 30 s window
// against audio_ctx trimmed to the clip, on 1 and 2 threads.
func BenchmarkTranscribe(b *testing.B) {
	e, err := Load(Config{ModelPath: tinyEnModel(b), Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	clip := spoken(b, "please turn on the light in the kitchen now")
	samples := make([]float32, 3*sampleRate)
	copy(samples, clip)
	for _, threads := range []int{1, 2} {
		for _, full := range []bool{true, false} {
			window := "trimmed"
			if full {
				window = "full"
			}
			b.Run(fmt.Sprintf("threads=%d/window=%s", threads, window), func(b *testing.B) {
				opts := Options{Threads: threads, FullWindow: full, MaxTokens: 16, NoSpeechProb: 1}
				for b.Loop() {
					if _, err := e.Transcribe(context.Background(), samples, opts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkInitialPrompt: what the initial prompt costs per transcription on the tiny.en-shaped
// model with a production token cap (64) and trimmed window: no prompt, the "names" prompt (the
// home's own names) and the long one (a sentence plus every word of the vocabulary, the
// broker's old default). The three run interleaved in each iteration, so a busy machine slows
// them alike; it reports each one's median and its ratio to no prompt. One thread: on a
// shared 2-core box ggml's spinning barriers make 2-thread timings meaningless.
func BenchmarkInitialPrompt(b *testing.B) {
	e, err := Load(Config{ModelPath: tinyEnModel(b), Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	clip := spoken(b, "hey reachy, turn on the light in the kitchen")
	samples := make([]float32, 3*sampleRate)
	copy(samples, clip)
	prompts := []struct{ name, prompt string }{
		{"none", ""},
		{"names", "hey reachy, hey jeeves, mom, dad."},
		{"long", "Turn on the kitchen light. hey reachy, hey jeeves, kitchen, living room, bedroom, office, kids room, light, AC, mom, dad."},
	}
	spent := make([][]time.Duration, len(prompts))
	n := 0
	for b.Loop() {
		for k := range prompts {
			i := (k + n) % len(prompts)
			opts := Options{Threads: 1, MaxTokens: 64, NoSpeechProb: 1, InitialPrompt: prompts[i].prompt}
			start := time.Now()
			if _, err := e.Transcribe(context.Background(), samples, opts); err != nil {
				b.Fatal(err)
			}
			spent[i] = append(spent[i], time.Since(start))
		}
		n++
	}
	median := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)/2].Microseconds()) / 1000
	}
	base := median(spent[0])
	for i, p := range prompts {
		m := median(spent[i])
		b.ReportMetric(m, p.name+"-ms-median")
		if i > 0 {
			b.ReportMetric(m/base, p.name+"/none")
		}
	}
	b.ReportMetric(0, "ns/op")
}
