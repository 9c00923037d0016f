package wake

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/speech"
)

// smallSet generates the small evaluation set (six voices, clean and pink noise at 10 dB,
// every near miss) into a temporary directory.
func smallSet(t *testing.T, ctx context.Context) (string, []EvalClip) {
	t.Helper()
	if raceEnabled {
		t.Skip("a minute of C decoding has nothing for the race detector; the plain run measures it")
	}
	for _, bin := range []string{"espeak-ng", "sox"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s missing: run deploy/scripts/deps.sh", bin)
		}
	}
	dir := t.TempDir()
	clips, err := SmallEvalSet().Generate(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, clips
}

func evaluate(t *testing.T, ctx context.Context, o Options, dir string, clips []EvalClip) EvalReport {
	t.Helper()
	s, err := NewSphinx(o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rep, err := Evaluate(ctx, s, dir, clips)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	rep.Print(&out)
	t.Log("\n" + out.String())
	return rep
}

// TestDefaultSensitivityOnTheGeneratedSet: the tuned default hears the phrase in >= 90% of
// the voices clean and at 10 dB SNR (pink noise), and never fires on a quiet household
// sentence. The full set and the false accepts per hour are `make wake-eval`.
func TestDefaultSensitivityOnTheGeneratedSet(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir, clips := smallSet(t, ctx)
	rep := evaluate(t, ctx, Options{Phrases: []string{"hey reachy"}}, dir, clips)
	for _, cond := range []string{"clean", "10dB"} {
		if r := rep.Recall[cond]; r.Total != 12 || r.Rate() < 0.9 {
			t.Errorf("recall %s %d/%d, want >= 90%%; missed %v", cond, r.Hits, r.Total, rep.Misses)
		}
	}
	for _, a := range rep.Accepts {
		if strings.Contains(a, "-clean.wav (household") {
			t.Errorf("fired on a quiet household sentence: %s", a)
		}
	}
}

// TestNearMissesTheOldRuleAcceptedAreRefused: the decision on the engine's scores (a weaker
// phone loop, 1e-20, and a threshold per phone) refuses at least a third of the near misses
// ("hey ricky", "they reach", ...) the previous rule (phone loop 1e-10, 1e-2 per phone)
// uploaded on the same generated files (about half, measured), while still hearing every
// positive in this small set the previous rule heard.
func TestNearMissesTheOldRuleAcceptedAreRefused(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir, clips := smallSet(t, ctx)
	old := evaluate(t, ctx, Options{Phrases: []string{"hey reachy"}, Tuning: &Tuning{PhoneLoop: 10, Strict: -2, Lax: -2}}, dir, clips)
	now := evaluate(t, ctx, Options{Phrases: []string{"hey reachy"}}, dir, clips)
	o, n := old.Negatives["near-miss"], now.Negatives["near-miss"]
	if o.Hits == 0 || n.Hits > o.Hits*2/3 {
		t.Errorf("near misses uploaded: %d of %d now, %d before; want at most two thirds of before", n.Hits, n.Total, o.Hits)
	}
	for _, c := range []string{"clean", "10dB"} {
		if now.Recall[c].Hits < old.Recall[c].Hits {
			t.Errorf("recall %s: %d now, %d before", c, now.Recall[c].Hits, old.Recall[c].Hits)
		}
	}
}

// TestSensitivityMovesTheThreshold: the same spot is accepted by a sensitive spotter and
// refused by a strict one; the knob runs from strict (0) to lax (1).
func TestSensitivityMovesTheThreshold(t *testing.T) {
	lex := map[string][]string{"hey": {"HH EY"}, "reachy": {"R IY CH IY"}}
	phrase := [][]string{{"hey", "reachy"}}
	perPhone := (DefaultTuning().Strict + DefaultTuning().Lax) / 2 // what sensitivity 0.5 asks
	score := int(perPhone*6/log10PerUnit()) - engineScoreOffset
	s := []spot{{phrase: "hey reachy", start: SampleRate / 10, end: SampleRate * 8 / 10, score: score + 5}}
	for _, c := range []struct {
		sens float64
		want bool
	}{{0.1, false}, {0.5, true}, {0.9, true}} {
		r, err := newRule(phrase, lex, c.sens, DefaultTuning())
		if err != nil {
			t.Fatal(err)
		}
		if _, got := r.decide(s, nil); got != c.want {
			t.Errorf("sensitivity %v: a spot scoring %.2f per phone accepted = %v, want %v", c.sens, perPhone, got, c.want)
		}
	}
}

// TestDigitalSilenceDoesNotHideThePhrase: generated speech has stretches of exact digital
// silence, which no microphone produces; without a noise floor under it the engine missed
// these clean clips (two voices of the set saying "hey reechy, is mom busy"). With the floor
// (floor.go) they are heard, like the same speech in noise.
func TestDigitalSilenceDoesNotHideThePhrase(t *testing.T) {
	if raceEnabled {
		t.Skip("C decoding has nothing for the race detector")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	full := FullEvalSet()
	set := EvalSet{Voices: []Voice{full.Voices[1], full.Voices[7]}, Phrase: full.Phrase, Commands: []string{"is mom busy", "how warm is the living room"}}
	dir := t.TempDir()
	clips, err := set.Generate(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	rep := evaluate(t, ctx, Options{Phrases: []string{"hey reachy"}}, dir, clips)
	if r := rep.Recall["clean"]; r.Total != 4 || r.Hits != 4 {
		t.Errorf("clean generated speech: heard %d of %d; missed %v", r.Hits, r.Total, rep.Misses)
	}
}

// TestFalseAcceptBoundNeedsHoursOfSpeech: "no false accept" says little about a short set.
// The report's 95% bound is the Poisson one: about 3 per hour of speech with none seen, so
// the previous set (1.17 h) could not show the 1 per hour and 3.5 h can.
func TestFalseAcceptBoundNeedsHoursOfSpeech(t *testing.T) {
	rep := func(hits int, hours float64) EvalReport {
		r := newReport()
		r.Negatives["household"] = Tally{Hits: hits, Total: 1000}
		r.NegativeSecs["household"] = hours * 3600
		return r
	}
	for _, c := range []struct {
		hits   int
		hours  float64
		want   float64 // tables of the Poisson 95% upper limit: 3.00, 4.74, 6.30
		under1 bool
	}{{0, 1.17, 2.996 / 1.17, false}, {0, 3.5, 2.996 / 3.5, true}, {1, 10, 0.474, true}, {2, 2, 3.148, false}} {
		got := rep(c.hits, c.hours).FAUpperBound("household")
		if math.Abs(got-c.want) > 0.005*c.want {
			t.Errorf("%d false accepts in %.2f h: bound %.3f per hour, want %.3f", c.hits, c.hours, got, c.want)
		}
		if (got < 1) != c.under1 {
			t.Errorf("%d false accepts in %.2f h: bound %.3f shows under 1 per hour = %v, want %v", c.hits, c.hours, got, got < 1, c.under1)
		}
	}
	if b := newReport().FAUpperBound("household"); !math.IsInf(b, 1) {
		t.Errorf("no speech at all bounds the rate at %v, want no bound (+Inf)", b)
	}
}

// TestOutsideSentencesJoinTheSet: a router corpus (tab-separated, # comments) becomes
// commands after the phrase and overheard negatives, taken across the whole file rather
// than its first lines, and the overheard ones count as ordinary speech.
func TestOutsideSentencesJoinTheSet(t *testing.T) {
	var b strings.Builder
	b.WriteString("# sentence\tintents\n# Source: somewhere\n\n")
	for i := range 200 {
		fmt.Fprintf(&b, "turn on light number %d\thouse.light.set\t{}\tha-light-on\n", i)
	}
	path := filepath.Join(t.TempDir(), "corpus.tsv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	lines, err := ReadSentences(path)
	if err != nil || len(lines) != 200 || lines[0] != "turn on light number 0" {
		t.Fatalf("ReadSentences = %d lines starting %q, %v; want 200 sentences without comments or columns", len(lines), lines[:min(1, len(lines))], err)
	}
	base := SmallEvalSet()
	set := base.WithSentences(lines)
	if got := len(set.Commands) - len(base.Commands); got != outsideSentences/4 {
		t.Errorf("%d outside commands, want %d", got, outsideSentences/4)
	}
	if len(set.Overheard) != outsideSentences*3/4 {
		t.Errorf("%d overheard sentences, want %d", len(set.Overheard), outsideSentences*3/4)
	}
	if last := set.Overheard[len(set.Overheard)-1]; last != "turn on light number 193" {
		t.Errorf("the last overheard sentence is %q: the sentences are not taken across the file", last)
	}
	if len(base.Overheard) != 0 || len(base.Commands) != len(SmallEvalSet().Commands) {
		t.Error("WithSentences changed the set it was called on")
	}
	if !slices.Contains(OrdinarySpeech, "overheard") {
		t.Error("overheard commands are not counted as ordinary speech")
	}
	if _, err := ReadSentences(filepath.Join(t.TempDir(), "missing.txt")); err == nil {
		t.Error("a missing file read without error")
	}
	empty := filepath.Join(t.TempDir(), "empty.tsv")
	os.WriteFile(empty, []byte("# only a comment\n"), 0o644)
	if _, err := ReadSentences(empty); err == nil || !strings.Contains(err.Error(), "no sentences") {
		t.Errorf("a file of comments: %v, want an error saying it holds no sentences", err)
	}
}

// TestEachUtteranceIsJudgedOnItsOwn: the engine's front end used to carry its noise
// estimates from one utterance to the next, so a clip's scores (and sometimes its verdict)
// depended on what was heard before it. Now the same clip scores the same after anything,
// and a report is the same for any number of spotters sharing the work.
func TestEachUtteranceIsJudgedOnItsOwn(t *testing.T) {
	if raceEnabled {
		t.Skip("C decoding has nothing for the race detector")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	full := FullEvalSet()
	set := EvalSet{Voices: full.Voices[:2], Phrase: full.Phrase, Commands: full.Commands[:2], Household: full.Household[:2],
		Noises: []string{"pink"}, SNRs: []int{5}}
	dir := t.TempDir()
	clips, err := set.Generate(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Phrases: []string{"hey reachy"}}
	fresh, err := NewSphinx(o)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	used, err := NewSphinx(o)
	if err != nil {
		t.Fatal(err)
	}
	defer used.Close()
	for i := 1; i < len(clips); i++ {
		before, _ := readClip(dir, clips[i-1])
		x, _ := readClip(dir, clips[i])
		if _, err := used.spots(ctx, before, false); err != nil {
			t.Fatal(err)
		}
		a, err1 := used.spots(ctx, x, false)
		fresh.Close()
		if fresh, err = NewSphinx(o); err != nil {
			t.Fatal(err)
		}
		b, err2 := fresh.spots(ctx, x, false)
		if err1 != nil || err2 != nil || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s after %s: %v; heard first: %v", clips[i].File, clips[i-1].File, a, b)
		}
	}
	one, err := EvaluateWith(ctx, []Spotter{fresh}, dir, clips)
	if err != nil {
		t.Fatal(err)
	}
	three := []Spotter{used, fresh}
	third, err := NewSphinx(o)
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	shared, err := EvaluateWith(ctx, append(three, third), dir, clips)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(one.Recall, one.Negatives, one.Misses, one.Accepts) != fmt.Sprint(shared.Recall, shared.Negatives, shared.Misses, shared.Accepts) {
		t.Errorf("one spotter: %v %v; three: %v %v", one.Recall, one.Misses, shared.Recall, shared.Misses)
	}
}

// TestAnotherSynthesizersVoicesAreHeard: the rule was tuned on espeak-ng's voices; flite's
// (built from recordings of people) were never looked at while tuning. The spotter hears the
// phrase from each of them said clean, and uploads no household sentence they say, clean or
// in pink noise. (In pink noise at 10 dB it hears far fewer of them than of espeak-ng's: that
// is measured by make wake-eval-flite and reported in docs/security.md, not asserted here.)
func TestAnotherSynthesizersVoicesAreHeard(t *testing.T) {
	if raceEnabled {
		t.Skip("C decoding has nothing for the race detector")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	set := SmallEvalSet()
	set.Voices = FliteVoices()
	dir := t.TempDir()
	clips, err := set.Generate(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	rep := evaluate(t, ctx, Options{Phrases: []string{"hey reachy"}}, dir, clips)
	if r := rep.Recall["clean"]; r.Total != 2*len(set.Voices) || r.Hits != r.Total {
		t.Errorf("recall clean %d/%d, want all; missed %v", r.Hits, r.Total, rep.Misses)
	}
	if h := rep.Negatives["household"]; h.Total == 0 || h.Hits > 0 {
		t.Errorf("household sentences uploaded: %d of %d (%v)", h.Hits, h.Total, rep.Accepts)
	}
}

// TestMoreGaussiansScoreThePhraseInHiss: the spotter scores the phrase in hiss-like noise with
// 32 Gaussians per codebook (Tuning.TopN), not the engine's own 4, which fit a mixture of
// voice and noise badly. Four voices' phrases in pink noise 5 dB under them (fixed seeds, so
// the audio is the same every run) score at least 1 per phone more on average (10.4 to 12.3,
// measured; the threshold went from 8 to 10 with the change), and the setting is checked:
// out of range is refused.
func TestMoreGaussiansScoreThePhraseInHiss(t *testing.T) {
	if raceEnabled {
		t.Skip("C decoding has nothing for the race detector")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var clips [][]float32
	for i, voice := range []string{"en-us", "en-gb", "en-us+f3", "en-us+m3"} {
		b, err := speech.Espeak{Voice: voice}.Synthesize(ctx, "hey reechy, what time is it")
		if err != nil {
			t.Fatal(err)
		}
		c, err := speech.DecodeWAV(b, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		clips = append(clips, mix(c.Samples, seededPink(uint64(i), len(c.Samples)), 5, 0))
	}
	mean := func(topn int) float64 {
		tu := DefaultTuning()
		tu.TopN, tu.Strict, tu.Lax = topn, -30, -30 // every spot reported
		s, err := NewSphinx(Options{Phrases: []string{"hey reachy"}, Tuning: &tu})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var sum float64
		for _, x := range clips {
			spots, err := s.spots(ctx, x, false)
			if err != nil {
				t.Fatal(err)
			}
			best := -30.0
			for _, p := range spots {
				if p.start < 2*SampleRate {
					best = max(best, s.rule.perPhone(p))
				}
			}
			sum += best
		}
		return sum / float64(len(clips))
	}
	four, tuned := mean(4), mean(DefaultTuning().TopN)
	t.Logf("the phrase in pink noise at 5 dB scores %.2f per phone with 4 Gaussians, %.2f with %d", four, tuned, DefaultTuning().TopN)
	if tuned < four+1 {
		t.Errorf("%d Gaussians score the phrase %.2f per phone, 4 score it %.2f; want at least 1 more", DefaultTuning().TopN, tuned, four)
	}
	for _, bad := range []int{-1, maxTopN + 1} {
		tu := DefaultTuning()
		tu.TopN = bad
		if _, err := NewSphinx(Options{Phrases: []string{"hey reachy"}, Tuning: &tu}); err == nil || !strings.Contains(err.Error(), "TopN") {
			t.Errorf("TopN %d: %v, want it refused", bad, err)
		}
	}
}

// seededPink is n samples of pink noise from a fixed seed (floor.go's pinkNoise).
func seededPink(seed uint64, n int) []float32 {
	out := make([]float32, n)
	for i, v := range pinkNoise(rand.New(rand.NewPCG(seed, 0x91c4)), n) {
		out[i] = float32(v * 0.05)
	}
	return out
}

// TestEachSynthesizerSaysTheWakePhrase: every synthesizer of the evaluation and training sets
// is told the phrase in the spelling that makes it say R IY CH IY, asked of the synthesizer's
// own letter-to-sound rules. The evaluation set once told every voice "hey reechy" (espeak-ng's
// spelling), which festival says R EH CH IY: neither engine heard festival's clean phrases.
func TestEachSynthesizerSaysTheWakePhrase(t *testing.T) {
	for _, bin := range []string{"espeak-ng", "flite", "text2wave", "festival"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("%s not installed (deploy/scripts/deps.sh)", bin)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, syn := range Synthesizers() {
		v := EvalVoices(syn)[0]
		set := EvalSet{Voices: []Voice{v}, Phrase: "hey reachy", Commands: []string{"what time is it"}}
		clips, err := set.Generate(ctx, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if len(clips) != 1 || !clips[0].Positive {
			t.Fatalf("%s: clips %+v, want one positive", syn, clips)
		}
		said := clips[0].Text
		if got := phonesOf(t, ctx, v, said); !strings.Contains(got, "r iy ch iy") {
			t.Errorf("%s voice %s told %q says %q, want r iy ch iy", syn, v.Name, said, got)
		}
		// The training set is told the same.
		if tr := SayAs(syn, "hey reachy"); !strings.HasPrefix(said, tr+",") {
			t.Errorf("%s: evaluation said %q, training says %q", syn, said, tr)
		}
	}
}

// phonesOf asks the voice's synthesizer how it pronounces text, in lower-case CMU-like phones
// ("hh ey r iy ch iy"); of espeak-ng's own symbols only the name's are mapped.
func phonesOf(t *testing.T, ctx context.Context, v Voice, text string) string {
	t.Helper()
	var cmd *exec.Cmd
	switch SynthOf(v.Name) {
	case SynthFlite:
		cmd = exec.CommandContext(ctx, "flite", "-voice", strings.TrimPrefix(v.Name, "flite:"), "-t", text, "-ps", "-o", "none")
	case SynthFestival:
		script := fmt.Sprintf("(voice_%s) (set! u (utt.synth (Utterance Text %q))) (print (mapcar (lambda (s) (item.name s)) (utt.relation.items u 'Segment)))",
			strings.TrimPrefix(v.Name, "festival:"), text)
		cmd = exec.CommandContext(ctx, "festival", "--pipe")
		cmd.Stdin = strings.NewReader(script)
	default:
		cmd = exec.CommandContext(ctx, "espeak-ng", "-v", v.Name, "-x", "-q", text)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %v", cmd.Args, err)
	}
	s := string(out)
	if SynthOf(v.Name) == SynthEspeak {
		// espeak-ng's symbols for the name: r'i:tSi is R IY CH IY, r'i:ki and r'i:kI R IY K IY.
		s = strings.NewReplacer("'", "", ",", "").Replace(s)
		s = strings.NewReplacer("ri:tSi", "r iy ch iy", "ri:ki", "r iy k iy", "ri:kI", "r iy k iy").Replace(s)
		return s
	}
	return strings.Join(strings.Fields(strings.NewReplacer("\"", " ", "(", " ", ")", " ").Replace(s)), " ")
}
