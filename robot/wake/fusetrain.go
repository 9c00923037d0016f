package wake

import (
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"io"
	"math"
)

// ClipEvidence is one training clip as the two engines saw it, kept so that a fusion can be
// fitted with the neural scores of a head that never heard the clip's synthesizer: its
// embeddings (every window, as Features.Embeddings gives them) and PocketSphinx's verdict at
// the default sensitivity.
type ClipEvidence struct {
	Positive bool
	Samples  int
	Sphinx   Verdict
	Emb      []float32
	Ends     []int
}

// NeuralDetection is what the neural engine would say of the clip with head h at the default
// sensitivity: its best window where a phrase may count. The louder-voice exception past the
// first 3 s (onset.go) needs the audio, which is not kept: training clips are one voice, where
// it does not apply.
func (c ClipEvidence) NeuralDetection(h *Head) Detection {
	best := Detection{Phrase: h.Phrase, Score: h.Threshold - 30, Needed: h.Threshold}
	first := true
	for i := h.Window - 1; i < len(c.Ends); i++ {
		end := max(0, min(c.Samples, c.Ends[i]))
		start := max(0, end-h.PhraseSamples)
		if start > maxPhraseStart {
			continue
		}
		if z := h.logit(c.Emb, i); first || z > best.Score {
			best.Score, best.Start, best.End, first = z, start, end, false
		}
	}
	return best
}

// SphinxDetection is PocketSphinx's verdict on the clip as a detection.
func (c ClipEvidence) SphinxDetection(phrase string) (Detection, bool) {
	s := c.Sphinx
	return Detection{Phrase: phrase, Score: s.Score, Needed: s.Needed, Start: s.Start, End: s.End}, s.OK
}

// FusionRows turns clips into a fusion's rows, each clip scored by the head given for it
// (heads[i]: one trained without clip i's synthesizer).
func FusionRows(clips []ClipEvidence, heads []*Head) ([]Evidence, []bool) {
	rows := make([]Evidence, len(clips))
	pos := make([]bool, len(clips))
	for i, c := range clips {
		ds, heard := c.SphinxDetection(heads[i].Phrase)
		rows[i] = EvidenceOf(c.NeuralDetection(heads[i]), ds, heard)
		pos[i] = c.Positive
	}
	return rows, pos
}

// RowsDigest is the sha256 of a fusion's rows (their numbers and labels, in order).
func RowsDigest(rows []Evidence, pos []bool) string {
	h := sha256.New()
	for i, e := range rows {
		for _, v := range e.features() {
			fmt.Fprintf(h, "%016x ", math.Float64bits(v))
		}
		fmt.Fprintln(h, pos[i])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// WriteClipEvidence and ReadClipEvidence keep a synthesizer's clips in the training cache.
func WriteClipEvidence(w io.Writer, clips []ClipEvidence) error {
	return gob.NewEncoder(w).Encode(clips)
}

// ReadClipEvidence reads what WriteClipEvidence wrote.
func ReadClipEvidence(r io.Reader) ([]ClipEvidence, error) {
	var clips []ClipEvidence
	if err := gob.NewDecoder(r).Decode(&clips); err != nil {
		return nil, fmt.Errorf("training evidence cache: %w", err)
	}
	return clips, nil
}
