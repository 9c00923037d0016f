package broker

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/speech/whisper"
)

// The speech.prompt settings that are not literal text.
const (
	PromptNames      = "names"
	PromptVocabulary = "vocabulary"
	PromptNone       = "none"
)

// SpeechOptions are the whisper options a broker with this config and table transcribes with
// (the broker's main and its benchmark use the same ones).
func SpeechOptions(c *Config, t *intents.Table) whisper.Options {
	return whisper.Options{Language: c.Speech.Language, Threads: c.Speech.Threads, MaxTokens: c.Speech.MaxTokens,
		InitialPrompt: SpeechPrompt(c.Speech.Prompt, t)}
}

// SpeechPrompt is whisper's initial prompt for a speech.prompt setting.
func SpeechPrompt(setting string, t *intents.Table) string {
	switch setting {
	case PromptNone, "":
		return ""
	case PromptVocabulary:
		return t.Vocabulary()
	case PromptNames:
		words := append([]string(nil), t.Home.WakePhrases...)
		for _, p := range t.Home.People {
			words = append(words, p.Name)
		}
		if len(words) == 0 {
			return ""
		}
		return strings.Join(words, ", ") + "."
	}
	return setting
}

// WhisperTranscriber adapts the whisper.cpp engine to the pipeline.
type WhisperTranscriber struct {
	Engine  *whisper.Engine
	Options whisper.Options
}

// Transcribe runs whisper.cpp; a full queue is ErrBusy.
func (w WhisperTranscriber) Transcribe(ctx context.Context, samples []float32) (string, error) {
	res, err := w.Engine.Transcribe(ctx, samples, w.Options)
	if errors.Is(err, whisper.ErrBusy) {
		return "", fmt.Errorf("%w: %v", ErrBusy, err)
	}
	if err != nil {
		return "", err
	}
	return res.Text, nil
}
