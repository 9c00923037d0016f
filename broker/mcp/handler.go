package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/intents"
)

// Scope is the scope a token needs to reach /mcp at all; each tool needs its intent's own.
const Scope = intents.ScopeMCP

// Path is where the endpoint is served, and MetadataPath where its RFC 9728 protected
// resource metadata is (also served with the resource path appended, as RFC 9728 §3.1
// derives it).
const (
	Path         = "/mcp"
	MetadataPath = "/.well-known/oauth-protected-resource"
)

// Caller is the device behind one request, as the broker's gate authenticated it.
type Caller struct {
	Device string
	Node   string
	Scopes []string
}

// Has reports whether the caller holds scope ("" is always held).
func (c Caller) Has(scope string) bool { return scope == "" || slices.Contains(c.Scopes, scope) }

// Result is what one typed call answered: a turn response, or an error with a closed code.
type Result struct {
	Status   int
	Response *api.TurnResponse
	Error    *api.ErrorDetail
	Replayed bool // answered from the idempotency store, not run again
}

// Backend is the broker as this package sees it.
type Backend interface {
	// Table is the live intent table; a reload swaps it.
	Table() *intents.Table
	// Caller is the device the broker's gate authenticated for r.
	Caller(r *http.Request) (Caller, bool)
	// Allow charges n messages to the device's rate limit; when it refuses, it says how
	// long to wait.
	Allow(c Caller, n int) (retryAfter time.Duration, ok bool)
	// Call runs the broker's typed-call path, the one POST /v1/intents/{name} runs.
	Call(ctx context.Context, c Caller, name string, args map[string]any, key string) Result
}

// Options tune the endpoint; zero values take the defaults.
type Options struct {
	Version      string       // reported in initialize
	Logger       *slog.Logger // nil: slog.Default()
	MaxBodyBytes int64        // one POST's JSON-RPC body; default 64 KiB
	MaxBatch     int          // messages in one POST; default 16
}

// Handler serves POST /mcp. Put it behind the broker's gate (token, node, the mcp scope).
type Handler struct {
	be    Backend
	opts  Options
	log   *slog.Logger
	sdk   *sdk.StreamableHTTPHandler
	tools atomic.Pointer[toolSet]

	seenMu sync.Mutex
	seen   map[string]*intents.Table // the table each device last listed tools from
}

type serverKey struct{}

// New builds the endpoint.
func New(be Backend, opts Options) *Handler {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 64 << 10
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 16
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	h := &Handler{be: be, opts: opts, log: opts.Logger, seen: map[string]*intents.Table{}}
	// Each request brings its own server (built for its caller, below): nothing outlives it.
	h.sdk = sdk.NewStreamableHTTPHandler(func(r *http.Request) *sdk.Server {
		s, _ := r.Context().Value(serverKey{}).(*sdk.Server)
		return s
	}, &sdk.StreamableHTTPOptions{Stateless: true, Logger: opts.Logger, MaxRequestBodyBytes: opts.MaxBodyBytes})
	return h
}

// message is the part of a JSON-RPC message this layer looks at before the SDK does.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  struct {
		Name string `json:"name"`
	} `json:"params"`
}

// ServeHTTP answers one POST: body cap, batch bound and rate limit, the step-up check for
// every tools/call in it, then the SDK's stateless Streamable HTTP transport over a server
// built for this caller.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		rpcError(w, http.StatusMethodNotAllowed, jsonrpc.CodeInvalidRequest, api.CodeNotFound, "this endpoint is stateless: POST only")
		return
	}
	q := r.URL.Query()
	if q.Has("access_token") || q.Has("token") {
		rpcError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, api.CodeInvalidArgs, "a token never goes in a URL; send it in the Authorization header")
		return
	}
	c, ok := h.be.Caller(r)
	if !ok {
		rpcError(w, http.StatusUnauthorized, jsonrpc.CodeInvalidRequest, api.CodeUnauthenticated, "no authenticated caller")
		return
	}
	if r.ContentLength > h.opts.MaxBodyBytes {
		rpcError(w, http.StatusRequestEntityTooLarge, jsonrpc.CodeInvalidRequest, api.CodeTooLarge,
			fmt.Sprintf("the body is over the %d byte limit", h.opts.MaxBodyBytes))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			rpcError(w, http.StatusRequestEntityTooLarge, jsonrpc.CodeInvalidRequest, api.CodeTooLarge,
				fmt.Sprintf("the body is over the %d byte limit", h.opts.MaxBodyBytes))
			return
		}
		rpcError(w, http.StatusBadRequest, jsonrpc.CodeParseError, api.CodeInvalidArgs, "could not read the body")
		return
	}
	msgs, perr := parseMessages(body)
	if perr != "" {
		rpcError(w, http.StatusBadRequest, jsonrpc.CodeParseError, api.CodeInvalidArgs, perr)
		return
	}
	if len(msgs) > h.opts.MaxBatch {
		rpcError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, api.CodeTooLarge,
			fmt.Sprintf("a batch holds at most %d messages", h.opts.MaxBatch))
		return
	}
	// Every message costs one unit of the device's rate limit, so a batch or a storm of
	// notifications is bounded exactly like a storm of requests.
	if wait, ok := h.be.Allow(c, len(msgs)); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)+1))
		rpcError(w, http.StatusTooManyRequests, jsonrpc.CodeInvalidRequest, api.CodeRateLimited, "too many requests from this device; try again shortly")
		return
	}

	table := h.be.Table()
	tools := h.toolsFor(table)
	listed := false
	for _, m := range msgs {
		switch m.Method {
		case "tools/list":
			listed = true
		case "tools/call":
			// Step-up: a tool this token cannot call is refused at the HTTP layer with the
			// scope it needs, so a client can ask its owner for a token that has it.
			if in, ok := table.Lookup(m.Params.Name); ok && !c.Has(in.Scope) {
				// The typed-call path refuses it too (its scope check comes before anything
				// runs) and writes the denial to the audit log, as for a typed call.
				h.be.Call(r.Context(), c, in.Name, nil, "")
				w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q`, in.Scope, MetadataURL(r)))
				rpcErrorID(w, http.StatusForbidden, m.ID, jsonrpc.CodeInvalidRequest, api.CodeInsufficientScope,
					fmt.Sprintf("the tool %s needs the %s scope, which this token lacks", in.Name, in.Scope))
				return
			}
		}
	}

	srv := h.server(c, tools, listed, len(msgs) == 1)
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r = r.WithContext(context.WithValue(r.Context(), serverKey{}, srv))

	// A device that listed tools from an older table hears notifications/tools/list_changed
	// on this response's event stream (the only channel a stateless transport has).
	h.seenMu.Lock()
	last, known := h.seen[c.Device]
	if listed {
		h.seen[c.Device] = table
	}
	h.seenMu.Unlock()
	if known && last != table && !listed {
		nw := &noticeWriter{ResponseWriter: w}
		h.sdk.ServeHTTP(nw, r)
		if nw.sent {
			h.seenMu.Lock()
			h.seen[c.Device] = table
			h.seenMu.Unlock()
		}
		return
	}
	h.sdk.ServeHTTP(w, r)
}

// parseMessages reads a JSON-RPC message or a batch of them. Its error never echoes input.
func parseMessages(body []byte) ([]message, string) {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, "the body is empty"
	}
	var msgs []message
	if trimmed[0] == '[' {
		if err := json.Unmarshal(body, &msgs); err != nil {
			return nil, "the body is not a JSON-RPC batch"
		}
		if len(msgs) == 0 {
			return nil, "the batch is empty"
		}
	} else {
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			return nil, "the body is not a JSON-RPC message"
		}
		msgs = []message{m}
	}
	for _, m := range msgs {
		if m.JSONRPC != "2.0" {
			return nil, `a message lacks "jsonrpc": "2.0"`
		}
	}
	return msgs, ""
}

// toolsFor returns the tools of table, building them once per table.
func (h *Handler) toolsFor(table *intents.Table) *toolSet {
	if s := h.tools.Load(); s != nil && s.table == table {
		return s
	}
	s := buildTools(table)
	h.tools.Store(s)
	return s
}

// server builds the MCP server of one request: the caller's tools when it lists them, and
// one tools/call path for every name, known or not.
func (h *Handler) server(c Caller, tools *toolSet, list bool, oneMessage bool) *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "reachy-broker", Title: "Reachy Mini broker", Version: h.opts.Version},
		&sdk.ServerOptions{
			Instructions: "Tools are this token's view of the household robot's intent allowlist. Arguments come from closed vocabularies; a write sets a state and is audited.",
			Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}},
			Logger:       h.log,
		})
	if list { // a call needs no registered tools: it goes through the middleware below
		for _, t := range tools.visible(c.Has) {
			srv.AddTool(t, h.callTool(c, oneMessage))
		}
	}
	// tools/call goes through one handler whatever the name, so an unknown or hidden tool
	// gets the broker's closed code as a tool error instead of the SDK's "unknown tool".
	call := h.callTool(c, oneMessage)
	srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if ctr, ok := req.(*sdk.CallToolRequest); ok && method == "tools/call" {
				return call(ctx, ctr)
			}
			return next(ctx, method, req)
		}
	})
	return srv
}

// MetadataURL is the absolute URL of the protected resource metadata for the /mcp resource
// reached by r. r.Host is one of the broker's own names in canonical form: the broker
// refuses any other Host (unknown_host) before a route runs, so nothing here echoes a name a
// request made up.
func MetadataURL(r *http.Request) string { return origin(r) + MetadataPath + Path }

func origin(r *http.Request) string {
	scheme := "http" // the tailnet listener is plain HTTP inside WireGuard
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// ServeMetadata answers GET /.well-known/oauth-protected-resource[/mcp] (RFC 9728): the
// resource, that bearer tokens go in the Authorization header only, and the scopes a token
// may carry for it: mcp, and each scope an intent of the live table needs. Tokens come from
// the operator (reachyctl token create), so no authorization server is named.
func (h *Handler) ServeMetadata(w http.ResponseWriter, r *http.Request) {
	scopes := []string{Scope}
	for _, in := range h.be.Table().Intents() {
		if in.Scope != "" && !slices.Contains(scopes, in.Scope) {
			scopes = append(scopes, in.Scope)
		}
	}
	slices.Sort(scopes)
	md := &oauthex.ProtectedResourceMetadata{
		Resource:               origin(r) + Path,
		ScopesSupported:        scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "reachy-broker",
	}
	w.Header().Set("Cache-Control", "no-store")
	auth.ProtectedResourceMetadataHandler(md).ServeHTTP(w, r)
}

// rpcError answers with a JSON-RPC error whose data names the broker's closed code.
func rpcError(w http.ResponseWriter, status, code int, closed, msg string) {
	rpcErrorID(w, status, nil, code, closed, msg)
}

func rpcErrorID(w http.ResponseWriter, status int, id json.RawMessage, code int, closed, msg string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	body, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   any             `json:"error"`
	}{"2.0", id, map[string]any{"code": code, "message": msg, "data": api.ErrorDetail{Code: closed, Message: msg}}})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// noticeWriter puts notifications/tools/list_changed at the head of an event-stream answer.
type noticeWriter struct {
	http.ResponseWriter
	wrote, sent bool
}

const listChangedEvent = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n"

func (n *noticeWriter) WriteHeader(code int) {
	if n.wrote {
		return
	}
	n.wrote = true
	n.ResponseWriter.WriteHeader(code)
	if code == http.StatusOK && bytes.HasPrefix([]byte(n.Header().Get("Content-Type")), []byte("text/event-stream")) {
		if _, err := io.WriteString(n.ResponseWriter, listChangedEvent); err == nil {
			n.sent = true
		}
	}
}

func (n *noticeWriter) Write(b []byte) (int, error) {
	if !n.wrote {
		n.WriteHeader(http.StatusOK)
	}
	return n.ResponseWriter.Write(b)
}

func (n *noticeWriter) Flush() {
	if !n.wrote {
		n.WriteHeader(http.StatusOK)
	}
	if f, ok := n.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (n *noticeWriter) Unwrap() http.ResponseWriter { return n.ResponseWriter }
