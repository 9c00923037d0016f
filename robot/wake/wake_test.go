package wake

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// TestMissingModelIsRefusedWithTheFix: the error names the missing file and how to get it.
func TestMissingModelIsRefusedWithTheFix(t *testing.T) {
	_, err := NewSphinx(Options{Phrases: []string{"hey reachy"}, ModelDir: t.TempDir()})
	if !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), "pocketsphinx-en-us") || !strings.Contains(err.Error(), "wake_model_dir") {
		t.Fatalf("got %v", err)
	}
}

// TestUnspellablePhraseIsRefusedUntilSpelled: a word the dictionary lacks is named, with the
// config key that fixes it; once spelled there, the phrase loads.
func TestUnspellablePhraseIsRefusedUntilSpelled(t *testing.T) {
	_, err := NewSphinx(Options{Phrases: []string{"hey zorblax"}})
	if !errors.Is(err, ErrSpelling) || !strings.Contains(err.Error(), "zorblax") || !strings.Contains(err.Error(), "wake_pronunciations") {
		t.Fatalf("got %v", err)
	}
	s, err := NewSphinx(Options{Phrases: []string{"hey zorblax"}, Pronunciations: map[string]string{"zorblax": "Z AO R B L AE K S"}})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := NewSphinx(Options{Phrases: []string{"hey reachy 2"}}); !errors.Is(err, ErrSpelling) {
		t.Fatalf("a digit: %v", err)
	}
	if _, err := NewSphinx(Options{Phrases: []string{"hey reachy"}, Sensitivity: 2}); err == nil {
		t.Fatal("sensitivity 2 accepted")
	}
}

// TestSilenceIsNotAddressed: the real engine, on silence and on nothing.
func TestSilenceIsNotAddressed(t *testing.T) {
	s, err := NewSphinx(Options{Phrases: []string{"hey reachy"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, x := range [][]float32{nil, make([]float32, SampleRate)} {
		if _, ok, err := s.Spot(context.Background(), x); ok || err != nil {
			t.Fatalf("silence: %v %v", ok, err)
		}
	}
}

// stuck is an engine that never returns until released; panicky panics.
type stuck struct{ release chan struct{} }

func (s stuck) Spot(ctx context.Context, x []float32) (Detection, bool, error) {
	<-s.release
	return Detection{Phrase: "hey reachy"}, true, nil
}
func (stuck) Close() error { return nil }

type panicky struct{ n *int }

func (p panicky) Spot(ctx context.Context, x []float32) (Detection, bool, error) {
	*p.n++
	if *p.n == 1 {
		panic("engine crashed")
	}
	return Detection{Phrase: "hey reachy"}, true, nil
}
func (panicky) Close() error { return nil }

// TestStalledEngineIsNotAddressedAndNeverWaitedOnTwice: a stall answers "not addressed" at
// the deadline; while the engine is still stuck, further calls answer at once.
func TestStalledEngineIsNotAddressedAndNeverWaitedOnTwice(t *testing.T) {
	rel := make(chan struct{})
	g := NewGuard(stuck{rel}, quiet())
	g.Timeout = 50 * time.Millisecond
	start := time.Now()
	if _, ok := g.Addressed(context.Background(), make([]float32, 100)); ok {
		t.Fatal("a stalled engine was taken as addressed")
	}
	if _, ok := g.Addressed(context.Background(), make([]float32, 100)); ok {
		t.Fatal("busy engine was taken as addressed")
	}
	if time.Since(start) > 2*time.Second {
		t.Fatalf("the hub waited %v", time.Since(start))
	}
	st := g.Stats()
	if st.Stalls != 1 || st.Busy != 1 {
		t.Fatalf("%+v", st)
	}
	close(rel)
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, ok := g.Addressed(context.Background(), nil); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the engine never came back after it was released")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestCrashingEngineIsNotAddressed: a panic is contained and counted; the next call works.
func TestCrashingEngineIsNotAddressed(t *testing.T) {
	n := 0
	g := NewGuard(panicky{&n}, quiet())
	if _, ok := g.Addressed(context.Background(), nil); ok {
		t.Fatal("a crash was taken as addressed")
	}
	if _, ok := g.Addressed(context.Background(), nil); !ok {
		t.Fatal("the engine did not recover")
	}
	if st := g.Stats(); st.Panics != 1 || st.Detected != 1 {
		t.Fatalf("%+v", st)
	}
}

// fakeLoudness answers the rule's loudness questions from two functions.
type fakeLoudness struct{ voiceStarts, runsOn func(int) bool }

func (f fakeLoudness) startsAVoice(at int) bool    { return f.voiceStarts != nil && f.voiceStarts(at) }
func (f fakeLoudness) continuesSpeech(at int) bool { return f.runsOn != nil && f.runsOn(at) }

// TestImplausibleSpotsAreNotAddressed: a spot deep inside a long stretch of speech, one too
// short to hold the phrase's phones, or one that runs on from words as loud as itself does
// not count as being addressed (each was a false accept, an upload, on the generated set); a
// phrase said first, at a normal pace, does, and so does a late one where a new, louder
// voice starts (someone talking over the TV), unless it runs on from that voice's first words.
func TestImplausibleSpotsAreNotAddressed(t *testing.T) {
	r := rule{phones: map[string]int{"hey reachy": 6}, threshold: -100}
	ms := func(n int) int { return n * SampleRate / 1000 }
	newVoiceAt9s := fakeLoudness{voiceStarts: func(at int) bool { return at > ms(8800) && at < ms(9200) }}
	wordsBefore := func(at int) bool { return at > ms(1000) && at < ms(2000) } // someone talking from 0.6 s
	for _, c := range []struct {
		name   string
		start  int
		end    int
		around loudness
		want   bool
	}{
		{"said first", ms(100), ms(700), nil, true},
		{"said first, nothing before it", ms(100), ms(700), fakeLoudness{}, true},
		{"after a short lead-in", ms(2500), ms(3100), fakeLoudness{runsOn: wordsBefore}, true},
		{"running on from words before it", ms(1200), ms(1800), fakeLoudness{runsOn: wordsBefore}, false},
		{"deep in long speech", ms(9000), ms(9600), nil, false},
		{"deep in long speech, no new voice", ms(9000), ms(9600), fakeLoudness{}, false},
		{"deep in speech, where a new voice starts", ms(9000), ms(9600), newVoiceAt9s, true},
		{"where a new voice starts, running on from its first words", ms(9000), ms(9600),
			fakeLoudness{voiceStarts: newVoiceAt9s.voiceStarts, runsOn: func(int) bool { return true }}, false},
		{"too short for six phones", ms(100), ms(340), nil, false},
		{"too short, where a new voice starts", ms(9000), ms(9240), newVoiceAt9s, false},
	} {
		_, got := r.decide([]spot{{phrase: "hey reachy", start: c.start, end: c.end, score: 0}}, c.around)
		if got != c.want {
			t.Errorf("%s: addressed = %v, want %v", c.name, got, c.want)
		}
	}
}
