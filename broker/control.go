package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
)

// The control socket is how reachyctl reaches the state of a running broker. The broker's
// connection holds the database's exclusive lock (stateDSN), so nothing else may open the
// file while it runs; token changes, the audit tail, an integrity check and an online backup
// are asked of the broker instead, which does them on its own connection.
//
// The socket is a Unix socket in the state directory, which is 0700 (secureStateDir), so
// only the broker's own user (and root) can reach it: it needs no token, like the database
// file it stands for. It is never on the network.

// ControlSocketName is the control socket's file name in the state directory.
const ControlSocketName = "control.sock"

// ControlSocket is the control socket's path for state directory dir.
func ControlSocket(dir string) string { return filepath.Join(dir, ControlSocketName) }

// maxControlBody caps a control request's body.
const maxControlBody = 64 << 10

// ServeControl serves the control API for st on its state directory's socket until ctx
// ends. Call it after the State is open: the lock proves no other broker owns the
// directory, so a socket file left by a killed broker is removed and made anew.
func ServeControl(ctx context.Context, st *store.Store, log *slog.Logger) error {
	return ServeControlWith(ctx, st, nil, log)
}

// LiveStatus hands the running broker to the control socket, which opens before the broker
// is built: until Attach, GET /v1/status answers that the broker is starting.
type LiveStatus struct{ b atomic.Pointer[Broker] }

// Attach makes b the broker whose status the control socket reports.
func (l *LiveStatus) Attach(b *Broker) { l.b.Store(b) }

// broker is the attached broker, or nil (still starting, or no status at all).
func (l *LiveStatus) broker() *Broker {
	if l == nil {
		return nil
	}
	return l.b.Load()
}

func controlStarting(w http.ResponseWriter) {
	controlJSON(w, http.StatusServiceUnavailable, api.ErrorBody{Error: api.ErrorDetail{Code: api.CodeUnavailable,
		Message: "the broker is still starting: try again in a moment"}})
}

// controlGuideRequest asks for the spoken guides of a caller holding Scopes (nil: all).
type controlGuideRequest struct {
	Scopes []string `json:"scopes"`
}

// SpokenGuides are what the robot says to "what can you do" and "what games do you know".
type SpokenGuides struct {
	Help  string `json:"help"`
	Games string `json:"games,omitempty"`
}

// spokenGuides are the guides as this broker's robot says them to a caller holding scopes:
// its handlers, the people who take calls, its length cap, and the redactor.
func (b *Broker) spokenGuides(scopes []string) SpokenGuides {
	table := b.d.Table()
	o := intents.GuideOptions{Scopes: scopes, Available: b.hasHandler, Callable: b.callable(table), MaxChars: b.d.Config.Redact.MaxChars}
	say := func(s string) string {
		res, err := b.speakable(s)
		if err != nil {
			return s
		}
		return res.Text
	}
	g := SpokenGuides{Help: say(table.SpokenGuideWith(o))}
	if in, ok := table.Lookup(intents.IntentHelpGames); ok && (scopes == nil || slices.Contains(scopes, in.Scope)) {
		g.Games = say(table.GamesGuide(o))
	}
	return g
}

// controlRouteRequest asks how the live table routes a sentence.
type controlRouteRequest struct {
	Text string `json:"text"`
	Room string `json:"room,omitempty"`
}

// ReloadResult is what a reload over the control socket did.
type ReloadResult struct {
	Intents int    `json:"intents"`
	Source  string `json:"source"`
}

// reloadTable re-reads the config (or --intents file) as SIGHUP does; the result is logged
// and shown by /healthz the same way.
func (b *Broker) reloadTable() (ReloadResult, error) {
	r, ok := b.d.Reloads.(interface{ Reload() error })
	if !ok {
		return ReloadResult{}, errors.New("this broker's intent table is not reloadable (it was built without a config file)")
	}
	if err := r.Reload(); err != nil {
		b.log.Error("intent table reload failed; /healthz says the table is stale", "err", err, "by", "reachyctl reload")
		return ReloadResult{}, err
	}
	n := len(b.d.Table().Intents())
	b.log.Info("intent table reloaded", "intents", n, "by", "reachyctl reload")
	return ReloadResult{Intents: n, Source: b.d.Config.Path()}, nil
}

// ServeControlWith is ServeControl that also reports the operator's status (reachyctl
// status) of the broker attached to live; nil: no status.
func ServeControlWith(ctx context.Context, st *store.Store, live *LiveStatus, log *slog.Logger) error {
	path := ControlSocket(st.Dir())
	if len(path) >= 104 { // sun_path: 108 bytes on Linux, 104 on macOS
		return fmt.Errorf("control socket %s: the state dir's path is too long for a Unix socket (%d bytes, at most 103)", path, len(path))
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("control socket %s: %w", path, err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("control socket %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("control socket %s: %w", path, err)
	}
	srv := &http.Server{Handler: controlHandler(st, live), ReadHeaderTimeout: 5 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	log.Info("control socket ready (reachyctl token, audit and state backup use it)", "path", path)
	err = srv.Serve(ln)
	os.Remove(path)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// The control API's bodies.
type (
	controlTokenRequest struct {
		Device  string   `json:"device"`
		Scopes  []string `json:"scopes,omitempty"`
		Node    string   `json:"node,omitempty"`
		Replace bool     `json:"replace,omitempty"` // revoke the device's earlier tokens
	}
	controlTokenCreated struct {
		Token   string          `json:"token"`
		Info    store.TokenInfo `json:"info"`
		Revoked int             `json:"revoked,omitempty"` // earlier tokens revoked (replace)
	}
	controlCount struct {
		N int `json:"n"`
	}
)

// controlTimeout bounds one control request's state access.
const controlTimeout = 30 * time.Second

func controlHandler(st *store.Store, live *LiveStatus) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/status", func(w http.ResponseWriter, r *http.Request) {
		var b *Broker
		if live != nil {
			b = live.b.Load()
		}
		if b == nil {
			controlJSON(w, http.StatusServiceUnavailable, api.ErrorBody{Error: api.ErrorDetail{Code: api.CodeUnavailable,
				Message: "the broker is still starting: its status is not ready yet"}})
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), controlTimeout)
		defer cancel()
		controlJSON(w, http.StatusOK, b.Status(ctx))
	})
	// reachyctl reload: the same reload as SIGHUP, on this broker only (a signal sent by
	// process name would reach every broker on the machine).
	mux.HandleFunc("POST /v1/reload", func(w http.ResponseWriter, r *http.Request) {
		b := live.broker()
		if b == nil {
			controlStarting(w)
			return
		}
		res, err := b.reloadTable()
		if err != nil {
			controlJSON(w, http.StatusConflict, api.ErrorBody{Error: api.ErrorDetail{Code: "reload_failed", Message: err.Error()}})
			return
		}
		controlJSON(w, http.StatusOK, res)
	})
	// reachyctl route: how this broker's live table (its own intents included) routes a sentence.
	mux.HandleFunc("POST /v1/route", func(w http.ResponseWriter, r *http.Request) {
		b := live.broker()
		if b == nil {
			controlStarting(w)
			return
		}
		var req controlRouteRequest
		if !controlDecode(w, r, &req) {
			return
		}
		if strings.TrimSpace(req.Text) == "" || len(req.Text) > 2000 {
			controlJSON(w, http.StatusBadRequest, api.ErrorBody{Error: api.ErrorDetail{Code: api.CodeInvalidArgs, Message: `"text" must be 1 to 2000 bytes`}})
			return
		}
		table := b.d.Table()
		room := req.Room
		if room == "" {
			room = table.Home.DeviceRoom
		}
		controlJSON(w, http.StatusOK, table.Route(req.Text, intents.Context{DeviceRoom: room}))
	})
	// reachyctl intents guide: what this broker's robot says to "what can you do" and "what
	// games do you know", for a caller holding the scopes asked (after the redactor, as said).
	mux.HandleFunc("POST /v1/guide", func(w http.ResponseWriter, r *http.Request) {
		b := live.broker()
		if b == nil {
			controlStarting(w)
			return
		}
		var req controlGuideRequest
		if !controlDecode(w, r, &req) {
			return
		}
		controlJSON(w, http.StatusOK, b.spokenGuides(req.Scopes))
	})
	mux.HandleFunc("GET /v1/ping", func(w http.ResponseWriter, r *http.Request) {
		controlJSON(w, http.StatusOK, map[string]string{"state_dir": st.Dir()})
	})
	mux.HandleFunc("POST /v1/tokens", func(w http.ResponseWriter, r *http.Request) {
		var req controlTokenRequest
		if !controlDecode(w, r, &req) {
			return
		}
		var secret string
		var info store.TokenInfo
		var revoked int
		var err error
		if req.Replace {
			secret, info, revoked, err = st.ReplaceToken(r.Context(), req.Device, req.Scopes, req.Node)
		} else {
			secret, info, err = st.CreateToken(r.Context(), req.Device, req.Scopes, req.Node)
		}
		if err != nil {
			controlErr(w, err)
			return
		}
		controlJSON(w, http.StatusOK, controlTokenCreated{Token: secret, Info: info, Revoked: revoked})
	})
	mux.HandleFunc("GET /v1/tokens", func(w http.ResponseWriter, r *http.Request) {
		list, err := st.ListTokens(r.Context(), r.URL.Query().Get("device"))
		if err != nil {
			controlErr(w, err)
			return
		}
		controlJSON(w, http.StatusOK, list)
	})
	mux.HandleFunc("POST /v1/tokens/revoke", func(w http.ResponseWriter, r *http.Request) {
		var req controlTokenRequest
		if !controlDecode(w, r, &req) {
			return
		}
		n, err := st.RevokeTokens(r.Context(), req.Device)
		if err != nil {
			controlErr(w, err)
			return
		}
		controlJSON(w, http.StatusOK, controlCount{N: n})
	})
	mux.HandleFunc("POST /v1/tokens/scopes", func(w http.ResponseWriter, r *http.Request) {
		var req controlTokenRequest
		if !controlDecode(w, r, &req) {
			return
		}
		n, err := st.SetScopes(r.Context(), req.Device, req.Scopes)
		if err != nil {
			controlErr(w, err)
			return
		}
		controlJSON(w, http.StatusOK, controlCount{N: n})
	})
	mux.HandleFunc("GET /v1/audit", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.URL.Query().Get("n"))
		if err != nil || n < 0 || n > 100000 {
			controlJSON(w, http.StatusBadRequest, api.ErrorBody{Error: api.ErrorDetail{Code: api.CodeInvalidArgs, Message: "n must be a number of records, 0 to 100000"}})
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), controlTimeout)
		defer cancel()
		recs, err := st.TailAudit(ctx, n)
		if err != nil {
			controlErr(w, err)
			return
		}
		controlJSON(w, http.StatusOK, recs)
	})
	mux.HandleFunc("GET /v1/clock", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), controlTimeout)
		defer cancel()
		c, err := st.Clock(ctx)
		if err != nil {
			controlErr(w, err)
			return
		}
		controlJSON(w, http.StatusOK, c)
	})
	mux.HandleFunc("POST /v1/clock/trust", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), controlTimeout)
		defer cancel()
		c, err := st.TrustClock(ctx)
		if err != nil {
			controlErr(w, err)
			return
		}
		controlJSON(w, http.StatusOK, c)
	})
	mux.HandleFunc("GET /v1/check", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), controlTimeout)
		defer cancel()
		if err := st.Check(ctx); err != nil {
			controlErr(w, err)
			return
		}
		controlJSON(w, http.StatusOK, map[string]bool{"ok": true})
	})
	mux.HandleFunc("GET /v1/backup", func(w http.ResponseWriter, r *http.Request) {
		// The copy is made on the broker's connection into a private temporary file, checked,
		// and streamed: the caller writes it where it likes, as its own user.
		tmp, err := os.MkdirTemp("", "reachy-backup-")
		if err != nil {
			controlErr(w, err)
			return
		}
		defer os.RemoveAll(tmp)
		dst := filepath.Join(tmp, "broker.db")
		ctx, cancel := context.WithTimeout(r.Context(), controlTimeout)
		defer cancel()
		if err := st.Backup(ctx, dst); err != nil {
			controlErr(w, err)
			return
		}
		f, err := os.Open(dst)
		if err != nil {
			controlErr(w, err)
			return
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil {
			w.Header().Set("Content-Length", strconv.FormatInt(fi.Size(), 10))
		}
		w.Header().Set("Content-Type", "application/vnd.sqlite3")
		io.Copy(w, f)
	})
	return mux
}

func controlDecode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(io.LimitReader(r.Body, maxControlBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		controlJSON(w, http.StatusBadRequest, api.ErrorBody{Error: api.ErrorDetail{Code: api.CodeInvalidArgs, Message: "bad request body: " + err.Error()}})
		return false
	}
	return true
}

func controlErr(w http.ResponseWriter, err error) {
	status, code := http.StatusServiceUnavailable, api.CodeUnavailable
	var bad *store.InvalidError
	switch {
	case errors.As(err, &bad):
		status, code = http.StatusBadRequest, api.CodeInvalidArgs
	case errors.Is(err, store.ErrCorrupt):
		status, code = http.StatusInternalServerError, api.CodeInternal
	}
	controlJSON(w, status, api.ErrorBody{Error: api.ErrorDetail{Code: code, Message: err.Error()}})
}

func controlJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
