package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/reachy-broker/reachy-broker/robot/wake"
)

// trainFlags are reachyctl wake train's settings.
type trainFlags struct {
	phrase, synths, out, cache, sentences, runtimeDir string
	seed                                              int64
	copies, limit                                     int
	l2                                                float64
}

// defaultTrainSentences is the outside corpus the training set takes its ordinary negatives
// from (the sentences of it the evaluation set does not use), when run from the repository.
const defaultTrainSentences = "intents/testdata/ha-intents-en.tsv"

// trainSentenceCount is how many outside sentences the training set says.
const trainSentenceCount = 120

// trainCacheVersion changes whenever what a synthesizer's examples hold changes.
const trainCacheVersion = "wake-train-3"

// runWakeTrain trains a head and writes it, with the command that made it.
func runWakeTrain(f trainFlags, stdout, stderr io.Writer) error {
	if f.out == "" {
		f.out = strings.ReplaceAll(f.phrase, " ", "_") + ".json"
	}
	head, err := trainHead(context.Background(), f, stderr)
	if err != nil {
		return err
	}
	if err := os.WriteFile(f.out, head.Encode(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: head for %q trained on %d windows of embeddings (%d positive), threshold %.2f\nmade by: %s\n",
		f.out, head.Phrase, head.Recipe.Examples, head.Recipe.Positive, head.Threshold, head.Recipe.Command)
	return nil
}

// trainHead makes (or reads from the cache) each synthesizer's examples and trains on them.
func trainHead(ctx context.Context, f trainFlags, log io.Writer) (*wake.Head, error) {
	synths := strings.Split(f.synths, ",")
	for _, s := range synths {
		if s != wake.SynthEspeak && s != wake.SynthFlite && s != wake.SynthFestival {
			return nil, fmt.Errorf("%w: --synths %q: a comma list of espeak-ng, flite, festival", errUsage, f.synths)
		}
	}
	t, err := newTrainer(f)
	if err != nil {
		return nil, err
	}
	defer t.close()
	all := &wake.Examples{Window: headWindow}
	for _, syn := range synths {
		ex, _, err := t.data(ctx, syn, log)
		if err != nil {
			return nil, err
		}
		all.Append(ex)
	}
	cmd := fmt.Sprintf("reachyctl wake train --phrase %q --synths %s --seed %d --copies %d", f.phrase, f.synths, f.seed, f.copies)
	if f.limit > 0 {
		cmd += fmt.Sprintf(" --limit %d", f.limit)
	}
	if t.path != "" {
		cmd += " --sentences " + t.path
	}
	if f.l2 != 0 {
		cmd += fmt.Sprintf(" --l2 %v", f.l2)
	}
	return wake.Train(all, wake.TrainOptions{Phrase: f.phrase, L2: f.l2, Recipe: wake.Recipe{Command: cmd, Seed: f.seed, Synths: f.synths,
		FeaturesSHA256: all.Digest()}})
}

// trainer makes and caches each synthesizer's part of the training set: the head's examples
// and, for the fusion, every clip's embeddings and PocketSphinx's verdict, in one pass.
type trainer struct {
	f         trainFlags
	path      string // the outside sentences' file
	sentences []string
	feats     *wake.Features
	sphinx    *wake.Sphinx
}

func newTrainer(f trainFlags) (*trainer, error) {
	t := &trainer{f: f, path: f.sentences}
	if t.path == "" {
		if _, err := os.Stat(defaultTrainSentences); err == nil {
			t.path = defaultTrainSentences
		}
	}
	if t.path != "" {
		all, err := wake.ReadSentences(t.path)
		if err != nil {
			return nil, err
		}
		t.sentences = wake.TrainSentences(all, trainSentenceCount)
	}
	if t.f.cache == "" {
		home, err := os.UserCacheDir()
		if err != nil {
			return nil, err
		}
		t.f.cache = filepath.Join(home, "reachy-broker", trainCacheVersion)
	}
	if err := os.MkdirAll(t.f.cache, 0o755); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *trainer) close() {
	if t.feats != nil {
		t.feats.Close()
	}
	if t.sphinx != nil {
		t.sphinx.Close()
	}
}

// data returns synthesizer syn's examples and clips, from the cache or made now.
func (t *trainer) data(ctx context.Context, syn string, log io.Writer) (*wake.Examples, []wake.ClipEvidence, error) {
	f := t.f
	name := fmt.Sprintf("%s-seed%d-copies%d-limit%d-sentences%d-%s", strings.ReplaceAll(f.phrase, " ", "_"), f.seed, f.copies, f.limit, len(t.sentences), syn)
	exPath, evPath := filepath.Join(f.cache, name+".examples"), filepath.Join(f.cache, name+".evidence")
	if ex, ev, err := readTrainCache(exPath, evPath); err == nil {
		return ex, ev, nil
	}
	var err error
	if t.feats == nil {
		if t.feats, err = wake.NewFeatures(f.runtimeDir); err != nil {
			return nil, nil, err
		}
	}
	if t.sphinx == nil {
		if t.sphinx, err = wake.NewSphinx(wake.Options{Phrases: []string{f.phrase}}); err != nil {
			return nil, nil, err
		}
	}
	fmt.Fprintf(log, "wake train: %s says the training set (seed %d): embeddings and PocketSphinx on one core...\n", syn, f.seed)
	set := wake.TrainSet{Phrase: f.phrase, Seed: uint64(f.seed), Sentences: t.sentences, Copies: f.copies, Limit: f.limit}
	ex := &wake.Examples{Window: headWindow}
	var ev []wake.ClipEvidence
	err = set.GenerateSynth(ctx, syn, func(c wake.TrainClip) error {
		emb, ends, err := t.feats.Embeddings(c.Samples, headWindow)
		if err != nil {
			return err
		}
		ex.Add(c, emb, ends)
		d, ok, err := t.sphinx.Spot(ctx, c.Samples)
		if err != nil {
			return err
		}
		ev = append(ev, wake.ClipEvidence{Positive: c.Positive, Samples: len(c.Samples), Emb: emb, Ends: ends,
			Sphinx: wake.Verdict{OK: ok, Score: d.Score, Needed: d.Needed, Start: d.Start, End: d.End, Samples: len(c.Samples)}})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(log, "wake train: %s: %d clips, %d windows (%d positive)\n", syn, len(ev), len(ex.Y), ex.Positives())
	if err := writeAtomic(exPath, func(w io.Writer) error { _, err := ex.WriteTo(w); return err }); err != nil {
		return nil, nil, err
	}
	if err := writeAtomic(evPath, func(w io.Writer) error { return wake.WriteClipEvidence(w, ev) }); err != nil {
		return nil, nil, err
	}
	return ex, ev, nil
}

func readTrainCache(exPath, evPath string) (*wake.Examples, []wake.ClipEvidence, error) {
	r, err := os.Open(exPath)
	if err != nil {
		return nil, nil, err
	}
	ex, err := wake.ReadExamples(bufio.NewReader(r))
	r.Close()
	if err != nil || ex.Window != headWindow {
		return nil, nil, fmt.Errorf("%s: %v", exPath, err)
	}
	r, err = os.Open(evPath)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	ev, err := wake.ReadClipEvidence(bufio.NewReader(r))
	if err != nil {
		return nil, nil, err
	}
	return ex, ev, nil
}

// writeAtomic writes a file through a temporary one, so a cut run leaves no half file.
func writeAtomic(path string, write func(io.Writer) error) error {
	tmp := path + ".tmp"
	w, err := os.Create(tmp)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if err := write(bw); err != nil {
		w.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// cachedHead is a head trained on synths (in the cache: training holds one synthesizer out
// for every rotation and for the fusion's rows).
func cachedHead(ctx context.Context, f trainFlags, synths []string, log io.Writer) (*wake.Head, string, error) {
	cache, err := trainCache(f)
	if err != nil {
		return nil, "", err
	}
	path := filepath.Join(cache, fmt.Sprintf("head-%s-seed%d-copies%d-limit%d-l2%v-on-%s.json", strings.ReplaceAll(f.phrase, " ", "_"), f.seed, f.copies, f.limit, f.l2, strings.Join(synths, "+")))
	if h, err := wake.LoadHead(path); err == nil {
		return h, path, nil
	}
	f.synths = strings.Join(synths, ",")
	h, err := trainHead(ctx, f, log)
	if err != nil {
		return nil, "", err
	}
	return h, path, os.WriteFile(path, h.Encode(), 0o644)
}

func trainCache(f trainFlags) (string, error) {
	if f.cache != "" {
		return f.cache, nil
	}
	home, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, "reachy-broker", trainCacheVersion), nil
}

// fitFusion fits the fused engine's model on synths' training clips, each clip scored by a
// head trained on the other synthesizers only (so the neural scores it learns from are
// held-out scores, as they will be on speech no head has heard).
func fitFusion(ctx context.Context, f trainFlags, synths []string, log io.Writer) (*wake.Fusion, error) {
	if len(synths) < 2 {
		return nil, fmt.Errorf("%w: a fusion needs two synthesizers or more (each one's clips are scored by a head trained on the others)", errUsage)
	}
	t, err := newTrainer(f)
	if err != nil {
		return nil, err
	}
	defer t.close()
	var clips []wake.ClipEvidence
	var heads []*wake.Head
	var used []string
	for _, syn := range synths {
		_, ev, err := t.data(ctx, syn, log)
		if err != nil {
			return nil, err
		}
		var others []string
		for _, o := range synths {
			if o != syn {
				others = append(others, o)
			}
		}
		h, path, err := cachedHead(ctx, f, others, log)
		if err != nil {
			return nil, err
		}
		used = append(used, fmt.Sprintf("%s by %s", syn, filepath.Base(path)))
		for range ev {
			heads = append(heads, h)
		}
		clips = append(clips, ev...)
	}
	rows, pos := wake.FusionRows(clips, heads)
	cmd := fmt.Sprintf("reachyctl wake fuse --phrase %q --synths %s --seed %d --copies %d", f.phrase, strings.Join(synths, ","), f.seed, f.copies)
	if f.limit > 0 {
		cmd += fmt.Sprintf(" --limit %d", f.limit)
	}
	if t.path != "" {
		cmd += " --sentences " + t.path
	}
	return wake.FitFusion(rows, pos, wake.FusionOptions{Phrase: f.phrase, Recipe: wake.FusionRecipe{Command: cmd, Synths: strings.Join(synths, ","),
		RowsSHA256: wake.RowsDigest(rows, pos), HeadsAreOut: "each clip scored by a head trained without its synthesizer: " + strings.Join(used, "; ")}})
}

// cachedFusion is fitFusion's result, kept in the cache.
func cachedFusion(ctx context.Context, f trainFlags, synths []string, log io.Writer) (*wake.Fusion, string, error) {
	cache, err := trainCache(f)
	if err != nil {
		return nil, "", err
	}
	path := filepath.Join(cache, fmt.Sprintf("fusion-%s-seed%d-copies%d-limit%d-l2%v-on-%s.json", strings.ReplaceAll(f.phrase, " ", "_"), f.seed, f.copies, f.limit, f.l2, strings.Join(synths, "+")))
	if b, err := os.ReadFile(path); err == nil {
		if fu, err := wake.DecodeFusion(b); err == nil {
			return fu, path, nil
		}
	}
	fu, err := fitFusion(ctx, f, synths, log)
	if err != nil {
		return nil, "", err
	}
	return fu, path, os.WriteFile(path, fu.Encode(), 0o644)
}

// runWakeFuse fits the fused engine's model and writes it.
func runWakeFuse(f trainFlags, stdout, stderr io.Writer) error {
	if f.out == "" {
		f.out = strings.ReplaceAll(f.phrase, " ", "_") + ".fusion.json"
	}
	fu, err := fitFusion(context.Background(), f, strings.Split(f.synths, ","), stderr)
	if err != nil {
		return err
	}
	if err := os.WriteFile(f.out, fu.Encode(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: fusion for %q fitted on %d clips (%d positive), threshold %.2f\nweights %v over %v\nmade by: %s\n",
		f.out, fu.Phrase, fu.Recipe.Clips, fu.Recipe.Positive, fu.Threshold, fu.Weights, fu.Features, fu.Recipe.Command)
	return nil
}

// headWindow is how many embeddings (80 ms apart) a head looks at: 1.96 s of audio.
const headWindow = 16
