package broker

import (
	"context"
	"errors"
	"fmt"

	"github.com/reachy-broker/reachy-broker/speech/whisper"
)

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
