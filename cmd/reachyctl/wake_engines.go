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
	sets   []evalSet // the report adds them up (mergeSets)
	head   string
	train  trainFlags
}

// evalSet is one generated set's directory and the clips of it to measure.
type evalSet struct {
	dir   string
	clips []wake.EvalClip
}

// allClips lists the clips of every set, in order.
func (e engineEval) allClips() []wake.EvalClip {
	var out []wake.EvalClip
	for _, s := range e.sets {
		out = append(out, s.clips...)
	}
	return out
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
	syn, err := setSynth(e.allClips())
	if err != nil {
		return err
	}
	o := e.opts
	if e.engine == wake.EngineSphinx {
		clips, sphinx, err := setVerdicts(ctx, o, e)
		if err != nil {
			return err
		}
		rows := []engineRow{{"sphinx", wake.Report(clips, sphinx)}}
		fmt.Fprintf(stdout, "%d clips said by %s\n", len(clips), syn)
		rows[0].rep.Print(stdout)
		printEngineTable(stdout, rows)
		return nil
	}
	o.Engine = wake.EngineNeural
	heldOut := "none: --head " + e.head
	var restSynths []string
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
		head, path, err := cachedHead(ctx, e.train, rest, stderr)
		if err != nil {
			return err
		}
		o.Heads = map[string]*wake.Head{head.Phrase: head}
		heldOut = syn + " (head trained on " + strings.Join(rest, ",") + ": " + path + ")"
		restSynths = rest
	}
	clips, neural, err := setVerdicts(ctx, o, e)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d clips said by %s; held out of the neural head's training: %s\n", len(clips), syn, heldOut)
	rows := []engineRow{{"neural", wake.Report(clips, neural)}}
	if e.engine == "both" {
		o.Engine = wake.EngineSphinx
		_, sphinx, err := setVerdicts(ctx, o, e)
		if err != nil {
			return err
		}
		rows = append([]engineRow{{"sphinx", wake.Report(clips, sphinx)}}, rows...)
		rows = append(rows, engineRow{"either", wake.Report(clips, wake.CombineVerdicts(sphinx, neural, false))},
			engineRow{"both-agree", wake.Report(clips, wake.CombineVerdicts(sphinx, neural, true))})
		if len(restSynths) >= 2 {
			// The fused engine, fitted on the other synthesizers' training clips only, decides
			// from the two engines' verdicts on each clip (the same decision Fused.Spot makes).
			fu, path, err := cachedFusion(ctx, e.train, restSynths, stderr)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "fused: fitted on %s (%s): weights %v over %v, threshold %.2f\n", strings.Join(restSynths, ","), path, fu.Weights, fu.Features, fu.Threshold)
			rows = append(rows, engineRow{"fused", wake.Report(clips, wake.FuseVerdicts(fu, sphinx, neural))})
		}
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

// setVerdicts measures the engine o names on every set and adds them up: a clip with the
// same name as one of an earlier set (the clean copies, which every set made with the same
// voices and sentences holds) must be the same audio and is counted once, so that merging
// the sets of several runs of `wake gen` (other noises, other SNRs) does not count the same
// seconds of speech twice.
func setVerdicts(ctx context.Context, o wake.Options, e engineEval) ([]wake.EvalClip, []wake.Verdict, error) {
	var clips []wake.EvalClip
	var vs []wake.Verdict
	seen := map[string]string{} // clip file -> the directory it was counted from
	for _, s := range e.sets {
		novel := evalSet{dir: s.dir}
		for _, c := range s.clips {
			if first, ok := seen[c.File]; ok {
				if err := sameClip(first, s.dir, c.File); err != nil {
					return nil, nil, err
				}
				continue // counted, and decoded, once
			}
			seen[c.File] = s.dir
			novel.clips = append(novel.clips, c)
		}
		got, err := cachedVerdicts(ctx, o, e.jobs, novel)
		if err != nil {
			return nil, nil, err
		}
		clips, vs = append(clips, novel.clips...), append(vs, got...)
	}
	return clips, vs, nil
}

// sameClip checks that two sets' clips of one name hold the same audio.
func sameClip(dirA, dirB, file string) error {
	a, err := os.ReadFile(filepath.Join(dirA, file))
	if err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(dirB, file))
	if err != nil {
		return err
	}
	if sha256.Sum256(a) != sha256.Sum256(b) {
		return fmt.Errorf("%s differs between %s and %s: the sets were made with other voices or sentences and cannot be added up", file, dirA, dirB)
	}
	return nil
}

// cachedVerdicts runs the engine o names over the set's clips, or reads what an earlier run
// with the same engine, sensitivity and head wrote into the set's directory
// (verdicts-by-clip-*.json, one verdict per clip file): comparing engines, rotating the
// held-out synthesizer or taking other voices of the set then decodes each clip once per
// engine. A file of an earlier version (verdicts-*.json, one list for one list of clips) is
// taken when it covers the same clips.
func cachedVerdicts(ctx context.Context, o wake.Options, jobs int, s evalSet) ([]wake.Verdict, error) {
	byClip := map[string]wake.Verdict{}
	path := filepath.Join(s.dir, fmt.Sprintf("verdicts-by-clip-%s-%x.json", o.Engine, engineDigest(o, nil)))
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &byClip); err != nil {
			return nil, fmt.Errorf("%s: %w (delete it to measure again)", path, err)
		}
	}
	var missing []wake.EvalClip
	adopted := false // verdicts taken from an earlier version's file: kept per clip from now on
	for _, c := range s.clips {
		if _, ok := byClip[c.File]; !ok {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		// The earlier cache: one list, keyed by the engine and the list of clips.
		var old []wake.Verdict
		if b, err := os.ReadFile(filepath.Join(s.dir, fmt.Sprintf("verdicts-%s-%x.json", o.Engine, engineDigest(o, s.clips)))); err == nil &&
			json.Unmarshal(b, &old) == nil && len(old) == len(s.clips) {
			for i, c := range s.clips {
				byClip[c.File] = old[i]
			}
			missing = nil
			adopted = true
		}
	}
	if len(missing) > 0 {
		vs, err := verdictsOf(ctx, o, jobs, s.dir, missing)
		if err != nil {
			return nil, err
		}
		for i, c := range missing {
			byClip[c.File] = vs[i]
		}
	}
	if len(missing) > 0 || adopted {
		b, _ := json.Marshal(byClip)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return nil, err
		}
	}
	out := make([]wake.Verdict, len(s.clips))
	for i, c := range s.clips {
		out[i] = byClip[c.File]
	}
	return out, nil
}

// engineDigest names what decides a verdict: the engine, its sensitivity, phrases, model and
// heads (and, for the earlier cache's files, the list of clips).
func engineDigest(o wake.Options, clips []wake.EvalClip) []byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s %v %v %s", o.Engine, o.Sensitivity, o.Phrases, o.ModelDir)
	if o.Engine != wake.EngineSphinx {
		for _, p := range slices.Sorted(maps.Keys(o.Heads)) {
			h.Write(o.Heads[p].Encode())
		}
	}
	for _, c := range clips {
		fmt.Fprintln(h, c.File)
	}
	return h.Sum(nil)[:8]
}
