package wake

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strconv"
)

// Synthesizers the training and evaluation sets are said by. Each is a different way of
// making speech (formant rules, diphones and unit selection, HMM): the evaluation holds one
// out of training and measures on it.
const (
	SynthEspeak   = "espeak-ng"
	SynthFlite    = "flite"
	SynthFestival = "festival"
)

// Synthesizers lists them in a fixed order.
func Synthesizers() []string { return []string{SynthEspeak, SynthFlite, SynthFestival} }

// FestivalVoices are Debian's English festival voices (festvox-kallpc16k, festvox-kdlpc16k,
// festvox-us-slt-hts), at paces around the other sets'.
func FestivalVoices() []Voice {
	return []Voice{{"festival:kal_diphone", 160, 0}, {"festival:ked_diphone", 145, 0}, {"festival:cmu_us_slt_arctic_hts", 170, 0}}
}

// EvalVoices are the voices of a synthesizer's evaluation set.
func EvalVoices(synth string) []Voice {
	switch synth {
	case SynthFlite:
		return FliteVoices()
	case SynthFestival:
		return FestivalVoices()
	}
	return FullEvalSet().Voices
}

// TrainVoices are the voices a synthesizer says the training set with: for espeak-ng, every
// English voice with every variant of the machine's espeak-ng-data (each variant once, the
// voices taken in turn, at paces of 130-200 words per minute and pitches 20-80) and voices of
// other languages that say the phrase as R IY CH IY in their own spelling (AccentedVoices:
// accented speakers, as families have), each at three paces; flite's six voices and festival's
// three English voices at three paces. No espeak-ng setting is one of its evaluation voices;
// flite's and festival's are their evaluation voices at other paces (they have no others), so
// the evaluation that matters holds the whole synthesizer out.
func TrainVoices(synth string) []Voice {
	var out []Voice
	paces := []int{130, 165, 200}
	switch synth {
	case SynthEspeak:
		eval := map[string]bool{}
		for _, v := range FullEvalSet().Voices {
			eval[v.Name] = true
		}
		english := []string{"en-us", "en-gb", "en-gb-scotland", "en-gb-x-gbclan", "en-gb-x-rp", "en-gb-x-gbcwmd", "en-029", "en-us-nyc", "en"}
		for i, variant := range espeakVariants {
			for k := 0; k < len(english); k++ {
				name := english[(i+k)%len(english)] + "+" + variant
				if eval[name] {
					continue
				}
				out = append(out, Voice{name, 130 + (i*29)%71, 20 + (i*37)%61})
				break
			}
		}
		for i, lang := range slices.Sorted(maps.Keys(accentedSpellings)) {
			for _, speed := range paces {
				out = append(out, Voice{lang, speed, 35 + (i*13)%30})
			}
		}
	case SynthFlite:
		for _, v := range []string{"kal", "awb_time", "kal16", "awb", "rms", "slt"} {
			for _, speed := range paces {
				out = append(out, Voice{"flite:" + v, speed, 0})
			}
		}
	case SynthFestival:
		for _, v := range FestivalVoices() {
			for _, speed := range paces {
				out = append(out, Voice{v.Name, speed, 0})
			}
		}
	}
	return out
}

// espeakVariants are the voice variants of Debian's espeak-ng-data 1.51 (espeak-ng
// --voices=variant), but fast_test.
var espeakVariants = []string{"Adam", "Alex", "Alicia", "Andrea", "Andy", "Annie", "Antonio", "Auntie", "Belinda", "Benjamin", "Boris", "Caleb",
	"David", "Demonic", "Denis", "Diogo", "Ed", "Edward", "Edward2", "Gene", "Gene2", "Gustave", "Half-LifeAnnouncementSystem", "Henrique", "Hugo",
	"Iven", "Iven2", "Iven3", "Iven4", "Jacky", "John", "Kaukovalta", "Lee", "Linda", "Marcelo", "Marco", "Mario", "Max", "Michael", "Michel",
	"Miguel", "Mike", "Mr_Serious", "Nguyen", "Pablo", "Paul", "Pedro", "Quincy", "RicishayMax", "RicishayMax2", "RicishayMax3", "Rob", "Robert",
	"Robosoft", "Robosoft2", "Robosoft3", "Robosoft4", "Robosoft5", "Robosoft6", "Robosoft7", "Robosoft8", "Steph", "Steph2", "Steph3", "Storm",
	"Tweaky", "UniversalRobot", "Zac", "anika", "anikaRobot", "anxiousAndy", "female2", "female3", "female4", "female5", "female_whisper",
	"grandpa", "klatt", "klatt2", "klatt3", "klatt4", "klatt5", "klatt6", "male2", "male3", "male4", "male5", "male6", "male7", "norbert",
	"sandro", "shelby", "travis", "victor", "whisper", "male8", "female1", "croak", "male1", "grandma"}

// accentedSpellings are espeak-ng voices of other languages and how each is told the wake
// phrase so that it says R IY CH IY (checked against espeak-ng -x: de h'aI r'i:tSi:, es
// x'eI R2'itSi, fr 'e ritS'i, id h'Ei R2'itSi, nl h'e: ritS'i, pl x'Ej R'itSi, tr h'Ej
// RitS'I). Their ordinary sentences are the English ones, read with their own rules.
var accentedSpellings = map[string]string{"de": "hei rietschi", "es": "jei richi", "fr": "hé ritchi", "id": "hei rici",
	"nl": "hee rietsjie", "pl": "hej riczi", "tr": "hey riçi"}

// sayTrain is how voice v of synthesizer syn is told the phrase in the training set.
func sayTrain(syn string, v Voice, phrase string) string {
	if sp, ok := accentedSpellings[v.Name]; ok && syn == SynthEspeak && phrase == "hey reachy" {
		return sp
	}
	return SayAs(syn, phrase)
}

// Negative sentences of the training set: none is a sentence of the evaluation set.
var (
	trainHousehold = []string{"could you close the window in the bedroom", "the bus was late again this morning",
		"I left my keys on the kitchen table", "what should we cook for dinner tomorrow", "the neighbours are having a party",
		"remember to call grandma on sunday", "it is going to rain all weekend", "the washing machine is making a strange noise",
		"she scored two goals in the second half", "let me know when the pasta is ready", "the cat knocked over the vase",
		"we need more milk and some bread", "turn the music down a little, I'm on the phone", "are you coming to the concert on friday",
		"the printer is out of paper again", "I can't find the charger anywhere", "the garden looks lovely after the rain",
		"his flight lands at half past nine", "put the kettle on, would you", "the children are still doing their homework"}
	trainNearMiss = []string{"hey richie, are you there", "hey reggie, come and look at this", "hey peachy keen", "hey teacher, I have a question",
		"he reached the top of the hill", "hey ready or not", "they really did it", "hey beach day today", "hey archie, sit down",
		"hey rachel, where are you", "that is a bit preachy", "hey rich, how are you", "each evening we walk the dog", "hey, each of you take one",
		"hey there, ricky", "really cheap tickets", "hey, read me a story", "hey siri, what's the weather", "okay google, set an alarm", "alexa, play music",
		"hey reach for the stars", "hey peachy, come here", "hey leechy", "hey cheeky monkey", "hey ritchie blackmore is playing", "hey beachy head",
		"a reach in the river", "hey, we each eat one", "hey rita, see you", "hey reacher", "hey reedy pipes", "hey richer than ever",
		"hey ricci, lunch is ready", "they reached each other", "hey itchy"}
)

// TrainClip is one clip of the training set: its audio and, for a positive, where the
// phrase starts and ends in it.
type TrainClip struct {
	Samples             []float32
	Positive            bool
	PhraseStart, Phrase int // samples; Phrase is where it ends
	Synth, Voice, What  string
}

// TrainSet says what reachyctl wake train generates: positives (the phrase alone after a
// lead of silence or noise) said by every voice of the synthesizers at three paces, clean,
// in noise, and in a reverberant room (sox reverb), and negatives (ordinary speech, near
// misses, noise alone). Everything random comes from Seed: the same seed and tools give the
// same clips.
type TrainSet struct {
	Phrase    string
	Synths    []string
	Seed      uint64
	Sentences []string // more ordinary negatives (sentences the evaluation set does not use)
	// Copies is how many noisy or reverberant copies each clean positive gets.
	Copies int
	// Limit keeps only Limit voices of each synthesizer, spread over its list, each saying two
	// negatives (the tests' tiny set; a set a shared machine can make in a session); 0 keeps all.
	Limit int
}

// Generate synthesizes the set, one synthesizer after the other; emit gets each clip as it
// is made. What one synthesizer says depends only on the seed, the phrase and the
// sentences, never on which other synthesizers are in the set, so a synthesizer's part can
// be cached and reused when another is held out.
func (t TrainSet) Generate(ctx context.Context, emit func(TrainClip) error) error {
	for _, syn := range t.Synths {
		if err := t.GenerateSynth(ctx, syn, emit); err != nil {
			return err
		}
	}
	return nil
}

// GenerateSynth synthesizes one synthesizer's part of the set, clips of noise alone included.
func (t TrainSet) GenerateSynth(ctx context.Context, syn string, emit func(TrainClip) error) error {
	var salt uint64
	for _, c := range syn {
		salt = salt*131 + uint64(c)
	}
	rng := rand.New(rand.NewPCG(t.Seed, salt))
	noises := map[string][]float32{}
	for _, kind := range []string{"white", "pink", "brown"} {
		x, err := soxNoise(ctx, kind, 20)
		if err != nil {
			return err
		}
		noises[kind] = x
	}
	// Babble: six talkers over each other, each saying four sentences in a row; a talker
	// alone (a TV or someone else in the room) reading on; and music (music.go).
	var babble, talker []float32
	vs := TrainVoices(SynthEspeak)
	for t := 0; t < 6; t++ {
		var talk []float32
		for k := 0; k < 4; k++ {
			x, err := synth(ctx, vs[(t*17+k*5)%len(vs)], trainHousehold[(t*4+k)%len(trainHousehold)])
			if err != nil {
				return err
			}
			talk = append(talk, x...)
		}
		babble = addInto(babble, talk, t*SampleRate/3)
		if t == 0 {
			talker = talk
		}
	}
	noises["babble"] = babble
	noises["talker"] = talker
	noises["music"] = musicNoise(rand.New(rand.NewPCG(t.Seed, 7)), 20)
	kinds := []string{"white", "pink", "brown", "babble", "talker", "music"}
	var negText []string
	negText = append(negText, trainHousehold...)
	negText = append(negText, trainNearMiss...)
	negText = append(negText, t.Sentences...)
	{
		voices := TrainVoices(syn)
		if t.Limit > 0 && t.Limit < len(voices) {
			// Spread over the list, so a limited set still has every kind of voice.
			var some []Voice
			for i := range t.Limit {
				some = append(some, voices[i*len(voices)/t.Limit])
			}
			voices = some
		}
		for vi, v := range voices {
			said, err := synth(ctx, v, sayTrain(syn, v, t.Phrase))
			if err != nil {
				return err
			}
			for c := 0; c <= t.Copies; c++ {
				clean := said
				what := "clean"
				if c > 0 && rng.IntN(2) == 0 {
					// Speed and pitch perturbed together (sox speed), by up to 12% either way.
					f := 0.88 + 0.24*rng.Float64()
					if clean, err = soxSpeed(ctx, said, f); err != nil {
						return err
					}
					what = fmt.Sprintf("speed%.2f", f)
				}
				on, off := activeSpan(clean)
				lead := SampleRate/5 + rng.IntN(SampleRate*4/5)
				x := append(make([]float32, lead), clean...)
				x = append(x, make([]float32, SampleRate/2)...)
				if c > 0 {
					if rng.IntN(3) == 0 {
						if x, err = soxReverb(ctx, x, 30+rng.IntN(60)); err != nil {
							return err
						}
						what += "+reverb"
					}
					k := kinds[rng.IntN(len(kinds))]
					snr := []float64{20, 15, 10, 5, 0}[rng.IntN(5)]
					x = mix(x, noises[k], snr, rng.IntN(len(noises[k])))
					what += fmt.Sprintf("+%s%.0f", k, snr)
				}
				if err := emit(TrainClip{Samples: x, Positive: true, PhraseStart: lead + on, Phrase: lead + off, Synth: syn, Voice: v.Name, What: what}); err != nil {
					return err
				}
			}
			// Each voice says a few negatives; every sentence is said by some voice.
			per := (len(negText) + len(voices) - 1) / len(voices)
			if t.Limit > 0 {
				per = min(per, 2) // the tests' tiny set
			}
			for k := 0; k < per; k++ {
				s := negText[(vi*per+k)%len(negText)]
				x, err := synth(ctx, v, s)
				if err != nil {
					return err
				}
				x = append(make([]float32, SampleRate/4), x...)
				what := "clean"
				if rng.IntN(2) == 0 {
					n := kinds[rng.IntN(len(kinds))]
					snr := []float64{20, 10, 5, 0}[rng.IntN(4)]
					x = mix(x, noises[n], snr, rng.IntN(len(noises[n])))
					what = fmt.Sprintf("%s%.0f", n, snr)
				}
				if err := emit(TrainClip{Samples: x, Synth: syn, Voice: v.Name, What: "speech " + what + ": " + s}); err != nil {
					return err
				}
			}
		}
	}
	// Noise alone, in every synthesizer's part.
	for i := 0; i < 12; i++ {
		k := kinds[i%len(kinds)]
		n := noises[k]
		off := rng.IntN(len(n) - 3*SampleRate)
		x := slices.Clone(n[off : off+3*SampleRate])
		g := float32(0.05 + 0.3*rng.Float64())
		for j := range x {
			x[j] *= g
		}
		if err := emit(TrainClip{Samples: x, Synth: syn, What: "noise " + k}); err != nil {
			return err
		}
	}
	return nil
}

// activeSpan is where a clean clip's speech starts and ends (above -40 dB of its peak).
func activeSpan(x []float32) (start, end int) {
	peak := float32(0)
	for _, v := range x {
		peak = max(peak, float32(math.Abs(float64(v))))
	}
	floor := peak / 100
	start, end = 0, len(x)
	for start < len(x) && float32(math.Abs(float64(x[start]))) < floor {
		start++
	}
	for end > start && float32(math.Abs(float64(x[end-1]))) < floor {
		end--
	}
	return start, end
}

// addInto adds x into acc at offset, growing acc.
func addInto(acc, x []float32, offset int) []float32 {
	for len(acc) < offset+len(x) {
		acc = append(acc, 0)
	}
	for i, v := range x {
		acc[offset+i] += v
	}
	return acc
}

// soxNoise makes seconds of white, pink or brown noise (sox's generator is seeded the same
// way every run: the same samples each time).
func soxNoise(ctx context.Context, kind string, seconds int) ([]float32, error) {
	return soxRaw(ctx, nil, "-n", "-R", "-r", strconv.Itoa(SampleRate), "-b", "16", "-e", "signed-integer", "-c", "1", "-t", "raw", "-",
		"synth", strconv.Itoa(seconds), kind+"noise")
}

// soxSpeed plays x faster (f > 1) or slower, its pitch moving with it (sox speed).
func soxSpeed(ctx context.Context, x []float32, f float64) ([]float32, error) {
	in := make([]byte, 2*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint16(in[2*i:], uint16(int16(max(-1, min(1, v))*32767)))
	}
	raw := []string{"-r", strconv.Itoa(SampleRate), "-b", "16", "-e", "signed-integer", "-c", "1", "-t", "raw"}
	args := append(append([]string{"-R"}, raw...), "-")
	args = append(append(args, raw...), "-", "speed", strconv.FormatFloat(f, 'f', 4, 64), "rate", strconv.Itoa(SampleRate))
	return soxRaw(ctx, in, args...)
}

// soxReverb puts x in a room with reverberance percent (sox reverb).
func soxReverb(ctx context.Context, x []float32, reverberance int) ([]float32, error) {
	in := make([]byte, 2*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint16(in[2*i:], uint16(int16(max(-1, min(1, v))*32767)))
	}
	raw := []string{"-r", strconv.Itoa(SampleRate), "-b", "16", "-e", "signed-integer", "-c", "1", "-t", "raw"}
	args := append(append([]string{"-R"}, raw...), "-")
	args = append(append(args, raw...), "-", "gain", "-3", "reverb", strconv.Itoa(reverberance), "50", "60")
	return soxRaw(ctx, in, args...)
}

func soxRaw(ctx context.Context, stdin []byte, args ...string) ([]float32, error) {
	cmd := exec.CommandContext(ctx, "sox", args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("sox %v: %v: %s (install sox: deploy/scripts/deps.sh)", args, err, errb.String())
	}
	x := make([]float32, len(out)/2)
	for i := range x {
		x[i] = float32(int16(binary.LittleEndian.Uint16(out[2*i:]))) / 32768
	}
	return x, nil
}
