package wake

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// SampleRate is the only rate a Spotter accepts: 16 kHz mono, like the VAD.
const SampleRate = 16000

// Detection is one spotted phrase, in samples from the start of the audio given to Spot.
type Detection struct {
	Phrase     string
	Start, End int
	// Score is how well the phrase matched, for people tuning a spotter: for PocketSphinx,
	// the decimal log per phone by which the phrase beat a free loop of phones.
	Score float64
	// Needed is the score this spot had to reach: what the sensitivity asks, and more when
	// it was heard in a copy with the steady noise taken out (Denoised). 0 from a spotter
	// that does not say.
	Needed float64
	// Denoised says the phrase was heard only on a second listen, to a copy of the utterance
	// with its steady noise taken out; the upload is the audio as heard either way.
	Denoised bool
}

// StartTime and EndTime say where in the audio the phrase was heard.
func (d Detection) StartTime() time.Duration {
	return time.Duration(d.Start) * time.Second / SampleRate
}

// EndTime is where the phrase ended.
func (d Detection) EndTime() time.Duration { return time.Duration(d.End) * time.Second / SampleRate }

// Spotter looks for a wake phrase in one utterance (16 kHz mono samples in [-1, 1]) and
// returns the first phrase it heard, if any. Implementations are not safe for concurrent use
// and may not honour ctx once inside the engine: run them through a Guard.
type Spotter interface {
	Spot(ctx context.Context, samples []float32) (Detection, bool, error)
	Close() error
}

// Options configure an engine. The zero value is not useful; fill Phrases and ModelDir.
type Options struct {
	// Phrases to spot, lower case, words separated by spaces ("hey reachy").
	Phrases []string
	// Sensitivity in (0, 1]: higher hears the phrase more easily and accepts more look-alikes.
	// 0 means DefaultSensitivity.
	Sensitivity float64
	// ModelDir holds the acoustic model (ModelDir/en-us) and the pronunciation dictionary
	// (ModelDir/cmudict-en-us.dict), as Debian's pocketsphinx-en-us installs them.
	ModelDir string
	// Pronunciations add or override words the dictionary cannot spell: word -> ARPAbet
	// phones ("reachy": "R IY CH IY"). BuiltinPronunciations are always included.
	Pronunciations map[string]string
	// Tuning replaces DefaultTuning, to measure another rule (reachyctl wake eval --plp).
	Tuning *Tuning
	// Engine is sphinx, neural, fused, either or both (New); "" is DefaultEngine.
	Engine string
	// RuntimeDir holds the neural engine's ONNX Runtime library and feature models
	// (deploy/scripts/wake-neural.sh); "" looks in DefaultRuntimeDirs.
	RuntimeDir string
	// Heads replace the committed heads of the neural engine, by phrase.
	Heads map[string]*Head
	// Fusions replace the committed fusions of the fused engine, by phrase.
	Fusions map[string]*Fusion
}

// DefaultModelDir is where Debian's pocketsphinx-en-us puts the US English model.
const DefaultModelDir = "/usr/share/pocketsphinx/model/en-us"

// DefaultSensitivity asks a spot to beat the free phone loop by 1e10 per phone (DefaultTuning:
// 1e14 at sensitivity 0 down to 1e4 at 1). It was chosen on four of the eight voices of the
// generated evaluation set as the most sensitive setting with at most one false accept in
// ordinary speech there, and measured on the rest and on another synthesizer's voices; the
// figures, and what they do not say (synthetic voices are not people), are in
// docs/security.md.
const DefaultSensitivity = 0.4

// BuiltinPronunciations spell the robot's name, which no general dictionary has.
func BuiltinPronunciations() map[string]string {
	return map[string]string{"reachy": "R IY CH IY"}
}

// ErrModel means the model directory is missing or incomplete; ErrSpelling means a phrase
// has a word the dictionary cannot spell. Both are configuration errors: the hub refuses to
// start with the message, which says what to fix.
var (
	ErrModel    = errors.New("wake model")
	ErrSpelling = errors.New("wake phrase spelling")
)

func (o Options) sensitivity() (float64, error) {
	s := o.Sensitivity
	if s == 0 {
		s = DefaultSensitivity
	}
	if s < 0 || s > 1 {
		return 0, fmt.Errorf("wake sensitivity %v: must be between 0 and 1 (default %v)", s, DefaultSensitivity)
	}
	return s, nil
}
