package wake

/*
#cgo pkg-config: pocketsphinx sphinxbase
#include <stdlib.h>
#include <pocketsphinx.h>

// wake_init builds a decoder whose only search is keyphrase spotting over kws (a file of
// "phrase /threshold/" lines), with the small dictionary dict. Its log goes nowhere.
static ps_decoder_t *wake_init(const char *hmm, const char *dict, const char *kws, const char *plp) {
	cmd_ln_t *cfg = cmd_ln_init(NULL, ps_args(), TRUE,
		"-hmm", hmm, "-dict", dict, "-kws", kws, "-kws_plp", plp, "-logfn", "/dev/null", NULL);
	if (cfg == NULL) return NULL;
	ps_decoder_t *ps = ps_init(cfg);
	cmd_ln_free_r(cfg);
	return ps;
}

// wake_first returns the first detection's frames and phrase, or NULL when none.
static const char *wake_first(ps_decoder_t *ps, int *sf, int *ef) {
	ps_seg_t *seg = ps_seg_iter(ps);
	if (seg == NULL) return NULL;
	const char *w = ps_seg_word(seg);
	ps_seg_frames(seg, sf, ef);
	ps_seg_free(seg);
	return w;
}
*/
import "C"

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"unsafe"
)

// Sphinx is the PocketSphinx keyphrase spotter (Debian bookworm ships the 5prealpha API:
// cmd_ln_init, ps_init with -kws, ps_start_utt / ps_process_raw / ps_end_utt, ps_seg_iter).
// It is single-threaded C and not safe for concurrent use.
type Sphinx struct {
	ps      *C.ps_decoder_t
	pcm     []int16
	phrases []string
	phones  map[string]int // phrase -> its number of phones
}

// framesPerSecond is the engine's default frame rate (-frate 100).
const framesPerSecond = 100

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
	var lines strings.Builder
	s := &Sphinx{phones: map[string]int{}}
	for _, p := range phrases {
		phones := 0
		for _, w := range p {
			phones += len(strings.Fields(lex[w][0]))
		}
		fmt.Fprintf(&lines, "%s /1e-%d/\n", strings.Join(p, " "), 2*phones)
		s.phrases = append(s.phrases, strings.Join(p, " "))
		s.phones[strings.Join(p, " ")] = phones
	}
	if err := os.WriteFile(kws, []byte(lines.String()), 0o600); err != nil {
		return nil, fmt.Errorf("wake: %w", err)
	}
	ch, cd, ck := C.CString(hmm), C.CString(dict), C.CString(kws)
	cp := C.CString(fmt.Sprintf("1e-%d", plpExponent(sens)))
	defer C.free(unsafe.Pointer(cp))
	defer C.free(unsafe.Pointer(ch))
	defer C.free(unsafe.Pointer(cd))
	defer C.free(unsafe.Pointer(ck))
	s.ps = C.wake_init(ch, cd, ck, cp)
	if s.ps == nil {
		return nil, fmt.Errorf("%w: PocketSphinx could not load %s with the phrases %q (a pronunciation in wake_pronunciations may use a phone the model lacks: use ARPAbet phones such as R IY CH IY)",
			ErrModel, hmm, s.phrases)
	}
	return s, nil
}

// plpExponent maps sensitivity to the phone-loop probability 1e-N. The engine fires when the
// phrase's path beats a free loop of phones by the phrase's threshold (1e-2 per phone here);
// a less likely phone loop (larger N) is a weaker rival, so the phrase fires more easily.
// Measured on the generated evaluation set, this knob moves recall and false accepts far
// more than the per-phrase threshold does.
func plpExponent(sens float64) int {
	return max(1, int(math.Round(sens*20)))
}

// Spot decodes one utterance from scratch. The call runs to completion once inside the
// engine; ctx is only checked before it starts.
func (s *Sphinx) Spot(ctx context.Context, samples []float32) (Detection, bool, error) {
	if err := ctx.Err(); err != nil {
		return Detection{}, false, err
	}
	if s.ps == nil {
		return Detection{}, false, fmt.Errorf("wake: spotter closed")
	}
	if len(samples) == 0 {
		return Detection{}, false, nil
	}
	s.pcm = s.pcm[:0]
	for _, v := range samples {
		s.pcm = append(s.pcm, int16(max(-1, min(1, v))*32767))
	}
	if C.ps_start_utt(s.ps) < 0 {
		return Detection{}, false, fmt.Errorf("wake: ps_start_utt failed")
	}
	if C.ps_process_raw(s.ps, (*C.int16)(unsafe.Pointer(&s.pcm[0])), C.size_t(len(s.pcm)), 0, 1) < 0 {
		C.ps_end_utt(s.ps)
		return Detection{}, false, fmt.Errorf("wake: ps_process_raw failed")
	}
	if C.ps_end_utt(s.ps) < 0 {
		return Detection{}, false, fmt.Errorf("wake: ps_end_utt failed")
	}
	var sf, ef C.int
	w := C.wake_first(s.ps, &sf, &ef)
	if w == nil {
		return Detection{}, false, nil
	}
	per := SampleRate / framesPerSecond
	d := Detection{Phrase: C.GoString(w), Start: int(sf) * per, End: min((int(ef)+1)*per, len(samples))}
	if !s.plausible(d) {
		return Detection{}, false, nil
	}
	return d, true, nil
}

// maxPhraseStart: people address the robot first, so a phrase spotted deep inside a stretch
// of speech is a look-alike in ordinary talk. On the full generated set this and the length
// check below cut false accepts in long speech from 69 to 3 and lost no real phrase.
const maxPhraseStart = 3 * SampleRate

// minPhoneSamples: no voice says a phone in under 45 ms; spots shorter than that per phone
// of the phrase are a few syllables of other words squeezed into the phrase's shape.
const minPhoneSamples = SampleRate * 45 / 1000

// plausible rejects spots that start too late in the utterance or are too short to be the
// phrase. Both checks are free: they read the keyphrase search's own alignment.
func (s *Sphinx) plausible(d Detection) bool {
	if d.Start > maxPhraseStart {
		return false
	}
	return d.End-d.Start >= s.phones[d.Phrase]*minPhoneSamples
}

// Phrases are the phrases this spotter listens for, normalized.
func (s *Sphinx) Phrases() []string { return append([]string(nil), s.phrases...) }

// Close frees the engine.
func (s *Sphinx) Close() error {
	if s.ps != nil {
		C.ps_free(s.ps)
		s.ps = nil
	}
	return nil
}
