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
	"unicode"

	"github.com/reachy-broker/reachy-broker/broker/announce"
	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents/agent"
	"github.com/reachy-broker/reachy-broker/redact"
	"github.com/reachy-broker/reachy-broker/speech"
)

// recordingSynth keeps every text it is asked to speak: what the robot would say.
type recordingSynth struct {
	mu    sync.Mutex
	texts []string
}

func (s *recordingSynth) Synthesize(ctx context.Context, text string) ([]byte, error) {
	s.mu.Lock()
	s.texts = append(s.texts, text)
	s.mu.Unlock()
	return speech.EncodeWAV(make([]float32, 1600), speech.SampleRate)
}

func (s *recordingSynth) spoken() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.texts...)
}

// heard is what a listener hears of text: invisible characters do not separate anything.
func heard(text string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, text)
}

// issue25Evasions are the shapes of issue 25 item 9 (16 of 39 tries were spoken): format
// characters inside a secret, a secret split into short runs or spaced out, sk_live_ with
// markup around it, spaced phone digits, a password stated in words.
var issue25Evasions = []struct{ text, leak string }{
	{"The key is sk-proj-Tq4W\u200bz8Xc2Vb6\u00adNm1Lk5\u2060Jh9Gf3Ds7Ap0. ", "Tq4Wz8Xc"},
	{"In pieces: 4eC3 9HqL yjWD arjt T1zd p7dc. ", "9HqL"},
	{"Spaced: 9 f Q 2 x L r 7 T b 0 k Z p 4 W m 8 Y c. ", "9 f Q 2 x L"},
	{"Stripe: `sk_live_`**4eC39HqLyjWD**arjtT1zdp7dc. ", "4eC39HqLyjWD"},
	{"Her number is 4 1 5 5 5 5 0 1 3 4. ", "0 1 3 4"},
	{"Oh, and the wifi password is hunter2hunter2. ", "hunter2hunter2"},
	{"The door code is four eight two one. ", "four eight two one"},
}

// TestHostileLLMEvasionsAreNotSpoken: a model answer built from the evasions of issue 25 is
// spoken — in the reply and in every text handed to the synthesizer, early sentences
// included — without any of them, and the harmless sentence survives.
func TestHostileLLMEvasionsAreNotSpoken(t *testing.T) {
	hostile := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		parts := []string{"Paris is the capital of France. "}
		for _, e := range issue25Evasions {
			parts = append(parts, e.text)
		}
		for _, part := range parts {
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%q}}]}\n\n", part)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer hostile.Close()
	a, err := agent.New(agent.Config{BaseURL: hostile.URL + "/v1", FastModel: "openclaw/reachy", AttemptTimeout: 2 * time.Second, MaxChars: 2000})
	if err != nil {
		t.Fatal(err)
	}
	red, _ := redact.New(redact.Config{MaxChars: 2000})
	synth := &recordingSynth{}
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		d.Handlers["agent"] = a
		d.Redactor = red
		d.Synthesizer = synth
	})
	body := []byte(`{"text": "what is the capital of france", "audio": true}`)
	r := tb.do(t, "POST", "/v1/utterances", tb.token(t, "robot", "text", "ask"), "application/json", body)
	tr := r.turn(t)
	if tr.Intent != "general.ask" || tr.Outcome != store.OutcomeOK || tr.Audio == "" {
		t.Fatalf("%d %+v", r.status, tr)
	}
	said := append(synth.spoken(), tr.Reply)
	for _, e := range issue25Evasions {
		for _, s := range said {
			if strings.Contains(strings.ToLower(heard(s)), strings.ToLower(e.leak)) {
				t.Errorf("%q is spoken: %q", e.leak, s)
			}
		}
	}
	if !strings.Contains(tr.Reply, "Paris is the capital of France.") {
		t.Errorf("the harmless sentence was lost: %s", tr.Reply)
	}
	t.Logf("spoken: %s", tr.Reply)
}

// TestAnnouncementsPassTheReplyBoundary: an owner's announcement is spoken after the same two
// passes as a reply (redact, strip markup, redact again), with invisible characters and
// spacing normalized first — the announcer is given no redactor of its own, as cmd wires it
// through the broker.
func TestAnnouncementsPassTheReplyBoundary(t *testing.T) {
	link := &playLink{plays: map[string]int{}}
	synth := &recordingSynth{}
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		d.Announcer = &announce.Announcer{Link: link, Synth: synth, Audit: AnnouncementAudit(d.State)}
	})
	op := tb.token(t, "mom-phone", "announce")
	leaks := map[string]string{
		"Dinner! The key is sk-**Tq4Wz8Xc**2Vb6Nm1Lk5Jh9Gf3.":      "Tq4Wz8Xc",
		"Call 4 1 5 5 5 5 0 1 3 4 when you're done.":               "0 1 3 4",
		"Guests: the wifi password is hun\u200bter2hun\u00adter2.": "hunter2hunter2",
		"Token `ghp_`**Zq8xWv3Lk9Rt2Yp6Mn4Bc7Hd1Fs5Jg0Ae2Ku**":     "Zq8xWv3Lk9",
	}
	for text, leak := range leaks {
		body := fmt.Appendf(nil, `{"robot": "robot", "text": %q}`, text)
		r := tb.do(t, "POST", "/v1/announcements", op, "application/json", body)
		if r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
		var res api.AnnounceResult
		r.json(t, &res)
		if len(res.Delivered) != 1 {
			t.Fatalf("not delivered: %+v", res)
		}
		said := synth.spoken()
		last := said[len(said)-1]
		if strings.Contains(strings.ToLower(heard(last)), strings.ToLower(leak)) || strings.ContainsAny(last, "*`") {
			t.Errorf("announcement %q is spoken as %q", text, last)
		}
	}
	if got := synth.spoken(); len(got) != len(leaks) || !strings.Contains(strings.Join(got, " "), "Dinner!") {
		t.Fatalf("spoken: %q", got)
	}
}
