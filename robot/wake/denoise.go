package wake

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/dsp/fourier"
)

// The denoiser takes steady background noise (a fan, an air conditioner, the hum of a road)
// out of a copy of an utterance for a second listen (Sphinx.Spot). The engine's own noise
// removal works on a few broad bands; recorded voices in pink noise at 10 dB, which spread
// their consonants under the noise, scored below any usable threshold with it alone (flite's
// voices: 22 of 88 phrases heard). The upload never gets the denoised copy: whisper hears what
// the microphone heard.
//
// It is a short-time Wiener filter: 32 ms frames, half overlapping, under square-root Hann
// windows, so that with no noise the frames add back to the input exactly. The noise of each
// frequency is what its quietest tenth of the utterance's frames hold (a speaker pauses,
// consonants leave most frequencies quiet), and each frame's gain follows the decision-directed
// estimate of its signal-to-noise ratio (Ephraim and Malah), which keeps the leftover noise
// from warbling. A gain never falls below denoiseFloorGain, so a voice under the noise is
// attenuated, never cut.
//
// Why a second listen and not the only one: on espeak-ng's formant voices, which stay clear
// of pink noise, the denoised copy scored the phrase lower than the raw one, and under other
// voices (babble, a TV) the filter takes pieces of the phrase for noise. And the denoised copy
// lets look-alikes in ordinary speech score higher too (flite's voices, "activate living room
// lights" in brown noise: 2 false accepts in 3.45 h became 7 at the same threshold), so a spot
// there needs denoisedMargin more. Measured on both generated sets (docs/security.md).
const (
	denoiseFrame = 512 // samples, 32 ms
	denoiseHop   = denoiseFrame / 2
	// denoiseQuantile of a frequency's frame powers, divided by the same quantile of an
	// exponential distribution (what one frequency of steady noise follows), estimates its
	// mean noise power.
	denoiseQuantile = 0.1
	// denoiseSmoothing weighs the last frame's cleaned power in the decision-directed estimate.
	denoiseSmoothing = 0.98
	// denoiseFloorGain is the least a frequency is passed: -20 dB.
	denoiseFloorGain = 0.1
	// denoisedMargin is what a spot in the denoised copy needs over the threshold (decimal log
	// per phone): the least at which flite's voices had no more false accepts in ordinary
	// speech with the second listen than without it (2 in 3.45 h; at +2: 3).
	denoisedMargin = 2.5
	// The second listen runs only where the background is steady and close under the voice:
	// the quietest frames (5th to 30th percentile of 32 ms levels) within steadyWithinDB of
	// each other, where a fan or pink noise measured 1-4 dB and other voices 5 dB or more (a
	// TV, one voice, 20 dB or more); and the loud frames (90th percentile) less than
	// closeWithinDB over the quiet ones (10th), where the voice is 10 dB over the noise (13 dB
	// measured) but not where it is 20 dB over it (22 dB) or in a quiet room.
	steadyWithinDB = 4.0
	closeWithinDB  = 20.0
)

// denoiser holds the transform and its scratch; one per engine, not safe for concurrent use.
// It keeps one frame's spectrum, not the utterance's: each frame is transformed twice, once
// to estimate the noise and once to filter it, because the spectra of the longest stretch the
// spotter hears (14 s) would hold 3.6 MB for the life of the hub, twice that to the collector;
// the frames' powers, which it does keep, take half that.
type denoiser struct {
	fft    *fourier.FFT
	window []float64
	frame  []float64
	spec   []complex128
	powers []float64 // the frames' powers, one frequency after another
	noise  []float64
	prev   []float64 // last frame's cleaned power per frequency
	carry  []float64 // the last frame's second half, overlap-added into the next
	levels []float64 // frame levels, dB (steadyNoiseUnderVoice)
}

func newDenoiser() *denoiser {
	bins := denoiseFrame/2 + 1
	d := &denoiser{fft: fourier.NewFFT(denoiseFrame), window: make([]float64, denoiseFrame),
		frame: make([]float64, denoiseFrame), spec: make([]complex128, bins),
		noise: make([]float64, bins), prev: make([]float64, bins), carry: make([]float64, denoiseHop)}
	for i := range d.window {
		d.window[i] = math.Sqrt(0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/denoiseFrame))
	}
	return d
}

// apply writes x with its steady noise removed into dst (reused) and returns it. An utterance
// shorter than a few frames comes back as it is; a frequency with nothing in its quietest
// tenth of the frames (digital silence) is passed untouched, so generated audio with pauses
// comes back as it was, but for rounding.
func (d *denoiser) apply(dst, x []float32) []float32 {
	dst = append(dst[:0], x...)
	// Frames start one hop before the audio so that every sample lies under two of them; the
	// noise is estimated from the frames that lie wholly inside it.
	frames := (len(x)+denoiseHop-1)/denoiseHop + 1
	inside := (len(x)-denoiseFrame)/denoiseHop + 1
	if inside < 8 {
		return dst
	}
	bins := len(d.spec)
	if cap(d.powers) < bins*inside {
		d.powers = make([]float64, bins*inside)
	}
	powers := d.powers[:bins*inside]
	for f := 1; f <= inside; f++ { // frame f starts at sample (f-1)*hop
		d.transform(x, f)
		for b, c := range d.spec {
			powers[b*inside+f-1] = power(c)
		}
	}
	bias := -math.Log(1 - denoiseQuantile)
	for b := range d.noise {
		p := powers[b*inside : (b+1)*inside]
		slices.Sort(p)
		d.noise[b] = p[int(denoiseQuantile*float64(inside-1))] / bias
	}
	clear(d.carry)
	for f := 0; f < frames; f++ {
		d.transform(x, f)
		for b, c := range d.spec {
			n := d.noise[b]
			if n <= 0 {
				continue // digital silence in this frequency: nothing to take out
			}
			p := power(c)
			post := max(p/n-1, 0)
			prior := post
			if f > 0 {
				prior = denoiseSmoothing*d.prev[b]/n + (1-denoiseSmoothing)*post
			}
			g := max(prior/(1+prior), denoiseFloorGain)
			d.spec[b] = c * complex(g, 0)
			d.prev[b] = g * g * p
		}
		d.frame = d.fft.Sequence(d.frame, d.spec)
		// The frame's first half completes the samples the last frame's second half began.
		at := (f - 1) * denoiseHop
		for i := range denoiseHop {
			if j := at + i; j >= 0 && j < len(dst) {
				dst[j] = float32(d.carry[i] + d.frame[i]/denoiseFrame*d.window[i])
			}
		}
		for i := denoiseHop; i < denoiseFrame; i++ {
			d.carry[i-denoiseHop] = d.frame[i] / denoiseFrame * d.window[i]
		}
	}
	return dst
}

// transform puts the spectrum of frame f (starting at sample (f-1)*hop, windowed, zero
// outside x) into d.spec.
func (d *denoiser) transform(x []float32, f int) {
	at := f*denoiseHop - denoiseHop
	for i := range d.frame {
		v := 0.0
		if j := at + i; j >= 0 && j < len(x) {
			v = float64(x[j])
		}
		d.frame[i] = v * d.window[i]
	}
	d.spec = d.fft.Coefficients(d.spec, d.frame)
}

// steadyNoiseUnderVoice says whether x has a steady background close under its voice, the
// only kind of noise the denoiser is for.
func (d *denoiser) steadyNoiseUnderVoice(x []float32) bool {
	d.levels = appendLevels(d.levels[:0], x, denoiseFrame, denoiseHop, 1e-12)
	if len(d.levels) < 8 {
		return false
	}
	slices.Sort(d.levels)
	at := func(q float64) float64 { return d.levels[int(q*float64(len(d.levels)-1))] }
	return at(0.3)-at(0.05) < steadyWithinDB && at(0.9)-at(0.1) < closeWithinDB
}

func power(c complex128) float64 { return real(c)*real(c) + imag(c)*imag(c) }
