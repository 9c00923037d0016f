package speech

import (
	"context"
	"testing"
)

// A clip `reachyctl speak` writes carries its words; decoding it hears the same audio, and a
// WAV from anywhere else says nothing.
func TestSpokenTextRoundTrip(t *testing.T) {
	samples := make([]float32, SampleRate/4)
	for i := range samples {
		samples[i] = float32(i%40-20) / 40
	}
	plain, err := EncodeWAV(samples, SampleRate)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := SpokenText(plain); ok {
		t.Fatal("a plain WAV says it carries text")
	}
	for _, text := range []string{"hey reachy, call dad", "paper", "odd"} {
		wav, err := WithSpokenText(plain, text)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := SpokenText(wav)
		if !ok || got != text {
			t.Fatalf("SpokenText = %q, %v; want %q", got, ok, text)
		}
		clip, err := DecodeWAV(wav, 0)
		if err != nil {
			t.Fatalf("a WAV with its text no longer decodes: %v", err)
		}
		if len(clip.Samples) != len(samples) {
			t.Fatalf("decoded %d samples, want %d", len(clip.Samples), len(samples))
		}
		if _, err := WithSpokenText(wav, "again"); err == nil {
			t.Fatal("a second LIST chunk was written")
		}
	}
	if _, err := WithSpokenText(plain, "  "); err == nil {
		t.Fatal("empty text accepted")
	}
	// Another tool's INFO title is not a transcript.
	other, _ := WithSpokenText(plain, "a song title")
	copy(other[len(other)-len(SpokenTextTool)-1:], "some-other-tool")
	if got, ok := SpokenText(other); ok {
		t.Fatalf("another tool's title taken as spoken text: %q", got)
	}
}

func TestSpokenTextOnEspeak(t *testing.T) {
	wav, err := Espeak{}.Synthesize(context.Background(), "turn on the kitchen light")
	if err != nil {
		t.Skip("espeak-ng:", err)
	}
	out, err := WithSpokenText(wav, "turn on the kitchen light")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := SpokenText(out); !ok || got != "turn on the kitchen light" {
		t.Fatalf("%q %v", got, ok)
	}
	if _, err := DecodeWAV(out, 0); err != nil {
		t.Fatal(err)
	}
}
