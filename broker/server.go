package broker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"path"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/time/rate"

	"github.com/reachy-broker/reachy-broker/broker/announce"
	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/console"
	"github.com/reachy-broker/reachy-broker/broker/hostname"
	"github.com/reachy-broker/reachy-broker/broker/link"
	"github.com/reachy-broker/reachy-broker/broker/mcp"
	"github.com/reachy-broker/reachy-broker/broker/play"
	"github.com/reachy-broker/reachy-broker/broker/quiet"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/redact"
	"github.com/reachy-broker/reachy-broker/speech"
)

// Transcriber turns 16 kHz mono samples into text. ErrBusy (wrapped) means the queue is full.
type Transcriber interface {
	Transcribe(ctx context.Context, samples []float32) (string, error)
}

// ErrBusy is what a Transcriber returns when it cannot take more work.
var ErrBusy = errors.New("busy")

// Identifier names the tailnet node behind a connection (nil in loopback dev mode).
type Identifier interface {
	WhoIs(ctx context.Context, remoteAddr string) (Node, error)
}

// Node is a tailnet node: its stable ID, which tokens are pinned to, and its name, which
// people read (and an owner can change).
type Node struct {
	ID   string
	Name string
}

// ReloadStatus reports how the last reload of the intent table went (*Tables implements it).
type ReloadStatus interface {
	Health() ReloadHealth
}

// Deps are the parts a Broker is built from; tests replace any of them.
type Deps struct {
	Config      *Config
	Table       func() *intents.Table // the live table (a reload swaps it)
	State       *store.Store
	Transcriber Transcriber // nil: /v1/turns answers busy (but see DevClipText)
	// DevClipText: a dev broker with no Transcriber takes the words a clip carries (written
	// by `reachyctl speak`, kept by the sim hub: speech.SpokenText) as its transcript, so the
	// room's side can be tried without a model. Labelled dev_clip_text in the log and audit.
	// Never set outside --dev: a production broker ignores the words a WAV says it says.
	DevClipText bool
	Synthesizer speech.Synthesizer // nil: replies carry no audio
	Redactor    *redact.Redactor   // nil: patterns and the length cap only
	Handlers    map[string]intents.Handler
	Identifier  Identifier   // nil: loopback dev mode, no node binding
	Reloads     ReloadStatus // nil: the table is never reloaded (tests)
	Link        link.Options
	Announcer   *announce.Announcer // nil: POST /v1/announcements answers busy; a nil Redact gets the reply boundary
	Timers      TimerBoard          // the timers, for the operator's status; nil: none shown
	SpeechModel string              // the whisper model's file, for the operator's status
	Quiet       *quiet.Times        // the robots' quiet times (robot.quiet); nil: the broker's own, on Now
	// PageTimeout: a teleport session whose page has not asked anything for this long ends
	// (page_lost); 0: the console's default (10 s). Tests shorten it.
	PageTimeout time.Duration
	Games       *play.Games      // the games in play (play.*); nil: the broker's own, from Config.Play, on Now
	People      PersonIdentifier // the console's identity source (the tailnet); nil: DevOwner on loopback
	DevOwner    string           // loopback dev mode: every loopback connection is this owner (--dev-owner)
	Logger      *slog.Logger
	Now         func() time.Time
	// Hosts are the names the API (and the console and MCP on it) answers to; a request
	// naming any other Host is refused with unknown_host before any route runs. nil: the
	// node's own names when Identifier is a *Tailnet, else loopback names only. Add the
	// names of a TLS certificate the broker serves here.
	Hosts *hostname.Set
	// ConsoleHTTPS is where the console is served over TLS (a plain-HTTP console request is
	// redirected there), or why it is not (the page explains). Zero: plain HTTP only.
	ConsoleHTTPS ConsoleHTTPS
}

// Broker serves the API. Create it with New; serve Handler() on a tailnet or loopback
// listener and AdminHandler() on loopback.
type Broker struct {
	d       Deps
	m       *metrics
	decodes *admission // audio turns admitted to read and decode their body
	log     *slog.Logger
	limMu   sync.Mutex
	limits  map[string]*rate.Limiter
	authMu  sync.Mutex
	authBad map[string]*rate.Limiter // failed authentications per remote address
	devMu   sync.Mutex
	devices map[string]*deviceState // follow-up windows and pending clarifications
	mcp     *mcp.Handler
	link    *link.Registry
	console *console.Console
	hostLog *rate.Limiter // refusals of a foreign Host are logged a few times a minute at most
	ops     *operatorView // last turns, refused turns, calls, backend health (operator.go)
}

// OpenFollowUp opens a device's follow-up window: for the next follow-up window, what it
// hears needs no wake phrase (a timer rings: "stop" or "okay" is enough).
func (b *Broker) OpenFollowUp(device string) {
	st := b.deviceState(device)
	b.devMu.Lock()
	st.followUntil = b.d.Now().Add(b.d.Config.Turn.FollowUpWindow)
	b.devMu.Unlock()
}

// deviceState is the short-lived conversational state of one device.
type deviceState struct {
	followUntil    time.Time
	pending        *intents.Pending
	pendingExpires time.Time
}

// New builds a broker.
func New(d Deps) (*Broker, error) {
	if d.Config == nil || d.Table == nil || d.State == nil {
		return nil, errors.New("broker: config, table and state are required")
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Redactor == nil {
		d.Redactor = redact.MustDefault()
	}
	if d.Announcer != nil && d.Announcer.Redact == nil {
		d.Announcer.Redact = SpeakableText(d.Redactor) // announcements pass the reply's boundary
	}
	d.Handlers = maps.Clone(d.Handlers)
	if d.Handlers == nil {
		d.Handlers = map[string]intents.Handler{}
	}
	if d.Quiet == nil {
		d.Quiet = quiet.New(d.Now)
	}
	if d.Announcer != nil && d.Announcer.Quiet == nil {
		d.Announcer.Quiet = d.Quiet.Quiet // quiet time: an announcement is the chime alone
	}
	if _, ok := d.Handlers[quiet.HandlerType]; !ok {
		d.Handlers[quiet.HandlerType] = d.Quiet.Handler(d.Handlers["robot.stop"])
	}
	if d.Link.Logger == nil {
		d.Link.Logger = d.Logger
	}
	if d.Hosts == nil {
		if tn, ok := d.Identifier.(*Tailnet); ok {
			d.Hosts = tn.Hosts()
		} else {
			d.Hosts = hostname.Loopback() // fail closed: nothing but loopback names
		}
	}
	m := newMetrics()
	if d.Reloads != nil {
		m.watchReloads(d.Reloads)
	}
	b := &Broker{d: d, m: m, decodes: newAdmission(d.Config.Limits.Decodes), log: d.Logger,
		limits: map[string]*rate.Limiter{}, authBad: map[string]*rate.Limiter{}, devices: map[string]*deviceState{},
		hostLog: rate.NewLimiter(rate.Every(10*time.Second), 3)}
	b.ops = newOperatorView(m.reg)
	b.mcp = mcp.New(mcpBackend{b}, mcp.Options{Version: "v1", Logger: d.Logger, MaxBodyBytes: d.Config.Limits.JSONBytes})
	b.link = link.New(d.Link)
	var err error
	if b.console, err = b.newConsole(); err != nil {
		return nil, err
	}
	rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	b.closeTeleportLeftOpen(rctx) // sessions a broker that died left open end as broker_restart
	cancel()
	b.watchLink()
	b.watchStatus()
	if _, ok := b.d.Handlers["session.end"]; !ok {
		b.d.Handlers["session.end"] = sessionEnd{b}
	}
	// Quiet time ends the robot's teleport session (quietcall.go).
	b.d.Handlers[quiet.HandlerType] = quietEnds{b: b, next: b.d.Handlers[quiet.HandlerType]}
	if _, ok := b.d.Handlers["privacy.set"]; !ok {
		b.d.Handlers["privacy.set"] = privacySet{b}
	}
	if _, ok := b.d.Handlers["teleport.call"]; !ok {
		b.d.Handlers["teleport.call"] = teleportCall{b}
	}
	if err := b.setupGames(); err != nil {
		return nil, err
	}
	d.State.OnAuditFailure(func(n int, lost bool, err error) {
		if lost {
			b.log.Error("audit records lost: the state store closed before it could write them", "records", n, "err", err)
			return
		}
		b.m.auditFailures.Add(float64(n))
		b.log.Error("audit write failed; the records are kept and retried", "records", n, "err", err)
	})
	return b, nil
}

// Handler is the API (wire contract v1).
func (b *Broker) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("POST /v1/turns", b.authed(intents.ScopeTurn, b.limited(b.turnDeadline(b.handleTurn))))
	mux.Handle("POST /v1/utterances", b.authed(intents.ScopeText, b.limited(b.turnDeadline(b.handleUtterance))))
	mux.Handle("POST /v1/intents/{name}", b.authed(intents.ScopeIntent, b.limited(b.turnDeadline(b.handleTypedCall))))
	mux.Handle("GET /v1/intents", b.authed("", b.limitedBy("list/", b.handleListIntents)))
	mux.Handle("GET /v1/link", b.authed(intents.ScopeLink, b.handleLink))
	mux.Handle("POST /v1/announcements", b.authed(ScopeAnnounce, b.limited(b.handleAnnounce)))
	mux.Handle("GET /{$}", b.consoleHandler()) // the teleport console: owners by tailnet identity
	mux.Handle("/console/", b.consoleHandler())
	// MCP for the owner's agents: the same gate, then the same typed-call path.
	mux.Handle("POST "+mcp.Path, b.gate(mcp.Scope, mcp.MetadataURL, b.mcp.ServeHTTP))
	mux.Handle(mcp.Path, b.mcp)
	mux.HandleFunc("GET "+mcp.MetadataPath, b.mcp.ServeMetadata)
	mux.HandleFunc("GET "+mcp.MetadataPath+mcp.Path, b.mcp.ServeMetadata)
	notFound := func(w http.ResponseWriter, r *http.Request) {
		writeError(w, errf(api.CodeNotFound, "no such route; see GET /v1/intents"))
	}
	mux.HandleFunc("/", notFound)
	// The mux would answer an unclean path ("//mcp", "/x/../mcp") with a redirect, and a
	// client might follow it with its token: the API never redirects.
	return b.ownHost(b.d.Hosts, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; p == "" || path.Clean(p) != p {
			notFound(w, r)
			return
		}
		if b.consoleOverHTTPS(w, r) {
			return
		}
		// Every request's clock starts when it arrives: the turn's budget, and the deadline
		// of every state access on its way (the token check included), count from here.
		mux.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), arrivalKey, time.Now())))
	}))
}

// AdminHandler serves /healthz and /metrics; bind it to loopback only. It answers to
// loopback names only (localhost, 127.0.0.0/8, [::1]).
func (b *Broker) AdminHandler() http.Handler {
	return b.ownHost(hostname.Loopback(), b.adminMux())
}

func (b *Broker) adminMux() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), time.Second)
		defer cancel()
		// The state store is probed with a write: a full or read-only disk fails here, and
		// shows healthy again by itself once the space is back.
		if err := b.d.State.Health(ctx); err != nil {
			b.log.Warn("healthz: the state store is failing", "err", err)
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "unavailable",
				"state": "failing: the state store cannot record; actuations are refused until it can"})
			return
		}
		body := map[string]any{"status": "ok", "state": "ok", "speech_to_text": b.d.Transcriber != nil, "synthesis": b.d.Synthesizer != nil}
		maps.Copy(body, b.healthCounts()) // robots, sessions, timers: counts, never names
		if b.d.Reloads != nil {
			h := b.d.Reloads.Health()
			body["intent_table"] = h
			if h.Stale {
				// Still serving (the previous table), so still 200; the body says what is wrong.
				body["status"] = "degraded"
			}
		}
		writeJSON(w, http.StatusOK, body)
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(b.m.reg, promhttp.HandlerOpts{}))
	return mux
}

// NewHTTPServer wraps a handler with the timeouts that protect against slow clients.
func NewHTTPServer(h http.Handler, budget time.Duration) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       20 * time.Second,
		WriteTimeout:      budget + 20*time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
}

func newTurnID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Serve runs srv on l until ctx ends, then shuts down gracefully: turns in flight finish.
func Serve(ctx context.Context, srv *http.Server, l net.Listener, grace time.Duration) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Maintain purges expired audit and idempotency records now and every hour until ctx ends.
// The store decides what may go: nothing, while its clock has not agreed with it for longer
// than the retention period (broker/store/clock.go), so a jumped clock purges nothing.
func (b *Broker) Maintain(ctx context.Context) {
	for {
		b.purge(ctx)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Hour):
		}
	}
}

func (b *Broker) purge(ctx context.Context) {
	p, err := b.d.State.Purge(ctx, b.d.Config.Audit.Retention)
	switch {
	case err != nil:
		b.log.Error("audit retention", "err", err)
	case p.Audit > 0 || p.Keys > 0:
		b.log.Info("retention removed old records", "audit", p.Audit, "keys", p.Keys)
	}
	if p.AuditHeld || p.KeysHeld {
		b.log.Debug("retention waits for the clock to agree with the store", "agreed_for", p.AgreedFor.Round(time.Second).String(),
			"audit_held", p.AuditHeld, "keys_held", p.KeysHeld)
	}
}
