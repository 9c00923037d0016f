// Package agent answers general.ask and general.ask.deep with a lean, stateless LLM agent
// behind any OpenAI-compatible chat endpoint (an OpenClaw gateway agent, Ollama, llama.cpp
// server, vLLM, OpenAI). Each request carries the persona and the question — nothing else:
// no session, no user field, no room, device state, calendar or family fact.
//
// What comes back is untrusted text: it is length-capped here and redacted by the broker,
// and it is only ever spoken — it never reaches the router, so it can never cause an intent.
// Nothing here removes characters from words (markdown included): the redactor must see a
// token with the underscores and dashes its pattern needs; the broker strips markup for
// speech only after redacting.
// The package must never follow a redirect to another origin with the API key.
package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode"

	openai "github.com/sashabaranov/go-openai"

	"github.com/reachy-broker/reachy-broker/intents"
)

// Config configures the agent.
type Config struct {
	BaseURL        string        // e.g. http://gateway.home:18789/v1
	APIKey         string        // from a file or the environment, never the config file
	FastModel      string        // e.g. openclaw/reachy
	DeepModel      string        // e.g. openclaw/reachy-deep ("think carefully")
	Fallbacks      []string      // tried in order after the chosen model fails
	Persona        string        // composed into every request as the system message
	MaxTokens      int           // fast path; default 200
	DeepMaxTokens  int           // deep path; default 600
	MaxChars       int           // the answer is cut here (a sentence boundary); default 600
	AttemptTimeout time.Duration // one model's share of the turn; default 6s
	BreakAfter     int           // consecutive failures that open the breaker; default 3
	Cooldown       time.Duration // how long it stays open; default 30s
	HTTPClient     *http.Client  // tests inject one; redirects are never followed regardless
	// MaxResponseBytes caps what is read from the chat endpoint for one question, across
	// fallbacks, at the transport — before the client library buffers a line. Default 1 MiB
	// (a 600-token streamed answer is ~150 KB of server-sent events).
	MaxResponseBytes int64
}

var errRedirect = errors.New("the chat endpoint answered with a redirect; not followed")

// Spoken answers when no model could answer.
const (
	ReplyUnavailable = "Sorry, I can't think about that right now. Please ask me again later."
	ReplyEmpty       = "Sorry, I don't have an answer for that."
)

// DefaultPersona is used when none is configured.
const DefaultPersona = "You are a friendly voice assistant in a family's living room, speaking through a small robot. " +
	"Answer in one to three short spoken sentences, without lists, markdown, links or emoji. " +
	"You know nothing about the family, their home or their plans, and you cannot control anything."

// Agent is an intents.Handler for the ask intents. Safe for concurrent use.
type Agent struct {
	cfg    Config
	client *openai.Client

	mu        sync.Mutex
	failures  int
	openUntil time.Time
	now       func() time.Time
}

// New builds an agent.
func New(c Config) (*Agent, error) {
	if c.BaseURL == "" || c.FastModel == "" {
		return nil, errors.New("agent: base URL and fast model are required")
	}
	if c.DeepModel == "" {
		c.DeepModel = c.FastModel
	}
	if c.Persona == "" {
		c.Persona = DefaultPersona
	}
	if c.MaxTokens <= 0 {
		c.MaxTokens = 200
	}
	if c.DeepMaxTokens <= 0 {
		c.DeepMaxTokens = 600
	}
	if c.MaxChars <= 0 {
		c.MaxChars = 600
	}
	if c.AttemptTimeout <= 0 {
		c.AttemptTimeout = 6 * time.Second
	}
	if c.BreakAfter <= 0 {
		c.BreakAfter = 3
	}
	if c.Cooldown <= 0 {
		c.Cooldown = 30 * time.Second
	}
	if c.MaxResponseBytes <= 0 {
		c.MaxResponseBytes = 1 << 20
	}
	hc := &http.Client{}
	if c.HTTPClient != nil {
		copied := *c.HTTPClient
		hc = &copied
	}
	hc.Transport = cappedTransport{next: hc.Transport}
	// A redirect could carry the API key to another origin: never follow one.
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return errRedirect }
	oc := openai.DefaultConfig(c.APIKey)
	oc.BaseURL = strings.TrimRight(c.BaseURL, "/")
	oc.HTTPClient = hc
	return &Agent{cfg: c, client: openai.NewClientWithConfig(oc), now: time.Now}, nil
}

// Handle answers the question in c.Args["question"].
func (a *Agent) Handle(ctx context.Context, c intents.Call) (intents.Answer, error) {
	q := strings.TrimSpace(c.Args["question"])
	if q == "" {
		return intents.Answer{Reply: ReplyEmpty, Expression: intents.ExpressionConfused}, nil
	}
	if a.breakerOpen() {
		return intents.Answer{Reply: ReplyUnavailable, Expression: intents.ExpressionSorry}, nil
	}
	deep := c.Intent != nil && (c.Intent.Handler.Deep || c.Intent.Name == intents.IntentDeepAsk)
	models := []string{a.cfg.FastModel}
	maxTokens := a.cfg.MaxTokens
	if deep {
		models[0], maxTokens = a.cfg.DeepModel, a.cfg.DeepMaxTokens
	}
	models = append(models, a.cfg.Fallbacks...)
	ctx = withReadBudget(ctx, a.cfg.MaxResponseBytes)
	for i, m := range models {
		if ctx.Err() != nil {
			break
		}
		text, err := a.ask(ctx, m, q, maxTokens, c.Partial, a.share(ctx, len(models)-i))
		if err == nil {
			a.record(true)
			if text == "" {
				return intents.Answer{Reply: ReplyEmpty, Expression: intents.ExpressionConfused}, nil
			}
			return intents.Answer{Reply: text, Expression: intents.ExpressionNeutral}, nil
		}
		if !retryable(err) {
			break
		}
	}
	a.record(false)
	if ctx.Err() != nil {
		return intents.Answer{}, ctx.Err()
	}
	// Every model failed: the agent's own apology is the answer (audited and counted as
	// failed), not the broker's generic error.
	return intents.Answer{Reply: ReplyUnavailable, Expression: intents.ExpressionSorry, Outcome: intents.OutcomeFailed}, nil
}

// share is one model's time: AttemptTimeout, but no more than an equal part of what is left
// of the turn among the models still to try, so a fallback gets a real attempt instead of
// the last half-second.
func (a *Agent) share(ctx context.Context, modelsLeft int) time.Duration {
	d := a.cfg.AttemptTimeout
	if dl, ok := ctx.Deadline(); ok && modelsLeft > 0 {
		if part := time.Until(dl) / time.Duration(modelsLeft); part < d {
			d = part
		}
	}
	return d
}

// ask streams one model's answer, stopping at the length cap.
func (a *Agent) ask(ctx context.Context, model, question string, maxTokens int, partial func(string), timeout time.Duration) (string, error) {
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req := openai.ChatCompletionRequest{
		Model: model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: a.cfg.Persona},
			{Role: openai.ChatMessageRoleUser, Content: question},
		},
		MaxCompletionTokens: maxTokens,
		Stream:              true,
	}
	stream, err := a.client.CreateChatCompletionStream(actx, req)
	if err != nil {
		return "", fmt.Errorf("model %s: %w", model, err)
	}
	defer stream.Close()
	var b strings.Builder
	emitted := 0 // bytes of b already handed to partial
	for b.Len() < a.cfg.MaxChars {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("model %s: %w", model, err)
		}
		for _, ch := range chunk.Choices {
			b.WriteString(ch.Delta.Content)
		}
		if partial != nil {
			for {
				end := sentenceEnd(b.String()[emitted:])
				if end < 0 || emitted+end > a.cfg.MaxChars {
					break
				}
				if s := Fit(b.String()[emitted:emitted+end], a.cfg.MaxChars); s != "" {
					partial(s)
				}
				emitted += end
			}
		}
	}
	return Fit(b.String(), a.cfg.MaxChars), nil
}

// sentenceEnd returns the length of the first complete sentence in s (its end mark and the
// space after it), or -1.
func sentenceEnd(s string) int {
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && (s[i+1] == ' ' || s[i+1] == '\n') {
			return i + 2
		}
	}
	return -1
}

// retryable errors move on to the next model: timeouts, 5xx, 429, broken streams — not an
// endpoint that sent more than the question's byte budget (the budget is spent).
func retryable(err error) bool {
	if errors.Is(err, errTooMuch) {
		return false
	}
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		return apiErr.HTTPStatusCode >= 500 || apiErr.HTTPStatusCode == 429 || apiErr.HTTPStatusCode == 0
	case errors.As(err, &reqErr):
		return reqErr.HTTPStatusCode >= 500 || reqErr.HTTPStatusCode == 429 || reqErr.HTTPStatusCode == 0
	}
	return true // timeouts, resets, malformed streams
}

func (a *Agent) breakerOpen() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.now().Before(a.openUntil)
}

func (a *Agent) record(ok bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if ok {
		a.failures = 0
		return
	}
	a.failures++
	if a.failures >= a.cfg.BreakAfter {
		a.openUntil = a.now().Add(a.cfg.Cooldown)
		a.failures = 0
	}
}

// Fit makes model output one line of at most max characters: control characters become
// spaces, runs of spaces one, and a long answer ends at a sentence or word boundary — never
// inside a word, so a secret is either whole (and redacted) or absent. It removes nothing
// else: markup is the broker's to strip, after redaction.
func Fit(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	cut := string(r[:max])
	if i := lastSentenceEnd(cut + string(r[max])); i > max/3 {
		return cut[:i+1]
	}
	cut = string(r[:max-1])
	if i := strings.LastIndexByte(cut, ' '); i > 0 && r[max-1] != ' ' {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "."
}

// lastSentenceEnd is the index of the last '.', '!' or '?' followed by a space, or -1.
func lastSentenceEnd(s string) int {
	for i := len(s) - 2; i >= 0; i-- {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && s[i+1] == ' ' {
			return i
		}
	}
	return -1
}
