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
const trainCacheVersion = "wake-train-2"

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
	var sentences []string
	path := f.sentences
	if path == "" {
		if _, err := os.Stat(defaultTrainSentences); err == nil {
			path = defaultTrainSentences
		}
	}
	if path != "" {
		all, err := wake.ReadSentences(path)
		if err != nil {
			return nil, err
		}
		sentences = wake.TrainSentences(all, trainSentenceCount)
	}
	if f.cache == "" {
		home, err := os.UserCacheDir()
		if err != nil {
			return nil, err
		}
		f.cache = filepath.Join(home, "reachy-broker", trainCacheVersion)
	}
	if err := os.MkdirAll(f.cache, 0o755); err != nil {
		return nil, err
	}
	set := wake.TrainSet{Phrase: f.phrase, Seed: uint64(f.seed), Sentences: sentences, Copies: f.copies, Limit: f.limit}
	var feats *wake.Features
	defer func() {
		if feats != nil {
			feats.Close()
		}
	}()
	all := &wake.Examples{Window: headWindow}
	for _, syn := range synths {
		name := fmt.Sprintf("%s-seed%d-copies%d-limit%d-sentences%d-%s.examples", strings.ReplaceAll(f.phrase, " ", "_"), f.seed, f.copies, f.limit, len(sentences), syn)
		cached := filepath.Join(f.cache, name)
		if r, err := os.Open(cached); err == nil {
			ex, err := wake.ReadExamples(bufio.NewReader(r))
			r.Close()
			if err == nil && ex.Window == headWindow {
				all.Append(ex)
				continue
			}
		}
		if feats == nil {
			var err error
			if feats, err = wake.NewFeatures(f.runtimeDir); err != nil {
				return nil, err
			}
		}
		fmt.Fprintf(log, "wake train: %s says the training set (seed %d), embeddings on one core...\n", syn, f.seed)
		ex := &wake.Examples{Window: headWindow}
		clips := 0
		err := set.GenerateSynth(ctx, syn, func(c wake.TrainClip) error {
			emb, ends, err := feats.Embeddings(c.Samples, headWindow)
			if err != nil {
				return err
			}
			ex.Add(c, emb, ends)
			clips++
			return nil
		})
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(log, "wake train: %s: %d clips, %d windows (%d positive)\n", syn, clips, len(ex.Y), ex.Positives())
		tmp := cached + ".tmp"
		w, err := os.Create(tmp)
		if err != nil {
			return nil, err
		}
		bw := bufio.NewWriter(w)
		if _, err := ex.WriteTo(bw); err != nil {
			w.Close()
			return nil, err
		}
		if err := bw.Flush(); err != nil {
			w.Close()
			return nil, err
		}
		if err := w.Close(); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, cached); err != nil {
			return nil, err
		}
		all.Append(ex)
	}
	cmd := fmt.Sprintf("reachyctl wake train --phrase %q --synths %s --seed %d --copies %d", f.phrase, f.synths, f.seed, f.copies)
	if f.limit > 0 {
		cmd += fmt.Sprintf(" --limit %d", f.limit)
	}
	if path != "" {
		cmd += " --sentences " + path
	}
	if f.l2 != 0 {
		cmd += fmt.Sprintf(" --l2 %v", f.l2)
	}
	return wake.Train(all, wake.TrainOptions{Phrase: f.phrase, L2: f.l2, Recipe: wake.Recipe{Command: cmd, Seed: f.seed, Synths: f.synths,
		FeaturesSHA256: all.Digest()}})
}

// headWindow is how many embeddings (80 ms apart) a head looks at: 1.96 s of audio.
const headWindow = 16
