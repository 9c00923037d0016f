package play

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/reachy-broker/reachy-broker/speech"
)

// Tune synthesizes the freeze-dance music: a bouncy melody over a bass line in C major, made
// here from sine and triangle waves (no recorded audio), length long, at speech.SampleRate.
// The same seed makes the same tune.
func Tune(seed uint64, length time.Duration) []float32 {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	n := int(length.Seconds() * speech.SampleRate)
	out := make([]float32, n)
	const beat = speech.SampleRate / 4 // 240 bpm eighths: quick and bouncy
	scale := []float64{0, 2, 4, 5, 7, 9, 11, 12}
	bass := []float64{-12, -5, -8, -3} // C, G, A, F below middle C, a bar each
	deg := 0
	for start := 0; start < n; start += beat {
		deg = min(max(deg+r.IntN(5)-2, 0), len(scale)-1)
		melody := 261.63 * math.Pow(2, scale[deg]/12)
		bar := (start / (beat * 8)) % len(bass)
		root := 261.63 * math.Pow(2, bass[bar]/12)
		for i := 0; i < beat && start+i < n; i++ {
			t := float64(i) / speech.SampleRate
			env := math.Exp(-6*t) * math.Min(1, float64(i)/80) // plucked, no click
			tri := 2/math.Pi*math.Asin(math.Sin(2*math.Pi*root*t)) - 0
			out[start+i] = float32(0.25*env*math.Sin(2*math.Pi*melody*t) + 0.12*tri)
		}
	}
	// Fade the last 30 ms so the stop is clean.
	fade := min(n, speech.SampleRate*3/100)
	for i := 0; i < fade; i++ {
		out[n-1-i] *= float32(i) / float32(fade)
	}
	return out
}
