package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/api"
)

// clientFlags are the flags shared by say, listen, intents remote and bench.
type clientFlags struct {
	url, token, tokenFile *string
}

func addClientFlags(fs *flag.FlagSet) clientFlags {
	return clientFlags{
		url:       fs.String("broker", envOr("REACHY_BROKER", "http://127.0.0.1:8092"), "broker URL; http:// is assumed without a scheme (env REACHY_BROKER)"),
		token:     fs.String("token", "", "bearer token (prefer --token-file or env REACHY_TOKEN)"),
		tokenFile: fs.String("token-file", "", "file holding the bearer token"),
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func (c clientFlags) bearer() (string, error) {
	if *c.token != "" {
		return *c.token, nil
	}
	if *c.tokenFile != "" {
		b, err := os.ReadFile(*c.tokenFile)
		if err != nil {
			return "", fmt.Errorf("--token-file: %w", err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	if t := os.Getenv("REACHY_TOKEN"); t != "" {
		return t, nil
	}
	return "", usagef("no token: pass --token-file or --token, or set REACHY_TOKEN (reachyctl token create makes one)")
}

// base is the broker URL, with http:// added when the flag has no scheme (127.0.0.1:8092).
func (c clientFlags) base() (string, error) {
	raw := strings.TrimRight(strings.TrimSpace(*c.url), "/")
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", usagef("--broker %q is not a broker URL (like http://127.0.0.1:8092)", *c.url)
	}
	return u.String(), nil
}

// httpClient never follows a redirect: a token must not travel to another origin.
func httpClient(timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// benchClient keeps one idle connection per request in flight, so a benchmark measures the
// broker rather than new TCP connections (the default transport keeps only 2 per host).
func benchClient(concurrency int, timeout time.Duration) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = max(concurrency, 2), max(concurrency, 2)
	hc := httpClient(timeout)
	hc.Transport = tr
	return hc
}

// do sends one request with the bearer token and returns the status and body.
func (c clientFlags) do(hc *http.Client, method, path, ctype string, body []byte, key string) (int, []byte, time.Duration, error) {
	tok, err := c.bearer()
	if err != nil {
		return 0, nil, 0, err
	}
	base, err := c.base()
	if err != nil {
		return 0, nil, 0, err
	}
	req, err := http.NewRequestWithContext(context.Background(), method, base+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, 0, usagef("--broker %q: %v", *c.url, err)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	start := time.Now()
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, 0, transportError(base, hc.Timeout, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return 0, nil, 0, fmt.Errorf("reading the broker's answer from %s: %w", base, err)
	}
	return resp.StatusCode, b, time.Since(start), nil
}

// transportError says in a sentence why the broker could not be reached.
func transportError(base string, timeout time.Duration, err error) error {
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("nothing answers at %s: is the broker running at %s? (start one with 'make run'; --broker or REACHY_BROKER names another)", base, base)
	case errors.As(err, &ne) && ne.Timeout():
		return fmt.Errorf("the broker at %s did not answer within %v", base, timeout)
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return fmt.Errorf("cannot find the broker's host %q (--broker %s): %v", dnsErr.Name, base, dnsErr.Err)
	}
	return fmt.Errorf("cannot reach the broker at %s: %w", base, err)
}

// refusal turns an error answer into a sentence: the broker's own message, its closed code,
// and what to do about the common ones.
func refusal(status int, body []byte) error {
	var e api.ErrorBody
	if err := json.Unmarshal(body, &e); err != nil || e.Error.Code == "" {
		return fmt.Errorf("the broker answered HTTP %d without a reachy-broker error body: is --broker pointing at reachy-broker?", status)
	}
	msg := fmt.Sprintf("the broker refused: %s (%s, HTTP %d)", strings.TrimSuffix(e.Error.Message, "."), e.Error.Code, status)
	switch e.Error.Code {
	case api.CodeUnauthenticated:
		msg += ". Create a token with 'reachyctl token create --state-dir DIR --device NAME --scopes ...', using the state dir the broker serves (a dev broker prints it when it starts)"
	case api.CodeInsufficientScope:
		msg += ". Create a token that holds that scope (reachyctl token create --scopes ...)"
	case api.CodeBusy:
		msg += ". Text turns (reachyctl say) work without a whisper model; 'make model' downloads one"
	}
	return errors.New(msg)
}

// devStateDir is the state directory of the dev broker reachyctl talks to (REACHY_BROKER, or
// the default address): the one that broker printed at start, when it was not given one.
func devStateDir() string {
	return broker.DevStateDirFor(envOr("REACHY_BROKER", "http://"+broker.DevListen))
}
