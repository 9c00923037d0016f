package broker

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// Closed error codes of the wire contract (DESIGN.md §4).
const (
	CodeUnauthenticated      = "unauthenticated"
	CodeInsufficientScope    = "insufficient_scope"
	CodeIntentDenied         = "intent_denied"
	CodeUnknownIntent        = "unknown_intent"
	CodeInvalidArgs          = "invalid_args"
	CodeInvalidAudio         = "invalid_audio"
	CodeUnsupportedMediaType = "unsupported_media_type"
	CodeTooLarge             = "too_large"
	CodeRateLimited          = "rate_limited"
	CodeBusy                 = "busy"
	CodeTimeout              = "timeout"
	CodeInternal             = "internal"
	// CodeNotFound answers a path that is not a route of the API at all.
	CodeNotFound = "not_found"
)

var codeStatus = map[string]int{
	CodeUnauthenticated:      http.StatusUnauthorized,
	CodeInsufficientScope:    http.StatusForbidden,
	CodeIntentDenied:         http.StatusForbidden,
	CodeUnknownIntent:        http.StatusNotFound,
	CodeInvalidArgs:          http.StatusBadRequest,
	CodeInvalidAudio:         http.StatusBadRequest,
	CodeUnsupportedMediaType: http.StatusUnsupportedMediaType,
	CodeTooLarge:             http.StatusRequestEntityTooLarge,
	CodeRateLimited:          http.StatusTooManyRequests,
	CodeBusy:                 http.StatusServiceUnavailable,
	CodeTimeout:              http.StatusGatewayTimeout,
	CodeInternal:             http.StatusInternalServerError,
	CodeNotFound:             http.StatusNotFound,
}

// apiError is an error with a closed code and a human sentence that never echoes secrets
// or request bytes.
type apiError struct {
	Code       string
	Message    string
	RetryAfter int    // seconds, for rate_limited and busy
	Scope      string // for insufficient_scope
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

func errf(code, format string, args ...any) *apiError {
	return &apiError{Code: code, Message: fmt.Sprintf(format, args...)}
}

type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func writeError(w http.ResponseWriter, e *apiError) {
	status, ok := codeStatus[e.Code]
	if !ok {
		status = http.StatusInternalServerError
	}
	h := w.Header()
	switch e.Code {
	case CodeUnauthenticated:
		h.Set("WWW-Authenticate", `Bearer realm="reachy-broker"`)
	case CodeInsufficientScope:
		h.Set("WWW-Authenticate", fmt.Sprintf(`Bearer realm="reachy-broker", error="insufficient_scope", scope=%q`, e.Scope))
	}
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	var b errorBody
	b.Error.Code, b.Error.Message = e.Code, e.Message
	writeJSON(w, status, b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
