package speech

import "math"

// DCBlocker takes a constant offset (and drift below about 13 Hz) out of a stream of audio.
// Some microphones and sound cards deliver their samples around a level other than zero.
// An energy detector counts that offset as sound, so it can hide speech from it entirely: an
// offset of a tenth of full scale sits 20 dB over a quiet room, and a voice at -22 dBFS
// never rises the 9 dB above it that the VAD asks. The filter is the one-pole high-pass
// y[n] = x[n] - x[n-1] + r*y[n-1]; nothing a voice says lies that low. The zero value is
// ready; a DCBlocker carries its state from one chunk to the next and is not safe for
// concurrent use.
type DCBlocker struct {
	prevIn, prevOut float32
	started         bool
}

// dcPole sets the cut-off: (1-r)*SampleRate/(2π) ≈ 12.7 Hz at 16 kHz, and an offset decays to
// 1/e in 1/(1-r) = 200 samples (12.5 ms).
const dcPole = 0.995

// Filter removes the offset from x in place. The first sample it ever sees is taken as the
// offset to start from, so audio that begins away from zero does not start with a click. A
// sample that is not a finite number (a broken driver) is taken as silence: the filter
// remembers what it saw, and one NaN would otherwise make everything after it NaN.
func (d *DCBlocker) Filter(x []float32) {
	if len(x) == 0 {
		return
	}
	if !d.started {
		d.prevIn, d.started = x[0], true
		if math.IsNaN(float64(x[0])) || math.IsInf(float64(x[0]), 0) {
			d.prevIn = 0
		}
	}
	for i, v := range x {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			v = 0
		}
		y := v - d.prevIn + dcPole*d.prevOut
		d.prevIn, d.prevOut = v, y
		x[i] = y
	}
}

// RemoveDC takes the offset out of a whole clip in place.
func RemoveDC(x []float32) {
	var d DCBlocker
	d.Filter(x)
}
