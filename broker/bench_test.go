package broker

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
	"github.com/reachy-broker/reachy-broker/speech"
	"github.com/reachy-broker/reachy-broker/speech/whisper"
)

// timedTranscriber runs the real whisper.cpp engine (so its cost is measured) and then
// substitutes a scripted transcript, because a generated model's words are meaningless.
type timedTranscriber struct {
	eng    *whisper.Engine
	opts   whisper.Options
	script string
	spent  time.Duration
}

func (w *timedTranscriber) Transcribe(ctx context.Context, samples []float32) (string, error) {
	start := time.Now()
	_, err := w.eng.Transcribe(ctx, samples, w.opts)
	w.spent = time.Since(start)
	return w.script, err
}

type timedSynth struct {
	s     speech.Synthesizer
	spent time.Duration
}

func (t *timedSynth) Synthesize(ctx context.Context, text string) ([]byte, error) {
	start := time.Now()
	b, err := t.s.Synthesize(ctx, text)
	t.spent = time.Since(start)
	return b, err
}

var (
	benchModelOnce sync.Once
	benchModel     string
	benchModelErr  error
)

// BenchmarkTurnDeterministic: one in-process turn from WAV bytes to reply audio, a 3 s
// utterance, the tiny.en-shaped generated model with audio_ctx trimmed to the clip, and the
// whisper options a production broker uses (SpeechOptions of the default config: its threads,
// token cap and initial prompt), espeak-ng. Reports the whole turn and the broker's own
// overhead (everything but speech-to-text and synthesis), median and p99.
func BenchmarkTurnDeterministic(b *testing.B) {
	benchModelOnce.Do(func() {
		dir, err := os.MkdirTemp("", "turn-bench-")
		if err != nil {
			benchModelErr = err
			return
		}
		shape, _ := whisper.TestShape("tiny.en")
		benchModel = filepath.Join(dir, "ggml-test-tiny.en.bin")
		benchModelErr = whisper.WriteTestModel(benchModel, shape, 3)
	})
	if benchModelErr != nil {
		b.Fatal(benchModelErr)
	}
	eng, err := whisper.Load(whisper.Config{ModelPath: benchModel, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	var stt *timedTranscriber
	synth := &timedSynth{s: speech.Espeak{}}
	var totals, overheads []time.Duration
	runAudioTurns(b, func(cfg *Config, table *intents.Table) (Transcriber, speech.Synthesizer) {
		opts := SpeechOptions(cfg, table) // exactly what cmd/reachy-broker passes
		if opts.MaxTokens != 64 || opts.InitialPrompt == "" {
			b.Fatalf("the production speech options changed: %+v", opts)
		}
		opts.NoSpeechProb = 1 // random weights look like silence to whisper; keep every segment
		stt = &timedTranscriber{eng: eng, opts: opts, script: "hey reachy what time is it"}
		return stt, synth
	}, func(total time.Duration) {
		totals = append(totals, total)
		overheads = append(overheads, total-stt.spent-synth.spent)
	})
	report := func(ds []time.Duration, name string) {
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, name+"-ms-median")
		b.ReportMetric(float64(ds[min(len(ds)-1, len(ds)*99/100)].Microseconds())/1000, name+"-ms-p99")
	}
	report(totals, "turn")
	report(overheads, "overhead")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkTextTurn: the broker's whole text turn in process (POST /v1/utterances "what time
// is it": token check, routing, the time.now handler in the home's time zone, redaction,
// audit insert), against an empty net/http handler measured in the same run. Reports both
// medians, the turn's p99 and the ratio of the medians.
func BenchmarkTextTurn(b *testing.B) {
	dir := b.TempDir()
	cfg, table, err := DevConfig("127.0.0.1:0", dir)
	if err != nil {
		b.Fatal(err)
	}
	cfg.Limits.RatePerMinute, cfg.Limits.Burst = 1<<30, 1<<20
	state, err := store.Init(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer state.Close()
	tok, _, _ := state.CreateToken(context.Background(), "laptop", []string{"text"}, "")
	br, err := New(Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state,
		Handlers: basic.Handlers(time.Now), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	turn := br.Handler()
	empty := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"reply":"ok"}`))
	})
	body := []byte(`{"text":"what time is it"}`)
	serve := func(h http.Handler) (time.Duration, *httptest.ResponseRecorder) {
		return serveTimed(h, "/v1/utterances", "application/json", tok, body)
	}
	var turns, empties []time.Duration
	for b.Loop() {
		d, rec := serve(turn)
		if rec.Code != 200 {
			b.Fatalf("turn failed: %d %s", rec.Code, rec.Body.String())
		}
		turns = append(turns, d)
		d, _ = serve(empty)
		empties = append(empties, d)
	}
	slices.Sort(turns)
	slices.Sort(empties)
	med := func(ds []time.Duration) float64 { return float64(ds[len(ds)/2].Nanoseconds()) / 1000 }
	b.ReportMetric(med(turns), "turn-us-median")
	b.ReportMetric(float64(turns[min(len(turns)-1, len(turns)*99/100)].Nanoseconds())/1000, "turn-us-p99")
	b.ReportMetric(med(empties), "empty-us-median")
	b.ReportMetric(med(turns)/med(empties), "turn/empty")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkKeyedActuation is the broker's own cost for a keyed house command (no speech):
// token check, key lookup, the audit intent and pending key committed before the handler,
// the outcome and settled key after — two fsynced transactions.
func BenchmarkKeyedActuation(b *testing.B) {
	dir := b.TempDir()
	cfg, table, _ := DevConfig("127.0.0.1:0", dir)
	cfg.Limits.RatePerMinute, cfg.Limits.Burst = 1<<30, 1<<20
	state, err := store.Init(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer state.Close()
	tok, _, _ := state.CreateToken(context.Background(), "robot", []string{"text", "house:write"}, "")
	handlers := basic.Handlers(time.Now)
	handlers["home.light"] = &countingLight{}
	br, err := New(Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state,
		Handlers: handlers, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	h := br.Handler()
	var ds []time.Duration
	i := 0
	for b.Loop() {
		i++
		req := httptest.NewRequest("POST", "http://127.0.0.1/v1/utterances", strings.NewReader(`{"text":"turn on the kitchen light"}`))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", "bench-"+strconv.Itoa(i))
		rec := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(rec, req)
		ds = append(ds, time.Since(start))
		if rec.Code != 200 {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(ds[min(len(ds)-1, len(ds)*99/100)].Microseconds())/1000, "ms-p99")
	b.ReportMetric(0, "ns/op")
}

// instantTranscriber and instantSynth cost nothing, so BenchmarkAudioTurnOwnCost measures the
// broker alone.
type instantTranscriber struct{ text string }

func (s instantTranscriber) Transcribe(context.Context, []float32) (string, error) {
	return s.text, nil
}

type instantSynth struct{ wav []byte }

func (s instantSynth) Synthesize(context.Context, string) ([]byte, error) { return s.wav, nil }

// BenchmarkAudioTurnOwnCost: the broker's own work in an audio turn — decoding and checking
// the upload, the token, routing, the handler, redaction, encoding the reply audio, the
// audit — with speech-to-text and synthesis replaced by ones that cost nothing. It is the
// overhead of BenchmarkTurnDeterministic without whisper's threads competing for the cores.
func BenchmarkAudioTurnOwnCost(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	reply, err := speech.Espeak{}.Synthesize(ctx, "It is eleven fifty-three.")
	cancel()
	if err != nil {
		b.Fatal(err)
	}
	var ds []time.Duration
	runAudioTurns(b, func(*Config, *intents.Table) (Transcriber, speech.Synthesizer) {
		return instantTranscriber{"hey reachy what time is it"}, instantSynth{reply}
	}, func(d time.Duration) { ds = append(ds, d) })
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(ds[min(len(ds)-1, len(ds)*99/100)].Microseconds())/1000, "ms-p99")
	b.ReportMetric(0, "ns/op")
}

// runAudioTurns runs one audio turn per benchmark iteration against a dev broker in process
// ("hey reachy, what time is it right now" said by espeak-ng, padded to 3 s), with the speech
// components that components gives it, and tells each turn's wall time to took.
func runAudioTurns(b *testing.B, components func(*Config, *intents.Table) (Transcriber, speech.Synthesizer), took func(time.Duration)) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	spoken, err := speech.Espeak{}.Synthesize(ctx, "hey reachy, what time is it right now")
	cancel()
	if err != nil {
		b.Fatal(err)
	}
	clip, _ := speech.DecodeWAV(spoken, 0)
	three := make([]float32, 3*speech.SampleRate)
	copy(three, clip.Samples)
	wav, _ := speech.EncodeWAV(three, speech.SampleRate)
	dir := b.TempDir()
	cfg, table, _ := DevConfig("127.0.0.1:0", dir)
	state, err := store.Init(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer state.Close()
	tok, _, _ := state.CreateToken(context.Background(), "robot", []string{"turn"}, "")
	stt, synth := components(cfg, table)
	br, err := New(Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Transcriber: stt,
		Synthesizer: synth, Handlers: basic.Handlers(time.Now), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	h := br.Handler()
	for b.Loop() {
		d, rec := serveTimed(h, "/v1/turns", "audio/wav", tok, wav)
		if rec.Code != 200 || !bytes.Contains(rec.Body.Bytes(), []byte(`"intent":"time.now"`)) || !bytes.Contains(rec.Body.Bytes(), []byte(`"audio":"`)) {
			b.Fatalf("turn failed: %d %s", rec.Code, rec.Body.String()[:min(300, rec.Body.Len())])
		}
		took(d)
	}
}

// serveTimed POSTs body to path in process and returns how long the handler took.
func serveTimed(h http.Handler, path, ctype, tok string, body []byte) (time.Duration, *httptest.ResponseRecorder) {
	req := httptest.NewRequest("POST", "http://127.0.0.1"+path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", ctype)
	rec := httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(rec, req)
	return time.Since(start), rec
}
