package wake

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNeuralRefusesWithoutItsRuntime: a neural engine asked for where ONNX Runtime and the
// feature models are not installed is a configuration error (ErrRuntime) that says how to
// install them; so is an incomplete directory.
func TestNeuralRefusesWithoutItsRuntime(t *testing.T) {
	empty := t.TempDir()
	partial := t.TempDir()
	os.WriteFile(filepath.Join(partial, MelModel), []byte("not a model"), 0o644)
	for _, engine := range []string{EngineNeural, EngineEither, EngineBoth} {
		for _, dir := range []string{empty, partial} {
			sp, err := New(Options{Engine: engine, Phrases: []string{"hey reachy"}, RuntimeDir: dir})
			if err == nil {
				sp.Close()
				t.Fatalf("%s in %s: built an engine", engine, dir)
			}
			if !errors.Is(err, ErrRuntime) || !strings.Contains(err.Error(), "deploy/scripts/wake-neural.sh") || !strings.Contains(err.Error(), RuntimeLibrary) {
				t.Errorf("%s in %s: %v", engine, dir, err)
			}
		}
	}
	if _, err := New(Options{Engine: "neurall", Phrases: []string{"hey reachy"}}); err == nil || !strings.Contains(err.Error(), "sphinx, neural, fused, either or both") {
		t.Errorf("an unknown engine: %v", err)
	}
}

// fakeSpotter answers ok and counts its calls.
type fakeSpotter struct {
	ok    bool
	calls int
}

func (f *fakeSpotter) Spot(context.Context, []float32) (Detection, bool, error) {
	f.calls++
	return Detection{Phrase: "hey reachy", Score: 1}, f.ok, nil
}
func (f *fakeSpotter) Close() error { return nil }

// TestCombinedEitherAndBoth: either engine hearing the phrase addresses the robot in "either"
// mode, only both in "both" mode; the second engine is not asked when the first decided.
func TestCombinedEitherAndBoth(t *testing.T) {
	for _, c := range []struct {
		all, a, b, want bool
		secondCalls     int
	}{
		{false, true, false, true, 0}, {false, false, true, true, 1}, {false, false, false, false, 1},
		{true, true, true, true, 1}, {true, true, false, false, 1}, {true, false, true, false, 0},
	} {
		a, b := &fakeSpotter{ok: c.a}, &fakeSpotter{ok: c.b}
		_, ok, err := (&Combined{First: a, Second: b, All: c.all}).Spot(context.Background(), make([]float32, 100))
		if err != nil || ok != c.want || b.calls != c.secondCalls {
			t.Errorf("all=%v first=%v second=%v: ok %v (err %v), second asked %d times; want %v, %d", c.all, c.a, c.b, ok, err, b.calls, c.want, c.secondCalls)
		}
	}
	vs := CombineVerdicts([]Verdict{{OK: true}, {OK: false}, {OK: true}}, []Verdict{{OK: false}, {OK: false}, {OK: true}}, true)
	if vs[0].OK || vs[1].OK || !vs[2].OK {
		t.Errorf("both-agree verdicts %v", vs)
	}
}

// TestTrainSeparatesAndIsDeterministic: on examples where one embedding number in the last
// window position marks the positives, the trained head scores every positive above its
// threshold and almost every negative below, and training twice gives the same bytes.
func TestTrainSeparatesAndIsDeterministic(t *testing.T) {
	e := &Examples{Window: 2}
	var x uint32 = 12345
	rnd := func() float32 { x = x*1664525 + 1013904223; return float32(x>>8)/float32(1<<24) - 0.5 }
	for r := 0; r < 400; r++ {
		row := make([]float32, 2*embeddingDims)
		for i := range row {
			row[i] = rnd()
		}
		pos := r%4 == 0
		if pos {
			row[embeddingDims+7] += 3
		}
		e.X = append(e.X, row...)
		e.Y = append(e.Y, pos)
		e.Clip = append(e.Clip, r)
	}
	e.clips = 400
	h1, err := Train(e, TrainOptions{Phrase: "hey reachy"})
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := Train(e, TrainOptions{Phrase: "hey reachy"})
	if !bytes.Equal(h1.Encode(), h2.Encode()) {
		t.Fatal("two trainings on the same examples differ")
	}
	back, err := DecodeHead(h1.Encode())
	if err != nil || !bytes.Equal(back.Encode(), h1.Encode()) {
		t.Fatalf("the head does not round-trip: %v", err)
	}
	missed := 0
	for r := 0; r < 400; r++ {
		z := h1.logit(e.X[r*2*embeddingDims:(r+1)*2*embeddingDims], 1)
		if e.Y[r] && z < h1.Threshold {
			missed++
		}
	}
	if missed > 2 {
		t.Errorf("%d of 100 positives under the threshold %.2f", missed, h1.Threshold)
	}
}

// TestTrainingReproducesBitForBit: the whole recipe — synthesized clips, noise and reverb
// from the seed, embeddings, training — run twice on a handful of clips gives the same
// examples and the same head file, byte for byte. Needs the runtime
// (deploy/scripts/wake-neural.sh, run by make test).
func TestTrainingReproducesBitForBit(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	once := func() ([]byte, string) {
		f, err := NewFeatures("")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		set := TrainSet{Phrase: "hey reachy", Synths: []string{SynthEspeak}, Seed: 7, Copies: 1, Limit: 2,
			Sentences: []string{"is the garage door open"}}
		e := &Examples{Window: 16}
		err = set.Generate(ctx, func(c TrainClip) error {
			emb, ends, err := f.Embeddings(c.Samples, 16)
			if err == nil {
				e.Add(c, emb, ends)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		h, err := Train(e, TrainOptions{Phrase: "hey reachy", MaxIterations: 40, Recipe: Recipe{Seed: 7, FeaturesSHA256: e.Digest()}})
		if err != nil {
			t.Fatal(err)
		}
		return h.Encode(), e.Digest()
	}
	h1, d1 := once()
	h2, d2 := once()
	if d1 != d2 {
		t.Fatalf("the same seed made different examples: %s and %s", d1, d2)
	}
	if !bytes.Equal(h1, h2) {
		t.Fatal("the same examples trained different heads")
	}
}
