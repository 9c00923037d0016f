package wake

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"
)

// Examples are the training matrix: one row per window of embeddings, with its label. Rows
// are float32, as the embeddings are.
type Examples struct {
	Window int
	X      []float32 // rows of Window*embeddingDims
	Y      []bool
	// Clip numbers each row's clip (for the threshold: a clip is accepted when any of its
	// windows is).
	Clip []int
	// PhraseSamples adds up the positives' phrase lengths (for Head.PhraseSamples).
	PhraseSamples, Phrases int
	clips                  int
}

// Add cuts one clip's embeddings into labelled windows. A positive clip's windows that end
// within 40 ms before to 200 ms after the phrase's end are positives; those that end before
// the phrase is half said are negatives (only "hey" heard); the rest are left out. Every
// window of a negative clip is a negative.
func (e *Examples) Add(c TrainClip, emb []float32, ends []int) {
	w := e.Window
	clip := e.clips
	e.clips++
	if c.Positive {
		e.PhraseSamples += c.Phrase - c.PhraseStart
		e.Phrases++
	}
	for i := w - 1; i < len(ends); i++ {
		label := false
		if c.Positive {
			switch end := ends[i]; {
			case end >= c.Phrase-SampleRate*4/100 && end <= c.Phrase+SampleRate/5:
				label = true
			case end < (c.PhraseStart+c.Phrase)/2:
			default:
				continue
			}
		}
		e.X = append(e.X, emb[(i-w+1)*embeddingDims:(i+1)*embeddingDims]...)
		e.Y = append(e.Y, label)
		e.Clip = append(e.Clip, clip)
	}
}

// Append adds another set's rows (the same window).
func (e *Examples) Append(o *Examples) {
	for i := range o.Clip {
		e.Clip = append(e.Clip, o.Clip[i]+e.clips)
	}
	e.clips += o.clips
	e.X = append(e.X, o.X...)
	e.Y = append(e.Y, o.Y...)
	e.PhraseSamples += o.PhraseSamples
	e.Phrases += o.Phrases
}

// WriteTo writes the examples in a little-endian binary form (the training cache).
func (e *Examples) WriteTo(w io.Writer) (int64, error) {
	hdr := []int64{int64(e.Window), int64(len(e.Y)), int64(e.PhraseSamples), int64(e.Phrases), int64(e.clips)}
	if err := binary.Write(w, binary.LittleEndian, hdr); err != nil {
		return 0, err
	}
	ys := make([]byte, len(e.Y))
	for i, y := range e.Y {
		if y {
			ys[i] = 1
		}
	}
	clips := make([]int32, len(e.Clip))
	for i, c := range e.Clip {
		clips[i] = int32(c)
	}
	for _, v := range []any{ys, clips, e.X} {
		if err := binary.Write(w, binary.LittleEndian, v); err != nil {
			return 0, err
		}
	}
	return int64(40 + len(ys) + 4*len(clips) + 4*len(e.X)), nil
}

// ReadExamples reads what WriteTo wrote.
func ReadExamples(r io.Reader) (*Examples, error) {
	hdr := make([]int64, 5)
	if err := binary.Read(r, binary.LittleEndian, hdr); err != nil {
		return nil, fmt.Errorf("training cache: %w", err)
	}
	if hdr[0] < 1 || hdr[0] > 64 || hdr[1] < 0 || hdr[1] > 1<<24 {
		return nil, fmt.Errorf("training cache: bad header %v", hdr)
	}
	e := &Examples{Window: int(hdr[0]), PhraseSamples: int(hdr[2]), Phrases: int(hdr[3]), clips: int(hdr[4])}
	n := int(hdr[1])
	ys := make([]byte, n)
	clips := make([]int32, n)
	e.X = make([]float32, n*e.Window*embeddingDims)
	for _, v := range []any{ys, clips, e.X} {
		if err := binary.Read(r, binary.LittleEndian, v); err != nil {
			return nil, fmt.Errorf("training cache: %w", err)
		}
	}
	e.Y = make([]bool, n)
	e.Clip = make([]int, n)
	for i := range ys {
		e.Y[i], e.Clip[i] = ys[i] == 1, int(clips[i])
	}
	return e, nil
}

// Digest is the sha256 of the examples (rows, labels and clip numbers, in order).
func (e *Examples) Digest() string {
	h := sha256.New()
	e.WriteTo(h)
	return hex.EncodeToString(h.Sum(nil))
}

// Positives counts the positive rows.
func (e *Examples) Positives() int {
	n := 0
	for _, y := range e.Y {
		if y {
			n++
		}
	}
	return n
}

// TrainOptions configure Train.
type TrainOptions struct {
	Phrase string
	// L2 is the weight decay (on standardized features); 0 means 3 (chosen on the flite
	// set: 1e-3 and 0.1 let the head learn the training sentences and accept look-alikes).
	L2 float64
	// MaxIterations bounds the optimizer; 0 means 300.
	MaxIterations int
	// NegativeAccepts is the share of negative training clips the threshold lets through
	// at DefaultSensitivity; 0 means 0.5%.
	NegativeAccepts float64
	Recipe          Recipe
}

// Train fits a logistic-regression head to the examples: class-balanced cross-entropy with
// L2 decay, minimized by L-BFGS (gonum) from zero weights. Nothing in it is random and it
// runs on one goroutine, so the same examples give the same head, bit for bit.
func Train(e *Examples, o TrainOptions) (*Head, error) {
	dims := e.Window * embeddingDims
	n := len(e.Y)
	pos := e.Positives()
	if pos == 0 || pos == n {
		return nil, fmt.Errorf("training needs positive and negative windows (have %d of %d positive)", pos, n)
	}
	if o.L2 == 0 {
		o.L2 = 3
	}
	if o.MaxIterations == 0 {
		o.MaxIterations = 300
	}
	if o.NegativeAccepts == 0 {
		o.NegativeAccepts = 0.005
	}
	// Standardize each embedding number over every window position of every row.
	mean, scale := make([]float64, embeddingDims), make([]float64, embeddingDims)
	rows := float64(n * e.Window)
	for i, v := range e.X {
		mean[i%embeddingDims] += float64(v)
	}
	for d := range mean {
		mean[d] /= rows
	}
	for i, v := range e.X {
		x := float64(v) - mean[i%embeddingDims]
		scale[i%embeddingDims] += x * x
	}
	for d := range scale {
		scale[d] = math.Sqrt(scale[d]/rows) + 1e-6
	}
	z := make([]float64, len(e.X))
	for i, v := range e.X {
		z[i] = (float64(v) - mean[i%embeddingDims]) / scale[i%embeddingDims]
	}
	wPos, wNeg := 0.5/float64(pos), 0.5/float64(n-pos)
	loss := func(p, grad []float64) float64 {
		w, b := p[:dims], p[dims]
		f := 0.0
		if grad != nil {
			clear(grad)
		}
		for r := 0; r < n; r++ {
			row := z[r*dims : (r+1)*dims]
			s := b
			for d, x := range row {
				s += w[d] * x
			}
			y, wt := 0.0, wNeg
			if e.Y[r] {
				y, wt = 1, wPos
			}
			// log(1+exp(s)) - y*s, computed stably.
			f += wt * (math.Max(s, 0) + math.Log1p(math.Exp(-math.Abs(s))) - y*s)
			if grad != nil {
				g := wt * (1/(1+math.Exp(-s)) - y)
				for d, x := range row {
					grad[d] += g * x
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
	prob := optimize.Problem{
		Func: func(p []float64) float64 { return loss(p, nil) },
		Grad: func(grad, p []float64) { loss(p, grad) },
	}
	res, err := optimize.Minimize(prob, make([]float64, dims+1), &optimize.Settings{
		MajorIterations: o.MaxIterations, Concurrent: 0, GradientThreshold: 1e-7,
	}, &optimize.LBFGS{})
	if err != nil && res == nil {
		return nil, fmt.Errorf("training: %w", err)
	}
	h := &Head{Phrase: o.Phrase, Window: e.Window, Mean: mean, Scale: scale, Weights: slices.Clone(res.X[:dims]), Bias: res.X[dims], Recipe: o.Recipe}
	if e.Phrases > 0 {
		h.PhraseSamples = e.PhraseSamples / e.Phrases
	}
	// The threshold: the best window of each negative clip, and the logit that lets
	// NegativeAccepts of those clips through.
	best := map[int]float64{}
	for r := 0; r < n; r++ {
		if e.Y[r] {
			continue
		}
		s := h.Bias
		for d, x := range z[r*dims : (r+1)*dims] {
			s += h.Weights[d] * x
		}
		if v, ok := best[e.Clip[r]]; !ok || s > v {
			best[e.Clip[r]] = s
		}
	}
	var negs []float64
	for _, v := range best {
		negs = append(negs, v)
	}
	slices.Sort(negs)
	k := min(len(negs)-1, int(math.Ceil(float64(len(negs))*(1-o.NegativeAccepts))))
	h.Threshold = math.Max(0, negs[k])
	h.Recipe.Examples, h.Recipe.Positive = n, pos
	return h, nil
}
