package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reachy-broker/reachy-broker/robot/wake"
)

// TestEarlierVerdictsAreKeptPerClip: verdicts an earlier version wrote for a list of clips
// (verdicts-ENGINE-DIGEST.json) are used as they are — nothing is decoded, the clips need not
// even be readable — and are kept per clip from then on, so that a later run on other voices
// of the same set (here: a subset, then the whole set) does not decode them again.
func TestEarlierVerdictsAreKeptPerClip(t *testing.T) {
	dir := t.TempDir()
	o := wake.Options{Engine: wake.EngineSphinx, Phrases: []string{"hey reachy"}, Sensitivity: 0.4}
	var clips []wake.EvalClip
	var old []wake.Verdict
	for i := range 4 {
		clips = append(clips, wake.EvalClip{File: fmt.Sprintf("neg-v%d-u00-clean.wav", i), Voice: fmt.Sprintf("v%d", i), Category: "household", Noise: "clean"})
	}
	for i := range 2 {
		old = append(old, wake.Verdict{OK: i == 1, Score: float64(i), Samples: 16000, Secs: 0.1})
	}
	b, _ := json.Marshal(old)
	// The earlier run measured the first two voices only (--voices 0-1).
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("verdicts-%s-%x.json", o.Engine, engineDigest(o, clips[:2]))), b, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := cachedVerdicts(context.Background(), o, 1, evalSet{dir, clips[:2]})
	if err != nil {
		t.Fatalf("the earlier verdicts were not used (the clips do not exist, so decoding fails): %v", err)
	}
	if len(got) != 2 || got[0] != old[0] || got[1] != old[1] {
		t.Fatalf("verdicts %v, want the earlier file's %v", got, old)
	}
	// A later run on the whole set decodes only the voices the earlier one did not measure:
	// clips 2 and 3, which are missing, so it must fail on them and not on 0 or 1.
	_, err = cachedVerdicts(context.Background(), o, 1, evalSet{dir, clips})
	if err == nil {
		t.Fatal("decoded clips that do not exist")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "verdicts-by-clip-*.json")); len(m) != 1 {
		t.Fatalf("the earlier verdicts are not kept per clip: %v", m)
	}
	got, err = cachedVerdicts(context.Background(), o, 1, evalSet{dir, clips[1:2]})
	if err != nil || len(got) != 1 || got[0] != old[1] {
		t.Fatalf("clip 1 alone (a list the earlier file does not cover): %v %v", got, err)
	}
}

// TestWakeEvalReportsTheFusedEngine: with the held-out head and the fusion fitted without the
// set's synthesizer in the cache, and both engines' verdicts kept in the set, `wake eval
// --engine both` reports the fused engine beside the others, decided from the two engines'
// verdicts on each clip: here it hears the phrase PocketSphinx heard with the head a little
// under its threshold (which "both-agree" misses) and refuses the look-alike PocketSphinx
// heard with the head far under it (which "either" accepts). Nothing is decoded: the clips'
// audio is never read.
func TestWakeEvalReportsTheFusedEngine(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	head, err := wake.CommittedHead("hey reachy")
	if err != nil {
		t.Fatal(err)
	}
	f := trainFlags{phrase: "hey reachy", seed: 1, copies: 4, cache: cache}
	headPath := filepath.Join(cache, fmt.Sprintf("head-hey_reachy-seed1-copies4-limit0-l20-on-%s.json", "espeak-ng+flite"))
	if err := os.WriteFile(headPath, head.Encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	// A fusion that trusts PocketSphinx unless the head is far under its threshold.
	fu := &wake.Fusion{Phrase: "hey reachy", Features: wake.FusionFeatures, Mean: make([]float64, 5), Scale: []float64{1, 1, 1, 1, 1},
		Weights: []float64{1, 8, 0, 0, 0}, Bias: -2, Threshold: 0}
	if err := os.WriteFile(filepath.Join(cache, "fusion-hey_reachy-seed1-copies4-limit0-l20-on-espeak-ng+flite.json"), fu.Encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	clips := []wake.EvalClip{
		{File: "pos-a.wav", Positive: true, Category: "command", Voice: "festival:kal_diphone", Noise: "pink", SNR: 10, Seconds: 2},
		{File: "neg-b.wav", Category: "near-miss", Voice: "festival:kal_diphone", Noise: "clean", Seconds: 2},
	}
	b, _ := json.Marshal(clips)
	os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644)
	o := wake.Options{Engine: wake.EngineSphinx, Phrases: []string{"hey reachy"}}
	keep := func(o wake.Options, vs map[string]wake.Verdict) {
		b, _ := json.Marshal(vs)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("verdicts-by-clip-%s-%x.json", o.Engine, engineDigest(o, nil))), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	keep(o, map[string]wake.Verdict{ // PocketSphinx heard both
		"pos-a.wav": {OK: true, Score: 11, Needed: 10, Start: 4000, End: 16000, Samples: 32000, Secs: 0.1},
		"neg-b.wav": {OK: true, Score: 10.5, Needed: 10, Start: 4000, End: 16000, Samples: 32000, Secs: 0.1}})
	on := o
	on.Engine, on.Heads = wake.EngineNeural, map[string]*wake.Head{"hey reachy": head}
	keep(on, map[string]wake.Verdict{ // the head: a little under, then far under its threshold
		"pos-a.wav": {OK: false, Score: head.Threshold - 1, Needed: head.Threshold, End: 16000, Samples: 32000, Secs: 0.02},
		"neg-b.wav": {OK: false, Score: head.Threshold - 12, Needed: head.Threshold, End: 16000, Samples: 32000, Secs: 0.02}})
	loaded, err := wake.LoadEvalSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	err = evalEngines(context.Background(), engineEval{engine: "both", opts: o, jobs: 1, sets: []evalSet{{dir, loaded}}, train: f}, &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	rows := map[string]string{}
	for _, line := range strings.Split(out.String(), "\n") {
		if fs := strings.Fields(line); len(fs) > 8 {
			rows[fs[0]] = line
		}
	}
	for name, want := range map[string][2]string{"fused": {"100.0%", "0.0"}, "either": {"100.0%", "1800.0"}, "both-agree": {"0.0%", "0.0"}} {
		fs := strings.Fields(rows[name])
		if len(fs) < 9 || fs[3] != want[0] || fs[7] != want[1] {
			t.Errorf("%s: %q; want 10 dB recall %s and %s near misses per hour\n%s", name, rows[name], want[0], want[1], out.String())
		}
	}
}
