package robot

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/speech"
)

// BenchmarkHubTurn measures, for a 3 s utterance, the time from speech end to the request
// reaching the broker (target < 50 ms) and from each motion state change to its daemon call
// (target < 100 ms). Broker and daemon are in-process fakes on loopback.
func BenchmarkHubTurn(b *testing.B) {
	var mu sync.Mutex
	var arrived time.Time
	brokerSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrived = time.Now()
		mu.Unlock()
		io.Copy(io.Discard, r.Body)
		w.Write([]byte(`{"turn_id":"t","intent":"none","outcome":"ignored"}`))
	}))
	defer brokerSrv.Close()
	fake := NewFakeDaemon()
	daemonSrv := httptest.NewServer(fake)
	defer daemonSrv.Close()
	d := NewDaemon(daemonSrv.URL, time.Second)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := &Hub{Broker: &BrokerClient{URL: brokerSrv.URL, Token: "t"}, Daemon: d, Speaker: DaemonSpeaker{D: d},
		Motion: NewMotion(d, DefaultExpressions(), log), Log: log}
	utt := make([]float32, 3*speech.SampleRate)
	for i := range utt {
		utt[i] = float32(0.3 * math.Sin(2*math.Pi*220*float64(i)/speech.SampleRate))
	}
	var toBroker []time.Duration
	for b.Loop() {
		start := time.Now()
		h.handle(context.Background(), utt, "")
		mu.Lock()
		toBroker = append(toBroker, arrived.Sub(start))
		mu.Unlock()
	}
	var motion []time.Duration
	for _, e := range h.Motion.Events() {
		if !e.Moved.IsZero() {
			motion = append(motion, e.Moved.Sub(e.Changed))
		}
	}
	med := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)/2].Microseconds()) / 1000
	}
	p99 := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return float64(ds[min(len(ds)-1, len(ds)*99/100)].Microseconds()) / 1000
	}
	b.ReportMetric(med(toBroker), "speech-end-to-broker-ms-median")
	b.ReportMetric(p99(toBroker), "speech-end-to-broker-ms-p99")
	b.ReportMetric(med(motion), "motion-start-ms-median")
	b.ReportMetric(p99(motion), "motion-start-ms-p99")
	b.ReportMetric(0, "ns/op")
}
