package robot

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/speech"
)

// TestFolderMicWaitsThenHearsNewFiles: the sim's microphone reads nothing before Ready,
// then hears a file that appears in its folder later (once its size holds still), skips a
// file that is not a WAV, and ends with io.EOF when its context does.
func TestFolderMicWaitsThenHearsNewFiles(t *testing.T) {
	dir := t.TempDir()
	ready := make(chan struct{})
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	m, err := NewFolderMic([]string{dir}, func(ctx context.Context) error {
		select {
		case <-ready:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	m.Poll = 10 * time.Millisecond
	if _, err := NewFolderMic([]string{filepath.Join(dir, "missing")}, nil, quiet); err == nil {
		t.Fatal("a missing folder was accepted")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	heard, all := make(chan int, 1), make(chan struct{})
	done := all
	tone := make([]float32, speech.SampleRate/2)
	go func() {
		n := 0
		for {
			chunk, err := m.Read(ctx)
			if err != nil {
				heard <- n
				return
			}
			for _, s := range chunk {
				if s != 0 {
					n++
				}
			}
			if n == len(tone) && all != nil {
				close(all)
				all = nil
			}
		}
	}()
	for i := range tone {
		tone[i] = 0.5
	}
	wav, _ := speech.EncodeWAV(tone, speech.SampleRate)
	os.WriteFile(filepath.Join(dir, "0-junk.wav"), []byte("not a wav at all"), 0o644)
	time.Sleep(50 * time.Millisecond)
	close(ready)
	time.Sleep(50 * time.Millisecond)
	os.WriteFile(filepath.Join(dir, "1.wav"), wav, 0o644) // appears after the start
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the new file was never heard")
	}
	cancel()
	select {
	case n := <-heard:
		if n != len(tone) {
			t.Fatalf("heard %d samples of sound, want %d", n, len(tone))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read did not end with its context")
	}
}
