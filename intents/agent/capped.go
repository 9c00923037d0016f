package agent

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync/atomic"
)

// errTooMuch ends a response that went past the question's byte budget.
var errTooMuch = errors.New("the chat endpoint sent more than this question's byte budget")

type budgetKey struct{}

// withReadBudget gives every response read under ctx one shared budget of n bytes.
func withReadBudget(ctx context.Context, n int64) context.Context {
	b := &atomic.Int64{}
	b.Store(n)
	return context.WithValue(ctx, budgetKey{}, b)
}

// cappedTransport counts response body bytes against the request context's budget and
// fails the read that would exceed it. It sits under the OpenAI client, whose stream reader
// buffers a whole server-sent-events line: one 400 MB line can no longer reach it.
type cappedTransport struct{ next http.RoundTripper }

func (t cappedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	next := t.next
	if next == nil {
		next = http.DefaultTransport
	}
	resp, err := next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if b, ok := req.Context().Value(budgetKey{}).(*atomic.Int64); ok {
		resp.Body = &cappedBody{rc: resp.Body, left: b}
	}
	return resp, nil
}

type cappedBody struct {
	rc   io.ReadCloser
	left *atomic.Int64
}

func (c *cappedBody) Read(p []byte) (int, error) {
	left := c.left.Load()
	if left <= 0 {
		return 0, errTooMuch
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := c.rc.Read(p)
	c.left.Add(-int64(n))
	return n, err
}

func (c *cappedBody) Close() error { return c.rc.Close() }
