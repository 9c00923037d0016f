package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
)

// BenchmarkCtlBench: what 'reachyctl bench --concurrency 16' measures against a dev broker's
// text turn, and against an empty net/http handler over the same loopback HTTP in the same
// run (alternating rounds of 200 requests). Reports each one's throughput and median latency
// and the ratio of their wall times (the target: broker within 3x of the empty handler).
func BenchmarkCtlBench(b *testing.B) {
	const conc, turns = 16, 200
	dir := b.TempDir()
	cfg, table, err := broker.DevConfig("127.0.0.1:0", dir)
	if err != nil {
		b.Fatal(err)
	}
	cfg.Limits.RatePerMinute, cfg.Limits.Burst = 1<<30, 1<<20
	state, err := broker.InitState(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer state.Close()
	tok, _, _ := state.CreateToken(context.Background(), "laptop", []string{"text"}, "")
	br, err := broker.New(broker.Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state,
		Handlers: basic.Handlers(time.Now), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	brokerSrv := httptest.NewServer(br.Handler())
	defer brokerSrv.Close()
	emptySrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"reply":"ok"}`))
	}))
	defer emptySrv.Close()
	body, _ := json.Marshal(map[string]string{"text": "what time is it"})
	load := benchLoad{path: "/v1/utterances", ctype: "application/json", body: body}
	client := func(url string) clientFlags {
		u, t, f := url, tok, ""
		return clientFlags{url: &u, token: &t, tokenFile: &f}
	}
	toBroker, toEmpty := client(brokerSrv.URL), client(emptySrv.URL)
	hcBroker, hcEmpty := benchClient(conc, 30*time.Second), benchClient(conc, 30*time.Second)
	var brokerWall, emptyWall time.Duration
	var brokerP50, emptyP50 []time.Duration
	for b.Loop() {
		e := drive(toEmpty, hcEmpty, load, conc, turns)
		r := drive(toBroker, hcBroker, load, conc, turns)
		if len(r.lat) != turns || len(e.lat) != turns {
			b.Fatalf("failures: broker %v, empty %v (%v)", r.errs, e.errs, r.firstErr)
		}
		brokerWall += r.wall
		emptyWall += e.wall
		brokerP50 = append(brokerP50, r.pct(0.5))
		emptyP50 = append(emptyP50, e.pct(0.5))
	}
	med := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)/2].Microseconds())
	}
	rounds := float64(b.N)
	b.ReportMetric(rounds*turns/brokerWall.Seconds(), "broker-req/s")
	b.ReportMetric(rounds*turns/emptyWall.Seconds(), "empty-req/s")
	b.ReportMetric(med(brokerP50), "broker-us-p50")
	b.ReportMetric(med(emptyP50), "empty-us-p50")
	b.ReportMetric(brokerWall.Seconds()/emptyWall.Seconds(), "broker/empty")
	b.ReportMetric(0, "ns/op")
}
