package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
	"github.com/reachy-broker/reachy-broker/speech"
)

// scriptedTranscriber is a test double for speech-to-text: it returns the text it is told
// to, because a generated whisper model only produces meaningless words.
type scriptedTranscriber struct {
	mu    sync.Mutex
	text  string
	err   error
	delay time.Duration
	calls atomic.Int32
	heard []float32 // the samples of the last call
	// long, when set, is the text of any clip longer than two seconds (the room's chatter);
	// shorter clips get text.
	long string
}

func (s *scriptedTranscriber) say(text string) {
	s.mu.Lock()
	s.text, s.err = text, nil
	s.mu.Unlock()
}

func (s *scriptedTranscriber) Transcribe(ctx context.Context, samples []float32) (string, error) {
	s.calls.Add(1)
	s.mu.Lock()
	text, err, delay := s.text, s.err, s.delay
	if s.long != "" && len(samples) > 2*16000 {
		text = s.long
	}
	s.heard = append(s.heard[:0], samples...)
	s.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	return text, err
}

// countingLight records actuations so tests can prove one happened exactly once.
type countingLight struct {
	mu    sync.Mutex
	calls []map[string]string
	block chan struct{} // when set, Handle waits on it (ignoring the deadline if hang is set)
	hang  bool
}

func (c *countingLight) Handle(ctx context.Context, call intents.Call) (intents.Answer, error) {
	c.mu.Lock()
	c.calls = append(c.calls, call.Args)
	block, hang := c.block, c.hang
	c.mu.Unlock()
	if block != nil {
		if hang {
			<-block // a misbehaving handler that ignores its deadline
		} else {
			select {
			case <-block:
			case <-ctx.Done():
				return intents.Answer{}, ctx.Err()
			}
		}
	}
	if call.Intent.Kind == intents.KindRead {
		return intents.Answer{Reply: "The " + call.Args["room"] + " light is off."}, nil
	}
	return intents.Answer{Reply: "Okay, the " + call.Args["room"] + " light is " + call.Args["state"] + "."}, nil
}

func (c *countingLight) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.calls)
}

type testBroker struct {
	b     *Broker
	srv   *httptest.Server
	state *store.Store
	stt   *scriptedTranscriber
	light *countingLight
	cfg   *Config
}

type option func(*Config, *Deps)

func newTestBroker(t testing.TB, opts ...option) *testBroker {
	t.Helper()
	dir := t.TempDir()
	state, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { state.Close() })
	return newTestBrokerOn(t, state, opts...)
}

// newTestBrokerOn is a test broker on an open state (a restart: the state of an earlier one).
func newTestBrokerOn(t testing.TB, state *store.Store, opts ...option) *testBroker {
	t.Helper()
	cfg, table, err := DevConfig("127.0.0.1:0", state.Dir())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Limits.RatePerMinute, cfg.Limits.Burst = 6000, 1000
	cfg.Devices = []DeviceConfig{{Name: "robot", Room: "living room"}, {Name: "bedside", Room: "bedroom"}}
	stt := &scriptedTranscriber{}
	light := &countingLight{}
	handlers := basic.Handlers(time.Now)
	handlers["home.light"] = light
	d := Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Transcriber: stt,
		Handlers: handlers, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, o := range opts {
		o(cfg, &d)
	}
	b, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(b.Handler()) // 127.0.0.1 only
	t.Cleanup(srv.Close)
	return &testBroker{b: b, srv: srv, state: state, stt: stt, light: light, cfg: cfg}
}

func (tb *testBroker) token(t testing.TB, device string, scopes ...string) string {
	t.Helper()
	tok, _, err := tb.state.CreateToken(context.Background(), device, scopes, "")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) json(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("status %d, body is not JSON (%v): %s", r.status, err, r.body)
	}
}

func (r reply) code(t testing.TB) string {
	t.Helper()
	var e api.ErrorBody
	r.json(t, &e)
	return e.Error.Code
}

func (r reply) turn(t *testing.T) api.TurnResponse {
	t.Helper()
	var tr api.TurnResponse
	r.json(t, &tr)
	return tr
}

func (tb *testBroker) do(t testing.TB, method, path, token, ctype string, body []byte, hdr ...string) reply {
	t.Helper()
	req, err := http.NewRequest(method, tb.srv.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, header: resp.Header, body: b}
}

func (tb *testBroker) say(t *testing.T, token, text string, hdr ...string) reply {
	body, _ := json.Marshal(map[string]string{"text": text})
	return tb.do(t, "POST", "/v1/utterances", token, "application/json", body, hdr...)
}

func (tb *testBroker) turnAudio(t *testing.T, token string, hdr ...string) reply {
	return tb.do(t, "POST", "/v1/turns?audio=none", token, "audio/wav", speechWAV(t), hdr...)
}

var (
	wavOnce sync.Once
	wavData []byte
	wavErr  error
)

// speechWAV is a spoken sentence from espeak-ng, so the no-speech guard lets it through.
func speechWAV(t *testing.T) []byte {
	t.Helper()
	wavOnce.Do(func() {
		if _, err := exec.LookPath("espeak-ng"); err != nil {
			wavErr = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		wavData, wavErr = speech.Espeak{}.Synthesize(ctx, "hey reachy, turn on the kitchen light")
	})
	if wavErr != nil {
		t.Fatalf("espeak-ng (installed by the README's test command): %v", wavErr)
	}
	return wavData
}

func intentsContext() intents.Context { return intents.Context{} }
