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

	voice, err := synth(ctx, set.Voices[0], SayAs(SynthOf(set.Voices[0].Name), set.Phrase)+", what time is it")
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

// TestAPhraseMustBeginSpeech: commands to the home that contain a look-alike of "hey reachy"
// in their middle ("activate each light": a-cti-VATE EACH; "temperature") made the engine
// fire in ordinary talk, more in low noise than in silence. Said to the robot, the phrase
// begins a stretch of speech; in those sentences the words before it are as loud as it is.
// On eight voices, clean and in brown noise at 20 and 10 dB, the check refuses at least
// three quarters of the look-alikes the engine accepts without it (at sensitivity 0.6, 24 of
// 96 to 2, measured), and loses no phrase said in front of the same sentences.
func TestAPhraseMustBeginSpeech(t *testing.T) {
	if raceEnabled {
		t.Skip("C decoding has nothing for the race detector")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	set := FullEvalSet()
	lookAlikes := []string{"activate each light", "deactivate each light", "what is the living room temperature?",
		"what's the office thermostat temperature?"}
	set.Commands, set.Overheard = lookAlikes, lookAlikes
	set.Household, set.NearMiss, set.Long = nil, nil, nil
	set.Noises, set.SNRs = []string{"brown"}, []int{20, 10}
	dir := t.TempDir()
	clips, err := set.Generate(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	// At the default sensitivity the engine accepts few of these (6 of 96) even without the
	// check; at 0.6 (a threshold of 8 per phone, the default before the engine scored 32
	// Gaussians) it accepts enough to measure what the check refuses.
	s, err := NewSphinx(Options{Phrases: []string{"hey reachy"}, Sensitivity: 0.6})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Each clip decoded once, decided with and without the check.
	type tally struct{ with, without, total int }
	var heard, lookAlike tally
	var accepted []string
	for _, c := range clips {
		x, err := readClip(dir, c)
		if err != nil {
			t.Fatal(err)
		}
		spots, err := s.spots(ctx, x, false)
		if err != nil {
			t.Fatal(err)
		}
		around := &surroundings{scratch: &s.onset, samples: x}
		_, with := s.rule.decide(spots, around)
		_, without := s.rule.decide(spots, voiceStartsOnly{around})
		n := &lookAlike
		if c.Positive {
			n = &heard
		} else if with {
			accepted = append(accepted, c.File)
		}
		n.total++
		n.with += b2i(with)
		n.without += b2i(without)
	}
	t.Logf("look-alikes accepted: %d of %d without the check, %d with it %v; phrases heard: %d of %d without, %d with",
		lookAlike.without, lookAlike.total, lookAlike.with, accepted, heard.without, heard.total, heard.with)
	if lookAlike.without < 6 {
		t.Fatalf("the engine accepted only %d look-alikes without the check; the test needs some to refuse", lookAlike.without)
	}
	if lookAlike.with*4 > lookAlike.without {
		t.Errorf("look-alikes accepted: %d with the check, %d without; want at most a quarter", lookAlike.with, lookAlike.without)
	}
	if heard.with < heard.without || heard.without < heard.total*9/10 {
		t.Errorf("phrases heard: %d of %d with the check, %d without", heard.with, heard.total, heard.without)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// voiceStartsOnly answers the rule without the check that a phrase begins speech.
type voiceStartsOnly struct{ *surroundings }

func (voiceStartsOnly) continuesSpeech(int) bool { return false }

// TestWordsJustBeforeAPhraseAreHeard: the check reads the 0.35 to 0.1 s before a spot. Speech
// there as loud as the phrase means it runs on; silence, a quieter room, or the start of the
// audio mean it begins.
func TestWordsJustBeforeAPhraseAreHeard(t *testing.T) {
	const phraseDB, at = -12.0, 100 // the phrase starts at frame 100 (1 s)
	levels := func(before float64, from int) []float64 {
		l := make([]float64, 200)
		for i := range l {
			switch {
			case i >= at:
				l[i] = phraseDB - float64(i%3) // syllables
			case i >= from:
				l[i] = before
			default:
				l[i] = -90
			}
		}
		return l
	}
	var s onsetScratch
	start := at * onsetFrame
	for _, c := range []struct {
		name   string
		levels []float64
		want   bool
	}{
		{"words as loud, up to the phrase", levels(phraseDB, 0), true},
		{"words louder, ending 0.15 s before", append(levels(-6, 0)[:85], levels(-90, 0)[85:]...), true},
		{"a pause of 0.4 s after the words", append(levels(phraseDB, 0)[:60], levels(-90, 0)[60:]...), false},
		{"a room 6 dB quieter", levels(phraseDB-6, 0), false},
		{"silence", levels(-90, 0), false},
	} {
		if got := s.continuesSpeech(c.levels, start); got != c.want {
			t.Errorf("%s: runs on = %v, want %v", c.name, got, c.want)
		}
	}
	if s.continuesSpeech(levels(phraseDB, 0), 5*onsetFrame) {
		t.Error("a phrase at the very start of the audio: nothing before it, yet it runs on")
	}
	if s.continuesSpeech(levels(phraseDB, 0)[:at+2], start) != true {
		t.Error("the audio ending just after the spot's start: the check must still read what it has")
	}
}
