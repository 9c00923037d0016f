package robot

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reachy-broker/reachy-broker/speech"
)

// A sim microphone knows which words each of its files says, and gives them once, to the
// first utterance overlapping the file; the hub's upload carries them.
func TestSimMicrophoneKeepsEachFilesWords(t *testing.T) {
	dir := t.TempDir()
	clip := make([]float32, speech.SampleRate) // one second
	for i, text := range []string{"hey reachy, call dad", "", "paper"} {
		wav, err := speech.EncodeWAV(clip, speech.SampleRate)
		if err != nil {
			t.Fatal(err)
		}
		if text != "" {
			if wav, err = speech.WithSpokenText(wav, text); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, string(rune('1'+i))+".wav"), wav, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := NewFileSource([]string{dir}, 1.0)
	if err != nil {
		t.Fatal(err)
	}
	sec := speech.SampleRate
	// The stream: 1 s silence, file 1, 1 s, file 2 (no words), 1 s, file 3, 1 s.
	if got := src.TextFor(sec+sec/4, sec+sec/2); got != "hey reachy, call dad" {
		t.Fatalf("file 1: %q", got)
	}
	if got := src.TextFor(sec, 2*sec); got != "" {
		t.Fatalf("file 1's words given twice: %q", got)
	}
	if got := src.TextFor(3*sec, 4*sec); got != "" {
		t.Fatalf("a file without words: %q", got)
	}
	if got := src.TextFor(5*sec-100, 6*sec+100); got != "paper" {
		t.Fatalf("file 3: %q", got)
	}
	up, err := uploadWAV(clip[:sec/2], "paper")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := speech.SpokenText(up); !ok || got != "paper" {
		t.Fatalf("the upload does not carry the words: %q %v", got, ok)
	}
	if up, _ := uploadWAV(clip[:sec/2], ""); func() bool { _, ok := speech.SpokenText(up); return ok }() {
		t.Fatal("an upload from a real microphone carries words")
	}
}
