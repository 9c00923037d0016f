package broker

// The middleware the API's routes run behind, in the order a request meets it: ownHost (the
// Host must be one of the broker's own names), gate and authed (token → node → scope →
// caller, each failure a closed code), the per-device rate limits (limited, limitedBy,
// reserve) and the turn's deadline counted from the request's arrival (turnDeadline). The
// routes themselves are wired in server.go's Handler.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/hostname"
	"github.com/reachy-broker/reachy-broker/broker/store"
)

// ownHost refuses a request whose Host is not one of hosts, before anything else runs: a
// DNS-rebinding page (its own name, resolved to the broker's address) is same-origin with
// itself, and only its Host gives it away. What passes goes on with its Host in canonical
// form, so what the broker writes from it (the MCP metadata's URLs) is its own name.
func (b *Broker) ownHost(hosts *hostname.Set, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second) // a lookup on a miss
		h, ok := hosts.Match(ctx, r.Host)
		cancel()
		if !ok {
			b.m.countError(api.CodeUnknownHost)
			if b.hostLog.Allow() {
				b.log.Warn("request for a host name that is not the broker's refused (DNS rebinding, or a client configured with another name)",
					"host", fmt.Sprintf("%.80q", r.Host), "from", remoteHost(r.RemoteAddr), "answers_to", hosts.Names())
			}
			writeError(w, errf(api.CodeUnknownHost, "this broker does not answer to that host name; use its tailnet name"))
			return
		}
		r.Host = h.String()
		next.ServeHTTP(w, r)
	})
}

// arrivalDeadline is when a request that arrived with ctx must be answered by.
func (b *Broker) arrivalDeadline(ctx context.Context) time.Time {
	start, ok := ctx.Value(arrivalKey).(time.Time)
	if !ok {
		start = time.Now()
	}
	return start.Add(b.d.Config.Turn.Budget)
}

// turnDeadline runs a turn route under its budget, counted from the request's arrival.
func (b *Broker) turnDeadline(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithDeadline(r.Context(), b.arrivalDeadline(r.Context()))
		defer cancel()
		next(w, r.WithContext(ctx))
	}
}

type ctxKey int

const (
	deviceKey ctxKey = iota
	arrivalKey
)

// caller is the authenticated device of a request.
type caller struct {
	store.Device
	room string
}

func callerOf(r *http.Request) caller { return r.Context().Value(deviceKey).(caller) }

// authed checks the bearer token, binds it to the tailnet node, and checks the route's scope.
func (b *Broker) authed(scope string, next http.HandlerFunc) http.Handler {
	return b.gate(scope, nil, next)
}

// gate is authed for a route whose challenges also point at its RFC 9728 protected
// resource metadata (metadata(r) is that document's URL; nil for none).
func (b *Broker) gate(scope string, metadata func(*http.Request) string, next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fail := func(e *apiError) {
			if metadata != nil {
				e.ResourceMetadata = metadata(r)
			}
			b.m.countError(e.Code)
			writeError(w, e)
		}
		// An address that keeps failing is not heard at all for a while: guessing tokens
		// costs a minute per handful of tries.
		addr := remoteHost(r.RemoteAddr)
		if wait := b.authBlocked(addr); wait > 0 {
			e := errf(api.CodeRateLimited, "too many failed authentications from this address; try again later")
			e.RetryAfter = int(wait/time.Second) + 1
			fail(e)
			return
		}
		failAuth := func(e *apiError) {
			b.authFailed(addr)
			fail(e)
		}
		token, ok := bearerToken(r.Header.Get("Authorization"))
		if !ok {
			failAuth(errf(api.CodeUnauthenticated, "a bearer token is required"))
			return
		}
		// The token check (a state access) is bounded by the request's budget even on routes
		// that live longer (the robot link, MCP): a stalled disk cannot hold a request.
		actx, cancel := context.WithDeadline(r.Context(), b.arrivalDeadline(r.Context()))
		defer cancel()
		dev, err := b.d.State.VerifyToken(actx, token)
		if err != nil {
			if !errors.Is(err, store.ErrBadToken) {
				b.log.Error("token check failed: the state store is not answering", "err", err)
				fail(errf(api.CodeUnavailable, "%s", replyUnavailable))
				return
			}
			failAuth(errf(api.CodeUnauthenticated, "the token is not valid%s", b.devHint()))
			return
		}
		var node Node
		if b.d.Identifier != nil {
			node, err = b.d.Identifier.WhoIs(actx, r.RemoteAddr)
			if err != nil {
				b.log.Warn("whois failed", "err", err)
				fail(errf(api.CodeUnauthenticated, "the calling node could not be identified"))
				return
			}
		}
		// A node-bound token needs a tailnet identity: on a listener without one (loopback
		// dev mode) it is refused, never accepted unchecked.
		ok, err = b.d.State.BindNode(r.Context(), dev, node.ID, node.Name)
		if err != nil {
			b.log.Error("node binding check failed", "err", err)
			fail(errf(api.CodeInternal, "could not check the token's node"))
			return
		}
		if !ok {
			b.log.Warn("token used from another node", "device", dev.Name, "bound_to", dev.Node, "bound_id", dev.NodeID, "from", node.Name, "from_id", node.ID)
			if node.ID == "" {
				failAuth(errf(api.CodeUnauthenticated, "this token is bound to a tailnet node, and this listener has no tailnet identity"))
			} else {
				failAuth(errf(api.CodeUnauthenticated, "this token is bound to another device"))
			}
			return
		}
		dev.Node, dev.NodeID = node.Name, node.ID
		if scope != "" && !dev.Has(scope) {
			e := errf(api.CodeInsufficientScope, "this token lacks the %s scope", scope)
			e.Scope = scope
			fail(e)
			return
		}
		c := caller{Device: dev, room: b.d.Config.DeviceRoom(dev.Name)}
		next(w, r.WithContext(context.WithValue(r.Context(), deviceKey, c)))
	})
}

// devHint tells a loopback dev broker's caller where its tokens live, so a token made in
// another state dir is recognised for what it is. A broker on the tailnet never says.
func (b *Broker) devHint() string {
	if b.d.Identifier != nil || b.d.Config.Listen.Loopback == "" {
		return ""
	}
	return " for this dev broker, whose tokens are in " + b.d.Config.StateDir
}

// bearerToken takes the token from an Authorization header. The scheme name is
// case-insensitive (RFC 7235 §2.1): "bearer", "Bearer" and "BEARER" are the same.
func bearerToken(h string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(h), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	return token, true
}

// limited applies the per-device rate limit of the turn routes.
func (b *Broker) limited(next http.HandlerFunc) http.HandlerFunc { return b.limitedBy("", next) }

// limitedBy applies a per-device rate limit kept under prefix: the intent list has its own
// budget, so listing does not use up a device's turns.
func (b *Broker) limitedBy(prefix string, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if delay := b.reserve(prefix+callerOf(r).Name, 1); delay > 0 {
			e := errf(api.CodeRateLimited, "too many requests from this device; try again shortly")
			e.RetryAfter = int(delay/time.Second) + 1
			b.m.countError(e.Code)
			if route, ok := turnRoutes[r.URL.Path]; ok || strings.HasPrefix(r.URL.Path, "/v1/intents/") {
				if !ok {
					route = "intent"
				}
				b.ops.noteTurn(callerOf(r).Name, LastTurn{At: b.d.Now().Round(0), Route: route, Outcome: store.OutcomeDenied,
					Code: e.Code, Refused: RefusedOverLimits})
			}
			writeError(w, e)
			return
		}
		next(w, r)
	}
}

// reserve charges n requests to device's rate limit. It returns 0 when they are allowed,
// or how long to wait (nothing is charged then).
func (b *Broker) reserve(device string, n int) time.Duration {
	b.limMu.Lock()
	defer b.limMu.Unlock()
	per := time.Minute / time.Duration(max(b.d.Config.Limits.RatePerMinute, 1))
	l, ok := b.limits[device]
	if !ok {
		l = rate.NewLimiter(rate.Every(per), b.d.Config.Limits.Burst)
		b.limits[device] = l
	}
	res := l.ReserveN(time.Now(), n)
	if !res.OK() { // more than a whole burst at once
		return per * time.Duration(n)
	}
	delay := res.Delay()
	if delay > 0 {
		res.Cancel()
	}
	return delay
}
