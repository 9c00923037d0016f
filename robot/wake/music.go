package wake

import (
	"math"
	"math/rand/v2"
)

// musicNoise makes seconds of music-like sound for the training set's noises: a melody and a
// bass line of plucked, harmonic notes from a pentatonic scale, a chord now and then, and a
// kick drum on the beat, all drawn from rng (the same seed makes the same music). It is no
// one's recording: the training set holds nothing that was not generated here.
func musicNoise(rng *rand.Rand, seconds int) []float32 {
	n := seconds * SampleRate
	out := make([]float64, n)
	scale := []float64{0, 2, 4, 7, 9, 12, 14, 16}
	note := func(at int, semis, dur, gain float64) {
		f := 220 * math.Pow(2, semis/12)
		length := int(dur * SampleRate)
		for i := 0; i < length && at+i < n; i++ {
			t := float64(i) / SampleRate
			env := math.Exp(-3*t/dur) * math.Min(1, t*200)
			v := 0.0
			for h := 1; h <= 5; h++ {
				v += math.Sin(2*math.Pi*f*float64(h)*t) / float64(h*h)
			}
			out[at+i] += gain * env * v
		}
	}
	beat := SampleRate / 2
	for at := 0; at < n; at += beat {
		// Kick drum: a falling sine burst.
		for i := 0; i < SampleRate/8 && at+i < n; i++ {
			t := float64(i) / SampleRate
			out[at+i] += 0.6 * math.Exp(-30*t) * math.Sin(2*math.Pi*(50+100*math.Exp(-40*t))*t)
		}
		note(at, scale[rng.IntN(4)]-24, 0.45, 0.5) // bass
		if rng.IntN(4) == 0 {
			root := scale[rng.IntN(len(scale))]
			for _, iv := range []float64{0, 4, 7} {
				note(at, root+iv-12, 0.9, 0.2)
			}
		}
		for k := 0; k < 2; k++ { // melody, two notes a beat
			if rng.IntN(5) > 0 {
				note(at+k*beat/2, scale[rng.IntN(len(scale))], 0.3+0.3*rng.Float64(), 0.35)
			}
		}
	}
	peak := 0.0
	for _, v := range out {
		peak = math.Max(peak, math.Abs(v))
	}
	x := make([]float32, n)
	for i, v := range out {
		x[i] = float32(0.5 * v / peak)
	}
	return x
}
