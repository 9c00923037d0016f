package broker

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/speech"
)

// Request bodies: read within their limits, checked for their media type, and decoded
// strictly (JSON) or as audio — every refusal a closed code that never echoes the caller's
// bytes.

// readBody reads at most limit bytes, refusing a larger declared length before reading.
func readBody(r *http.Request, w http.ResponseWriter, limit int64) ([]byte, *apiError) {
	if r.ContentLength > limit {
		return nil, errf(api.CodeTooLarge, "the body is %d bytes; the limit is %d", r.ContentLength, limit)
	}
	rd := http.MaxBytesReader(w, r.Body, limit)
	var body []byte
	var err error
	if n := r.ContentLength; n > 0 {
		// The declared length, within the limit (the server never reads past it): one
		// allocation, where reading an audio upload by doubling would take twice its size.
		body = make([]byte, n)
		_, err = io.ReadFull(rd, body)
	} else {
		body, err = io.ReadAll(rd)
	}
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return nil, errf(api.CodeTooLarge, "the body is over the %d byte limit", limit)
		}
		return nil, errf(api.CodeInvalidArgs, "could not read the body")
	}
	return body, nil
}

func mediaType(r *http.Request) string {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return mt
}

// decodeAudio decodes a turn's WAV body; the caller holds a decode slot.
func (b *Broker) decodeAudio(body []byte, t *turn) (speech.Clip, *apiError) {
	since := time.Now()
	clip, err := speech.DecodeWAV(body, b.d.Config.Turn.MaxAudio)
	if err != nil {
		var ae *speech.AudioError
		if errors.As(err, &ae) {
			return speech.Clip{}, errf(ae.Code, "%s", ae.Reason)
		}
		return speech.Clip{}, errf(api.CodeInvalidAudio, "could not decode the audio")
	}
	// A microphone's DC offset would read as sound to the no-speech guard (and hide the
	// speech under it) and leak into whisper's lowest band: it comes out first.
	speech.RemoveDC(clip.Samples)
	t.mark("decode", since)
	return clip, nil
}

// readJSONBody checks the media type and reads a JSON request body within its limit.
func (b *Broker) readJSONBody(r *http.Request, w http.ResponseWriter) ([]byte, *apiError) {
	if mt := mediaType(r); mt != "application/json" {
		return nil, errf(api.CodeUnsupportedMediaType, "send application/json")
	}
	return readBody(r, w, b.d.Config.Limits.JSONBytes)
}

// decodeJSON decodes strictly: unknown fields and trailing data are refused.
func decodeJSON(body []byte, v any) *apiError {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errf(api.CodeInvalidArgs, "the body is not the expected JSON: %s", jsonProblem(err))
	}
	if dec.More() {
		return errf(api.CodeInvalidArgs, "the body has data after the JSON object")
	}
	return nil
}

// jsonProblem describes a decode error without echoing the input.
func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("syntax error at byte %d", se.Offset)
	case errors.As(err, &te):
		return fmt.Sprintf("field %q has the wrong type", te.Field)
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		return "it has a field this route does not take" // the field's name is the caller's bytes
	case errors.Is(err, io.EOF):
		return "empty body"
	}
	return "malformed JSON"
}
