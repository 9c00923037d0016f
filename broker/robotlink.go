package broker

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/reachy-broker/reachy-broker/broker/link"
)

// Link is the registry of robot links: other parts of the broker (the console, timers)
// reach a robot by device name through it (Send, Status, Subscribe).
func (b *Broker) Link() *link.Registry { return b.link }

// handleLink hands an authenticated hub (scope link, token bound to its node) to the registry.
func (b *Broker) handleLink(w http.ResponseWriter, r *http.Request) {
	b.link.Serve(w, r, callerOf(r).Name)
}

// watchLink exports what the robot links and the console refused or dropped: heard clips
// over a robot's limits, with no live session, or behind its transcription; bad frames.
func (b *Broker) watchLink() {
	heard := func(reason string, n func() uint64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "reachy_link_heard_dropped_total",
			Help:        "Heard clips a robot sent that were dropped, by reason (rate: over its limits; not_live: no announced session; queue: transcription behind).",
			ConstLabels: prometheus.Labels{"reason": reason}}, func() float64 { return float64(n()) })
	}
	b.m.reg.MustRegister(
		heard("rate", func() uint64 { return b.link.Stats().HeardDropped }),
		heard("not_live", func() uint64 { return b.console.Stats().HeardNotLive }),
		heard("queue", func() uint64 { return b.console.Stats().HeardQueue }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "reachy_link_frames_refused_total",
			Help: "Frames from robots that were malformed or of an unknown type."},
			func() float64 { return float64(b.link.Stats().Malformed) }),
	)
}
