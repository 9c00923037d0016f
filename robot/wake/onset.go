package wake

import (
	"math"
	"slices"
)

// A phrase spotted deep inside a stretch of speech is refused (maxPhraseStart), because
// people address the robot first. With a television or other people talking in the room, the
// microphone's stretch of speech began with them, long before someone in front of the robot
// said "hey reachy"; for that person the phrase still comes first. What marks it is a step
// in loudness: the person near the robot is louder than the room behind them. One talker's
// own speech rises and falls syllable by syllable but keeps its level from one second to the
// next, so a phrase spotted late in it still has no step in front of it and is still refused.
//
// The check compares the loud part of the half second from a point (the 90th percentile of
// its 10 ms levels: vowels, not the pauses and closures between them) with the loud part of
// the second and a half before it, at points around the spot's start.
const (
	onsetFrame  = SampleRate / 100     // 10 ms level frames
	onsetBefore = 3 * SampleRate / 2   // the room's level: 1.5 s before
	onsetAfter  = SampleRate / 2       // the new voice's level: 0.5 s after
	onsetEarly  = SampleRate / 2       // a spot's alignment may start this much after the step
	onsetLate   = 3 * SampleRate / 10  // or this much before it
	onsetStep   = SampleRate * 5 / 100 // points 50 ms apart
	// onsetRiseDB is how much louder the new voice must be. Each of the generated set's nine
	// espeak-ng voices reading its long passage, measured every 50 ms: a talker's own rise was
	// under 5.7 dB at 99% of points, 8.4 dB at most (one voice; the others at most 6.0). The
	// median level instead rose up to 11 dB: pauses pull it down. Someone speaking 10 dB over
	// the room rises about 10 dB.
	onsetRiseDB = 7.0
	onsetLoud   = 0.9 // the percentile that stands for a stretch's loud part
)

// Every spot has a second check, early or late in the utterance. Said to the robot, a phrase
// begins a stretch of speech: silence, the room's noise or quieter talk come just before it. A
// look-alike in ordinary talk is the middle of a sentence ("activate each light", "what is
// the living room temperature?"): the words just before it are as loud as it is. The check
// takes the loudest 10 ms frame from 0.35 to 0.1 s before the spot's start (the gap leaves
// room for the alignment starting a little late) and refuses the spot when that frame is at
// least as loud as the phrase's own loud part (onsetLoud of its first half second). Chosen
// on four of the eight voices of the generated set (make wake-eval) and measured on the
// other four: false accepts in ordinary speech 20 to 0 there, recall the same in every
// condition (docs/security.md).
const (
	leadFrom = 35 * onsetFrame // 0.35 s before the spot
	leadTo   = 10 * onsetFrame // to 0.1 s before it
)

// onsetScratch holds the check's buffers, reused between calls.
type onsetScratch struct{ levels, sorted []float64 }

// frameLevels fills s.levels with each 10 ms frame's level in dB (floored at -100).
func (s *onsetScratch) frameLevels(x []float32) []float64 {
	s.levels = appendLevels(s.levels[:0], x, onsetFrame, onsetFrame, 1e-10)
	return s.levels
}

// appendLevels appends the level in dB of each frame of x (frame samples, every hop) to dst;
// floor is the least mean power, so digital silence has a level.
func appendLevels(dst []float64, x []float32, frame, hop int, floor float64) []float64 {
	for at := 0; at+frame <= len(x); at += hop {
		var p float64
		for _, v := range x[at : at+frame] {
			p += float64(v) * float64(v)
		}
		dst = append(dst, 10*math.Log10(p/float64(frame)+floor))
	}
	return dst
}

// loud is the onsetLoud percentile of the levels l.
func (s *onsetScratch) loud(l []float64) float64 {
	s.sorted = append(s.sorted[:0], l...)
	slices.Sort(s.sorted)
	return s.sorted[int(onsetLoud*float64(len(s.sorted)-1))]
}

// startsAVoice reports whether the audio gets markedly louder where a spot starts (sample
// start): a voice over the room rather than the room's own talk. levels are x's frame
// levels (frameLevels).
func (s *onsetScratch) startsAVoice(levels []float64, start int) bool {
	before, after := onsetBefore/onsetFrame, onsetAfter/onsetFrame
	for p := start - onsetEarly; p <= start+onsetLate; p += onsetStep {
		f := p / onsetFrame
		if p < onsetBefore || f+after > len(levels) {
			continue
		}
		if s.loud(levels[f:f+after])-s.loud(levels[f-before:f]) >= onsetRiseDB {
			return true
		}
	}
	return false
}

// continuesSpeech reports whether the audio just before a spot (sample start) is as loud as
// the spot's own start: the phrase runs on from words said before it. Before the start of
// the audio there is nothing, so a spot at the very start of an utterance begins it.
func (s *onsetScratch) continuesSpeech(levels []float64, start int) bool {
	f := start / onsetFrame
	from, to := max(0, f-leadFrom/onsetFrame), max(0, f-leadTo/onsetFrame)
	end := min(len(levels), f+onsetAfter/onsetFrame)
	if to <= from || end <= f {
		return false
	}
	return slices.Max(levels[from:to]) >= s.loud(levels[f:end])
}

// surroundings answers the decision rule's questions about the loudness around a spot
// (rule.decide) from one utterance's levels, computed on the first question: most
// utterances have no spot to ask about.
type surroundings struct {
	scratch *onsetScratch
	samples []float32
	levels  []float64
}

func (a *surroundings) frameLevels() []float64 {
	if a.levels == nil {
		a.levels = a.scratch.frameLevels(a.samples)
	}
	return a.levels
}

func (a *surroundings) startsAVoice(at int) bool {
	return a.scratch.startsAVoice(a.frameLevels(), at)
}

func (a *surroundings) continuesSpeech(at int) bool {
	return a.scratch.continuesSpeech(a.frameLevels(), at)
}
