package speech

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Synthesizer turns a reply sentence into spoken audio: a PCM16 mono WAV at SampleRate.
type Synthesizer interface {
	Synthesize(ctx context.Context, text string) ([]byte, error)
}

// maxSpokenDuration bounds what a synthesizer may hand back.
const maxSpokenDuration = 2 * time.Minute

// maxSynthText bounds the text handed to a synthesizer (replies are capped well below this).
const maxSynthText = 4000

// Espeak speaks with the espeak-ng binary: offline, no shell, text on stdin.
type Espeak struct {
	Binary string // default "espeak-ng"
	Voice  string // default "en-us"
	Rate   int    // words per minute; default 165
}

// Synthesize runs espeak-ng under ctx and returns its speech as PCM16 mono 16 kHz WAV.
func (e Espeak) Synthesize(ctx context.Context, text string) ([]byte, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, errors.New("espeak-ng: nothing to say")
	}
	if len(text) > maxSynthText {
		return nil, fmt.Errorf("espeak-ng: text of %d bytes is over the %d byte limit", len(text), maxSynthText)
	}
	bin, voice, rate := e.Binary, e.Voice, e.Rate
	if bin == "" {
		bin = "espeak-ng"
	}
	if voice == "" {
		voice = "en-us"
	}
	if rate <= 0 {
		rate = 165
	}
	// --stdin reads the text; -b 1 makes it UTF-8; nothing is parsed by a shell.
	cmd := exec.CommandContext(ctx, bin, "-b", "1", "-v", voice, "-s", strconv.Itoa(rate), "--stdin", "--stdout")
	cmd.Stdin = strings.NewReader(text)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("espeak-ng: %w", ctx.Err())
		}
		return nil, fmt.Errorf("espeak-ng: %w: %s", err, firstLine(stderr.String()))
	}
	return normalizeSpeech(out.Bytes(), "espeak-ng")
}

// OpenAISpeech speaks through an OpenAI-compatible /v1/audio/speech endpoint (Piper,
// Kokoro and similar servers on the home side).
type OpenAISpeech struct {
	Client *openai.Client
	Model  string
	Voice  string
}

// NewOpenAISpeech builds an engine for baseURL (e.g. http://kokoro.home:8880/v1).
func NewOpenAISpeech(baseURL, apiKey, model, voice string) *OpenAISpeech {
	cfg := openai.DefaultConfig(apiKey)
	cfg.BaseURL = baseURL
	return &OpenAISpeech{Client: openai.NewClientWithConfig(cfg), Model: model, Voice: voice}
}

// Synthesize asks the server for WAV and returns it as PCM16 mono 16 kHz WAV.
func (o *OpenAISpeech) Synthesize(ctx context.Context, text string) ([]byte, error) {
	text = strings.TrimSpace(text)
	if text == "" || len(text) > maxSynthText {
		return nil, fmt.Errorf("speech server: text must be 1 to %d bytes", maxSynthText)
	}
	resp, err := o.Client.CreateSpeech(ctx, openai.CreateSpeechRequest{
		Model:          openai.SpeechModel(o.Model),
		Input:          text,
		Voice:          openai.SpeechVoice(o.Voice),
		ResponseFormat: openai.SpeechResponseFormatWav,
	})
	if err != nil {
		return nil, fmt.Errorf("speech server: %w", err)
	}
	defer resp.Close()
	const limit = 32 << 20
	b, err := io.ReadAll(io.LimitReader(resp, limit+1))
	if err != nil {
		return nil, fmt.Errorf("speech server: read: %w", err)
	}
	if len(b) > limit {
		return nil, fmt.Errorf("speech server: reply over %d bytes", limit)
	}
	return normalizeSpeech(b, "speech server")
}

// normalizeSpeech repairs the streamed-WAV sizes synthesizers write (they do not know the
// length when they start), validates the audio and re-encodes it as PCM16 mono 16 kHz.
func normalizeSpeech(b []byte, who string) ([]byte, error) {
	repairStreamedWAV(b)
	clip, err := DecodeWAV(b, maxSpokenDuration)
	if err != nil {
		return nil, fmt.Errorf("%s: bad audio: %w", who, err)
	}
	return EncodeWAV(clip.Samples, SampleRate)
}

// repairStreamedWAV clamps the RIFF and data chunk sizes of a WAV written to a pipe to the
// bytes actually present. Only for audio from our own synthesizers, never for client input.
func repairStreamedWAV(b []byte) {
	if len(b) < 12 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return
	}
	binary.LittleEndian.PutUint32(b[4:8], uint32(len(b)-8))
	for off := 12; off+8 <= len(b); {
		size := int(binary.LittleEndian.Uint32(b[off+4 : off+8]))
		if string(b[off:off+4]) == "data" || size > len(b)-off-8 {
			if size > len(b)-off-8 {
				binary.LittleEndian.PutUint32(b[off+4:off+8], uint32(len(b)-off-8))
			}
			return
		}
		off += 8 + size + size%2
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
