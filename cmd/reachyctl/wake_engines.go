package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reachy-broker/reachy-broker/robot/wake"
)

// engineEval is reachyctl wake eval --engine neural|both.
type engineEval struct {
	engine string
	opts   wake.Options // the sphinx options; the neural engine shares phrases, sensitivity, runtime
	jobs   int
	dir    string
	clips  []wake.EvalClip
	head   string
	train  trainFlags
}

// setSynth names the synthesizer that said every clip of the set.
func setSynth(clips []wake.EvalClip) (string, error) {
	syn := ""
	for _, c := range clips {
		s := wake.SynthEspeak
		if p, _, ok := strings.Cut(c.Voice, ":"); ok {
			s = p
		}
		if syn != "" && s != syn {
			return "", fmt.Errorf("the set mixes %s and %s voices: hold one synthesizer out at a time", syn, s)
		}
		syn = s
	}
	return syn, nil
}

// evalEngines measures the neural engine (a head trained without the set's synthesizer
// unless --head says otherwise) and, for both, PocketSphinx and the two combined modes on
// the same clips.
func evalEngines(ctx context.Context, e engineEval, stdout, stderr io.Writer) error {
	syn, err := setSynth(e.clips)
	if err != nil {
		return err
	}
	o := e.opts
	if e.engine == wake.EngineSphinx {
		sphinx, err := cachedVerdicts(ctx, o, e)
		if err != nil {
			return err
		}
		rows := []engineRow{{"sphinx", wake.Report(e.clips, sphinx)}}
		fmt.Fprintf(stdout, "%d clips said by %s\n", len(e.clips), syn)
		rows[0].rep.Print(stdout)
		printEngineTable(stdout, rows)
		return nil
	}
	o.Engine = wake.EngineNeural
	heldOut := "none: --head " + e.head
	if e.head != "" {
		if err := useHead(&o, e.head); err != nil {
			return err
		}
	} else {
		var rest []string
		for _, s := range wake.Synthesizers() {
			if s != syn {
				rest = append(rest, s)
			}
		}
		f := e.train
		f.synths = strings.Join(rest, ",")
		cache := f.cache
		if cache == "" {
			home, err := os.UserCacheDir()
			if err != nil {
				return err
			}
			cache = filepath.Join(home, "reachy-broker", trainCacheVersion)
		}
		path := filepath.Join(cache, fmt.Sprintf("head-%s-seed%d-without-%s.json", strings.ReplaceAll(f.phrase, " ", "_"), f.seed, syn))
		if _, err := os.Stat(path); err != nil {
			head, err := trainHead(ctx, f, stderr)
			if err != nil {
				return err
			}
			if err := os.WriteFile(path, head.Encode(), 0o644); err != nil {
				return err
			}
		}
		if err := useHead(&o, path); err != nil {
			return err
		}
		heldOut = syn + " (head trained on " + f.synths + ": " + path + ")"
	}
	neural, err := cachedVerdicts(ctx, o, e)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d clips said by %s; held out of the neural head's training: %s\n", len(e.clips), syn, heldOut)
	rows := []engineRow{{"neural", wake.Report(e.clips, neural)}}
	if e.engine == "both" {
		o.Engine = wake.EngineSphinx
		sphinx, err := cachedVerdicts(ctx, o, e)
		if err != nil {
			return err
		}
		rows = append([]engineRow{{"sphinx", wake.Report(e.clips, sphinx)}}, rows...)
		rows = append(rows, engineRow{"either", wake.Report(e.clips, wake.CombineVerdicts(sphinx, neural, false))},
			engineRow{"both-agree", wake.Report(e.clips, wake.CombineVerdicts(sphinx, neural, true))})
	}
	for _, r := range rows {
		fmt.Fprintf(stdout, "\n== %s\n", r.name)
		r.rep.Print(stdout)
	}
	printEngineTable(stdout, rows)
	return nil
}

type engineRow struct {
	name string
	rep  wake.EvalReport
}

// printEngineTable is the comparison the default engine is chosen by.
func printEngineTable(w io.Writer, rows []engineRow) {
	fmt.Fprintf(w, "\n%-11s %7s %7s %7s %7s %9s %9s %8s %6s\n", "engine", "clean", "20dB", "10dB", "5dB", "ordin/h", "bound95/h", "near/h", "RTF")
	for _, r := range rows {
		cell := func(c string) string {
			t, ok := r.rep.Recall[c]
			if !ok {
				return "-"
			}
			return fmt.Sprintf("%.1f%%", 100*t.Rate())
		}
		fmt.Fprintf(w, "%-11s %7s %7s %7s %7s %9.2f %9.2f %8.1f %6.3f\n", r.name, cell("clean"), cell("20dB"), cell("10dB"), cell("5dB"),
			r.rep.FAPerHourOf(wake.OrdinarySpeech...), r.rep.FAUpperBound(wake.OrdinarySpeech...), r.rep.FAPerHourOf(wake.NearMisses...), r.rep.RTF())
	}
	fmt.Fprintln(w, "recall by SNR; false accepts per hour of ordinary speech (and the 95% upper bound), of near misses; RTF: CPU seconds per second of audio on one core (either/both-agree: both engines run)")
}

// verdictsOf runs jobs spotters built from o over the clips.
func verdictsOf(ctx context.Context, o wake.Options, jobs int, dir string, clips []wake.EvalClip) ([]wake.Verdict, error) {
	var sps []wake.Spotter
	defer func() {
		for _, sp := range sps {
			sp.Close()
		}
	}()
	for range jobs {
		sp, err := wake.New(o)
		if err != nil {
			return nil, err
		}
		sps = append(sps, sp)
	}
	return wake.Verdicts(ctx, sps, dir, clips)
}

// cachedVerdicts runs the engine o names over the set, or reads what a run with the same
// engine, sensitivity and head wrote into the set's directory (verdicts-*.json): comparing
// engines and rotating the held-out synthesizer then decodes each set once per engine.
func cachedVerdicts(ctx context.Context, o wake.Options, e engineEval) ([]wake.Verdict, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s %v %v %s", o.Engine, o.Sensitivity, o.Phrases, e.opts.ModelDir)
	if o.Engine != wake.EngineSphinx {
		for _, p := range slices.Sorted(maps.Keys(o.Heads)) {
			h.Write(o.Heads[p].Encode())
		}
	}
	for _, c := range e.clips {
		fmt.Fprintln(h, c.File)
	}
	path := filepath.Join(e.dir, fmt.Sprintf("verdicts-%s-%x.json", o.Engine, h.Sum(nil)[:8]))
	if b, err := os.ReadFile(path); err == nil {
		var vs []wake.Verdict
		if json.Unmarshal(b, &vs) == nil && len(vs) == len(e.clips) {
			return vs, nil
		}
	}
	vs, err := verdictsOf(ctx, o, e.jobs, e.dir, e.clips)
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(vs)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return nil, err
	}
	return vs, nil
}
