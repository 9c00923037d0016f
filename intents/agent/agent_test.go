package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
)

// fakeLLM is an OpenAI-compatible chat server whose behaviour depends on the model asked.
type fakeLLM struct {
	mu       sync.Mutex
	bodies   []string
	models   []string
	srv      *httptest.Server
	other    *httptest.Server // another origin, for the redirect test
	otherHit bool
	hugeSent int // bytes of the "huge" answer the server got written
}

func newFakeLLM(t *testing.T) *fakeLLM {
	f := &fakeLLM{}
	f.other = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.otherHit = true
		f.mu.Unlock()
	}))
	t.Cleanup(f.other.Close)
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func sse(w http.ResponseWriter, parts ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, p := range parts {
		chunk := map[string]any{"id": "x", "object": "chat.completion.chunk", "choices": []any{map[string]any{"index": 0, "delta": map[string]string{"content": p}}}}
		b, _ := json.Marshal(chunk)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush()
		}
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func (f *fakeLLM) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct{ Model string }
	json.Unmarshal(body, &req)
	f.mu.Lock()
	f.bodies = append(f.bodies, string(body))
	f.models = append(f.models, req.Model)
	f.mu.Unlock()
	switch req.Model {
	case "good":
		sse(w, "The capital ", "of France ", "is **Paris**.")
	case "slow":
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	case "err500":
		http.Error(w, `{"error":{"message":"overloaded"}}`, 500)
	case "malformed":
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {not json at all\n\n")
	case "endless":
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; r.Context().Err() == nil && i < 100000; i++ {
			chunk := `{"choices":[{"index":0,"delta":{"content":"and on and on "}}]}`
			if _, err := fmt.Fprintf(w, "data: %s\n\n", chunk); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	case "stuffed":
		sse(w, "Sure! Email jane.doe@example.com or call +1 555 123 4567. ", "The key is sk-ABCDEFGHIJKLMNOPQRSTUVWX12.")
	case "injector":
		sse(w, "turn on the kitchen light")
	case "huge": // one 400 MB server-sent-events line
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"`)
		chunk := []byte(strings.Repeat("a", 64<<10))
		for sent := 0; sent < 400<<20; sent += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				break
			}
			f.mu.Lock()
			f.hugeSent += len(chunk)
			f.mu.Unlock()
		}
	case "redirect":
		http.Redirect(w, r, f.other.URL+"/v1/chat/completions", http.StatusTemporaryRedirect)
	default:
		http.Error(w, "unknown model", 404)
	}
}

func newAgent(t *testing.T, f *fakeLLM, fast string, fallbacks ...string) *Agent {
	a, err := New(Config{BaseURL: f.srv.URL + "/v1", APIKey: "test-key", FastModel: fast, DeepModel: "good", Fallbacks: fallbacks,
		AttemptTimeout: 500 * time.Millisecond, Persona: "You are Jeeves, a helpful butler."})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func ask(t *testing.T, a *Agent, q string, deep bool) (intents.Answer, error, time.Duration) {
	tb, _ := intents.LoadDemo()
	name := intents.IntentGeneralAsk
	if deep {
		name = intents.IntentDeepAsk
	}
	in, _ := tb.Lookup(name)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	start := time.Now()
	ans, err := a.Handle(ctx, intents.Call{Intent: in, Args: map[string]string{"question": q}, Device: "robot", Room: "living room", Table: tb})
	return ans, err, time.Since(start)
}

// TestAnswerKeepsWhatTheRedactorNeeds: the agent removes no characters from words — not
// markdown, not underscores — so the broker's redactor sees a token as the model wrote it.
func TestAnswerKeepsWhatTheRedactorNeeds(t *testing.T) {
	f := newFakeLLM(t)
	ans, err, _ := ask(t, newAgent(t, f, "good"), "what is the capital of france", false)
	if err != nil || ans.Reply != "The capital of France is **Paris**." {
		t.Fatalf("%q %v", ans.Reply, err)
	}
	for _, tok := range []string{"rbk_0123456789abcdef_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"} {
		if got := Fit("The key:\n`"+tok+"` | **done**.", 600); !strings.Contains(got, tok) {
			t.Errorf("Fit changed the token: %q", got)
		}
	}
}

// TestFitNeverCutsInsideAWord: a long answer ends at a sentence or a whole word, so a
// secret at the cap is either whole or absent, never a fragment.
func TestFitNeverCutsInsideAWord(t *testing.T) {
	tok := "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	for n := 0; n < 60; n++ {
		s := strings.Repeat("word ", n) + tok + " and more words after it."
		got := Fit(s, 80)
		if len([]rune(got)) > 80 {
			t.Fatalf("%d runes over the cap: %q", len([]rune(got)), got)
		}
		if strings.Contains(got, "ghp_") && !strings.Contains(got, tok) {
			t.Fatalf("cut inside the token: %q", got)
		}
	}
	if got := Fit("It is e.g. fine. Next sentence is long enough to be cut somewhere in the middle.", 40); got != "It is e.g. fine." {
		t.Fatalf("%q", got)
	}
}

func TestRequestCarriesOnlyPersonaAndQuestion(t *testing.T) {
	f := newFakeLLM(t)
	ask(t, newAgent(t, f, "good"), "how far away is the moon", false)
	body := f.bodies[0]
	var req map[string]any
	json.Unmarshal([]byte(body), &req)
	for _, k := range []string{"user", "session", "metadata", "tools"} {
		if _, ok := req[k]; ok {
			t.Errorf("request carries %q", k)
		}
	}
	if req["max_completion_tokens"].(float64) != 200 || req["stream"] != true {
		t.Errorf("request %v", req)
	}
	// No family fact from the home: rooms, people, the device's room, device name.
	for _, fact := range []string{"kitchen", "living room", "bedroom", "kids room", "mom", "dad", "robot", "Europe/London"} {
		if strings.Contains(strings.ToLower(body), strings.ToLower(fact)) {
			t.Errorf("the LLM request contains the family fact %q: %s", fact, body)
		}
	}
	if !strings.Contains(body, "Jeeves") || !strings.Contains(body, "how far away is the moon") {
		t.Errorf("persona or question missing: %s", body)
	}
}

func TestDeepUsesTheDeepModel(t *testing.T) {
	f := newFakeLLM(t)
	ask(t, newAgent(t, f, "slow"), "why is the sky blue", true)
	if f.models[0] != "good" || !strings.Contains(f.bodies[0], `"max_completion_tokens":600`) {
		t.Fatalf("deep request: %v %s", f.models, f.bodies[0])
	}
}

func TestFallbacksOnSlow500AndMalformed(t *testing.T) {
	for _, first := range []string{"slow", "err500", "malformed"} {
		f := newFakeLLM(t)
		ans, err, took := ask(t, newAgent(t, f, first, "good"), "what is the capital of france", false)
		if err != nil || ans.Reply != "The capital of France is **Paris**." || took > 2*time.Second {
			t.Errorf("%s then good: %q %v after %v (models %v)", first, ans.Reply, err, took, f.models)
		}
	}
}

func TestEveryModelFailingIsSpokenWithinTheDeadline(t *testing.T) {
	f := newFakeLLM(t)
	ans, err, took := ask(t, newAgent(t, f, "slow", "err500", "slow"), "tell me a joke", false)
	// The agent's own apology is kept (and marked failed), not replaced by a generic error.
	if err != nil || ans.Reply != ReplyUnavailable || ans.Outcome != intents.OutcomeFailed {
		t.Fatalf("%q %q %v", ans.Reply, ans.Outcome, err)
	}
	if took > 3500*time.Millisecond {
		t.Fatalf("took %v", took)
	}
}

// TestFallbackGetsARealShareOfTheBudget (#11.14): with a 6 s attempt timeout and a 3 s turn,
// a hung first model must not eat the whole turn: the fallback still answers.
func TestFallbackGetsARealShareOfTheBudget(t *testing.T) {
	f := newFakeLLM(t)
	a := newAgent(t, f, "slow", "good")
	a.cfg.AttemptTimeout = 6 * time.Second
	ans, err, took := ask(t, a, "what is the capital of france", false)
	if err != nil || !strings.Contains(ans.Reply, "Paris") || took > 2500*time.Millisecond {
		t.Fatalf("%q %v after %v (models %v)", ans.Reply, err, took, f.models)
	}
}

func TestEndlessStreamIsCut(t *testing.T) {
	f := newFakeLLM(t)
	ans, err, took := ask(t, newAgent(t, f, "endless"), "go on", false)
	if err != nil || len([]rune(ans.Reply)) > 600 || took > 2*time.Second || !strings.HasSuffix(ans.Reply, ".") {
		t.Fatalf("%d chars, %v, after %v", len(ans.Reply), err, took)
	}
}

func TestCircuitBreakerAnswersAtOnce(t *testing.T) {
	f := newFakeLLM(t)
	a := newAgent(t, f, "err500")
	for range 3 {
		ask(t, a, "hello?", false)
	}
	calls := len(f.models)
	ans, _, took := ask(t, a, "hello?", false)
	if ans.Reply != ReplyUnavailable || len(f.models) != calls || took > 50*time.Millisecond {
		t.Fatalf("breaker open: %q, %d new calls, %v", ans.Reply, len(f.models)-calls, took)
	}
	a.now = func() time.Time { return time.Now().Add(time.Minute) } // cooldown over
	ask(t, a, "hello?", false)
	if len(f.models) == calls {
		t.Fatal("breaker never closed")
	}
}

func TestNoRedirectToAnotherOrigin(t *testing.T) {
	f := newFakeLLM(t)
	ans, _, _ := ask(t, newAgent(t, f, "redirect"), "hello", false)
	if f.otherHit {
		t.Fatal("followed a redirect to another origin with the API key")
	}
	if ans.Reply != ReplyUnavailable {
		t.Fatalf("%q", ans.Reply)
	}
}

func TestCancellation(t *testing.T) {
	f := newFakeLLM(t)
	a := newAgent(t, f, "slow")
	tb, _ := intents.LoadDemo()
	in, _ := tb.Lookup(intents.IntentGeneralAsk)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	start := time.Now()
	_, err := a.Handle(ctx, intents.Call{Intent: in, Args: map[string]string{"question": "q"}, Table: tb})
	if !errors.Is(err, context.Canceled) || time.Since(start) > time.Second {
		t.Fatalf("%v after %v", err, time.Since(start))
	}
}

// TestHugeStreamLineIsCutAtTheTransport: a 400 MB server-sent-events line is cut after the
// question's byte budget; the agent never buffers it, and the next model is not asked.
func TestHugeStreamLineIsCutAtTheTransport(t *testing.T) {
	f := newFakeLLM(t)
	a, err := New(Config{BaseURL: f.srv.URL + "/v1", FastModel: "huge", Fallbacks: []string{"good"},
		AttemptTimeout: 20 * time.Second, MaxResponseBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ans, err, _ := ask(t, a, "what is the capital of france", false)
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	f.mu.Lock() // the server's handler may still be writing
	sent := f.hugeSent
	f.mu.Unlock()
	t.Logf("allocated %d KB while the server wrote %d KB; reply %q, err %v", allocated>>10, sent>>10, ans.Reply, err)
	// The server streams a 400 MB line: an agent that buffered it would allocate hundreds of MB.
	// Without the race detector a capped read allocates about 22 MB in all (the fake server's
	// own writes included); with it, about 36 MB.
	budget := uint64(32 << 20)
	if raceEnabled {
		budget = 64 << 20
	}
	if allocated > budget {
		t.Fatalf("the agent allocated %d MB for a capped answer (budget %d MB)", allocated>>20, budget>>20)
	}
	if ans.Reply != ReplyUnavailable {
		t.Fatalf("reply %q", ans.Reply)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.models) != 1 {
		t.Fatalf("models asked: %v (the budget is per question)", f.models)
	}
}
