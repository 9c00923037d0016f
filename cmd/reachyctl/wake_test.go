package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/robot/wake"
	"github.com/reachy-broker/reachy-broker/speech"
)

// speechAfter writes a WAV with lead seconds of silence before text.
func speechAfter(t *testing.T, lead float64, text string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b, err := speech.Espeak{}.Synthesize(ctx, text)
	if err != nil {
		t.Fatal(err)
	}
	clip, err := speech.DecodeWAV(b, 0)
	if err != nil {
		t.Fatal(err)
	}
	x := append(make([]float32, int(lead*speech.SampleRate)), clip.Samples...)
	wav, _ := speech.EncodeWAV(x, speech.SampleRate)
	f := filepath.Join(t.TempDir(), "in.wav")
	os.WriteFile(f, wav, 0o644)
	return f
}

// TestWakeTestShowsWhereThePhraseWas: `reachyctl wake test` points at the phrase two seconds
// into the file, and says "not addressed" (exit 1) for a file without it.
func TestWakeTestShowsWhereThePhraseWas(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"wake", "test", speechAfter(t, 2, "hey reechy, what time is it")}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
	var at float64
	line := out.String()
	i := strings.Index(line, "spotted at ")
	if i < 0 {
		t.Fatalf("no spot: %s", line)
	}
	fmt.Sscanf(line[i+len("spotted at "):], "%fs", &at)
	if at < 1.8 || at > 2.8 {
		t.Fatalf("spotted at %.2fs, the phrase starts at 2s: %s", at, line)
	}
	out.Reset()
	if code := run([]string{"wake", "test", speechAfter(t, 1, "the kettle is boiling, do you want some tea")}, &out, &errb); code != 1 || !strings.Contains(out.String(), "not addressed") {
		t.Fatalf("exit %d: %s", code, out.String())
	}
}

// TestWakeEvalVoicesSplitTheSet: --voices picks voices by their order in the set, so that a
// rule tuned on some voices can be reported on the others; a voice the set lacks is refused.
func TestWakeEvalVoicesSplitTheSet(t *testing.T) {
	var clips []wake.EvalClip
	for _, v := range []string{"en-us", "en-gb", "en-us", "en-029", "en-gb"} {
		clips = append(clips, wake.EvalClip{File: v + ".wav", Voice: v})
	}
	got, err := voiceSubset(clips, "1-2")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range got {
		names = append(names, c.Voice)
	}
	if strings.Join(names, ",") != "en-gb,en-029,en-gb" {
		t.Fatalf("--voices 1-2 kept %v", names)
	}
	if _, err := voiceSubset(clips, "0,3"); err == nil || !strings.Contains(err.Error(), "voices 0-2") {
		t.Fatalf("voice 3 of 3: %v", err)
	}
}

// TestWakeGenTakesOutsideSentences: `wake gen --sentences FILE` says every fourth sentence
// after the phrase and the others without it (overheard), in every voice and condition; a
// file that is not there is an error that names it.
func TestWakeGenTakesOutsideSentences(t *testing.T) {
	sentences := filepath.Join(t.TempDir(), "mine.txt")
	os.WriteFile(sentences, []byte("# ours\nturn on the kitchen light\nis it raining\nwhat is the temperature\nlights off please\n"), 0o644)
	dir := filepath.Join(t.TempDir(), "set")
	var out, errb bytes.Buffer
	if code := run([]string{"wake", "gen", "--small", "--sentences", sentences, dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	clips, err := wake.LoadEvalSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	small := wake.SmallEvalSet()
	perText := len(small.Voices) * (1 + len(small.Noises)*len(small.SNRs))
	count := map[string]int{}
	for _, c := range clips {
		count[c.Category]++
		if c.Category == "command" && c.Text == wake.SayAs(wake.SynthEspeak, small.Phrase)+", lights off please" && !c.Positive {
			t.Errorf("%s is a command after the phrase but not marked positive", c.File)
		}
	}
	if count["overheard"] != 3*perText || count["command"] != (len(small.Commands)+1)*perText {
		t.Errorf("categories %v, want %d overheard and %d commands", count, 3*perText, (len(small.Commands)+1)*perText)
	}
	errb.Reset()
	missing := filepath.Join(t.TempDir(), "missing.txt")
	if code := run([]string{"wake", "gen", "--small", "--sentences", missing, filepath.Join(t.TempDir(), "x")}, &out, &errb); code == 0 || !strings.Contains(errb.String(), missing) {
		t.Errorf("a missing sentences file: exit %d, %q; want an error naming it", code, errb.String())
	}
}

// TestWakeGenSpeaksWithAnotherSynthesizer: `wake gen --synth flite` makes the set with
// flite's voices instead of espeak-ng's, and names them so in the manifest; a synthesizer the
// command does not know is a usage error that lists the three it does.
func TestWakeGenSpeaksWithAnotherSynthesizer(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "set")
	var out, errb bytes.Buffer
	if code := run([]string{"wake", "gen", "--small", "--synth", "flite", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	clips, err := wake.LoadEvalSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	voices := map[string]bool{}
	for _, c := range clips {
		voices[c.Voice] = true
	}
	for _, v := range wake.FliteVoices() {
		if !voices[v.Name] {
			t.Errorf("voice %s missing from the set (voices %v)", v.Name, voices)
		}
	}
	if len(voices) != len(wake.FliteVoices()) {
		t.Errorf("voices %v, want flite's only", voices)
	}
	errb.Reset()
	if code := run([]string{"wake", "gen", "--small", "--synth", "mbrola", filepath.Join(t.TempDir(), "x")}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "espeak-ng, flite or festival") {
		t.Errorf("an unknown synthesizer: exit %d, %q; want a usage error naming the three", code, errb.String())
	}
}

// TestWakeFlagsAfterTheFile: the documented `reachyctl wake test FILE.wav --sensitivity S`
// reads the flag after the file (it used to answer "needs one DIR or FILE"), and the flag
// takes effect: a sensitivity out of range given after the file is refused as such.
func TestWakeFlagsAfterTheFile(t *testing.T) {
	f := speechAfter(t, 1, "hey reechy, what time is it")
	var out, errb bytes.Buffer
	if code := run([]string{"wake", "test", f, "--sensitivity", "0.9"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "spotted at") {
		t.Fatalf("wake test FILE --sensitivity 0.9: exit %d: %s %s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"wake", "test", f, "--sensitivity", "1.5"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "wake sensitivity 1.5: must be between 0 and 1") {
		t.Fatalf("wake test FILE --sensitivity 1.5 should be refused for its sensitivity: exit %d: %s %s", code, out.String(), errb.String())
	}
}

// TestWakeHelpExitsZero: `reachyctl wake --help` lists the subcommands and exits 0, and so
// does a subcommand's --help (it printed a usage error and exited 2).
func TestWakeHelpExitsZero(t *testing.T) {
	for _, args := range [][]string{{"wake", "--help"}, {"wake", "-h"}, {"wake", "test", "--help"}, {"wake", "train", "--help"}} {
		var out, errb bytes.Buffer
		code := run(args, &out, &errb)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errb.String())
		}
		if args[1] == "--help" && !strings.Contains(out.String(), "train") {
			t.Errorf("%v does not list train: %s", args, out.String())
		}
		if len(args) == 3 && !strings.Contains(errb.String(), "-sensitivity") {
			t.Errorf("%v does not list the flags: %s", args, errb.String())
		}
	}
}

// TestWakeMissSaysTheBestScore: a miss says how close it came (the best score a spot reached
// and what it needed, or that none reached the engine's floor), not just "not addressed".
func TestWakeMissSaysTheBestScore(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"wake", "test", speechAfter(t, 1, "the kettle is boiling, do you want some tea")}, &out, &errb)
	if code != 1 {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
	if !regexp.MustCompile(`not addressed .*(best score -?[0-9.]+ at [0-9.]+s \(needs -?[0-9.]+\)|no spot reached the engine's floor \(a spot needs -?[0-9.]+\))`).MatchString(out.String()) {
		t.Fatalf("a miss without its score: %s", out.String())
	}
}

// TestWakeNeuralWithoutRuntimeSaysHowToInstall: asking for the neural engine where its
// runtime is not installed is an error naming the install script, not a crash.
func TestWakeNeuralWithoutRuntimeSaysHowToInstall(t *testing.T) {
	var out, errb bytes.Buffer
	f := speechAfter(t, 1, "hey reechy, what time is it")
	code := run([]string{"wake", "test", f, "--engine", "neural", "--runtime-dir", t.TempDir()}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "deploy/scripts/wake-neural.sh") {
		t.Fatalf("exit %d: %q", code, errb.String())
	}
}

// writeSet writes a hand-made evaluation set: each clip's audio and its manifest entry.
func writeSet(t *testing.T, clips map[wake.EvalClip][]float32) string {
	t.Helper()
	dir := t.TempDir()
	var manifest []wake.EvalClip
	for c, x := range clips {
		wav, err := speech.EncodeWAV(x, speech.SampleRate)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, c.File), wav, 0o644); err != nil {
			t.Fatal(err)
		}
		c.Seconds = float64(len(x)) / speech.SampleRate
		manifest = append(manifest, c)
	}
	b, _ := json.Marshal(manifest)
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestWakeEvalAddsUpSets: `wake eval --engine E DIR MORE` measures sets made by separate runs
// of gen (other noises, other SNRs) as one: the clean clip both sets hold is counted once (its
// seconds of speech are not counted twice as negative speech heard), the verdicts are kept per
// clip so a second run decodes nothing, and sets whose shared clip differs are refused.
func TestWakeEvalAddsUpSets(t *testing.T) {
	say := func(text string) []float32 {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		b, err := speech.Espeak{}.Synthesize(ctx, text)
		if err != nil {
			t.Skipf("espeak-ng: %v", err)
		}
		clip, err := speech.DecodeWAV(b, 0)
		if err != nil {
			t.Fatal(err)
		}
		return clip.Samples
	}
	phrase, other := say("hey reechy, what time is it"), say("the kettle is boiling, do you want some tea")
	noisy := make([]float32, len(phrase))
	for i, v := range phrase {
		noisy[i] = v + 0.01*float32((i*7919)%200-100)/100
	}
	pos := wake.EvalClip{File: "pos-v0-u00-clean.wav", Positive: true, Category: "command", Voice: "en-us", Noise: "clean"}
	neg := wake.EvalClip{File: "neg-v0-u01-clean.wav", Category: "household", Voice: "en-us", Noise: "clean"}
	posNoisy := wake.EvalClip{File: "pos-v0-u00-pink20.wav", Positive: true, Category: "command", Voice: "en-us", Noise: "pink", SNR: 20}
	a := writeSet(t, map[wake.EvalClip][]float32{pos: phrase, neg: other})
	b := writeSet(t, map[wake.EvalClip][]float32{pos: phrase, neg: other, posNoisy: noisy})
	var out, errb bytes.Buffer
	args := []string{"wake", "eval", "--engine", "sphinx", "--jobs", "1", a, b}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
	first := out.String()
	for _, want := range []string{"3 clips said by espeak-ng", "recall clean  100.0%  (1/1)", "(1/1)"} {
		if !strings.Contains(first, want) {
			t.Errorf("the report lacks %q: the shared clean clips counted twice?\n%s", want, first)
		}
	}
	if !regexp.MustCompile(`recall 20dB +[0-9.]+% +\(\d/1\)`).MatchString(first) {
		t.Errorf("the second set's 20 dB clip is not in the report:\n%s", first)
	}
	m, _ := filepath.Glob(filepath.Join(b, "verdicts-by-clip-sphinx-*.json"))
	if len(m) != 1 {
		t.Fatalf("verdicts kept per clip in %s: %v", b, m)
	}
	var kept map[string]wake.Verdict
	if raw, err := os.ReadFile(m[0]); err != nil || json.Unmarshal(raw, &kept) != nil || len(kept) != 1 {
		t.Errorf("the second set's verdicts %v (%v): want only its own clip decoded, not the clean ones the first set holds", kept, err)
	}
	// A second run reads the verdicts: the same report, including the CPU time measured.
	out.Reset()
	if code := run(args, &out, &errb); code != 0 || out.String() != first {
		t.Errorf("a second run said (exit %d):\n%s\nthe first:\n%s", code, out.String(), first)
	}
	c := writeSet(t, map[wake.EvalClip][]float32{pos: noisy})
	out.Reset()
	errb.Reset()
	if code := run([]string{"wake", "eval", "--engine", "sphinx", a, c}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "pos-v0-u00-clean.wav differs") {
		t.Errorf("sets whose shared clip differs: exit %d, %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"wake", "eval", a, b}, &out, &errb); code != 2 {
		t.Errorf("adding up sets without --engine: exit %d, %q; want a usage error", code, errb.String())
	}
}
