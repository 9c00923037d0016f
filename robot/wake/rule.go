package wake

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// spot is one wake phrase the engine heard, with where and how well. score is the engine's
// own confidence, in its log units: the keyphrase path's log likelihood minus the best free
// phone loop's at the spot's end, less engineScoreOffset.
type spot struct {
	phrase     string
	start, end int // samples
	score      int
}

// log10PerUnit converts the engine's scores to decimal logarithms: they are logs in base
// 1.0001 shifted right by 10 bits (SENSCR_SHIFT).
func log10PerUnit() float64 { return 1024 * math.Log(1.0001) / math.Ln10 }

// engineScoreOffset: the keyphrase search subtracts a constant (KWS_MAX, 1500) from the
// scores it reports so that they read as a confidence below 1 (pocketsphinx commit 0bd34b23,
// part of Debian's 5prealpha+1); its own threshold compares the score before that. Added
// back, scores and thresholds are on one scale.
const engineScoreOffset = 1500

// Tuning holds the engine's settings and the decision rule's constants. The zero value is not
// valid; DefaultTuning is what the hub runs, reachyctl wake eval --plp and --topn measure
// others.
type Tuning struct {
	// PhoneLoop N sets the engine's phone-loop probability 1e-N (-kws_plp): the free phone
	// loop every spot is scored against pays it at each phone change, so a larger N makes it
	// a weaker rival and every score higher.
	PhoneLoop int
	// TopN is how many Gaussians of each codebook the acoustic model scores a frame with
	// (-topn; 0 leaves the engine's own 4). In noise the few closest Gaussians fit the
	// mixture of voice and noise badly; more of them score the phrase more fairly, at a cost
	// in time roughly in proportion.
	TopN int
	// Denoise lets the spotter listen a second time, to a copy with the noise taken out,
	// when it heard no phrase and a steady noise sits close under the voice (denoise.go).
	Denoise bool
	// Strict and Lax are the scores per phone (decimal log) a wake phrase needs at
	// sensitivity 0 and 1; sensitivity moves the threshold linearly between them.
	Strict, Lax float64
}

// DefaultTuning was chosen on four of the eight voices of the generated evaluation set and
// measured on the other four and on another synthesizer's voices (docs/security.md). With 32
// Gaussians instead of 4 every score rises, and the threshold at the default sensitivity
// (0.4) with it, from 8 to 10 per phone (the lowest with at most one false accept in
// ordinary speech on voices 0-3). Against 4 Gaussians at 8: recall the same or higher in
// every condition but one (flite's voices over the TV at 10 dB, 17 to 16 of 88), false
// accepts in ordinary speech 12 to 4 in 10.4 h, for 2.3 times the time.
func DefaultTuning() Tuning {
	return Tuning{PhoneLoop: 20, TopN: 32, Denoise: true, Strict: 14, Lax: 4}
}

// maxTopN: the en-us model's codebooks hold 128 Gaussians each. (On the flite voices in pink
// noise at 10 dB the phrase scored 4.6 per phone on average with 4, 6.6 with 32 and 6.7 with
// 64.)
const maxTopN = 128

func (o Options) tuning() Tuning {
	if o.Tuning != nil {
		return *o.Tuning
	}
	return DefaultTuning()
}

// rule decides from the engine's spots whether the utterance addresses the robot: a wake
// phrase spotted near the start of the utterance, at a speakable pace, scoring at least the
// threshold its sensitivity sets.
type rule struct {
	tune      Tuning
	threshold float64        // decimal log per phone
	phrases   []string       // normalized
	phones    map[string]int // phrase -> its number of phones
}

func newRule(phrases [][]string, lex map[string][]string, sens float64, t Tuning) (rule, error) {
	if t.PhoneLoop < 1 || t.TopN < 0 || t.TopN > maxTopN || t.Lax > t.Strict {
		return rule{}, fmt.Errorf("wake tuning %+v: phone loop exponent must be >= 1, TopN 0..%d and Lax <= Strict", t, maxTopN)
	}
	r := rule{tune: t, phones: map[string]int{}}
	r.threshold = r.at(sens)
	for _, p := range phrases {
		name := strings.Join(p, " ")
		n := 0
		for _, w := range p {
			n += len(strings.Fields(lex[w][0])) // the keyphrase search uses the first pronunciation
		}
		r.phrases = append(r.phrases, name)
		r.phones[name] = n
	}
	return r, nil
}

// at is the threshold (decimal log per phone) at sensitivity sens.
func (r rule) at(sens float64) float64 { return r.tune.Strict + (r.tune.Lax-r.tune.Strict)*sens }

func (r rule) phraseNames() []string { return append([]string(nil), r.phrases...) }

// keyphrases is the engine's phrase list, each with the rule's threshold. The engine must be
// told the threshold itself rather than a permissive floor for Go to filter: it merges
// overlapping spots of a phrase into one, keeping the best-scoring one's frames, so at a
// lower floor a late, high-scoring spot in long speech hides an earlier one that the start
// check would have let through (on the generated set at 1e6.5 per phone, long speech gave 1
// false accept from a pass at a floor of 1e-6.5 per phone and 10 at a floor of 1e2).
func (r rule) keyphrases() string {
	var b strings.Builder
	names := append([]string(nil), r.phrases...)
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "%s /%e/\n", n, math.Pow(10, r.threshold*float64(r.phones[n])))
	}
	return b.String()
}

// perPhone is a spot's score in decimal log per phone of its phrase.
func (r rule) perPhone(s spot) float64 {
	return float64(s.score+engineScoreOffset) * log10PerUnit() / float64(max(1, r.phones[s.phrase]))
}

// loudness answers the rule's questions about the audio around a spot (onset.go).
type loudness interface {
	// startsAVoice: a new, louder voice starts at the sample.
	startsAVoice(at int) bool
	// continuesSpeech: what comes just before the sample is as loud as what starts there.
	continuesSpeech(at int) bool
}

// decide returns the first spot that passes every check. The engine applied the threshold
// already (rounded down to its integer units); it is checked again here, within one unit, so
// that the rule stands on its own and is tested so. around, when not nil, answers questions
// about loudness: a phrase counts where it begins speech, with nothing as loud just before
// it, and past the utterance's first seconds only where a new, louder voice starts.
func (r rule) decide(spots []spot, around loudness) (Detection, bool) {
	for _, s := range spots {
		n := r.phones[s.phrase]
		if n == 0 || !r.plausible(s) || float64(s.score+engineScoreOffset+1)*log10PerUnit() < r.threshold*float64(n) {
			continue
		}
		if s.start > maxPhraseStart && (around == nil || !around.startsAVoice(s.start)) {
			continue
		}
		if around != nil && around.continuesSpeech(s.start) {
			continue
		}
		return r.detection(s), true
	}
	return r.bestMiss(spots), false
}

// bestMiss is the best-scoring spot the rule refused, for a person asking why (its Phrase
// is empty when the engine reported none: nothing reached its floor, the threshold).
func (r rule) bestMiss(spots []spot) Detection {
	best := Detection{Needed: r.threshold}
	for _, s := range spots {
		if d := r.detection(s); best.Phrase == "" || d.Score > best.Score {
			best = d
		}
	}
	return best
}

func (r rule) detection(s spot) Detection {
	return Detection{Phrase: s.phrase, Start: s.start, End: s.end, Score: r.perPhone(s), Needed: r.threshold}
}

// maxPhraseStart: people address the robot first, so a phrase spotted deep inside a stretch
// of speech is a look-alike in ordinary talk, unless a new voice starts there (onset.go). On
// the full generated set this and the length check below cut false accepts in long speech
// from 69 to 3 and lost no real phrase.
const maxPhraseStart = 3 * SampleRate

// minPhoneSamples: no voice says a phone in under 45 ms; spots shorter than that per phone
// of the phrase are a few syllables of other words squeezed into the phrase's shape.
const minPhoneSamples = SampleRate * 45 / 1000

// plausible rejects spots too short to be the phrase. The check is free: it reads the
// keyphrase search's own alignment.
func (r rule) plausible(s spot) bool {
	return s.end-s.start >= r.phones[s.phrase]*minPhoneSamples
}
