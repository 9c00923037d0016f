package wake

/*
#cgo pkg-config: pocketsphinx sphinxbase
#include <stdlib.h>
#include <pocketsphinx.h>

// wake_init builds a decoder whose only search is keyphrase spotting over kws (a file of
// "phrase /threshold/" lines), with the small dictionary dict, scoring topn Gaussians per
// codebook. Its log goes nowhere.
static ps_decoder_t *wake_init(const char *hmm, const char *dict, const char *kws, const char *plp, const char *topn) {
	cmd_ln_t *cfg = cmd_ln_init(NULL, ps_args(), TRUE,
		"-hmm", hmm, "-dict", dict, "-kws", kws, "-kws_plp", plp, "-topn", topn, "-logfn", "/dev/null", NULL);
	if (cfg == NULL) return NULL;
	ps_decoder_t *ps = ps_init(cfg);
	cmd_ln_free_r(cfg);
	return ps;
}

// wake_dets copies up to max detections (most recent first, as the engine keeps them) into
// the arrays and returns how many there were. prob is the keyphrase path's log score minus
// the best free phone loop's at the detection's end, the engine's own confidence.
static int wake_dets(ps_decoder_t *ps, const char **word, int *sf, int *ef, int *prob, int max) {
	int n = 0;
	ps_seg_t *seg = ps_seg_iter(ps);
	while (seg != NULL && n < max) {
		int32 a, l, b;
		word[n] = ps_seg_word(seg);
		ps_seg_frames(seg, &sf[n], &ef[n]);
		prob[n] = ps_seg_prob(seg, &a, &l, &b);
		n++;
		seg = ps_seg_next(seg);
	}
	if (seg != NULL) ps_seg_free(seg);
	return n;
}
*/
import "C"

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Sphinx is the PocketSphinx keyphrase spotter (Debian bookworm ships the 5prealpha API:
// cmd_ln_init, ps_init with -kws, ps_start_utt / ps_process_raw / ps_end_utt, ps_seg_iter).
// The engine reports every spot with its frames and score; the decision (rule.go) reads
// them. It is single-threaded C and not safe for concurrent use.
type Sphinx struct {
	// mu is held for the whole of a Spot and by Close: a spot the Guard gave up on (stalled)
	// may still be inside the engine when the hub stops, and the decoder must not be freed
	// under it.
	mu       sync.Mutex
	ps       *C.ps_decoder_t
	denoise  *denoiser // nil unless the tuning asks for it
	denoised []float32 // the utterance with steady noise taken out (denoise.go)
	floored  []float32 // the utterance with its noise floor (floor.go)
	pcm      []int16
	rule     rule
	onset    onsetScratch
	// second counts second listens; read from other goroutines (Guard.Stats).
	second atomic.Int64
	// Detection buffers for wake_dets.
	words           []*C.char
	sfs, efs, probs []C.int
}

// engineTopN is the engine's own -topn, what Tuning.TopN 0 leaves.
const engineTopN = 4

// framesPerSecond is the engine's default frame rate (-frate 100).
const framesPerSecond = 100

// maxDetections bounds what one utterance can report (the engine merges overlapping spots
// of one phrase, so a few dozen is already a long stretch of speech).
const maxDetections = 256

// NewSphinx loads the model and prepares the phrases. A missing model or an unspellable
// word returns ErrModel or ErrSpelling with a sentence that says how to fix it.
func NewSphinx(o Options) (*Sphinx, error) {
	sens, err := o.sensitivity()
	if err != nil {
		return nil, err
	}
	phrases, err := normalizePhrases(o.Phrases)
	if err != nil {
		return nil, err
	}
	hmm, dictPath, err := modelPaths(o.ModelDir)
	if err != nil {
		return nil, err
	}
	lex, err := lexicon(dictPath, phrases, o.Pronunciations)
	if err != nil {
		return nil, err
	}
	r, err := newRule(phrases, lex, sens, o.tuning())
	if err != nil {
		return nil, err
	}
	// The engine reads the dictionary and phrase list from files; they hold words, never audio.
	tmp, err := os.MkdirTemp("", "reachy-wake-")
	if err != nil {
		return nil, fmt.Errorf("wake: %w", err)
	}
	defer os.RemoveAll(tmp)
	dict, kws := filepath.Join(tmp, "wake.dict"), filepath.Join(tmp, "wake.kws")
	if err := writeLexicon(dict, lex); err != nil {
		return nil, fmt.Errorf("wake: %w", err)
	}
	if err := os.WriteFile(kws, []byte(r.keyphrases()), 0o600); err != nil {
		return nil, fmt.Errorf("wake: %w", err)
	}
	ch, cd, ck := C.CString(hmm), C.CString(dict), C.CString(kws)
	cp := C.CString(fmt.Sprintf("1e-%d", r.tune.PhoneLoop))
	defer C.free(unsafe.Pointer(cp))
	topn := r.tune.TopN
	if topn == 0 {
		topn = engineTopN
	}
	ct := C.CString(fmt.Sprint(topn))
	defer C.free(unsafe.Pointer(ct))
	defer C.free(unsafe.Pointer(ch))
	defer C.free(unsafe.Pointer(cd))
	defer C.free(unsafe.Pointer(ck))
	s := &Sphinx{rule: r, words: make([]*C.char, maxDetections), sfs: make([]C.int, maxDetections),
		efs: make([]C.int, maxDetections), probs: make([]C.int, maxDetections)}
	if r.tune.Denoise {
		s.denoise = newDenoiser()
	}
	s.ps = C.wake_init(ch, cd, ck, cp, ct)
	if s.ps == nil {
		return nil, fmt.Errorf("%w: PocketSphinx could not load %s with the phrases %q (a pronunciation in wake_pronunciations may use a phone the model lacks: use ARPAbet phones such as R IY CH IY)",
			ErrModel, hmm, r.phraseNames())
	}
	return s, nil
}

// Spot decodes one utterance from scratch and applies the decision rule. The call runs to
// completion once inside the engine; ctx is only checked before it starts.
//
// When the first listen hears no phrase and a steady noise sits close under the voice (a fan,
// an air conditioner), the spotter listens again to a copy with that noise taken out
// (denoise.go), where a spot needs denoisedMargin more than the threshold.
func (s *Sphinx) Spot(ctx context.Context, samples []float32) (Detection, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	spots, err := s.spots(ctx, samples, false)
	if err != nil {
		return Detection{}, false, err
	}
	around := &surroundings{scratch: &s.onset, samples: samples}
	if d, ok := s.rule.decide(spots, around); ok || s.denoise == nil || !s.denoise.steadyNoiseUnderVoice(samples) {
		return d, ok, nil
	}
	s.second.Add(1)
	if spots, err = s.spots(ctx, samples, true); err != nil {
		return Detection{}, false, err
	}
	// The engine keeps its own threshold here and Go asks the margin more. (Giving the engine
	// a floor below the threshold can hide a spot, rule.go says; this is the other way round,
	// and on 265 second listens of flite's set, commands, near misses and long talk, an engine
	// given threshold+margin decided the same in every one.)
	strict := s.rule
	strict.threshold += denoisedMargin
	d, ok := strict.decide(spots, around)
	d.Denoised = ok
	return d, ok, nil
}

// spots decodes one utterance (denoised first, if asked) and returns every wake phrase the
// engine spotted, in order, with its score.
func (s *Sphinx) spots(ctx context.Context, samples []float32, denoised bool) ([]spot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.ps == nil {
		return nil, fmt.Errorf("wake: spotter closed")
	}
	if len(samples) == 0 {
		return nil, nil
	}
	heard := samples
	if denoised {
		if s.denoise == nil {
			return nil, fmt.Errorf("wake: a denoised listen asked of a spotter built without Tuning.Denoise")
		}
		s.denoised = s.denoise.apply(s.denoised, samples)
		heard = s.denoised
	}
	s.floored = withNoiseFloor(s.floored, heard)
	s.pcm = s.pcm[:0]
	for _, v := range s.floored {
		s.pcm = append(s.pcm, int16(max(-1, min(1, v))*32767))
	}
	// A new stream for every utterance: the engine's front end otherwise carries its noise
	// estimates over from the utterance before, and the same clip scored differently
	// depending on what came before it (28 of 57 clips of the generated set, some by a
	// tenth of the threshold). Each utterance is judged on its own: reachyctl wake test on a
	// file answers what the hub would.
	C.ps_start_stream(s.ps)
	if C.ps_start_utt(s.ps) < 0 {
		return nil, fmt.Errorf("wake: ps_start_utt failed")
	}
	if C.ps_process_raw(s.ps, (*C.int16)(unsafe.Pointer(&s.pcm[0])), C.size_t(len(s.pcm)), 0, 1) < 0 {
		C.ps_end_utt(s.ps)
		return nil, fmt.Errorf("wake: ps_process_raw failed")
	}
	if C.ps_end_utt(s.ps) < 0 {
		return nil, fmt.Errorf("wake: ps_end_utt failed")
	}
	n := int(C.wake_dets(s.ps, &s.words[0], &s.sfs[0], &s.efs[0], &s.probs[0], maxDetections))
	per := SampleRate / framesPerSecond
	out := make([]spot, 0, n)
	for i := n - 1; i >= 0; i-- { // the engine lists the latest first
		out = append(out, spot{phrase: strings.TrimSpace(C.GoString(s.words[i])), start: int(s.sfs[i]) * per,
			end: min((int(s.efs[i])+1)*per, len(samples)), score: int(s.probs[i])})
	}
	return out, nil
}

// SecondListens is how many utterances this spotter heard a second time, with their steady
// noise taken out.
func (s *Sphinx) SecondListens() int { return int(s.second.Load()) }

// Threshold is the score (Detection.Score) a spot needs at this spotter's sensitivity on the
// first listen; one the second listen heard needs denoisedMargin more (Detection.Needed).
func (s *Sphinx) Threshold() float64 { return s.rule.threshold }

// Phrases are the phrases this spotter listens for, normalized.
func (s *Sphinx) Phrases() []string { return s.rule.phraseNames() }

// Close frees the engine.
func (s *Sphinx) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ps != nil {
		C.ps_free(s.ps)
		s.ps = nil
	}
	return nil
}
