package whisper

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/speech"
)

// testModelPath is generated once per test binary by TestMain.
var testModelPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "whisper-test-")
	if err != nil {
		panic(err)
	}
	testModelPath = filepath.Join(dir, "ggml-test-tiny.bin")
	if err := WriteTestModel(testModelPath, testShapes["tiny"], 1); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func loadTestEngine(t testing.TB, workers, queue int) *Engine {
	t.Helper()
	e, err := Load(Config{ModelPath: testModelPath, Workers: workers, Queue: queue})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// spoken returns espeak-ng speech for text as 16 kHz samples.
func spoken(t testing.TB, text string) []float32 {
	t.Helper()
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Fatalf("espeak-ng is not installed (the README's test command installs it): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	wav, err := speech.Espeak{}.Synthesize(ctx, text)
	if err != nil {
		t.Fatal(err)
	}
	clip, err := speech.DecodeWAV(wav, 0)
	if err != nil {
		t.Fatal(err)
	}
	return clip.Samples
}

func TestGeneratedModelLoadsAndTranscribesSpeech(t *testing.T) {
	e := loadTestEngine(t, 1, 1)
	if !e.IsTestModel() {
		t.Fatal("generated model not recognised as a test model")
	}
	samples := spoken(t, "turn on the kitchen light")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := e.Transcribe(ctx, samples, Options{Threads: 1, MaxTokens: 8, NoSpeechProb: 1})
	if err != nil {
		t.Fatalf("transcribe: %v", err)
	}
	want := AudioCtxFor(len(samples), 1500)
	if res.AudioCtx != want || want >= 1500 {
		t.Fatalf("audio_ctx = %d, want %d sized to the clip", res.AudioCtx, want)
	}
	if len(res.Segments)+res.Dropped == 0 {
		t.Fatal("whisper returned no segments at all")
	}
	clipEnd := time.Duration(len(samples)) * time.Second / 16000
	for _, s := range res.Segments {
		if s.Start < 0 || s.End > clipEnd || s.End < s.Start {
			t.Fatalf("segment %v-%v outside the %v clip", s.Start, s.End, clipEnd)
		}
	}
}

func TestMaxTokensBoundsOutput(t *testing.T) {
	e := loadTestEngine(t, 1, 1)
	samples := spoken(t, "what is the weather like today in the living room")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	long, err := e.Transcribe(ctx, samples, Options{Threads: 1, MaxTokens: 40, NoSpeechProb: 1})
	if err != nil {
		t.Fatal(err)
	}
	short, err := e.Transcribe(ctx, samples, Options{Threads: 1, MaxTokens: 2, NoSpeechProb: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Every generated token is one vocabulary entry of at most 5 bytes (" " + 4 letters) or
	// a byte token of at most 6 ("<0x1F>"), so 2 tokens are at most 12 bytes of text.
	if len(short.Text) > 12 {
		t.Fatalf("max tokens 2 gave %d bytes: %q", len(short.Text), short.Text)
	}
	if len(long.Text) <= len(short.Text) && len(long.Text) > 0 {
		t.Logf("random weights stopped early: long %q short %q", long.Text, short.Text)
	}
}

func TestDeadlineIsHonoured(t *testing.T) {
	e := loadTestEngine(t, 1, 1)
	samples := spoken(t, "tell me a long story about the sea and the stars and the moon")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := e.Transcribe(ctx, samples, Options{Threads: 1, FullWindow: true})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want deadline exceeded", err)
	}
	if waited := time.Since(start); waited > 2*time.Second {
		t.Fatalf("caller waited %v past a 5 ms deadline", waited)
	}
	// The worker must be free again: a later call with time to spare succeeds.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel2()
	if _, err := e.Transcribe(ctx2, samples[:16000], Options{Threads: 1}); err != nil {
		t.Fatalf("after an aborted call: %v", err)
	}
}

func TestCancellation(t *testing.T) {
	e := loadTestEngine(t, 1, 1)
	samples := spoken(t, "good morning")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Transcribe(ctx, samples, Options{Threads: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want canceled", err)
	}
}

func TestBusyWhenQueueIsFull(t *testing.T) {
	e := loadTestEngine(t, 1, 1)
	samples := spoken(t, "what time is it")
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	const callers = 6
	var wg sync.WaitGroup
	errs := make([]error, callers)
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = e.Transcribe(ctx, samples, Options{Threads: 1, FullWindow: true})
		}()
	}
	wg.Wait()
	var busy, ok int
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, ErrBusy):
			busy++
		default:
			t.Fatalf("unexpected error: %v", err)
		}
	}
	if busy == 0 || ok == 0 {
		t.Fatalf("%d ok, %d busy: want some of each with 1 worker and a queue of 1", ok, busy)
	}
}

func TestBadModelFiles(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.bin")
	os.WriteFile(garbage, []byte("this is not a model at all, just a paragraph of plain text that is long enough to be read"), 0o600)
	truncated := filepath.Join(dir, "truncated.bin")
	full, err := os.ReadFile(testModelPath)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(truncated, full[:5000], 0o600)
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.bin"), "no such file"},
		{garbage, "bad magic"},
		{truncated, "truncated"},
		{dir, "directory"},
	} {
		_, err := Load(Config{ModelPath: tc.path})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%s) = %v, want an error containing %q", filepath.Base(tc.path), err, tc.want)
		}
	}
}

func TestRejectsBadSamples(t *testing.T) {
	e := loadTestEngine(t, 1, 1)
	ctx := context.Background()
	if _, err := e.Transcribe(ctx, nil, Options{}); err == nil {
		t.Fatal("empty input accepted")
	}
	if _, err := e.Transcribe(ctx, make([]float32, 31*16000), Options{}); err == nil {
		t.Fatal("31 s input accepted")
	}
}
