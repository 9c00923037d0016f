package broker

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// metrics live in the broker's own registry: no global state.
type metrics struct {
	reg           *prometheus.Registry
	turns         *prometheus.CounterVec   // route, outcome
	refusals      *prometheus.CounterVec   // code: refusals are counted apart from failures
	failures      *prometheus.CounterVec   // code
	stage         *prometheus.HistogramVec // stage
	auditFailures prometheus.Counter
	redactions    *prometheus.CounterVec // kind
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		turns: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "reachy_turns_total",
			Help: "Turns answered, by route and outcome."}, []string{"route", "outcome"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "reachy_refusals_total",
			Help: "Requests refused by the trust boundary (unknown intent, denied, auth), by code."}, []string{"code"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "reachy_failures_total",
			Help: "Requests that failed (bad input, busy, timeout, internal), by code."}, []string{"code"}),
		stage: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "reachy_stage_seconds",
			Help: "Time spent per turn stage.", Buckets: prometheus.ExponentialBuckets(0.0005, 2.5, 12)}, []string{"stage"}),
		auditFailures: prometheus.NewCounter(prometheus.CounterOpts{Name: "reachy_audit_write_failures_total",
			Help: "Audit records that could not be written (the turn still answered)."}),
		redactions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "reachy_redactions_total",
			Help: "Redactions applied to replies, by kind."}, []string{"kind"}),
	}
	m.reg.MustRegister(m.turns, m.refusals, m.failures, m.stage, m.auditFailures, m.redactions,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func isRefusal(code string) bool {
	switch code {
	case api.CodeUnauthenticated, api.CodeInsufficientScope, api.CodeIntentDenied, api.CodeUnknownIntent, api.CodeRateLimited, api.CodeUnknownHost:
		return true
	}
	return false
}

func (m *metrics) countError(code string) {
	if isRefusal(code) {
		m.refusals.WithLabelValues(code).Inc()
	} else {
		m.failures.WithLabelValues(code).Inc()
	}
}

// watchReloads exports the intent table's reload health.
func (m *metrics) watchReloads(r ReloadStatus) {
	m.reg.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "reachy_intent_reload_failures_total",
			Help: "Reloads of the intent table that failed and kept the previous table."},
			func() float64 { return float64(r.Health().Failures) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "reachy_intent_reload_last_success_timestamp_seconds",
			Help: "When the intent table in use was loaded (start-up or the last good reload), Unix time."},
			func() float64 { return float64(r.Health().LastSuccess.UnixNano()) / 1e9 }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "reachy_intent_table_stale",
			Help: "1 when the last reload failed and the broker serves the previous table."},
			func() float64 {
				if r.Health().Stale {
					return 1
				}
				return 0
			}),
	)
}
