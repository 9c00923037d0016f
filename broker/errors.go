package broker

import (
	"encoding/json"
	"fmt"

	"net/http"
	"strconv"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

var codeStatus = map[string]int{
	api.CodeUnauthenticated:      http.StatusUnauthorized,
	api.CodeInsufficientScope:    http.StatusForbidden,
	api.CodeIntentDenied:         http.StatusForbidden,
	api.CodeUnknownIntent:        http.StatusNotFound,
	api.CodeInvalidArgs:          http.StatusBadRequest,
	api.CodeInvalidAudio:         http.StatusBadRequest,
	api.CodeUnsupportedMediaType: http.StatusUnsupportedMediaType,
	api.CodeTooLarge:             http.StatusRequestEntityTooLarge,
	api.CodeRateLimited:          http.StatusTooManyRequests,
	api.CodeIdempotencyConflict:  http.StatusConflict,
	api.CodeBusy:                 http.StatusServiceUnavailable,
	api.CodeUnavailable:          http.StatusServiceUnavailable,
	api.CodeTimeout:              http.StatusGatewayTimeout,
	api.CodeInternal:             http.StatusInternalServerError,
	api.CodeNotFound:             http.StatusNotFound,
	api.CodeUnknownHost:          http.StatusMisdirectedRequest,
	api.CodeUnknownRobot:         http.StatusNotFound,
}

// apiError is an error with a closed code and a human sentence that never echoes secrets
// or request bytes.
type apiError struct {
	Code       string
	Message    string
	RetryAfter int    // seconds, for rate_limited and busy
	Scope      string // for insufficient_scope
	// ResourceMetadata is the RFC 9728 metadata URL a challenge points at (the MCP route).
	ResourceMetadata string
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

func errf(code, format string, args ...any) *apiError {
	return &apiError{Code: code, Message: fmt.Sprintf(format, args...)}
}

func writeError(w http.ResponseWriter, e *apiError) {
	status, ok := codeStatus[e.Code]
	if !ok {
		status = http.StatusInternalServerError
	}
	h := w.Header()
	meta := ""
	if e.ResourceMetadata != "" {
		meta = fmt.Sprintf(", resource_metadata=%q", e.ResourceMetadata)
	}
	switch e.Code {
	case api.CodeUnauthenticated:
		h.Set("WWW-Authenticate", `Bearer realm="reachy-broker"`+meta)
	case api.CodeInsufficientScope:
		h.Set("WWW-Authenticate", fmt.Sprintf(`Bearer realm="reachy-broker", error="insufficient_scope", scope=%q`, e.Scope)+meta)
	}
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	writeJSON(w, status, api.ErrorBody{Error: api.ErrorDetail{Code: e.Code, Message: e.Message}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
