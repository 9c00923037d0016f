package wake

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// fusionRows makes evidence shaped like the engines': phrases PocketSphinx hears with the
// neural head unsure, phrases only the head hears, look-alikes PocketSphinx hears that the head
// scores far below its threshold, and speech neither hears.
func fusionRows(seed uint64) ([]Evidence, []bool) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var rows []Evidence
	var pos []bool
	add := func(n int, positive, sphinx bool, lo, hi float64) {
		for range n {
			e := Evidence{Neural: lo + (hi-lo)*rng.Float64(), NeuralNeeded: 0, NeuralEnd: 20000}
			if sphinx {
				e.Sphinx, e.SphinxScore, e.SphinxNeeded, e.SphinxStart, e.SphinxEnd = true, 10.5+2*rng.Float64(), 10, 10000, 20000+rng.IntN(800)
			}
			rows, pos = append(rows, e), append(pos, positive)
		}
	}
	add(200, true, true, -4, 6)     // both hear it, or PocketSphinx and an unsure head
	add(100, true, false, 1, 8)     // only the head
	add(100, false, true, -16, -7)  // look-alikes PocketSphinx takes
	add(400, false, false, -25, -1) // ordinary speech
	return rows, pos
}

// TestFusionDecidesFromBothEnginesEvidence: the fitted fusion is one decision, not a vote: it
// accepts a phrase PocketSphinx heard that the head scored a little under its threshold (which
// "both must agree" and the head alone refuse), refuses a look-alike PocketSphinx heard that the
// head scored far under (which "either" accepts), and accepts what only the head heard clearly;
// fitting it twice gives the same bytes.
func TestFusionDecidesFromBothEnginesEvidence(t *testing.T) {
	rows, pos := fusionRows(1)
	fu, err := FitFusion(rows, pos, FusionOptions{Phrase: "hey reachy"})
	if err != nil {
		t.Fatal(err)
	}
	again, _ := FitFusion(rows, pos, FusionOptions{Phrase: "hey reachy"})
	if !bytes.Equal(fu.Encode(), again.Encode()) {
		t.Fatal("the same rows fitted different fusions")
	}
	if _, err := DecodeFusion(fu.Encode()); err != nil {
		t.Fatal(err)
	}
	heard := func(neural float64, sphinx bool) bool {
		e := Evidence{Neural: neural, NeuralEnd: 20000}
		if sphinx {
			e.Sphinx, e.SphinxScore, e.SphinxNeeded, e.SphinxStart, e.SphinxEnd = true, 11, 10, 10000, 20100
		}
		return fu.Logit(e) >= fu.Threshold
	}
	for _, c := range []struct {
		name   string
		neural float64
		sphinx bool
		want   bool
	}{
		{"PocketSphinx heard it, the head a little under its threshold", -2, true, true},
		{"a look-alike PocketSphinx heard, the head far under", -12, true, false},
		{"only the head heard it, clearly", 5, false, true},
		{"neither", -5, false, false},
	} {
		if got := heard(c.neural, c.sphinx); got != c.want {
			t.Errorf("%s: heard %v, want %v (fusion %+v)", c.name, got, c.want, fu)
		}
	}
	// Calibrated on the training rows: no more than 0.5% of the negatives pass its threshold.
	passed, negs := 0, 0
	for i, e := range rows {
		if !pos[i] {
			negs++
			if fu.Logit(e) >= fu.Threshold {
				passed++
			}
		}
	}
	if passed > negs/200+1 {
		t.Errorf("%d of %d negative rows pass the threshold", passed, negs)
	}
}

// TestFusedDecidesAsItsVerdicts: the fused engine's decision on a clip (both engines run in
// it) is the one FuseVerdicts makes from the two engines' verdicts measured apart — what the
// evaluation reports is what the hub would do. Needs the runtime and PocketSphinx's model.
func TestFusedDecidesAsItsVerdicts(t *testing.T) {
	if err := CheckRuntime(""); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rows, pos := fusionRows(2)
	fu, err := FitFusion(rows, pos, FusionOptions{Phrase: "hey reachy"})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Phrases: []string{"hey reachy"}, Fusions: map[string]*Fusion{"hey reachy": fu}}
	var clips [][]float32
	for _, text := range []string{"hey reechy, what time is it", "the peaches are cheap today"} {
		x, err := synth(ctx, Voice{"en-us", 160, 50}, text)
		if err != nil {
			t.Skip("espeak-ng: ", err)
		}
		clips = append(clips, append(make([]float32, SampleRate/4), x...))
	}
	o.Engine = EngineFused
	fused, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer fused.Close()
	verdicts := func(engine string) []Verdict {
		oo := o
		oo.Engine = engine
		sp, err := New(oo)
		if err != nil {
			t.Fatal(err)
		}
		defer sp.Close()
		var vs []Verdict
		for _, x := range clips {
			d, ok, err := sp.Spot(ctx, x)
			if err != nil {
				t.Fatal(err)
			}
			vs = append(vs, Verdict{OK: ok, Score: d.Score, Needed: d.Needed, Start: d.Start, End: d.End, Samples: len(x)})
		}
		return vs
	}
	want := FuseVerdicts(fu, verdicts(EngineSphinx), verdicts(EngineNeural))
	for i, x := range clips {
		d, ok, err := fused.Spot(ctx, x)
		if err != nil {
			t.Fatal(err)
		}
		if ok != want[i].OK || d.Score != want[i].Score {
			t.Errorf("clip %d: the fused engine says %v (logit %v), its verdicts %v (logit %v)", i, ok, d.Score, want[i].OK, want[i].Score)
		}
	}
}

// TestAccentedVoicesSayTheWakePhrase: every voice of another language in the training set is
// told the phrase so that it says R IY CH IY: espeak-ng's own phonemes for it hold an r, a
// long or close i, the "ch" affricate and an i, in that order (the spellings were chosen by
// reading them; "hey ritschi" in Italian, for one, comes out as "ritski").
func TestAccentedVoicesSayTheWakePhrase(t *testing.T) {
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Skip("espeak-ng not installed (deploy/scripts/deps.sh)")
	}
	// r or R (a trill or tap, with espeak-ng's marks), then i or i:, then tS, then i or I.
	reechy := regexp.MustCompile(`[rR][^a-zA-Z]*'?i:?tS;?'?[iI]`)
	n := 0
	for _, v := range TrainVoices(SynthEspeak) {
		said, ok := accentedSpellings[v.Name]
		if !ok || v.Speed != 130 {
			continue
		}
		n++
		out, err := exec.Command("espeak-ng", "-q", "-x", "-v", v.Name, sayTrain(SynthEspeak, v, "hey reachy")).Output()
		if err != nil {
			t.Fatalf("espeak-ng -v %s: %v", v.Name, err)
		}
		if !reechy.Match(out) {
			t.Errorf("voice %s told %q says %q: no R IY CH IY", v.Name, said, strings.TrimSpace(string(out)))
		}
	}
	if n != len(accentedSpellings) {
		t.Errorf("%d accented voices in the training set, want %d", n, len(accentedSpellings))
	}
	if out, err := exec.Command("espeak-ng", "-q", "-x", "-v", "it", "hey ritschi").Output(); err == nil && reechy.Match(out) {
		t.Errorf("the check passes Italian %q, which says R IY T S K IY", out)
	}
}
