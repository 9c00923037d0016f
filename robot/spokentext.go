package robot

import (
	"strings"
	"sync"

	"github.com/reachy-broker/reachy-broker/speech"
)

// SpokenTexts is a sim microphone that knows the words its files say (a clip made by
// `reachyctl speak` carries them: speech.SpokenText). The hub asks it, for each utterance it
// uploads, for the words of the files that utterance overlaps, and writes them into the
// upload, so a dev broker without a speech model can answer the room's voice. A file's
// words are given once: the first utterance that overlaps it takes them.
type SpokenTexts interface {
	// TextFor returns the words of the files overlapping stream positions [start, end) (in
	// samples since the microphone's first), or "" when none carries any.
	TextFor(start, end int) string
}

// spans records which stretch of a sim microphone's stream each labelled file fills.
type spans struct {
	mu   sync.Mutex
	list []span
}

type span struct {
	start, end int
	text       string
	given      bool
}

// add records a file's clip at stream positions [start, end) when its WAV carries words.
func (s *spans) add(wav []byte, start, end int) {
	if text, ok := speech.SpokenText(wav); ok {
		s.mu.Lock()
		s.list = append(s.list, span{start: start, end: end, text: text})
		s.mu.Unlock()
	}
}

// TextFor implements SpokenTexts.
func (s *spans) TextFor(start, end int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	keep := s.list[:0]
	for _, sp := range s.list {
		if !sp.given && start < sp.end && end > sp.start {
			out = append(out, sp.text)
			sp.given = true
		}
		if !sp.given && sp.end > start {
			keep = append(keep, sp) // a file already passed by is never asked for again
		}
	}
	s.list = keep
	return strings.Join(out, " ")
}

// uploadWAV encodes an utterance for the broker, with the words it says when the microphone
// knows them.
func uploadWAV(utt []float32, text string) ([]byte, error) {
	wav, err := speech.EncodeWAV(utt, speech.SampleRate)
	if err != nil || text == "" {
		return wav, err
	}
	return speech.WithSpokenText(wav, text)
}
