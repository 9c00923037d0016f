package speech

import (
	"math"
	"testing"
)

// TestOffsetMicrophoneStillHearsSpeech: a sentence from a microphone whose samples sit around
// 0.2 instead of 0 is no speech at all to the energy detector (the offset is a loud,
// constant "sound" 20 dB over the words' own rise); with the offset taken out, the same
// sentence is found where it is in the clean recording.
func TestOffsetMicrophoneStillHearsSpeech(t *testing.T) {
	clip, err := DecodeWAV(espeak(t, "turn on the kitchen light"), 0)
	if err != nil {
		t.Fatal(err)
	}
	lead := SampleRate
	x := make([]float32, lead+len(clip.Samples)+SampleRate)
	for i := range x {
		x[i] = 0.2
	}
	for i, v := range clip.Samples {
		x[lead+i] += 0.5 * v
	}
	RemoveDC(x)
	segs := DetectSpeech(x, DefaultVAD())
	clean := DetectSpeech(clip.Samples, DefaultVAD())
	if len(segs) == 0 || len(clean) == 0 {
		t.Fatalf("speech found: %v with the offset removed, %v in the clean clip", segs, clean)
	}
	if d := segs[0].Start - (lead + clean[0].Start); d < -SampleRate/5 || d > SampleRate/5 {
		t.Errorf("speech starts %.2f s from where it does in the clean clip", float64(d)/SampleRate)
	}
}

// TestDCBlockerKeepsTheVoice: the filter takes the offset out within a few milliseconds and
// leaves a voice's frequencies as they were, whether the stream comes in one piece or in
// the microphone's 20 ms chunks.
func TestDCBlockerKeepsTheVoice(t *testing.T) {
	const hz, amp, offset = 150.0, 0.3, -0.25 // a low voice's fundamental
	n := SampleRate
	whole := make([]float32, n)
	for i := range whole {
		whole[i] = float32(offset + amp*math.Sin(2*math.Pi*hz*float64(i)/SampleRate))
	}
	chunked := append([]float32(nil), whole...)
	RemoveDC(whole)
	var d DCBlocker
	for i := 0; i < n; i += SampleRate / 50 {
		d.Filter(chunked[i : i+SampleRate/50])
	}
	for i := range whole {
		if whole[i] != chunked[i] {
			t.Fatalf("sample %d: %v in one piece, %v in chunks", i, whole[i], chunked[i])
		}
	}
	// After 50 ms: no offset left, and the tone's level within 1%.
	tail := whole[SampleRate/20:]
	var sum, power float64
	for _, v := range tail {
		sum += float64(v)
		power += float64(v) * float64(v)
	}
	mean := sum / float64(len(tail))
	rms := math.Sqrt(power/float64(len(tail)) - mean*mean)
	if math.Abs(mean) > 0.002 {
		t.Errorf("offset left: %.4f (was %.2f)", mean, offset)
	}
	if want := amp / math.Sqrt2; math.Abs(rms-want) > 0.01*want {
		t.Errorf("a %.0f Hz tone's level %.4f after the filter, want %.4f", hz, rms, want)
	}
	// Audio that starts away from zero does not start with a click.
	if math.Abs(float64(whole[0])) > 1e-6 {
		t.Errorf("first sample %v; want 0", whole[0])
	}
}

// TestDCBlockerSurvivesABrokenSample: a sample that is not a number (a broken driver) is
// silence to the filter; what follows is heard as before, not NaN from then on.
func TestDCBlockerSurvivesABrokenSample(t *testing.T) {
	for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		var d DCBlocker
		x := make([]float32, SampleRate/10)
		for i := range x {
			x[i] = float32(0.2 + 0.3*math.Sin(2*math.Pi*300*float64(i)/SampleRate))
		}
		first := append([]float32{bad}, x[:10]...)
		x[len(x)/2] = bad
		d.Filter(first)
		d.Filter(x)
		for i, v := range append(first, x...) {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) || math.Abs(float64(v)) > 2 {
				t.Fatalf("%v in the input: sample %d came out as %v", bad, i, v)
			}
		}
	}
}
