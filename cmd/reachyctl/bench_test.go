package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
)

// BenchmarkCtlBench: what 'reachyctl bench -c 16' measures against a dev broker's text turn,
// and against an empty net/http handler answering the same JSON (the broker's own reply to
// the same request) over the same loopback HTTP in the same run (alternating rounds of 200
// requests). Reports each one's throughput and median latency and the ratio of their wall
// times (the target: broker within 3x of the empty handler).
func BenchmarkCtlBench(b *testing.B) {
	const conc, turns = 16, 200
	dev := startDevBroker(b, b.TempDir(), func(_ *devBroker, d *broker.Deps) {
		d.Config.Limits.RatePerMinute, d.Config.Limits.Burst = 1<<30, 1<<20
	})
	tok, _, _ := dev.state.CreateToken(context.Background(), "laptop", []string{"text"}, "")
	brokerSrv := dev.srv
	body, _ := json.Marshal(map[string]string{"text": "what time is it"})
	load := benchLoad{path: "/v1/utterances", ctype: "application/json", body: body}
	client := func(url string) clientFlags {
		u, t, f := url, tok, ""
		return clientFlags{url: &u, token: &t, tokenFile: &f}
	}
	toBroker := client(brokerSrv.URL)
	hcBroker := benchClient(conc, 30*time.Second)
	status, same, _, err := toBroker.do(hcBroker, http.MethodPost, load.path, load.ctype, load.body, "")
	if err != nil || status != 200 {
		b.Fatalf("the broker's reply: %d %v", status, err)
	}
	emptySrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(same)
	}))
	defer emptySrv.Close()
	toEmpty, hcEmpty := client(emptySrv.URL), benchClient(conc, 30*time.Second)
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
