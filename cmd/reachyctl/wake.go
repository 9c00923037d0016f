package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/reachy-broker/reachy-broker/cmd/internal/cliflags"
	"github.com/reachy-broker/reachy-broker/robot"
	"github.com/reachy-broker/reachy-broker/robot/wake"
	"github.com/reachy-broker/reachy-broker/speech"
)

// wakeUsage is what reachyctl wake --help prints.
const wakeUsage = `usage: reachyctl wake COMMAND [flags] ARG   (flags may come before or after ARG)
  gen DIR          generate an evaluation set (--synth espeak-ng|flite|festival, --small, --sentences FILE)
  eval DIR         measure the spotter on a set, generating it first if DIR has none
                   (--engine sphinx|neural|both; the neural head is trained without DIR's synthesizer)
  eval --engine E DIR MORE...   add up sets made by gen with other noises or SNRs (a clean
                   clip the sets share is counted once); verdicts are kept per clip in each DIR
  test FILE.wav    say where the phrase was heard in a recording, or the best score on a miss
  train            train the neural engine's head for a phrase (--phrase, --synths, --seed, --out)
  fuse             fit the fused engine's model (--phrase, --synths, --seed, --out): each
                   synthesizer's clips scored by a head trained on the others
run reachyctl wake COMMAND --help for its flags`

// runWake: the on-robot wake-phrase spotter, measured, trained and tried by hand.
func runWake(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: wake gen|eval|test|train|fuse", errUsage)
	}
	switch args[0] {
	case "-h", "--help", "-help", "help":
		fmt.Fprintln(stdout, wakeUsage)
		return nil
	case "gen", "eval", "test", "train", "fuse":
	default:
		return fmt.Errorf("%w: wake %q: gen, eval, test, train or fuse", errUsage, args[0])
	}
	fs := flag.NewFlagSet("reachyctl wake "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", "", "hub config (its wake_phrases, wake_sensitivity, wake_model_dir, wake_pronunciations, wake_spotter, wake_runtime_dir)")
	sens := fs.Float64("sensitivity", 0, "0..1 (overrides the config; 0 = the tuned default)")
	sweep := fs.String("sweep", "", "eval: comma-separated sensitivities to compare (a decoding pass each), e.g. 0.3,0.4,0.5")
	plps := fs.String("plp", "", "eval: comma-separated phone-loop exponents N (1e-N) to measure instead of the tuned one, one decoding pass each")
	topn := fs.Int("topn", 0, "eval: Gaussians per codebook the acoustic model scores with, instead of the tuned 32 (fewer is faster; the engine's own is 4)")
	denoise := fs.Bool("denoise", true, "eval: take steady noise out of the engine's copy of each clip first, as the hub does (--denoise=false measures without)")
	threshold := fs.Float64("threshold", math.NaN(), "eval: a fixed score per phone (decimal log) instead of what sensitivity asks (--plp 10 --threshold -2 is the previous rule)")
	voices := fs.String("voices", "", "eval: only these voices of the set, by index (e.g. 0-3 or 4,5,6,7), to tune on some and report on others")
	small := fs.Bool("small", false, "gen: the small subset the tests use")
	jobs := fs.Int("jobs", runtime.NumCPU(), "eval: spotters run at once, one core each (the report is the same for any number)")
	synth := fs.String("synth", "espeak-ng", "gen: whose voices say the set: espeak-ng (8 voices), flite (4) or festival (3)")
	sentences := fs.String("sentences", "", "gen, train: outside sentences (one per line, or a router corpus .tsv): gen adds some as commands after the phrase and as overheard negatives, train the others as negatives")
	noises := fs.String("noises", "", "gen: noises to mix in (pink,brown,babble,tv; default all)")
	snrs := fs.String("snrs", "", "gen: signal-to-noise ratios in dB (default 20,10,5)")
	outside := fs.Int("outside", 0, "gen: how many outside sentences to take (default 64)")
	engine := fs.String("engine", "", "eval: sphinx, neural or both (both engines, the two combined — either hears it, both must — and fused when the head is held out); test: sphinx, neural, fused, either or both; default: the config's wake_spotter")
	runtimeDir := fs.String("runtime-dir", "", "the neural engine's ONNX Runtime and feature models (deploy/scripts/wake-neural.sh prints it; default: the config's wake_runtime_dir, then the usual places)")
	headPath := fs.String("head", "", "eval, test: the neural head to use; eval default: one trained without the set's synthesizer (held out), test default: the committed one")
	phrase := fs.String("phrase", "hey reachy", "train: the phrase")
	synths := fs.String("synths", strings.Join(wake.Synthesizers(), ","), "train: the synthesizers that say the training set")
	seed := fs.Int64("seed", 1, "train: the seed of everything random in the training set")
	out := fs.String("out", "", "train: where to write the head (default: hey_reachy.json in the current directory)")
	cacheDir := fs.String("cache", "", "train, eval: where training examples and held-out heads are kept (default ~/.cache/reachy-broker/wake-train-2)")
	copies := fs.Int("copies", 4, "train: noisy or reverberant copies of each positive")
	limit := fs.Int("limit", 0, "train, fuse, eval: only N voices of each synthesizer's training set, spread over its list, each saying two negatives (0: all)")
	l2 := fs.Float64("l2", 0, "train: weight decay of the head (0: the tuned default)")
	posArgs, err := cliflags.ParseInterspersed(fs, args[1:])
	if err != nil {
		return err
	}
	if args[0] == "train" || args[0] == "fuse" {
		if len(posArgs) != 0 {
			return fmt.Errorf("%w: wake %s takes no positional argument (got %q): use --out FILE", errUsage, args[0], posArgs)
		}
		tf := trainFlags{phrase: *phrase, synths: *synths, seed: *seed, out: *out, cache: *cacheDir,
			sentences: *sentences, copies: *copies, limit: *limit, runtimeDir: *runtimeDir, l2: *l2}
		if args[0] == "fuse" {
			return runWakeFuse(tf, stdout, stderr)
		}
		return runWakeTrain(tf, stdout, stderr)
	}
	if len(posArgs) != 1 && (args[0] != "eval" || len(posArgs) == 0) {
		return fmt.Errorf("%w: wake %s needs one DIR or FILE (flags may come before or after it; eval --engine adds up several DIRs)", errUsage, args[0])
	}
	if *synth != wake.SynthEspeak && *synth != wake.SynthFlite && *synth != wake.SynthFestival {
		return fmt.Errorf("%w: --synth %q: espeak-ng, flite or festival", errUsage, *synth)
	}
	target := posArgs[0]
	cfg := &robot.Config{}
	if *configPath != "" {
		var err error
		// The hub config also names the broker; only its wake settings matter here.
		if cfg, err = robot.LoadConfig(*configPath); err != nil && cfg == nil {
			return err
		}
	}
	cfg.Defaults()
	base, err := cfg.WakeOptions()
	if err != nil {
		return err
	}
	if *runtimeDir != "" {
		base.RuntimeDir = *runtimeDir
	}
	opts := func(s float64) wake.Options {
		if s == 0 {
			s = cfg.WakeSensitivity
		}
		o := base
		o.Sensitivity = s
		return o
	}
	ctx := context.Background()
	fullSet := func() (wake.EvalSet, error) {
		set := wake.FullEvalSet()
		if *small {
			set = wake.SmallEvalSet()
		}
		if *synth != wake.SynthEspeak {
			all := wake.EvalVoices(*synth)
			set.Voices = all[:min(len(set.Voices), len(all))]
		}
		if *noises != "" {
			set.Noises = strings.Split(*noises, ",")
		}
		if *snrs != "" {
			list, err := floats(*snrs)
			if err != nil || len(list) == 0 {
				return set, fmt.Errorf("%w: --snrs %q: decibels such as 10,5", errUsage, *snrs)
			}
			set.SNRs = nil
			for _, v := range list {
				set.SNRs = append(set.SNRs, int(v))
			}
		}
		if *sentences != "" {
			lines, err := wake.ReadSentences(*sentences)
			if err != nil {
				return set, err
			}
			set = set.WithSentencesN(lines, *outside)
		}
		return set, nil
	}
	switch args[0] {
	case "gen":
		set, err := fullSet()
		if err != nil {
			return err
		}
		clips, err := set.Generate(ctx, target)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%d clips in %s\n", len(clips), target)
		return nil
	case "eval":
		if _, err := os.Stat(filepath.Join(target, "manifest.json")); errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(stderr, "generating the full evaluation set into %s (%s, sox)...\n", target, *synth)
			set, err := fullSet()
			if err != nil {
				return err
			}
			if _, err := set.Generate(ctx, target); err != nil {
				return err
			}
		}
		clips, err := wake.LoadEvalSet(target)
		if err != nil {
			return err
		}
		if clips, err = voiceSubset(clips, *voices); err != nil {
			return err
		}
		sets := []evalSet{{target, clips}}
		for _, dir := range posArgs[1:] {
			// Further sets, made by wake gen with other noises or SNRs, are added up.
			more, err := wake.LoadEvalSet(dir)
			if err != nil {
				return err
			}
			if more, err = voiceSubset(more, *voices); err != nil {
				return err
			}
			sets = append(sets, evalSet{dir, more})
		}
		switch *engine {
		case "":
			if len(sets) > 1 {
				return fmt.Errorf("%w: wake eval adds up several sets only with --engine sphinx|neural|both", errUsage)
			}
		case wake.EngineSphinx, wake.EngineNeural, "both":
			o := opts(*sens)
			o.Engine = wake.EngineSphinx
			return evalEngines(ctx, engineEval{engine: *engine, opts: o, jobs: max(1, *jobs), sets: sets, head: *headPath,
				train: trainFlags{phrase: *phrase, seed: *seed, cache: *cacheDir, sentences: *sentences, copies: *copies, limit: *limit, runtimeDir: *runtimeDir, l2: *l2}}, stdout, stderr)
		default:
			return fmt.Errorf("%w: --engine %q: sphinx, neural or both", errUsage, *engine)
		}
		one := *sens
		if one == 0 {
			one = cfg.WakeSensitivity
		}
		if one == 0 {
			one = wake.DefaultSensitivity
		}
		list := []float64{one}
		if *sweep != "" {
			if list, err = floats(*sweep); err != nil || len(list) == 0 {
				return fmt.Errorf("%w: --sweep %q: sensitivities such as 0.3,0.5", errUsage, *sweep)
			}
		}
		loops := []float64{float64(wake.DefaultTuning().PhoneLoop)}
		if *plps != "" {
			if loops, err = floats(*plps); err != nil {
				return fmt.Errorf("%w: --plp %q: exponents such as 5,10,20", errUsage, *plps)
			}
		}
		fmt.Fprintf(stdout, "%d clips, phrases %q\n", len(clips), cfg.WakePhrases)
		for _, plp := range loops {
			var reps []wake.EvalReport
			for _, v := range list {
				t := wake.DefaultTuning()
				t.PhoneLoop = int(plp)
				if *topn != 0 {
					t.TopN = *topn
				}
				t.Denoise = *denoise
				if !math.IsNaN(*threshold) {
					t.Strict, t.Lax = *threshold, *threshold
				}
				o := opts(v)
				o.Tuning = &t
				rep, err := evaluateOn(ctx, o, max(1, *jobs), target, clips)
				if err != nil {
					return err
				}
				rep.Sensitivity, rep.PhoneLoop, rep.TopN, rep.Denoised = v, t.PhoneLoop, t.TopN, t.Denoise
				reps = append(reps, rep)
			}
			if len(reps) == 1 {
				reps[0].Print(stdout)
			} else {
				wake.PrintSweep(stdout, reps)
			}
		}
		return nil
	case "test":
		b, err := os.ReadFile(target)
		if err != nil {
			return err
		}
		clip, err := speech.DecodeWAV(b, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", target, err)
		}
		o := opts(*sens)
		if *engine != "" {
			o.Engine = *engine
		}
		if *headPath != "" {
			if err := useHead(&o, *headPath); err != nil {
				return err
			}
		}
		sp, err := wake.New(o)
		if err != nil {
			return err
		}
		defer sp.Close()
		// Like the hub: its listening loop cuts the file into utterances (the VAD, and an
		// utterance after one nobody addressed reaching back into it), the spotter looks at each.
		found, heard := 0, 0
		var spotErr error
		robot.EachUtterance(clip.Samples, cfg.MaxUtter, func(u []float32, start int) bool {
			heard++
			if spotErr != nil {
				return false
			}
			d, ok, err := sp.Spot(ctx, u)
			if err != nil {
				spotErr = err
				return false
			}
			at := func(n int) float64 { return float64(n) / speech.SampleRate }
			end := start + len(u)
			if ok {
				found++
				how := ""
				if d.Denoised {
					how = " with the steady noise taken out (a second listen)"
				}
				fmt.Fprintf(stdout, "%6.2fs-%6.2fs  speech: %q spotted at %.2fs-%.2fs%s, score %.2f (needs %.2f; uploaded from %.2fs)\n",
					at(start), at(end), d.Phrase, at(start+d.Start), at(start+d.End), how, d.Score, d.Needed,
					at(max(start, start+d.Start-speech.SampleRate*3/10)))
			} else {
				fmt.Fprintf(stdout, "%6.2fs-%6.2fs  speech: not addressed (stays on the robot); %s\n", at(start), at(end), missScore(d))
			}
			return ok
		})
		if spotErr != nil {
			return spotErr
		}
		if heard == 0 {
			fmt.Fprintln(stdout, "no speech heard")
			return nil
		}
		if found == 0 {
			return exitError{1}
		}
		return nil
	}
	return fmt.Errorf("%w: wake gen|eval|test|train", errUsage)
}

// missScore says how close a miss came: the best score a spot reached and what it needed.
func missScore(d wake.Detection) string {
	if d.Phrase == "" {
		return fmt.Sprintf("no spot reached the engine's floor (a spot needs %.2f)", d.Needed)
	}
	return fmt.Sprintf("best score %.2f at %.2fs (needs %.2f)", d.Score, d.StartTime().Seconds(), d.Needed)
}

// useHead puts the head file in o for its phrase.
func useHead(o *wake.Options, path string) error {
	h, err := wake.LoadHead(path)
	if err != nil {
		return err
	}
	if o.Heads == nil {
		o.Heads = map[string]*wake.Head{}
	}
	o.Heads[h.Phrase] = h
	return nil
}

// floats parses a comma-separated list of numbers.
func floats(list string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		var v float64
		if _, err := fmt.Sscan(f, &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// voiceSubset keeps the clips of the voices picked by index in the set's order ("0-3",
// "4,5,6,7"); "" keeps all.
func voiceSubset(clips []wake.EvalClip, pick string) ([]wake.EvalClip, error) {
	if pick == "" {
		return clips, nil
	}
	var order []string
	seen := map[string]bool{}
	for _, c := range clips {
		if !seen[c.Voice] {
			seen[c.Voice] = true
			order = append(order, c.Voice)
		}
	}
	want := map[string]bool{}
	for _, part := range strings.Split(pick, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		var a, b int
		if _, err := fmt.Sscan(lo, &a); err != nil {
			return nil, fmt.Errorf("%w: --voices %q: indexes such as 0-3 or 4,5", errUsage, pick)
		}
		b = a
		if isRange {
			if _, err := fmt.Sscan(hi, &b); err != nil {
				return nil, fmt.Errorf("%w: --voices %q: indexes such as 0-3 or 4,5", errUsage, pick)
			}
		}
		for i := a; i <= b; i++ {
			if i < 0 || i >= len(order) {
				return nil, fmt.Errorf("%w: --voices %q: the set has voices 0-%d", errUsage, pick, len(order)-1)
			}
			want[order[i]] = true
		}
	}
	var out []wake.EvalClip
	for _, c := range clips {
		if want[c.Voice] {
			out = append(out, c)
		}
	}
	return out, nil
}

// evaluateOn measures spotters built from o on the clips, jobs of them at once.
func evaluateOn(ctx context.Context, o wake.Options, jobs int, dir string, clips []wake.EvalClip) (wake.EvalReport, error) {
	var sps []wake.Spotter
	defer func() {
		for _, sp := range sps {
			sp.Close()
		}
	}()
	threshold := 0.0
	for range jobs {
		sp, err := wake.NewSphinx(o)
		if err != nil {
			return wake.EvalReport{}, err
		}
		sps, threshold = append(sps, sp), sp.Threshold()
	}
	rep, err := wake.EvaluateWith(ctx, sps, dir, clips)
	rep.Threshold = threshold
	return rep, err
}
