package broker

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
	"github.com/reachy-broker/reachy-broker/speech"
)

// BenchmarkGameTurn: one answer in a game of rock, paper, scissors through the broker's text
// turn (token check, routing, the game's claim and its answer, redaction, audit), without and
// with the reply's speech (espeak-ng) — the part of a deterministic turn a game adds to
// speech-to-text. A game that ends is started again (not timed).
func BenchmarkGameTurn(b *testing.B) {
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
	tok, _, _ := state.CreateToken(context.Background(), "robot", []string{"text", "play"}, "")
	br, err := New(Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Synthesizer: speech.Espeak{},
		Handlers: basic.Handlers(time.Now), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	h := br.Handler()
	var plain, spoken []time.Duration
	start := []byte(`{"text":"let's play rock paper scissors"}`)
	for i := 0; b.Loop(); i++ {
		if _, ok := br.d.Games.Active("robot"); !ok {
			serveTimed(h, "/v1/utterances", "application/json", tok, start)
		}
		audio := i%2 == 1
		body := []byte(`{"text":"paper"}`)
		if audio {
			body = []byte(`{"text":"paper","audio":true}`)
		}
		d, rec := serveTimed(h, "/v1/utterances", "application/json", tok, body)
		var tr api.TurnResponse
		json.Unmarshal(rec.Body.Bytes(), &tr)
		if rec.Code != 200 || tr.Intent != intents.IntentPlayAnswer || (audio && tr.Audio == "") {
			b.Fatalf("game turn: %d %s", rec.Code, rec.Body.String())
		}
		if audio {
			spoken = append(spoken, d)
		} else {
			plain = append(plain, d)
		}
	}
	report := func(ds []time.Duration, name string) {
		if len(ds) == 0 {
			return
		}
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, name+"-ms-median")
		b.ReportMetric(float64(ds[min(len(ds)-1, len(ds)*99/100)].Microseconds())/1000, name+"-ms-p99")
	}
	report(plain, "game-turn")
	report(spoken, "game-turn-spoken")
	b.ReportMetric(0, "ns/op")
}
