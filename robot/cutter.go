package robot

import (
	"time"

	"github.com/reachy-broker/reachy-broker/speech"
)

// cutter turns the microphone's stream into utterances: the VAD's segments, with their
// pre-roll, and stretches of sound that never pause cut 2 s past the longest upload. All
// positions are in samples of the whole stream. Not safe for concurrent use.
type cutter struct {
	dc       speech.DCBlocker // the microphone's offset comes out before anything hears it
	vad      *speech.VAD
	vadStart int       // the stream position of the detector's first sample
	buf      []float32 // samples since bufStart: the open stretch and one second before it
	bufStart int
	max      int // the longest upload (MaxUtter)
	// reachBack is where the next utterance may start from, after one in which nobody
	// addressed the robot: a phrase split across the two (by a forced cut, or by the VAD
	// taking a weak syllable in noise for a pause) is whole in the next one. -1 when there is
	// none. lastEnd is where the utterance before ended.
	reachBack, lastEnd int
	inSpeech           bool
	closed             []speech.Segment // closed by feed, not yet drained
}

// utterance is a stretch of the stream: its samples (valid only during the callback) and
// its positions.
type utterance struct {
	samples    []float32
	start, end int
}

// heard is called for each utterance; it reports whether the utterance was addressed.
type heard func(u utterance) bool

// forcedCutMargin: speech still going on this long past the longest upload is cut.
const forcedCutMargin = 2 * speech.SampleRate

// reachBackLimit: only an utterance that starts this soon after the one before reaches back.
// reachBackSpan: it reaches back into a forced cut this far, and into a VAD segment only when
// the whole segment is this short (a phrase's first syllables), so that what the spotter
// hears starts where the VAD heard speech start and the begin-speech check sees what came
// before the phrase.
const (
	reachBackLimit = 2 * speech.SampleRate
	reachBackSpan  = speech.SampleRate
	// idleKeep is what the buffer keeps while nobody speaks: enough to reach back.
	idleKeep = reachBackLimit + reachBackSpan
)

func newCutter(maxSamples int) *cutter {
	return &cutter{vad: speech.NewVAD(speech.DefaultVAD()), max: maxSamples, reachBack: -1}
}

// feed reads a chunk of the microphone and reports whether speech started within it. The
// utterances it closed wait for drain.
func (c *cutter) feed(chunk []float32) (started bool) {
	n := len(c.buf)
	c.buf = append(c.buf, chunk...)
	c.dc.Filter(c.buf[n:]) // the VAD, the spotter and the upload all hear it without the offset
	c.closed = append(c.closed, c.vad.Write(c.buf[n:])...)
	started = c.vad.InSpeech() && !c.inSpeech
	c.inSpeech = c.vad.InSpeech()
	return started
}

// drain calls f for each utterance feed closed, and cuts speech that has gone on too long.
func (c *cutter) drain(f heard) {
	for _, seg := range c.closed {
		c.cut(seg, f)
	}
	c.closed = c.closed[:0]
	if c.vad.InSpeech() && len(c.buf) > c.max+forcedCutMargin {
		// Speech that never ends: cut what we have and keep listening.
		end := c.bufStart + len(c.buf)
		addressed := false
		for _, seg := range c.vad.Flush() {
			addressed = c.cut(seg, f)
		}
		// A fresh detector, so that the stretch can end; it counts from here.
		c.vad, c.vadStart, c.inSpeech = speech.NewVAD(speech.DefaultVAD()), end, false
		if !addressed {
			c.reachBack = max(c.bufStart, end-reachBackSpan) // a phrase across the cut
		}
	}
	// A quiet room: keep only what an utterance could still reach back to.
	if !c.vad.InSpeech() && len(c.buf) > idleKeep {
		drop := len(c.buf) - idleKeep
		c.buf = c.buf[drop:]
		c.bufStart += drop
	}
}

// flush closes what is open at the end of the stream.
func (c *cutter) flush(f heard) {
	for _, seg := range c.vad.Flush() {
		c.cut(seg, f)
	}
}

// cut hands one segment (in the detector's positions) to f, then keeps one second of the
// stream for the next utterance's pre-roll. When f says nobody addressed the robot and the
// segment was short, the next utterance, if it starts soon, reaches back to include it; when
// f says somebody did, it does not, so the same words are never uploaded twice.
func (c *cutter) cut(seg speech.Segment, f heard) bool {
	start, end := seg.Start+c.vadStart, seg.End+c.vadStart
	if c.reachBack >= 0 && start-c.lastEnd <= reachBackLimit {
		start = min(start, c.reachBack)
	}
	c.reachBack = -1
	from, to := max(start-c.bufStart, 0), min(end-c.bufStart, len(c.buf))
	addressed := false
	if to > from {
		addressed = f(utterance{samples: c.buf[from:to], start: c.bufStart + from, end: c.bufStart + to})
	}
	c.lastEnd = end
	if !addressed && end-(c.bufStart+from) <= reachBackSpan {
		c.reachBack = c.bufStart + from
	}
	if keep := speech.SampleRate; len(c.buf) > keep {
		drop := len(c.buf) - keep
		c.buf = c.buf[drop:]
		c.bufStart += drop
	}
	return addressed
}

// EachUtterance cuts a recording into the utterances the hub's listening loop would hand to
// its wake gate, in order (maxUtter as the hub's max_utterance), and calls f with each; f
// reports whether the utterance was addressed, which decides whether the next one reaches
// back into it. `reachyctl wake test` runs it, so that it shows what the hub would do. The
// samples are valid only during the call.
func EachUtterance(samples []float32, maxUtter time.Duration, f func(u []float32, start int) (addressed bool)) {
	c := newCutter(int(maxUtter.Seconds() * speech.SampleRate))
	each := func(u utterance) bool { return f(u.samples, u.start) }
	const chunk = speech.SampleRate / 50 // 20 ms, as a microphone delivers it
	for i := 0; i < len(samples); i += chunk {
		c.feed(samples[i:min(i+chunk, len(samples))])
		c.drain(each)
	}
	c.flush(each)
}
