package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/reachy-broker/reachy-broker/robot"
	"github.com/reachy-broker/reachy-broker/robot/wake"
	"github.com/reachy-broker/reachy-broker/speech"
)

// runWake: the on-robot wake-phrase spotter, measured and tried by hand.
func runWake(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: wake gen|eval|test", errUsage)
	}
	fs := flag.NewFlagSet("wake "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", "", "hub config (its wake_phrases, wake_sensitivity, wake_model_dir, wake_pronunciations)")
	sens := fs.Float64("sensitivity", 0, "0..1 (overrides the config; 0 = the tuned default)")
	sweep := fs.String("sweep", "", "eval: comma-separated sensitivities to compare, e.g. 0.4,0.5,0.6")
	small := fs.Bool("small", false, "gen: the small subset the tests use")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: wake %s needs one DIR or FILE", errUsage, args[0])
	}
	target := fs.Arg(0)
	cfg := &robot.Config{}
	if *configPath != "" {
		var err error
		// The hub config also names the broker; only its wake settings matter here.
		if cfg, err = robot.LoadConfig(*configPath); err != nil && cfg == nil {
			return err
		}
	}
	cfg.Defaults()
	opts := func(s float64) wake.Options {
		if s == 0 {
			s = cfg.WakeSensitivity
		}
		return wake.Options{Phrases: cfg.WakePhrases, Sensitivity: s, ModelDir: cfg.WakeModelDir, Pronunciations: cfg.WakePronunciations}
	}
	ctx := context.Background()
	switch args[0] {
	case "gen":
		set := wake.FullEvalSet()
		if *small {
			set = wake.SmallEvalSet()
		}
		clips, err := set.Generate(ctx, target)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%d clips in %s\n", len(clips), target)
		return nil
	case "eval":
		if _, err := os.Stat(filepath.Join(target, "manifest.json")); errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(stderr, "generating the full evaluation set into %s (espeak-ng, sox)...\n", target)
			if _, err := wake.FullEvalSet().Generate(ctx, target); err != nil {
				return err
			}
		}
		list := []float64{*sens}
		if *sweep != "" {
			list = nil
			for _, f := range strings.Split(*sweep, ",") {
				var v float64
				if _, err := fmt.Sscan(f, &v); err != nil {
					return fmt.Errorf("%w: --sweep %q", errUsage, *sweep)
				}
				list = append(list, v)
			}
		}
		for _, s := range list {
			sp, err := wake.NewSphinx(opts(s))
			if err != nil {
				return err
			}
			rep, err := wake.Evaluate(ctx, sp, target)
			sp.Close()
			if err != nil {
				return err
			}
			shown := s
			if shown == 0 {
				shown = wake.DefaultSensitivity
			}
			fmt.Fprintf(stdout, "sensitivity %.2f, phrases %q\n", shown, cfg.WakePhrases)
			rep.Print(stdout)
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
		sp, err := wake.NewSphinx(opts(*sens))
		if err != nil {
			return err
		}
		defer sp.Close()
		// Like the hub: the VAD cuts the file into utterances, the spotter looks at each.
		segs := speech.DetectSpeech(clip.Samples, speech.DefaultVAD())
		if len(segs) == 0 {
			fmt.Fprintln(stdout, "no speech heard")
			return nil
		}
		found := 0
		for _, sg := range segs {
			d, ok, err := sp.Spot(ctx, clip.Samples[sg.Start:sg.End])
			if err != nil {
				return err
			}
			at := func(n int) float64 { return float64(n) / speech.SampleRate }
			if ok {
				found++
				fmt.Fprintf(stdout, "%6.2fs-%6.2fs  speech: %q spotted at %.2fs-%.2fs (uploaded from %.2fs)\n",
					at(sg.Start), at(sg.End), d.Phrase, at(sg.Start+d.Start), at(sg.Start+d.End), at(max(sg.Start, sg.Start+d.Start-speech.SampleRate*3/10)))
			} else {
				fmt.Fprintf(stdout, "%6.2fs-%6.2fs  speech: not addressed (stays on the robot)\n", at(sg.Start), at(sg.End))
			}
		}
		if found == 0 {
			return exitError{1}
		}
		return nil
	}
	return fmt.Errorf("%w: wake gen|eval|test", errUsage)
}
