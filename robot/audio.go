package robot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/reachy-broker/reachy-broker/speech"
)

// Source is a microphone: 16 kHz mono samples in chunks, io.EOF when it ends.
type Source interface {
	Read(ctx context.Context) ([]float32, error)
}

// FileSource plays WAV files as the microphone (sim mode), with silence between them.
type FileSource struct {
	spans   // the words each file says, when it carries them (SpokenTexts)
	samples []float32
	pos     int
	chunk   int
}

// NewFileSource loads WAV files, or every .wav in a directory, in order.
func NewFileSource(inputs []string, gap float64) (*FileSource, error) {
	var files []string
	for _, in := range inputs {
		st, err := os.Stat(in)
		if err != nil {
			return nil, err
		}
		if st.IsDir() {
			entries, _ := filepath.Glob(filepath.Join(in, "*.wav"))
			sort.Strings(entries)
			files = append(files, entries...)
			continue
		}
		files = append(files, in)
	}
	if len(files) == 0 {
		return nil, errors.New("sim: no WAV input")
	}
	silence := make([]float32, int(gap*speech.SampleRate))
	s := &FileSource{chunk: speech.SampleRate / 50}
	s.samples = append(s.samples, silence...)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		clip, err := speech.DecodeWAV(b, 0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		s.add(b, len(s.samples), len(s.samples)+len(clip.Samples))
		s.samples = append(s.samples, clip.Samples...)
		s.samples = append(s.samples, silence...)
	}
	return s, nil
}

// Read returns the next 20 ms.
func (s *FileSource) Read(ctx context.Context) ([]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.pos >= len(s.samples) {
		return nil, io.EOF
	}
	end := min(s.pos+s.chunk, len(s.samples))
	out := s.samples[s.pos:end]
	s.pos = end
	return out, nil
}

// Downmix averages interleaved channels (the robot's mic board sends two).
func Downmix(interleaved []float32, channels int) []float32 {
	if channels <= 1 {
		return interleaved
	}
	out := make([]float32, len(interleaved)/channels)
	for i := range out {
		var s float32
		for c := 0; c < channels; c++ {
			s += interleaved[i*channels+c]
		}
		out[i] = s / float32(channels)
	}
	return out
}

// Chime is the fallback sound when nothing else can be played: two soft descending tones.
func Chime() []byte {
	const rate = speech.SampleRate
	var s []float32
	for _, f := range []float64{660, 440} {
		for i := 0; i < rate/4; i++ {
			env := math.Sin(math.Pi * float64(i) / float64(rate/4))
			s = append(s, float32(0.3*env*math.Sin(2*math.Pi*f*float64(i)/rate)))
		}
	}
	b, _ := speech.EncodeWAV(s, rate)
	return b
}

// FallbackSpeech pre-synthesizes the "can't reach home" sentence, or returns the chime.
func FallbackSpeech(ctx context.Context, path string) []byte {
	if path != "" {
		if b, err := os.ReadFile(path); err == nil {
			if _, err := speech.DecodeWAV(b, 0); err == nil {
				return b
			}
		}
	}
	if b, err := (speech.Espeak{}).Synthesize(ctx, "Sorry, I can't reach home right now."); err == nil {
		return b
	}
	return Chime()
}
