package speech

import (
	"math"
	"time"
)

// VADConfig tunes the energy detector. The zero value is not useful; use DefaultVAD.
type VADConfig struct {
	Frame       time.Duration // analysis frame
	ThresholdDB float64       // how far above the noise floor a frame must be to count as speech
	MinLevelDB  float64       // absolute floor in dBFS below which nothing is speech
	MinSpeech   time.Duration // speech must last this long before a segment opens
	PreRoll     time.Duration // audio kept before the detected onset
	Hangover    time.Duration // silence tolerated inside a segment before it closes
	FloorAttack float64       // how fast the noise floor follows rising energy (0..1 per frame)
}

// DefaultVAD suits a living room: 20 ms frames, speech 9 dB over an adaptive floor.
func DefaultVAD() VADConfig {
	return VADConfig{
		Frame:       20 * time.Millisecond,
		ThresholdDB: 9,
		MinLevelDB:  -50,
		MinSpeech:   60 * time.Millisecond,
		PreRoll:     200 * time.Millisecond,
		Hangover:    300 * time.Millisecond,
		FloorAttack: 0.02,
	}
}

// Segment is a span of speech in samples at SampleRate, [Start, End).
type Segment struct {
	Start, End int
}

// Duration of the segment.
func (s Segment) Duration() time.Duration {
	return time.Duration(s.End-s.Start) * time.Second / SampleRate
}

// VAD is a streaming energy detector with an adaptive noise floor. Feed it audio in any
// chunk sizes; it reports segments as they close. Not safe for concurrent use.
type VAD struct {
	cfg                   VADConfig
	frameLen              int
	pending               []float32
	pos                   int     // samples consumed into whole frames
	floor                 float64 // noise power estimate
	primed                bool
	run, quiet            int // consecutive speech / non-speech frames
	inSpeech              bool
	start                 int
	minFrames, hangFrames int
	preRollSamples        int
}

// NewVAD returns a detector for 16 kHz mono audio.
func NewVAD(cfg VADConfig) *VAD {
	fl := int(cfg.Frame * SampleRate / time.Second)
	if fl <= 0 {
		fl = SampleRate / 50
	}
	frames := func(d time.Duration) int {
		n := int(math.Ceil(float64(d) / float64(cfg.Frame)))
		if n < 1 {
			n = 1
		}
		return n
	}
	return &VAD{
		cfg:            cfg,
		frameLen:       fl,
		minFrames:      frames(cfg.MinSpeech),
		hangFrames:     frames(cfg.Hangover),
		preRollSamples: int(cfg.PreRoll * SampleRate / time.Second),
	}
}

// InSpeech reports whether a segment is open.
func (v *VAD) InSpeech() bool { return v.inSpeech }

// Write feeds samples and returns the segments that closed within them. Whole frames are
// read in place; only a frame's worth of remainder is kept between calls.
func (v *VAD) Write(samples []float32) []Segment {
	var done []Segment
	step := func(f []float32) {
		if seg, ok := v.frame(f); ok {
			done = append(done, seg)
		}
		v.pos += v.frameLen
	}
	if len(v.pending) > 0 {
		need := v.frameLen - len(v.pending)
		if len(samples) < need {
			v.pending = append(v.pending, samples...)
			return nil
		}
		v.pending = append(v.pending, samples[:need]...)
		samples = samples[need:]
		step(v.pending)
		v.pending = v.pending[:0]
	}
	for len(samples) >= v.frameLen {
		step(samples[:v.frameLen])
		samples = samples[v.frameLen:]
	}
	v.pending = append(v.pending, samples...)
	return done
}

// Flush closes an open segment at the end of the stream.
func (v *VAD) Flush() []Segment {
	if !v.inSpeech {
		return nil
	}
	v.inSpeech = false
	return []Segment{{Start: v.start, End: v.pos + len(v.pending)}}
}

func (v *VAD) frame(f []float32) (Segment, bool) {
	var p float64
	for _, s := range f {
		p += float64(s) * float64(s)
	}
	p /= float64(len(f))
	const eps = 1e-10
	if !v.primed {
		v.floor, v.primed = p+eps, true
	}
	db := 10 * math.Log10(p+eps)
	speech := db > v.cfg.MinLevelDB && db > 10*math.Log10(v.floor)+v.cfg.ThresholdDB

	// The floor drops at once to quieter frames and creeps up slowly, and never learns from
	// frames while a segment is open, so a long sentence does not raise it.
	if p < v.floor {
		v.floor = p + eps
	} else if !v.inSpeech && !speech {
		v.floor += v.cfg.FloorAttack * (p - v.floor)
	} else if !v.inSpeech {
		v.floor += v.cfg.FloorAttack * 0.1 * (p - v.floor)
	}

	frameStart := v.pos
	if speech {
		v.run++
		v.quiet = 0
		if !v.inSpeech && v.run >= v.minFrames {
			v.inSpeech = true
			onset := frameStart - (v.run-1)*v.frameLen
			v.start = max(0, onset-v.preRollSamples)
		}
		return Segment{}, false
	}
	v.run = 0
	if !v.inSpeech {
		return Segment{}, false
	}
	v.quiet++
	if v.quiet >= v.hangFrames {
		v.inSpeech = false
		v.quiet = 0
		return Segment{Start: v.start, End: frameStart + v.frameLen}, true
	}
	return Segment{}, false
}

// DetectSpeech runs a fresh detector over a whole clip and returns its speech segments.
// The broker uses it as the no-speech guard before whisper.
func DetectSpeech(samples []float32, cfg VADConfig) []Segment {
	v := NewVAD(cfg)
	segs := v.Write(samples)
	return append(segs, v.Flush()...)
}
