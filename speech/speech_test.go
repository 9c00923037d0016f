package speech

import (
	"context"
	"math/rand/v2"
	"os/exec"
	"testing"
	"time"
)

func espeak(t *testing.T, text string) []byte {
	t.Helper()
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Fatalf("espeak-ng is not installed (the README's test command installs it): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b, err := Espeak{}.Synthesize(ctx, text)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEspeakProducesPlausibleWAV(t *testing.T) {
	short, long := espeak(t, "Hello."), espeak(t, "The kitchen light is on, and the bedroom is at twenty two degrees.")
	cs, err := DecodeWAV(short, 0)
	if err != nil {
		t.Fatalf("espeak output is not valid WAV: %v", err)
	}
	cl, err := DecodeWAV(long, 0)
	if err != nil {
		t.Fatalf("espeak output is not valid WAV: %v", err)
	}
	if cs.SourceRate != SampleRate || cs.SourceChannels != 1 || cs.SourceBits != 16 {
		t.Fatalf("reply audio is %d Hz %d ch %d bit, want 16 kHz mono PCM16", cs.SourceRate, cs.SourceChannels, cs.SourceBits)
	}
	// About 150-200 words a minute: "Hello." is well under 2 s, the long sentence 2-8 s.
	if d := cs.Duration(); d < 200*time.Millisecond || d > 2*time.Second {
		t.Fatalf("'Hello.' lasts %v", d)
	}
	if d := cl.Duration(); d < 2*time.Second || d > 8*time.Second {
		t.Fatalf("13 words last %v", d)
	}
	if len(DetectSpeech(cl.Samples, DefaultVAD())) == 0 {
		t.Fatal("no speech found in espeak output")
	}
}

func TestEspeakHonoursDeadlineAndRejectsEmpty(t *testing.T) {
	if _, err := (Espeak{}).Synthesize(context.Background(), "   "); err == nil {
		t.Fatal("empty text accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Espeak{}).Synthesize(ctx, "hello"); err == nil {
		t.Fatal("cancelled synthesis returned audio")
	}
	if _, err := (Espeak{Binary: "/nonexistent/espeak"}).Synthesize(context.Background(), "hello"); err == nil {
		t.Fatal("missing binary not reported")
	}
}

func TestVADFindsSpeechInSilenceAndNoise(t *testing.T) {
	clip, err := DecodeWAV(espeak(t, "turn on the kitchen light"), 0)
	if err != nil {
		t.Fatal(err)
	}
	speechSegs := DetectSpeech(clip.Samples, DefaultVAD())
	if len(speechSegs) == 0 {
		t.Fatal("no speech in clean speech")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	lead, tail := 2*SampleRate, 2*SampleRate
	padded := make([]float32, lead+len(clip.Samples)+tail)
	for i := range padded {
		padded[i] = float32(rng.NormFloat64() * 0.003) // room noise, about -50 dBFS
	}
	for i, s := range clip.Samples {
		padded[lead+i] += s
	}
	segs := DetectSpeech(padded, DefaultVAD())
	if len(segs) == 0 {
		t.Fatal("no speech found between silence and noise")
	}
	first, last := segs[0], segs[len(segs)-1]
	startWant := lead + speechSegs[0].Start
	endWant := lead + speechSegs[len(speechSegs)-1].End
	tol := SampleRate / 2
	if first.Start < startWant-tol || first.Start > startWant+tol {
		t.Errorf("speech starts at %.2f s, want about %.2f s", float64(first.Start)/SampleRate, float64(startWant)/SampleRate)
	}
	if last.End < endWant-tol || last.End > endWant+tol {
		t.Errorf("speech ends at %.2f s, want about %.2f s", float64(last.End)/SampleRate, float64(endWant)/SampleRate)
	}
	// Pure noise is not speech.
	if segs := DetectSpeech(padded[:lead], DefaultVAD()); len(segs) != 0 {
		t.Errorf("noise reported as speech: %v", segs)
	}
	// Digital silence is not speech.
	if segs := DetectSpeech(make([]float32, SampleRate), DefaultVAD()); len(segs) != 0 {
		t.Errorf("silence reported as speech: %v", segs)
	}
}

func TestVADStreamingMatchesBatch(t *testing.T) {
	clip, err := DecodeWAV(espeak(t, "what time is it"), 0)
	if err != nil {
		t.Fatal(err)
	}
	x := append(make([]float32, SampleRate), clip.Samples...)
	x = append(x, make([]float32, SampleRate)...)
	batch := DetectSpeech(x, DefaultVAD())
	v := NewVAD(DefaultVAD())
	var streamed []Segment
	for i := 0; i < len(x); i += 333 { // odd chunk size on purpose
		streamed = append(streamed, v.Write(x[i:min(i+333, len(x))])...)
	}
	streamed = append(streamed, v.Flush()...)
	if len(batch) == 0 || len(batch) != len(streamed) || batch[0] != streamed[0] {
		t.Fatalf("streamed %v, batch %v", streamed, batch)
	}
}
