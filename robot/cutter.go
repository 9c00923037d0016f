package robot

import "github.com/reachy-broker/reachy-broker/speech"

// cutter turns the microphone's stream into utterances: the VAD's segments, with their
// pre-roll, and stretches of sound that never pause cut 2 s past the longest upload. All
// positions are in samples of the whole stream. Not safe for concurrent use.
type cutter struct {
	vad      *speech.VAD
	vadStart int       // the stream position of the detector's first sample
	buf      []float32 // samples since bufStart: the open stretch and one second before it
	bufStart int
	max      int // the longest upload (MaxUtter)
	// reachBack is where the next utterance may start from, after a forced cut in which
	// nobody addressed the robot: a phrase said across the cut is whole in the next one.
	// -1 when there is none.
	reachBack int
	inSpeech  bool
	closed    []speech.Segment // closed by feed, not yet drained
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

// reachBackLimit: only an utterance that starts this soon after a forced cut reaches back.
const reachBackLimit = 2 * speech.SampleRate

func newCutter(maxSamples int) *cutter {
	return &cutter{vad: speech.NewVAD(speech.DefaultVAD()), max: maxSamples, reachBack: -1}
}

// feed reads a chunk of the microphone and reports whether speech started within it. The
// utterances it closed wait for drain.
func (c *cutter) feed(chunk []float32) (started bool) {
	c.buf = append(c.buf, chunk...)
	c.closed = append(c.closed, c.vad.Write(chunk)...)
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
			c.reachBack = c.bufStart // cut kept the last second
		}
	}
}

// flush closes what is open at the end of the stream.
func (c *cutter) flush(f heard) {
	for _, seg := range c.vad.Flush() {
		c.cut(seg, f)
	}
}

// cut hands one segment (in the detector's positions) to f, then keeps one second of the
// stream for the next utterance's pre-roll.
func (c *cutter) cut(seg speech.Segment, f heard) bool {
	start, end := seg.Start+c.vadStart, seg.End+c.vadStart
	if c.reachBack >= 0 && start-c.vadStart <= reachBackLimit {
		start = min(start, c.reachBack)
	}
	c.reachBack = -1
	from, to := max(start-c.bufStart, 0), min(end-c.bufStart, len(c.buf))
	addressed := false
	if to > from {
		addressed = f(utterance{samples: c.buf[from:to], start: c.bufStart + from, end: c.bufStart + to})
	}
	if keep := speech.SampleRate; len(c.buf) > keep {
		drop := len(c.buf) - keep
		c.buf = c.buf[drop:]
		c.bufStart += drop
	}
	return addressed
}
