package wake

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
)

// Head is a phrase's classifier over the speech embeddings: a logistic regression over
// Window consecutive embeddings (each standardized with Mean and Scale), trained by
// `reachyctl wake train` (train.go). Its score is the logit; a spot needs Needed.
type Head struct {
	Phrase string `json:"phrase"`
	Window int    `json:"window"`
	// Mean and Scale standardize each of the embeddingDims numbers of an embedding.
	Mean    []float64 `json:"mean"`
	Scale   []float64 `json:"scale"`
	Weights []float64 `json:"weights"` // Window*embeddingDims, oldest embedding first
	Bias    float64   `json:"bias"`
	// Threshold is the logit a spot needs at DefaultSensitivity; every 0.1 of sensitivity
	// above it asks one less (SensitivityStep), below it one more.
	Threshold float64 `json:"threshold"`
	// PhraseSamples is how long the phrase lasts, typically, in the training set: where a
	// spot is taken to start, for the position checks the PocketSphinx engine also makes.
	PhraseSamples int `json:"phrase_samples"`
	// Recipe says how to make this file again, bit for bit.
	Recipe Recipe `json:"recipe"`
}

// SensitivityStep is how much of the logit 0.1 of sensitivity is worth.
const SensitivityStep = 1.0

// Recipe is what reproduces a head: the command, its seed, and digests of what it was
// trained on and of the result.
type Recipe struct {
	Command  string `json:"command"`
	Seed     int64  `json:"seed"`
	Synths   string `json:"synthesizers"`
	Examples int    `json:"examples"`
	Positive int    `json:"positive_examples"`
	// FeaturesSHA256 digests the training matrix (the embeddings and labels); two runs that
	// agree here and in the seed give the same weights.
	FeaturesSHA256 string `json:"features_sha256"`
}

//go:embed heads/*.json
var committedHeads embed.FS

// CommittedHead returns the head trained by the project for phrase, if there is one.
func CommittedHead(phrase string) (*Head, error) {
	b, err := committedHeads.ReadFile("heads/" + strings.ReplaceAll(phrase, " ", "_") + ".json")
	if err != nil {
		return nil, fmt.Errorf("%w: no trained head for %q in this build: train one with reachyctl wake train --phrase %q and set wake_head", ErrModel, phrase, phrase)
	}
	return DecodeHead(b)
}

// LoadHead reads a head file reachyctl wake train wrote.
func LoadHead(path string) (*Head, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrModel, err)
	}
	h, err := DecodeHead(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// DecodeHead parses and checks a head.
func DecodeHead(b []byte) (*Head, error) {
	var h Head
	if err := json.Unmarshal(b, &h); err != nil {
		return nil, fmt.Errorf("%w: head: %v", ErrModel, err)
	}
	if h.Window < 1 || len(h.Weights) != h.Window*embeddingDims || len(h.Mean) != embeddingDims || len(h.Scale) != embeddingDims {
		return nil, fmt.Errorf("%w: head for %q: window %d with %d weights, %d means, %d scales (want window*%d, %d, %d)",
			ErrModel, h.Phrase, h.Window, len(h.Weights), len(h.Mean), len(h.Scale), embeddingDims, embeddingDims, embeddingDims)
	}
	return &h, nil
}

// Encode writes the head as JSON; float64s print exactly, so the file round-trips bit for bit.
func (h *Head) Encode() []byte {
	b, _ := json.MarshalIndent(h, "", " ")
	return append(b, '\n')
}

// logit scores the window of embeddings that ends at embedding i (inclusive).
func (h *Head) logit(emb []float32, i int) float64 {
	z := h.Bias
	first := i - h.Window + 1
	for k := 0; k < h.Window; k++ {
		e := emb[(first+k)*embeddingDims:][:embeddingDims]
		w := h.Weights[k*embeddingDims:][:embeddingDims]
		for d, v := range e {
			z += w[d] * (float64(v) - h.Mean[d]) / h.Scale[d]
		}
	}
	return z
}

// Neural is the neural wake-phrase engine: openWakeWord's feature models (ONNX Runtime)
// and the project's own head for each phrase. Not safe for concurrent use.
type Neural struct {
	features *Features
	heads    []*Head
	needed   []float64
	onset    onsetScratch
}

// NewNeural loads the runtime directory's models and a head for every phrase (o.Heads, or
// the committed ones). A missing runtime returns ErrRuntime with how to install it.
func NewNeural(o Options) (*Neural, error) {
	sens, err := o.sensitivity()
	if err != nil {
		return nil, err
	}
	phrases, err := normalizePhrases(o.Phrases)
	if err != nil {
		return nil, err
	}
	n := &Neural{}
	for _, words := range phrases {
		p := strings.Join(words, " ")
		h := o.Heads[p]
		if h == nil {
			if h, err = CommittedHead(p); err != nil {
				return nil, err
			}
		}
		n.heads = append(n.heads, h)
		n.needed = append(n.needed, h.Threshold-(sens-DefaultSensitivity)*10*SensitivityStep)
	}
	if n.features, err = NewFeatures(o.RuntimeDir); err != nil {
		return nil, err
	}
	return n, nil
}

// Spot scores every window of the utterance with every head and returns the best-scoring
// window (above its threshold by the most) that passes the position checks (a phrase deep in
// speech counts only where a new, louder voice starts, as for PocketSphinx); it is heard when
// that window clears its threshold. A miss still says its best score: the fused engine
// weighs it.
func (n *Neural) Spot(ctx context.Context, samples []float32) (Detection, bool, error) {
	if err := ctx.Err(); err != nil {
		return Detection{}, false, err
	}
	if n.features == nil {
		return Detection{}, false, fmt.Errorf("wake: spotter closed")
	}
	if len(samples) == 0 {
		return Detection{}, false, nil
	}
	window := 0
	for _, h := range n.heads {
		window = max(window, h.Window)
	}
	emb, ends, err := n.features.Embeddings(samples, window)
	if err != nil {
		return Detection{}, false, err
	}
	around := &surroundings{scratch: &n.onset, samples: samples}
	best := Detection{Score: math.Inf(-1)}
	heard := false
	for hi, h := range n.heads {
		for i := h.Window - 1; i < len(ends); i++ {
			z := h.logit(emb, i)
			if z-n.needed[hi] <= best.Score-best.Needed {
				continue
			}
			end := max(0, min(len(samples), ends[i]))
			start := max(0, end-h.PhraseSamples)
			if start > maxPhraseStart && !around.startsAVoice(start) {
				continue // a phrase counts here only where a new, louder voice starts
			}
			best = Detection{Phrase: h.Phrase, Start: start, End: end, Score: z, Needed: n.needed[hi]}
			heard = z >= n.needed[hi]
		}
	}
	if math.IsInf(best.Score, -1) { // no window where a phrase could count
		h := n.heads[0]
		return Detection{Phrase: h.Phrase, Score: n.needed[0] - 30, Needed: n.needed[0]}, false, nil
	}
	return best, heard, nil
}

// Close frees the engine.
func (n *Neural) Close() error {
	if n.features != nil {
		n.features.Close()
		n.features = nil
	}
	return nil
}

// Engines a hub can run (wake_engine).
const (
	EngineSphinx = "sphinx"
	EngineNeural = "neural"
	// EngineEither is addressed when either engine hears the phrase; EngineBoth only when
	// both do.
	EngineEither = "either"
	EngineBoth   = "both"
)

// DefaultEngine is what the measurements chose (docs/security.md has the figures).
const DefaultEngine = EngineSphinx

// New builds the engine o.Engine names ("" is DefaultEngine).
func New(o Options) (Spotter, error) {
	if o.Engine == "" {
		o.Engine = DefaultEngine
	}
	switch o.Engine {
	case EngineSphinx:
		return NewSphinx(o)
	case EngineNeural:
		return NewNeural(o)
	case EngineFused:
		return NewFused(o)
	case EngineEither, EngineBoth:
		nn, err := NewNeural(o)
		if err != nil {
			return nil, err
		}
		sp, err := NewSphinx(o)
		if err != nil {
			nn.Close()
			return nil, err
		}
		return &Combined{First: nn, Second: sp, All: o.Engine == EngineBoth}, nil
	}
	return nil, fmt.Errorf("%w: wake_engine %q: sphinx, neural, fused, either or both", ErrModel, o.Engine)
}

// Combined runs two engines on each utterance: addressed when either hears the phrase, or
// (All) only when both do. The detection is the first engine's when it heard one.
type Combined struct {
	First, Second Spotter
	All           bool
}

// Spot asks the first engine, then the second unless the answer is already decided.
func (c *Combined) Spot(ctx context.Context, samples []float32) (Detection, bool, error) {
	d1, ok1, err := c.First.Spot(ctx, samples)
	if err != nil {
		return Detection{}, false, err
	}
	if ok1 != c.All { // either: heard; both: not heard
		return d1, ok1, nil
	}
	d2, ok2, err := c.Second.Spot(ctx, samples)
	if err != nil {
		return Detection{}, false, err
	}
	if ok1 && ok2 {
		return d1, true, nil
	}
	if ok2 { // either: the second heard what the first did not
		return d2, true, nil
	}
	return d1, false, nil
}

// Close closes both engines.
func (c *Combined) Close() error {
	return errors.Join(c.First.Close(), c.Second.Close())
}
