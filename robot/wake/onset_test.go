package wake

import (
	"context"
	"math"
	"testing"
	"time"
)

// TestALouderVoiceStartsOneTalkerDoesNot: over a television reading on 10 dB below them,
// someone starting to speak to the robot is a new voice; inside one talker's own long
// speech no point is, so a look-alike late in it stays refused.
func TestALouderVoiceStartsOneTalkerDoesNot(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	set := FullEvalSet()
	tv, err := synth(ctx, Voice{"en-gb-x-rp+m2", 165, 45}, set.Long[0])
	if err != nil {
		t.Fatal(err)
	}
	var s onsetScratch
	levels := append([]float64(nil), s.frameLevels(tv)...)
	starts := 0
	points := 0
	for at := 2 * SampleRate; at+SampleRate < len(tv); at += SampleRate / 10 {
		points++
		if s.startsAVoice(levels, at) {
			starts++
		}
	}
	if points < 100 || starts > 0 {
		t.Errorf("one talker's own speech: a new voice starts at %d of %d points", starts, points)
	}

	voice, err := synth(ctx, set.Voices[0], set.Phrase+", what time is it")
	if err != nil {
		t.Fatal(err)
	}
	at := 6 * SampleRate
	room := mix(append(make([]float32, at), voice...), tv, 10, 0) // the TV 10 dB under the voice
	levels = s.frameLevels(room)
	// Where the phrase's own alignment starts varies by a few tens of ms either way.
	for _, d := range []time.Duration{-50 * time.Millisecond, 0, 100 * time.Millisecond, 300 * time.Millisecond} {
		p := at + int(d.Seconds()*SampleRate)
		if !s.startsAVoice(levels, p) {
			t.Errorf("someone speaking 10 dB over the TV: no new voice found %v from where they start", d)
		}
	}
	if s.startsAVoice(levels, 4*SampleRate) {
		t.Error("the TV alone, 2 s before anyone speaks: found a new voice")
	}
	if s.startsAVoice(levels, at/2) || s.startsAVoice(levels, 0) || math.IsNaN(levels[0]) {
		t.Error("the start of the audio has no room before it to compare with")
	}
}
