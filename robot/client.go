package robot

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// Reply is the broker's answer to a turn (the wire type shared with the broker).
type Reply = api.TurnResponse

// ErrUnreachable means the broker could not be reached within the deadline (no connection,
// or no answer): the hub plays its local fallback.
var ErrUnreachable = errors.New("broker unreachable")

// ErrBusy means the broker answered but cannot take the turn: busy past the deadline, or
// unable to transcribe at all (no speech model). The hub plays its local fallback.
var ErrBusy = errors.New("broker reachable but busy")

// ErrRefused means the broker answered with a failure a retry cannot fix (a 4xx or a 500):
// the hub plays its local fallback.
var ErrRefused = errors.New("broker refused the turn")

// BrokerClient sends utterances to the broker with the robot's one token.
type BrokerClient struct {
	URL      string        // e.g. http://reachy-broker:8092 (its tailnet name)
	Token    string        // read from a 0600 file
	HTTP     *http.Client  // nil: a default one; redirects are refused either way
	Deadline time.Duration // for a whole turn including retries; default 12s
	Backoff  time.Duration // first pause between tries; default 200ms
}

func (c *BrokerClient) client() *http.Client {
	hc := &http.Client{}
	if c.HTTP != nil {
		copied := *c.HTTP
		hc = &copied
	}
	// The token must never travel to another origin: no redirect is followed at all.
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return errRedirect }
	return hc
}

var errRedirect = errors.New("broker answered with a redirect; not followed")

// NewIdempotencyKey returns a fresh key for one utterance.
func NewIdempotencyKey() string {
	b := make([]byte, 16)
	rand.Read(b)
	return "utt-" + hex.EncodeToString(b)
}

// Turn sends one utterance. Retries (only for transient failures, with backoff, inside the
// deadline) carry the same Idempotency-Key, so the broker never acts on it twice.
func (c *BrokerClient) Turn(ctx context.Context, wav []byte, key string) (Reply, []byte, error) {
	deadline, backoff := c.Deadline, c.Backoff
	if deadline <= 0 {
		deadline = 12 * time.Second
	}
	if backoff <= 0 {
		backoff = 200 * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	var lastErr error
	for try := 0; ; try++ {
		r, audio, retryAfter, err := c.once(ctx, wav, key)
		if err == nil {
			return r, audio, nil
		}
		lastErr = err
		var pe *permanentError
		if errors.As(err, &pe) {
			return Reply{}, nil, pe.classify()
		}
		if errors.Is(err, errRedirect) {
			return Reply{}, nil, fmt.Errorf("%w: %v", ErrRefused, err)
		}
		pause := backoff << min(try, 5)
		if retryAfter > pause {
			pause = retryAfter
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < pause {
			// The next try could not start before the deadline: say so now, not at the deadline.
			return Reply{}, nil, giveUp(lastErr)
		}
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return Reply{}, nil, giveUp(lastErr)
		}
	}
}

// giveUp names why the retries ended: the broker answered (busy) or it did not (unreachable).
func giveUp(last error) error {
	var he *httpError
	if errors.As(last, &he) {
		return fmt.Errorf("%w: %v", ErrBusy, last)
	}
	return fmt.Errorf("%w: %v", ErrUnreachable, last)
}

// httpError is a retryable answer from the broker (429, 502, 503 with Retry-After, 504).
type httpError struct {
	status  int
	code    string
	message string
}

func (e *httpError) Error() string {
	return fmt.Sprintf("HTTP %d %s: %s", e.status, e.code, e.message)
}

// permanentError is an answer a retry cannot change.
type permanentError struct {
	status  int
	code    string
	message string
}

func (e *permanentError) Error() string {
	return fmt.Sprintf("HTTP %d %s: %s", e.status, e.code, e.message)
}

// classify: a 503 that will not go away (no speech model) is "busy", anything else "refused".
func (e *permanentError) classify() error {
	if e.status == http.StatusServiceUnavailable {
		return fmt.Errorf("%w: %v", ErrBusy, e)
	}
	return fmt.Errorf("%w: %v", ErrRefused, e)
}

func (c *BrokerClient) once(ctx context.Context, wav []byte, key string) (Reply, []byte, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(c.URL, "/")+"/v1/turns", bytes.NewReader(wav))
	if err != nil {
		return Reply{}, nil, 0, &permanentError{code: err.Error()}
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Content-Type", "audio/wav")
	req.Header.Set("Idempotency-Key", key)
	resp, err := c.client().Do(req)
	if err != nil {
		if errors.Is(err, errRedirect) {
			return Reply{}, nil, 0, errRedirect
		}
		return Reply{}, nil, 0, err // transient: connection refused, reset, timeout
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return Reply{}, nil, 0, err
	}
	if resp.StatusCode != http.StatusOK {
		var e api.ErrorBody
		json.Unmarshal(body, &e)
		ra, raErr := strconv.Atoi(resp.Header.Get("Retry-After"))
		switch {
		case resp.StatusCode == http.StatusServiceUnavailable && raErr != nil:
			// A 503 without Retry-After will not change by asking again (the broker has no
			// speech model, or cannot record an actuation): no retry.
			return Reply{}, nil, 0, &permanentError{status: resp.StatusCode, code: e.Error.Code, message: e.Error.Message}
		case resp.StatusCode == http.StatusTooManyRequests, resp.StatusCode == http.StatusServiceUnavailable,
			resp.StatusCode == http.StatusBadGateway, resp.StatusCode == http.StatusGatewayTimeout:
			return Reply{}, nil, time.Duration(min(max(ra, 0), 5)) * time.Second, &httpError{status: resp.StatusCode, code: e.Error.Code, message: e.Error.Message}
		}
		return Reply{}, nil, 0, &permanentError{status: resp.StatusCode, code: e.Error.Code, message: e.Error.Message}
	}
	var r Reply
	if err := json.Unmarshal(body, &r); err != nil {
		return Reply{}, nil, 0, &permanentError{status: 200, code: "malformed reply"}
	}
	var audio []byte
	if r.Audio != "" {
		if audio, err = base64.StdEncoding.DecodeString(r.Audio); err != nil {
			return Reply{}, nil, 0, &permanentError{status: 200, code: "malformed audio"}
		}
	}
	return r, audio, 0, nil
}
