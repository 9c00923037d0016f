package speech

import "fmt"

// Closed error codes shared with the broker's wire contract.
const (
	CodeInvalidAudio         = "invalid_audio"
	CodeUnsupportedMediaType = "unsupported_media_type"
)

// AudioError is returned for audio the project refuses. Code is one of the closed codes
// above; Reason is a human sentence that never contains the input bytes.
type AudioError struct {
	Code   string
	Reason string
}

func (e *AudioError) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Reason) }

func invalid(format string, args ...any) error {
	return &AudioError{Code: CodeInvalidAudio, Reason: fmt.Sprintf(format, args...)}
}

func unsupported(format string, args ...any) error {
	return &AudioError{Code: CodeUnsupportedMediaType, Reason: fmt.Sprintf(format, args...)}
}
