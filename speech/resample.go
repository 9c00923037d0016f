package speech

import (
	"fmt"
	"math"
)

// Resampler design: a Kaiser-windowed sinc low-pass evaluated as a rational L/M polyphase
// filter. The pass band ends at 75% and the stop band starts at 87.5% of the lower of the two
// Nyquist frequencies, with about 70 dB of stop-band rejection: going 48 kHz -> 16 kHz keeps
// speech up to 6 kHz intact and removes everything from 7 kHz up, so nothing folds back.
const (
	passEdge    = 0.75
	stopEdge    = 0.875
	stopBandDB  = 70.0
	maxPhaseLen = 4096 // guards the filter table size for odd rate pairs
)

// Resample converts mono samples from rate in to rate out. Equal rates return a copy.
func Resample(x []float32, in, out int) ([]float32, error) {
	if in <= 0 || out <= 0 {
		return nil, fmt.Errorf("resample: rates must be positive (%d -> %d)", in, out)
	}
	if in == out {
		return append([]float32(nil), x...), nil
	}
	g := gcd(in, out)
	up, down := out/g, in/g
	if up > maxPhaseLen {
		return nil, unsupported("cannot resample %d Hz to %d Hz", in, out)
	}
	f := newPolyphase(in, out, up, down)
	return f.run(x), nil
}

type polyphase struct {
	up, down int
	half     int         // taps each side of the centre, in input samples
	phases   [][]float32 // phases[p][k]: weight of input sample (centre - half + k) for phase p
}

func newPolyphase(in, out, up, down int) *polyphase {
	nyq := math.Min(float64(in), float64(out)) / 2
	cutoff := nyq * (passEdge + stopEdge) / 2 // Hz, middle of the transition band
	width := nyq * (stopEdge - passEdge)      // Hz
	// Kaiser's formulas for the length and the window shape.
	n := (stopBandDB - 8) / (2.285 * 2 * math.Pi * width / float64(in))
	half := int(math.Ceil(n / 2))
	beta := 0.1102 * (stopBandDB - 8.7)
	fc := cutoff / float64(in) // cycles per input sample
	norm := besselI0(beta)

	p := &polyphase{up: up, down: down, half: half, phases: make([][]float32, up)}
	for ph := 0; ph < up; ph++ {
		frac := float64(ph) / float64(up) // output position lies frac input samples after the centre tap
		taps := make([]float32, 2*half+1)
		var sum float64
		for k := range taps {
			t := float64(k-half) - frac
			w := 0.0
			if r := t / float64(half+1); r > -1 && r < 1 {
				w = besselI0(beta*math.Sqrt(1-r*r)) / norm
			}
			v := 2 * fc * sinc(2*fc*t) * w
			taps[k] = float32(v)
			sum += v
		}
		for k := range taps { // unity gain at DC for every phase
			taps[k] = float32(float64(taps[k]) / sum)
		}
		p.phases[ph] = taps
	}
	return p
}

func (p *polyphase) run(x []float32) []float32 {
	nOut := int((int64(len(x))*int64(p.up) + int64(p.down) - 1) / int64(p.down))
	y := make([]float32, nOut)
	for n := range y {
		pos := int64(n) * int64(p.down) // in units of 1/up input samples
		centre := int(pos / int64(p.up))
		taps := p.phases[int(pos%int64(p.up))]
		start := centre - p.half
		var acc float32
		for k, w := range taps {
			i := start + k
			if i < 0 || i >= len(x) {
				continue
			}
			acc += w * x[i]
		}
		y[n] = acc
	}
	return y
}

func sinc(x float64) float64 {
	if x == 0 {
		return 1
	}
	return math.Sin(math.Pi*x) / (math.Pi * x)
}

// besselI0 is the zeroth-order modified Bessel function of the first kind, by its series.
func besselI0(x float64) float64 {
	sum, term := 1.0, 1.0
	for k := 1; k < 64; k++ {
		term *= (x / (2 * float64(k))) * (x / (2 * float64(k)))
		sum += term
		if term < sum*1e-12 {
			break
		}
	}
	return sum
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
