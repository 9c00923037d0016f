package whisper

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
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
