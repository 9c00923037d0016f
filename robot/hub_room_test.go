package robot

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/robot/wake"
	"github.com/reachy-broker/reachy-broker/speech"
)

// spoken is text said by an espeak-ng voice, at 16 kHz.
func spoken(t *testing.T, voice, text string) []float32 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := speech.Espeak{Voice: voice}.Synthesize(ctx, text)
	if err != nil {
		t.Fatal(err)
	}
	c, err := speech.DecodeWAV(b, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	return c.Samples
}

// defaultSpotter is the hub's spotter as a default config builds it (real PocketSphinx),
// closed when the test ends.
func defaultSpotter(t *testing.T) wake.Spotter {
	t.Helper()
	cfg := &Config{}
	cfg.Defaults()
	guard, err := NewWakeGuard(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { guard.Spotter.Close() })
	return guard.Spotter
}

// activeRMS is the level of a clip's sound, leaving its silences out.
func activeRMS(x []float32) float64 {
	var p float64
	n := 0
	for _, v := range x {
		if math.Abs(float64(v)) > 0.01 {
			p += float64(v) * float64(v)
			n++
		}
	}
	return math.Sqrt(p / float64(max(n, 1)))
}

// TestSomeoneSpeakingOverTheTVIsHeard: the television talks for 40 s without a pause long
// enough to close the microphone's stretch of speech; someone in the room says "hey reachy,
// what time is it" three times over it, 20 dB louder. Each time is uploaded, although the
// stretch began with the TV seconds before; the TV alone sends nothing.
func TestSomeoneSpeakingOverTheTVIsHeard(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 80 s of audio")
	}
	spotter := defaultSpotter(t)
	tv := spoken(t, "en-gb", "Yesterday we drove to the coast with my sister and her two boys. The traffic was terrible "+
		"for the first hour, but after the bridge the roads were almost empty. We had lunch in a small cafe near the harbour, "+
		"walked along the beach until the tide came in, and the children collected shells and stones until their pockets were full. "+
		"The weather tomorrow will be cloudy with a chance of rain in the north and sunny spells in the south.")
	for len(tv) < 40*speech.SampleRate {
		tv = append(tv, tv...)
	}
	tv = tv[:40*speech.SampleRate]
	phrase := spoken(t, "en-us", "hey reechy, what time is it") // espeak-ng says "reachy" as "reeky"
	gain := float32(activeRMS(phrase) / activeRMS(tv) / 10)     // 20 dB under the person
	room := make([]float32, len(tv))
	for i, v := range tv {
		room[i] = v * gain
	}
	alone := append([]float32(nil), room...)
	for _, at := range []int{6, 17, 29} {
		for i, v := range phrase {
			room[at*speech.SampleRate+i] += v
		}
	}

	h, turns := gateHub(t, &memSource{x: alone}, spotter, []string{plainReply}, nil)
	if len(turns) != 0 {
		t.Errorf("the TV alone uploaded %d utterances (%+v)", len(turns), h.WakeStats())
	}
	h, turns = gateHub(t, &memSource{x: room}, spotter, []string{plainReply}, nil)
	if len(turns) != 3 {
		t.Fatalf("heard %d of the 3 times someone spoke over the TV (%+v)", len(turns), h.WakeStats())
	}
	for _, tn := range turns {
		if tn.Wake != WakePhrase {
			t.Errorf("turn %d left the robot for %q, want the phrase", tn.Index, tn.Wake)
		}
	}
}

// TestHubListensAfterSpeechThatNeverEnds: sound that never pauses (a TV, a vacuum cleaner)
// is cut at MaxUtter so that the hub keeps listening; what is said after it is still heard.
// (The detector that starts after the cut counts samples from zero; the hub once read its
// segments as positions in the whole stream and ignored every utterance after the first cut.)
func TestHubListensAfterSpeechThatNeverEnds(t *testing.T) {
	tone := func(x []float32, seconds float64, hz float64) []float32 {
		for k := 0; k < int(seconds*speech.SampleRate); k++ {
			x = append(x, float32(0.3*math.Sin(2*math.Pi*hz*float64(k)/speech.SampleRate)))
		}
		return x
	}
	quiet := func(x []float32, seconds float64) []float32 {
		return append(x, make([]float32, int(seconds*speech.SampleRate))...)
	}
	var x []float32
	x = quiet(x, 0.5)
	x = tone(x, 4.5, 200) // longer than MaxUtter and its 2 s margin: cut once
	x = quiet(x, 1)
	x = tone(x, 1, 300) // someone speaking afterwards
	x = quiet(x, 1)
	x = tone(x, 1, 400) // and again
	x = quiet(x, 1)
	_, turns := gateHub(t, &memSource{x: x}, &scriptedSpotter{}, []string{plainReply}, func(h *Hub) {
		h.Wake, h.MaxUtter = nil, 2*time.Second
	})
	if len(turns) != 3 {
		t.Fatalf("uploaded %d utterances, want 3: the cut sound and the two after it", len(turns))
	}
	if turns[0].Samples != 2*speech.SampleRate {
		t.Errorf("the sound that never ended went up as %d samples, want MaxUtter (%d)", turns[0].Samples, 2*speech.SampleRate)
	}
	for _, tn := range turns[1:] {
		if s := float64(tn.Samples) / speech.SampleRate; s < 1 || s > 2 {
			t.Errorf("an utterance after the cut went up as %.2f s, want its 1 s with pre-roll and hangover", s)
		}
	}
}

// markerSpotter "hears the phrase" where a 1 kHz tone stands out of the sound for at least
// half a second: a stand-in whose answer depends only on the audio it is given.
type markerSpotter struct{ seen []int } // lengths of the utterances it was given

func (m *markerSpotter) Spot(ctx context.Context, x []float32) (wake.Detection, bool, error) {
	m.seen = append(m.seen, len(x))
	const frame = speech.SampleRate / 50 // 20 ms: 1 kHz fits whole cycles
	run := 0
	for i := 0; i+frame <= len(x); i += frame {
		var re, im, p float64
		for k, v := range x[i : i+frame] {
			w := 2 * math.Pi * 1000 * float64(k) / speech.SampleRate
			re += float64(v) * math.Cos(w)
			im += float64(v) * math.Sin(w)
			p += float64(v) * float64(v)
		}
		if tone := 2 * (re*re + im*im) / frame; p > 0 && tone > 0.5*p {
			run++
		} else {
			run = 0
		}
		if run == 25 {
			start := i + frame - 25*frame
			return wake.Detection{Phrase: "hey reachy", Start: start, End: i + frame}, true, nil
		}
	}
	return wake.Detection{}, false, nil
}
func (m *markerSpotter) Close() error { return nil }

// TestPhraseEarlyInSoundThatNeverEndsIsHeard: a noise starts (a vacuum cleaner) and someone
// says the phrase over it at once; the stretch never pauses and is cut. The spotter hears
// the whole stretch, not only its last MaxUtter, and what goes up starts at the phrase.
func TestPhraseEarlyInSoundThatNeverEndsIsHeard(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float32, 5*speech.SampleRate)
	for i := speech.SampleRate / 2; i < len(x); i++ { // silence, then noise that never stops
		x[i] = float32(0.1 * rng.NormFloat64())
	}
	at := speech.SampleRate * 8 / 10
	for k := 0; k < speech.SampleRate*6/10; k++ { // the "phrase": 0.6 s from 0.8 s
		x[at+k] += float32(0.3 * math.Sin(2*math.Pi*1000*float64(k)/speech.SampleRate))
	}
	sp := &markerSpotter{}
	_, turns := gateHub(t, &memSource{x: x}, sp, []string{plainReply}, func(h *Hub) { h.MaxUtter = 2 * time.Second })
	if len(sp.seen) == 0 || sp.seen[0] < 3*speech.SampleRate {
		t.Fatalf("the spotter was given %v samples; want the whole stretch (over 3 s) first", sp.seen)
	}
	if len(turns) != 1 {
		t.Fatalf("uploaded %d utterances, want the one addressed", len(turns))
	}
	if turns[0].Samples != 2*speech.SampleRate {
		t.Errorf("uploaded %d samples, want MaxUtter (%d) from just before the phrase", turns[0].Samples, 2*speech.SampleRate)
	}
}

// TestPhraseAcrossACutIsHeard: the phrase is said just as a sound that never pauses reaches
// the cut, half before it and half after; the words after it start a new utterance, which
// reaches back a second so that the phrase is whole in it. Uploaded once — and a phrase
// wholly before the cut, heard there, is not heard again in the utterance after it.
func TestPhraseAcrossACutIsHeard(t *testing.T) {
	for _, c := range []struct {
		name         string
		phraseAt     float64
		wantSpotted2 bool // the utterance after the cut holds the phrase
	}{
		{"across the cut", 3.72, true},
		{"just before the cut", 3.2, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			x := make([]float32, 7*speech.SampleRate)
			for i := speech.SampleRate / 2; i < len(x); i++ {
				x[i] = float32(0.1 * rng.NormFloat64())
			}
			tone := func(from, seconds, hz, amp float64) {
				at := int(from * speech.SampleRate)
				for k := 0; k < int(seconds*speech.SampleRate); k++ {
					x[at+k] += float32(amp * math.Sin(2*math.Pi*hz*float64(k)/speech.SampleRate))
				}
			}
			// With MaxUtter 2 s the stretch that starts at 0.5 s is cut at 4.02 s (the first
			// read past 2 s beyond it, in the test microphone's 20 ms reads).
			tone(c.phraseAt, 0.6, 1000, 0.5) // the "phrase"
			tone(4.5, 0.8, 500, 0.5)         // the command after it
			sp := &markerSpotter{}
			_, turns := gateHub(t, &memSource{x: x}, sp, []string{plainReply}, func(h *Hub) { h.MaxUtter = 2 * time.Second })
			if len(turns) != 1 {
				t.Fatalf("uploaded %d utterances, want 1; the spotter was given %v samples", len(turns), sp.seen)
			}
			if len(sp.seen) != 2 {
				t.Fatalf("the spotter was given %v samples: want the cut stretch and the utterance after it", sp.seen)
			}
			if reached := sp.seen[1] >= 2*speech.SampleRate; reached != c.wantSpotted2 {
				t.Errorf("the utterance after the cut: %d samples, reaching back = %v, want %v", sp.seen[1], reached, c.wantSpotted2)
			}
		})
	}
}

// twoToneSpotter "hears the phrase" where a 1 kHz tone ("hey") is followed within a second by
// a 1.5 kHz tone ("reachy"), each at least 0.2 s long: a stand-in for a phrase that the VAD
// can split in two.
type twoToneSpotter struct{ seen []int }

func (s *twoToneSpotter) Spot(ctx context.Context, x []float32) (wake.Detection, bool, error) {
	s.seen = append(s.seen, len(x))
	const frame = speech.SampleRate / 50
	dominant := func(at int, hz float64) bool {
		var re, im, p float64
		for k, v := range x[at : at+frame] {
			w := 2 * math.Pi * hz * float64(k) / speech.SampleRate
			re += float64(v) * math.Cos(w)
			im += float64(v) * math.Sin(w)
			p += float64(v) * float64(v)
		}
		return p > 0 && 2*(re*re+im*im)/frame > 0.5*p
	}
	heyStart, heyEnd, run := -1, -1, 0
	for i := 0; i+frame <= len(x); i += frame {
		switch {
		case dominant(i, 1000):
			run++
			if run == 10 {
				heyStart = i + frame - 10*frame
			}
			heyEnd = i + frame
		case heyStart >= 0 && i-heyEnd <= speech.SampleRate && dominant(i, 1500):
			return wake.Detection{Phrase: "hey reachy", Start: heyStart, End: i + frame}, true, nil
		default:
			run = 0
		}
	}
	return wake.Detection{}, false, nil
}
func (s *twoToneSpotter) Close() error { return nil }

// TestPhraseTheVADSplitIsHeard: in noise, the VAD can take a weak syllable for a pause and
// close the utterance in the middle of the phrase ("hey ree" | "chy, turn on the light"); on
// the generated set that lost one voice's phrases in pink noise. A short utterance that
// nobody addressed is taken into the next one, if that starts within 2 s, so the phrase is
// whole there and goes up once, from 0.3 s before it. A longer one is not (what the spotter
// hears still starts where the VAD heard speech start), nor one 3 s before.
func TestPhraseTheVADSplitIsHeard(t *testing.T) {
	for _, c := range []struct {
		name    string
		talk    float64 // seconds of other sound just before "hey", in the same utterance
		gap     float64 // seconds of silence inside the phrase
		uploads int
	}{
		{"a pause the VAD closes on", 0, 0.5, 1},
		{"after other sound, in an utterance over a second long", 1.2, 0.5, 0},
		{"two utterances 3 s apart", 0, 3, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := make([]float32, int((6+c.gap)*speech.SampleRate))
			tone := func(from, seconds, hz float64) {
				at := int(from * speech.SampleRate)
				for k := 0; k < int(seconds*speech.SampleRate); k++ {
					x[at+k] += float32(0.3 * math.Sin(2*math.Pi*hz*float64(k)/speech.SampleRate))
				}
			}
			if c.talk > 0 {
				tone(2-c.talk, c.talk, 700)
			}
			tone(2, 0.3, 1000)         // "hey ree"
			tone(2.3+c.gap, 0.3, 1500) // "chy"
			tone(2.6+c.gap, 0.9, 500)  // ", turn on the light"
			sp := &twoToneSpotter{}
			_, turns := gateHub(t, &memSource{x: x}, sp, []string{plainReply}, nil)
			if len(sp.seen) != 2 {
				t.Fatalf("the spotter was given %v samples; want the two utterances the VAD made", sp.seen)
			}
			if len(turns) != c.uploads {
				t.Fatalf("uploaded %d utterances, want %d; the spotter was given %v samples", len(turns), c.uploads, sp.seen)
			}
			if c.uploads == 1 {
				// From 0.3 s before "hey" (1.7 s) to the command's end (4.0 s) and the VAD's
				// 0.3 s hangover: 2.6 s.
				want := 2.6 * speech.SampleRate
				if got := float64(turns[0].Samples); math.Abs(got-want) > 0.15*speech.SampleRate {
					t.Errorf("uploaded %.2f s; want about 2.6 s, from 0.3 s before \"hey\"", got/speech.SampleRate)
				}
			}
		})
	}
}

// TestQuietRoomKeepsLittleAudio: with nobody speaking the microphone's buffer stays at the
// few seconds an utterance may reach back to (it grew by 230 MB an hour before).
func TestQuietRoomKeepsLittleAudio(t *testing.T) {
	c := newCutter(12 * speech.SampleRate)
	chunk := make([]float32, speech.SampleRate/50)
	for i := 0; i < 60*50; i++ { // a minute of silence
		c.feed(chunk)
		c.drain(func(utterance) bool { t.Fatal("an utterance in silence"); return false })
	}
	if len(c.buf) > idleKeep+len(chunk) {
		t.Errorf("after a quiet minute the buffer holds %.1f s; want at most %.1f s",
			float64(len(c.buf))/speech.SampleRate, float64(idleKeep)/speech.SampleRate)
	}
}

// TestMicrophoneWithAnOffsetIsHeard: some microphones deliver their samples around a level
// other than zero. The hub takes the offset out before anything listens, so "hey reachy" is
// heard and uploaded once; before, the offset read as loud, constant sound and the VAD never
// heard speech start.
func TestMicrophoneWithAnOffsetIsHeard(t *testing.T) {
	spotter := defaultSpotter(t)
	phrase := spoken(t, "en-us", "hey reechy, what time is it")
	for _, offset := range []float32{0.15, -0.3} {
		x := make([]float32, 2*speech.SampleRate+len(phrase))
		rng := rand.New(rand.NewPCG(7, 8))
		for i := range x {
			x[i] = offset + float32(rng.NormFloat64()*0.002) // the room, around the offset
		}
		for i, v := range phrase {
			x[speech.SampleRate+i] += 0.5 * v
		}
		h, turns := gateHub(t, &memSource{x: x}, spotter, []string{plainReply}, nil)
		if len(turns) != 1 || turns[0].Wake != WakePhrase {
			t.Errorf("offset %.2f: uploaded %+v, want the phrase once (%+v)", offset, turns, h.WakeStats())
		}
	}
}
