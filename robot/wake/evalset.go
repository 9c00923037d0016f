package wake

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/reachy-broker/reachy-broker/speech"
)

// Voice is one synthetic voice of the evaluation set: an espeak-ng setting, or one of
// flite's voices, named "flite:NAME" (another synthesizer altogether: its voices are built
// from recordings of people, not formant rules).
type Voice struct {
	Name         string `json:"name"` // espeak-ng -v, or flite:NAME for flite -voice NAME
	Speed, Pitch int    // words per minute; pitch 0-99 (espeak-ng only)
}

// phraseSpellings are how each synthesizer is told to say a wake phrase so that it says the
// dictionary's sounds, checked against each synthesizer's own phoneme output
// (TestEachSynthesizerSaysTheWakePhrase):
//
//	synthesizer  "hey reachy"            "hey reechy"
//	espeak-ng    h'eI r'i:ki  (R IY K IY) h'eI r'i:tSi (R IY CH IY)  -> told "hey reechy"
//	flite        hh ey r iy ch iy          hh ey r iy ch iy (same audio) -> told "hey reachy"
//	festival     hh ey r iy ch iy          hh ey r eh ch iy (R EH CH IY) -> told "hey reachy"
//
// Until this table, every evaluation voice was told "hey reechy": festival's voices said
// "hey retchy", and neither engine heard them (the first festival measurement, 0 of 10 clean).
// A phrase or synthesizer missing here is said as written.
var phraseSpellings = map[string]map[string]string{
	"hey reachy": {SynthEspeak: "hey reechy"},
}

// SayAs is how synthesizer syn (SynthEspeak, SynthFlite, SynthFestival) is told to say phrase.
func SayAs(syn, phrase string) string {
	if sp, ok := phraseSpellings[phrase][syn]; ok {
		return sp
	}
	return phrase
}

// SynthOf is the synthesizer of a voice name: "flite:NAME", "festival:NAME", otherwise espeak-ng.
func SynthOf(voice string) string {
	switch {
	case strings.HasPrefix(voice, "flite:"):
		return SynthFlite
	case strings.HasPrefix(voice, "festival:"):
		return SynthFestival
	}
	return SynthEspeak
}

// FliteVoices are flite's 16 kHz voices (three men, one woman), at paces around the espeak-ng
// set's. Nothing was tuned on them: `reachyctl wake gen --synth flite` makes a set of them
// to check that what was measured on espeak-ng carries over to another synthesizer.
func FliteVoices() []Voice {
	return []Voice{{"flite:kal16", 160, 0}, {"flite:awb", 140, 0}, {"flite:rms", 175, 0}, {"flite:slt", 150, 0}}
}

// EvalSet says what to generate: synthetic speech (espeak-ng), mixed with noise (sox) at
// several signal-to-noise ratios. Synthetic voices are not people: the figures it gives say
// how the spotter behaves on this material, not how it will do in a family's living room.
type EvalSet struct {
	Voices []Voice
	// Phrase is the wake phrase as written ("hey reachy"); each voice is told to say it
	// spelled the way its synthesizer pronounces R IY CH IY (SayAs).
	Phrase    string
	Commands  []string // said after the phrase: the positives
	Household []string // negatives: ordinary sentences
	NearMiss  []string // negatives that sound like the phrase
	Long      []string // negatives: long stretches of speech
	// Overheard are negatives from outside text: commands to the home said to someone else,
	// without the phrase (WithSentences).
	Overheard []string
	Noises    []string // pink, brown, babble, tv
	SNRs      []int    // dB; every clip is also kept clean
}

// FullEvalSet is what `make wake-eval` measures, with WithSentences adding the outside
// router corpus.
func FullEvalSet() EvalSet {
	return EvalSet{
		Voices: []Voice{{"en-us", 160, 50}, {"en-gb", 140, 40}, {"en-us+f3", 175, 60}, {"en-gb-x-rp+m3", 130, 35},
			{"en-us+f2", 190, 70}, {"en-029", 150, 55}, {"en-us+klatt", 165, 45}, {"en-gb-scotland+m1", 145, 50}},
		Phrase: "hey reachy",
		Commands: []string{"turn on the kitchen light", "what time is it", "do a little dance",
			"is mom busy", "set a timer for five minutes", "how warm is the living room"},
		Household: []string{"we should pick up the children at five and then go shopping for dinner",
			"did you remember to water the plants this morning", "the kettle is boiling, do you want some tea",
			"I think the match starts at eight on channel four", "can you pass me the remote please",
			"my phone battery is almost empty again", "the dog needs to go out before it rains",
			"let's watch a film tonight after the kids are asleep"},
		NearMiss: []string{"hey ricky, how was school today", "hey ready when you are", "they reach the station at noon",
			"reach me the salt please", "hey richard, dinner is ready", "the peaches are really cheap"},
		Long: []string{"Yesterday we drove to the coast with my sister and her two boys. The traffic was terrible " +
			"for the first hour, but after the bridge the roads were almost empty. We had lunch in a small cafe " +
			"near the harbour, walked along the beach until the tide came in, and the children collected shells " +
			"and stones until their pockets were full. On the way back everybody fell asleep except me."},
		Noises: []string{"pink", "brown", "babble", "tv"},
		SNRs:   []int{20, 10, 5},
	}
}

// SmallEvalSet is the subset `go test` generates: six voices, two commands, two household
// sentences, every near miss, clean and in pink noise at 10 dB.
func SmallEvalSet() EvalSet {
	s := FullEvalSet()
	s.Voices = s.Voices[:6]
	s.Commands = s.Commands[:2]
	s.Household = s.Household[:2]
	s.Long = nil
	s.Noises = []string{"pink"}
	s.SNRs = []int{10}
	return s
}

// outsideSentences is how many sentences WithSentences takes from a file: with eight voices
// and ten conditions, 48 overheard sentences add about 2.4 hours of ordinary negative speech,
// enough that no false accept in the whole set bounds the rate below 1 per hour.
const outsideSentences = 64

// WithSentences adds sentences nobody on this project wrote, taken evenly from the list so
// that the set is not tuned to the project's own phrasing: every fourth becomes a command
// after the wake phrase (a positive), the others are overheard negatives.
func (s EvalSet) WithSentences(sentences []string) EvalSet {
	return s.WithSentencesN(sentences, outsideSentences)
}

// WithSentencesN is WithSentences taking n sentences (0: the usual 64); with n a divisor of
// 64 they are some of the usual ones.
func (s EvalSet) WithSentencesN(sentences []string, n int) EvalSet {
	if n <= 0 {
		n = outsideSentences
	}
	n = min(len(sentences), n)
	s.Commands = append([]string(nil), s.Commands...)
	for i := 0; i < n; i++ {
		t := sentences[i*len(sentences)/n]
		if i%4 == 3 {
			s.Commands = append(s.Commands, t)
		} else {
			s.Overheard = append(s.Overheard, t)
		}
	}
	return s
}

// TrainSentences are the outside sentences the evaluation set never takes (WithSentences),
// up to max of them, spread over the list: the training set's ordinary negatives.
func TrainSentences(sentences []string, max int) []string {
	taken := map[int]bool{}
	n := min(len(sentences), outsideSentences)
	for i := 0; i < n; i++ {
		taken[i*len(sentences)/n] = true
	}
	var rest []string
	for i, t := range sentences {
		if !taken[i] {
			rest = append(rest, t)
		}
	}
	if len(rest) <= max {
		return rest
	}
	out := make([]string, 0, max)
	for i := 0; i < max; i++ {
		out = append(out, rest[i*len(rest)/max])
	}
	return out
}

// ReadSentences reads one sentence per line, or the first column of a tab-separated file
// (the router corpora), skipping blank lines and lines that start with #.
func ReadSentences(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		t, _, _ := strings.Cut(line, "\t")
		if t = strings.TrimSpace(t); t != "" && !strings.HasPrefix(t, "#") {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no sentences (one per line, or tab-separated with the sentence first)", path)
	}
	return out, nil
}

// EvalClip is one file of a generated set (manifest.json lists them).
type EvalClip struct {
	File     string  `json:"file"`
	Positive bool    `json:"positive"`
	Category string  `json:"category"` // command, household, near-miss, long, overheard
	Text     string  `json:"text"`
	Voice    string  `json:"voice"`
	Noise    string  `json:"noise"` // clean, pink, brown, babble, tv
	SNR      int     `json:"snr_db"`
	Seconds  float64 `json:"seconds"`
}

// Generate writes the set's WAV files and manifest.json into dir. It needs espeak-ng and sox.
func (s EvalSet) Generate(ctx context.Context, dir string) ([]EvalClip, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	type utter struct {
		text, cat string
		pos       bool
	}
	var us []utter
	for _, c := range s.Commands {
		// The phrase is put in per voice (SayAs): "" stands for it here.
		us = append(us, utter{", " + c, "command", true})
	}
	for _, t := range s.Household {
		us = append(us, utter{t, "household", false})
	}
	for _, t := range s.NearMiss {
		us = append(us, utter{t, "near-miss", false})
	}
	for _, t := range s.Long {
		us = append(us, utter{t, "long", false})
	}
	for _, t := range s.Overheard {
		us = append(us, utter{t, "overheard", false})
	}
	noise := map[string][]float32{}
	for _, n := range s.Noises {
		var err error
		if noise[n], err = s.noise(ctx, n, 40); err != nil {
			return nil, err
		}
	}
	var clips []EvalClip
	for vi, v := range s.Voices {
		for ui, u := range us {
			if u.pos {
				u.text = SayAs(SynthOf(v.Name), s.Phrase) + u.text
			}
			clean, err := synth(ctx, v, u.text)
			if err != nil {
				return nil, err
			}
			// A little room tone before and after, like a VAD segment.
			pad := make([]float32, SampleRate/4)
			clean = append(append(append([]float32(nil), pad...), clean...), pad...)
			conds := []struct {
				noise string
				snr   int
			}{{"clean", 0}}
			for _, n := range s.Noises {
				for _, snr := range s.SNRs {
					conds = append(conds, struct {
						noise string
						snr   int
					}{n, snr})
				}
			}
			for ci, c := range conds {
				x := clean
				if c.noise == "tv" {
					// The television was talking before anyone spoke to the robot: the
					// utterance starts 3.5 to 6 s into the clip, past maxPhraseStart.
					lead := make([]float32, (7+(vi*3+ui)%6)*SampleRate/2)
					x = append(lead, clean...)
				}
				if c.noise != "clean" {
					x = mix(x, noise[c.noise], float64(c.snr), (vi*31+ui*7+ci)*SampleRate/3)
				}
				name := fmt.Sprintf("%s-v%d-u%02d-%s", map[bool]string{true: "pos", false: "neg"}[u.pos], vi, ui, c.noise)
				if c.noise != "clean" {
					name += strconv.Itoa(c.snr)
				}
				name += ".wav"
				wav, err := speech.EncodeWAV(x, SampleRate)
				if err != nil {
					return nil, err
				}
				if err := os.WriteFile(filepath.Join(dir, name), wav, 0o644); err != nil {
					return nil, err
				}
				clips = append(clips, EvalClip{File: name, Positive: u.pos, Category: u.cat, Text: u.text, Voice: v.Name,
					Noise: c.noise, SNR: c.snr, Seconds: float64(len(x)) / SampleRate})
			}
		}
	}
	b, _ := json.MarshalIndent(clips, "", " ")
	return clips, os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644)
}

// fliteWordsPerMinute is flite's own pace, roughly; a voice's Speed stretches it.
const fliteWordsPerMinute = 165

func synth(ctx context.Context, v Voice, text string) ([]float32, error) {
	bin := "espeak-ng"
	args := []string{"-v", v.Name, "-s", strconv.Itoa(v.Speed), "-p", strconv.Itoa(v.Pitch), "--stdout", text}
	var stdin string
	if name, ok := strings.CutPrefix(v.Name, "flite:"); ok {
		bin = "flite"
		args = []string{"-voice", name, "--setf", fmt.Sprintf("duration_stretch=%.2f", float64(fliteWordsPerMinute)/float64(max(1, v.Speed))),
			"-t", text, "-o", "/dev/stdout"}
	}
	if name, ok := strings.CutPrefix(v.Name, "festival:"); ok {
		// festival's text2wave reads the text on stdin and writes a WAV to stdout.
		bin, stdin = "text2wave", text
		args = []string{"-eval", "(voice_" + name + ")", "-eval", fmt.Sprintf("(Parameter.set 'Duration_Stretch %.2f)", float64(fliteWordsPerMinute)/float64(max(1, v.Speed))),
			"-F", strconv.Itoa(SampleRate)}
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s voice %s: %v: %s (install %s: deploy/scripts/deps.sh)", bin, v.Name, err, errb.String(), bin)
	}
	fixHeader(out)
	clip, err := speech.DecodeWAV(out, 0)
	if err != nil {
		return nil, fmt.Errorf("%s voice %s: %w", bin, v.Name, err)
	}
	return clip.Samples, nil
}

// noise makes seconds of pink or brown noise with sox, babble (four other voices talking
// over each other) or tv (one other voice reading on, as a television or radio does).
func (s EvalSet) noise(ctx context.Context, kind string, seconds int) ([]float32, error) {
	if kind == "babble" || kind == "tv" {
		out := make([]float32, seconds*SampleRate)
		talkers := []Voice{{"en-us+m3", 170, 40}, {"en-gb+f4", 160, 65}, {"en-us+m7", 150, 30}, {"en-029+f1", 180, 55}}
		if kind == "tv" {
			talkers = []Voice{{"en-gb-x-rp+m2", 165, 45}}
		}
		for i, v := range talkers {
			var talk []float32
			for j := 0; len(talk) < len(out); j++ {
				x, err := synth(ctx, v, s.Household[(i+j)%len(s.Household)])
				if err != nil {
					return nil, err
				}
				talk = append(talk, x...)
			}
			off := i * SampleRate / 2
			for k := range out {
				out[k] += talk[(k+off)%len(talk)]
			}
		}
		return out, nil
	}
	cmd := exec.CommandContext(ctx, "sox", "-n", "-r", strconv.Itoa(SampleRate), "-b", "16", "-e", "signed-integer", "-c", "1", "-t", "raw", "-",
		"synth", strconv.Itoa(seconds), kind+"noise")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("sox %snoise: %v: %s (install sox: deploy/scripts/deps.sh)", kind, err, errb.String())
	}
	// Raw little-endian PCM: sox cannot fix a WAV header up on a pipe.
	x := make([]float32, len(out)/2)
	for i := range x {
		x[i] = float32(int16(binary.LittleEndian.Uint16(out[2*i:]))) / 32768
	}
	return x, nil
}

// mix adds noise (read from offset, looping) to speech at snr dB, measured against the
// speech's active part, and keeps the result within [-1, 1].
func mix(sp, noise []float32, snr float64, offset int) []float32 {
	var ps, pn float64
	active := 0
	for _, v := range sp {
		if math.Abs(float64(v)) > 0.01 {
			ps += float64(v) * float64(v)
			active++
		}
	}
	for _, v := range noise {
		pn += float64(v) * float64(v)
	}
	if active == 0 || pn == 0 {
		return sp
	}
	ps /= float64(active)
	pn /= float64(len(noise))
	gain := math.Sqrt(ps / (pn * math.Pow(10, snr/10)))
	out := make([]float32, len(sp))
	peak := 0.0
	for i, v := range sp {
		x := float64(v) + gain*float64(noise[(i+offset)%len(noise)])
		out[i] = float32(x)
		peak = max(peak, math.Abs(x))
	}
	if peak > 0.99 {
		for i := range out {
			out[i] = float32(float64(out[i]) * 0.99 / peak)
		}
	}
	return out
}

// fixHeader writes the sizes into espeak-ng's canonical 44-byte header: on a pipe it cannot
// go back to do it.
func fixHeader(wav []byte) {
	if len(wav) >= 44 && string(wav[36:40]) == "data" {
		binary.LittleEndian.PutUint32(wav[4:], uint32(len(wav)-8))
		binary.LittleEndian.PutUint32(wav[40:], uint32(len(wav)-44))
	}
}
