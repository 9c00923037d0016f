package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
