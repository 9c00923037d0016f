package wake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/optimize"
)

// EngineFused runs both engines on every utterance and decides once from both engines'
// evidence (Fusion), rather than by a vote.
const EngineFused = "fused"

// Evidence is what the two engines said about one utterance: the neural head's best logit
// over the windows where a phrase may count (and where that window ends), and PocketSphinx's
// spot, if its rule heard one (its score per phone, what it needed, where it lies).
type Evidence struct {
	Neural       float64 // the head's best logit
	NeuralNeeded float64 // the head's own threshold (at the default sensitivity)
	NeuralEnd    int     // samples
	Sphinx       bool    // PocketSphinx's rule heard the phrase
	SphinxScore  float64 // decimal log per phone
	SphinxNeeded float64
	SphinxStart  int
	SphinxEnd    int
}

// FusionFeatures names the numbers a Fusion weighs, in order.
var FusionFeatures = []string{"neural_margin", "sphinx_heard", "sphinx_margin", "ends_agree", "sphinx_phrase_seconds"}

// features turns the evidence into the fusion's numbers: the neural logit above its own
// threshold; whether PocketSphinx heard the phrase, by how much, whether the two engines put
// the phrase's end at the same place (1 when they agree, falling off over a quarter second),
// and how long PocketSphinx's phrase lasts (its timing: look-alikes are often squeezed).
func (e Evidence) features() []float64 {
	f := make([]float64, len(FusionFeatures))
	f[0] = max(-30, min(30, e.Neural-e.NeuralNeeded))
	if e.Sphinx {
		f[1] = 1
		f[2] = max(0, min(10, e.SphinxScore-e.SphinxNeeded))
		f[3] = math.Exp(-math.Abs(float64(e.NeuralEnd-e.SphinxEnd)) / (SampleRate / 4))
		f[4] = max(0, min(3, float64(e.SphinxEnd-e.SphinxStart)/SampleRate))
	}
	return f
}

// Fusion is a logistic model over Evidence, fitted by FitFusion on training clips only. Its
// score is the logit; a spot needs Threshold at DefaultSensitivity, one less for every 0.1 of
// sensitivity above it (SensitivityStep), one more below.
type Fusion struct {
	Phrase   string    `json:"phrase"`
	Features []string  `json:"features"`
	Mean     []float64 `json:"mean"`
	Scale    []float64 `json:"scale"`
	Weights  []float64 `json:"weights"`
	Bias     float64   `json:"bias"`
	// Threshold lets NegativeAccepts of the negative training clips through.
	Threshold float64      `json:"threshold"`
	Recipe    FusionRecipe `json:"recipe"`
}

// FusionRecipe says how a fusion was made: the command, what it was fitted on, and a digest
// of its rows.
type FusionRecipe struct {
	Command     string `json:"command"`
	Synths      string `json:"synthesizers"`
	Clips       int    `json:"clips"`
	Positive    int    `json:"positive_clips"`
	RowsSHA256  string `json:"rows_sha256"`
	HeadsAreOut string `json:"neural_scores"`
}

// Logit is the fusion's score for the evidence.
func (f *Fusion) Logit(e Evidence) float64 {
	z := f.Bias
	for i, x := range e.features() {
		z += f.Weights[i] * (x - f.Mean[i]) / f.Scale[i]
	}
	return z
}

// Encode writes the fusion as JSON (float64s round-trip exactly).
func (f *Fusion) Encode() []byte {
	b, _ := json.MarshalIndent(f, "", " ")
	return append(b, '\n')
}

// DecodeFusion parses and checks a fusion.
func DecodeFusion(b []byte) (*Fusion, error) {
	var f Fusion
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%w: fusion: %v", ErrModel, err)
	}
	n := len(FusionFeatures)
	if !slices.Equal(f.Features, FusionFeatures) || len(f.Weights) != n || len(f.Mean) != n || len(f.Scale) != n {
		return nil, fmt.Errorf("%w: fusion for %q weighs %v with %d weights; this build weighs %v", ErrModel, f.Phrase, f.Features, len(f.Weights), FusionFeatures)
	}
	return &f, nil
}

// CommittedFusion returns the fusion fitted by the project for phrase, if there is one.
func CommittedFusion(phrase string) (*Fusion, error) {
	b, err := committedHeads.ReadFile("heads/" + strings.ReplaceAll(phrase, " ", "_") + ".fusion.json")
	if err != nil {
		return nil, fmt.Errorf("%w: no fusion for %q in this build: fit one with reachyctl wake fuse --phrase %q", ErrModel, phrase, phrase)
	}
	return DecodeFusion(b)
}

// FusionOptions configure FitFusion.
type FusionOptions struct {
	Phrase string
	// L2 is the weight decay on standardized features; 0 means 0.01.
	L2 float64
	// NegativeAccepts is the share of negative training clips the threshold lets through; 0
	// means 0.5%, as for the head.
	NegativeAccepts float64
	Recipe          FusionRecipe
}

// FitFusion fits a fusion to one row of evidence per training clip: class-balanced
// cross-entropy with L2 decay, minimized by L-BFGS (gonum) from zero weights on one
// goroutine, so the same rows give the same fusion, bit for bit.
func FitFusion(rows []Evidence, positive []bool, o FusionOptions) (*Fusion, error) {
	n, dims := len(rows), len(FusionFeatures)
	pos := 0
	for _, p := range positive {
		if p {
			pos++
		}
	}
	if len(positive) != n || pos == 0 || pos == n {
		return nil, fmt.Errorf("fitting a fusion needs positive and negative clips (have %d of %d positive)", pos, n)
	}
	if o.L2 == 0 {
		o.L2 = 0.01
	}
	if o.NegativeAccepts == 0 {
		o.NegativeAccepts = 0.005
	}
	x := make([][]float64, n)
	mean, scale := make([]float64, dims), make([]float64, dims)
	for i, e := range rows {
		x[i] = e.features()
		for d, v := range x[i] {
			mean[d] += v
		}
	}
	for d := range mean {
		mean[d] /= float64(n)
	}
	for _, r := range x {
		for d, v := range r {
			scale[d] += (v - mean[d]) * (v - mean[d])
		}
	}
	for d := range scale {
		scale[d] = math.Sqrt(scale[d]/float64(n)) + 1e-6
	}
	for _, r := range x {
		for d := range r {
			r[d] = (r[d] - mean[d]) / scale[d]
		}
	}
	wPos, wNeg := 0.5/float64(pos), 0.5/float64(n-pos)
	loss := func(p, grad []float64) float64 {
		w, b := p[:dims], p[dims]
		f := 0.0
		if grad != nil {
			clear(grad)
		}
		for i, r := range x {
			s := b
			for d, v := range r {
				s += w[d] * v
			}
			y, wt := 0.0, wNeg
			if positive[i] {
				y, wt = 1, wPos
			}
			f += wt * (math.Max(s, 0) + math.Log1p(math.Exp(-math.Abs(s))) - y*s)
			if grad != nil {
				g := wt * (1/(1+math.Exp(-s)) - y)
				for d, v := range r {
					grad[d] += g * v
				}
				grad[dims] += g
			}
		}
		for d := 0; d < dims; d++ {
			f += 0.5 * o.L2 * w[d] * w[d]
			if grad != nil {
				grad[d] += o.L2 * w[d]
			}
		}
		return f
	}
	res, err := optimize.Minimize(optimize.Problem{
		Func: func(p []float64) float64 { return loss(p, nil) },
		Grad: func(grad, p []float64) { loss(p, grad) },
	}, make([]float64, dims+1), &optimize.Settings{MajorIterations: 500, GradientThreshold: 1e-9}, &optimize.LBFGS{})
	if err != nil && res == nil {
		return nil, fmt.Errorf("fitting the fusion: %w", err)
	}
	f := &Fusion{Phrase: o.Phrase, Features: slices.Clone(FusionFeatures), Mean: mean, Scale: scale,
		Weights: slices.Clone(res.X[:dims]), Bias: res.X[dims], Recipe: o.Recipe}
	var negs []float64
	for i, e := range rows {
		if !positive[i] {
			negs = append(negs, f.Logit(e))
		}
	}
	slices.Sort(negs)
	k := min(len(negs)-1, int(math.Ceil(float64(len(negs))*(1-o.NegativeAccepts))))
	f.Threshold = negs[k]
	f.Recipe.Clips, f.Recipe.Positive = n, pos
	return f, nil
}

// Fused is the fused engine: the neural engine and PocketSphinx, both at the default
// sensitivity (the evidence the fusion was fitted on), on every utterance, and one decision
// from their evidence. Not safe for concurrent use.
type Fused struct {
	neural  Spotter // *Neural, or the wake process running it (StartFused)
	sphinx  *Sphinx
	fusions map[string]*Fusion
	sens    float64
}

// NewFused builds both engines in this process and takes a fusion for every phrase
// (o.Fusions, or the committed ones).
func NewFused(o Options) (*Fused, error) {
	f, inner, err := newFusedShell(o)
	if err != nil {
		return nil, err
	}
	nn, err := NewNeural(inner)
	if err != nil {
		return nil, err
	}
	if f.sphinx, err = NewSphinx(inner); err != nil {
		nn.Close()
		return nil, err
	}
	f.neural = nn
	return f, nil
}

// StartFused is the fused engine as the hub runs it: PocketSphinx in the hub (as for the
// default engine: the hub keeps its 40 MB) and the neural engine in the wake process at path
// (its own 60 MB), asked at the same time; the fusion decides in the hub.
func StartFused(path string, o Options, log *slog.Logger) (*Fused, error) {
	f, inner, err := newFusedShell(o)
	if err != nil {
		return nil, err
	}
	if f.sphinx, err = NewSphinx(inner); err != nil {
		return nil, err
	}
	inner.Engine = EngineNeural
	p, err := StartProcess(path, inner, log)
	if err != nil {
		f.sphinx.Close()
		return nil, err
	}
	f.neural = p
	return f, nil
}

// StartCombined is either or both (o.Engine) as the hub runs them: the neural engine in the
// wake process at path, PocketSphinx in the hub, like StartFused.
func StartCombined(path string, o Options, log *slog.Logger) (*Combined, error) {
	sp, err := NewSphinx(o)
	if err != nil {
		return nil, err
	}
	inner := o
	inner.Engine = EngineNeural
	p, err := StartProcess(path, inner, log)
	if err != nil {
		sp.Close()
		return nil, err
	}
	return &Combined{First: p, Second: sp, All: o.Engine == EngineBoth}, nil
}

// newFusedShell checks the options and takes the fusions; inner are the options both engines
// run with (the default sensitivity: the evidence the fusions were fitted on).
func newFusedShell(o Options) (*Fused, Options, error) {
	sens, err := o.sensitivity()
	if err != nil {
		return nil, o, err
	}
	phrases, err := normalizePhrases(o.Phrases)
	if err != nil {
		return nil, o, err
	}
	f := &Fused{fusions: map[string]*Fusion{}, sens: sens}
	for _, words := range phrases {
		p := strings.Join(words, " ")
		fu := o.Fusions[p]
		if fu == nil {
			if fu, err = CommittedFusion(p); err != nil {
				return nil, o, err
			}
		}
		f.fusions[p] = fu
	}
	inner := o
	inner.Sensitivity = DefaultSensitivity
	return f, inner, nil
}

// Spot asks both engines and decides from their evidence. The detection is PocketSphinx's
// when it heard the phrase (its alignment says where the phrase starts), else the neural
// engine's; its Score is the fusion's logit and Needed what the sensitivity asks of it.
func (f *Fused) Spot(ctx context.Context, samples []float32) (Detection, bool, error) {
	type answer struct {
		d   Detection
		err error
	}
	neural := make(chan answer, 1)
	ask := func() {
		d, _, err := f.neural.Spot(ctx, samples)
		neural <- answer{d, err}
	}
	var n answer
	var ds Detection
	var heard bool
	var err error
	if _, remote := f.neural.(*Process); remote {
		go ask() // the wake process works on its own core meanwhile
		ds, heard, err = f.sphinx.Spot(ctx, samples)
		n = <-neural
	} else {
		ask() // in this process: one thread, so its CPU time is the engines' cost
		n = <-neural
		ds, heard, err = f.sphinx.Spot(ctx, samples)
	}
	if err == nil {
		err = n.err
	}
	if err != nil {
		return Detection{}, false, err
	}
	d, ok := f.decide(n.d, ds, heard)
	return d, ok, nil
}

// decide is the fusion's decision from the two engines' detections (Spot's, and
// FuseVerdicts' from verdicts measured apart).
func (f *Fused) decide(dn, ds Detection, heard bool) (Detection, bool) {
	d := dn
	if heard {
		d = ds
	}
	fu := f.fusions[d.Phrase]
	if fu == nil {
		for _, v := range f.fusions { // a miss of both: any phrase's fusion scores it
			if fu == nil || v.Phrase < fu.Phrase {
				fu = v
			}
		}
	}
	z := fu.Logit(EvidenceOf(dn, ds, heard))
	d.Score, d.Needed, d.Denoised = z, fu.Threshold-(f.sens-DefaultSensitivity)*10*SensitivityStep, heard && ds.Denoised
	return d, z >= d.Needed
}

// EvidenceOf is the evidence in the two engines' detections (the neural one's Needed is its
// head's threshold at the default sensitivity).
func EvidenceOf(dn, ds Detection, heard bool) Evidence {
	e := Evidence{Neural: dn.Score, NeuralNeeded: dn.Needed, NeuralEnd: dn.End}
	if heard {
		e.Sphinx, e.SphinxScore, e.SphinxNeeded, e.SphinxStart, e.SphinxEnd = true, ds.Score, ds.Needed, ds.Start, ds.End
	}
	return e
}

// Close frees both engines.
func (f *Fused) Close() error {
	return errors.Join(f.neural.Close(), f.sphinx.Close())
}

// FuseVerdicts is what the fused engine decides on each clip, from the neural engine's and
// PocketSphinx's verdicts measured apart at the default sensitivity (the same decision as
// Fused.Spot: TestFusedDecidesAsItsVerdicts); the cost is both engines'.
func FuseVerdicts(fu *Fusion, sphinx, neural []Verdict) []Verdict {
	f := &Fused{fusions: map[string]*Fusion{fu.Phrase: fu}, sens: DefaultSensitivity}
	out := make([]Verdict, len(sphinx))
	for i := range sphinx {
		s, n := sphinx[i], neural[i]
		ds := Detection{Phrase: fu.Phrase, Score: s.Score, Needed: s.Needed, Start: s.Start, End: s.End}
		dn := Detection{Phrase: fu.Phrase, Score: n.Score, Needed: n.Needed, Start: n.Start, End: n.End}
		d, ok := f.decide(dn, ds, s.OK)
		out[i] = Verdict{OK: ok, Score: d.Score, Needed: d.Needed, Start: d.Start, End: d.End, Samples: s.Samples, Secs: s.Secs + n.Secs}
	}
	return out
}

// SecondListens counts the utterances PocketSphinx heard a second time, denoised.
func (f *Fused) SecondListens() int { return f.sphinx.SecondListens() }
