package broker

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/intents/agent"
	"github.com/reachy-broker/reachy-broker/speech"
)

// spySynth records what it was asked to say and when.
type spySynth struct {
	mu    sync.Mutex
	texts []string
	at    []time.Time
}

func (s *spySynth) Synthesize(ctx context.Context, text string) ([]byte, error) {
	s.mu.Lock()
	s.texts = append(s.texts, text)
	s.at = append(s.at, time.Now())
	s.mu.Unlock()
	return speech.Espeak{}.Synthesize(ctx, text)
}

func slowLLM(t *testing.T, parts []string, pause time.Duration) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i, p := range parts {
			if i > 0 {
				time.Sleep(pause)
			}
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%q}}]}\n\n", p)
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestFirstSentenceIsSpokenWhileTheRestArrives: synthesis of the first sentence starts before
// the LLM has finished, and the reply audio covers the whole answer.
func TestFirstSentenceIsSpokenWhileTheRestArrives(t *testing.T) {
	llm := slowLLM(t, []string{"The Moon is about 384,000 kilometres away. ", "Light covers that in just over a second."}, 700*time.Millisecond)
	a, _ := agent.New(agent.Config{BaseURL: llm.URL + "/v1", FastModel: "m", AttemptTimeout: 5 * time.Second})
	spy := &spySynth{}
	tb := newTestBroker(t, func(c *Config, d *Deps) { d.Handlers["agent"] = a; d.Synthesizer = spy })
	body := `{"text":"how far away is the moon","audio":true}`
	start := time.Now()
	r := tb.do(t, "POST", "/v1/utterances", tb.token(t, "robot", "text", "ask"), "application/json", []byte(body))
	tr := r.turn(t)
	if tr.Reply != "The Moon is about 384,000 kilometres away. Light covers that in just over a second." || tr.Audio == "" {
		t.Fatalf("%+v", tr)
	}
	if len(spy.texts) != 2 || spy.texts[0] != "The Moon is about 384,000 kilometres away." || !strings.HasPrefix(spy.texts[1], "Light covers") {
		t.Fatalf("synthesized %q", spy.texts)
	}
	if early := spy.at[0].Sub(start); early > 600*time.Millisecond {
		t.Fatalf("first sentence synthesized %v after the request; the LLM paused 700 ms before the second", early)
	}
}

// TestEarlySpeechNeverBypassesRedaction: a sentence the redactor would change is not spoken
// early; the whole reply is redacted and synthesized as usual.
func TestEarlySpeechNeverBypassesRedaction(t *testing.T) {
	llm := slowLLM(t, []string{"Call 555-123-4567 now. ", "Or do not."}, 100*time.Millisecond)
	a, _ := agent.New(agent.Config{BaseURL: llm.URL + "/v1", FastModel: "m", AttemptTimeout: 5 * time.Second})
	spy := &spySynth{}
	tb := newTestBroker(t, func(c *Config, d *Deps) { d.Handlers["agent"] = a; d.Synthesizer = spy })
	tb.say(t, tb.token(t, "robot", "text", "ask"), "who should I call") // no audio requested: nothing early
	r := tb.do(t, "POST", "/v1/utterances", tb.token(t, "robot", "text", "ask"), "application/json", []byte(`{"text":"who should I call","audio":true}`))
	tr := r.turn(t)
	for _, s := range spy.texts {
		if strings.Contains(s, "4567") {
			t.Fatalf("synthesized an unredacted sentence: %q", spy.texts)
		}
	}
	if strings.Contains(tr.Reply, "4567") || tr.Audio == "" {
		t.Fatalf("%+v", tr)
	}
}
