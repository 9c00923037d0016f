package robot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// ErrLinkDown is what Link.Send returns while the link is not connected.
var ErrLinkDown = errors.New("robot link not connected")

// Link is the hub's end of the robot link: one outbound WebSocket to the broker's
// GET /v1/link, authenticated with the robot's one token. It reconnects with backoff and
// jitter, answers the broker's pings, notices a silent link within DeadAfter, and hands each
// action to Handle, answering with the ack Handle returns. An action of a type the hub does
// not know is refused with unknown_type and the link stays up.
type Link struct {
	URL     string       // the broker's base URL, as for BrokerClient
	Token   string       // the robot's token; it needs the link scope
	HTTP    *http.Client // nil: a default one; redirects are refused either way
	Version string       // sent in the hello

	// Handle runs one action and returns its ack. Actions run one at a time in arrival
	// order, except stop, which runs at once beside them.
	Handle func(ctx context.Context, m api.LinkMessage) api.LinkAckBody
	// OnUp, if set, is called after each connect (e.g. to report the current state);
	// OnDown after each disconnect.
	OnUp   func()
	OnDown func()

	Ping       time.Duration // how often the hub pings; default 5 s
	DeadAfter  time.Duration // a link silent this long is redialled; default 15 s
	MinBackoff time.Duration // first pause before redialling; default 250 ms
	MaxBackoff time.Duration // longest pause; default 3 s (back within seconds of a broker restart)
	ReadLimit  int64         // largest frame the broker may send; default 16 MiB
	Log        *slog.Logger

	mu       sync.Mutex
	ws       *websocket.Conn
	connects int
}

func (l *Link) defaults() {
	if l.Ping <= 0 {
		l.Ping = api.LinkPingInterval
	}
	if l.DeadAfter <= 0 {
		l.DeadAfter = api.LinkDeadAfter
	}
	if l.MinBackoff <= 0 {
		l.MinBackoff = 250 * time.Millisecond
	}
	if l.MaxBackoff <= 0 {
		l.MaxBackoff = 3 * time.Second
	}
	if l.ReadLimit <= 0 {
		l.ReadLimit = 16 << 20
	}
	if l.Log == nil {
		l.Log = slog.Default()
	}
	if l.Handle == nil {
		l.Handle = func(context.Context, api.LinkMessage) api.LinkAckBody {
			return api.LinkAckBody{Code: api.LinkErrUnknownType}
		}
	}
}

// Connected reports whether the link is up now.
func (l *Link) Connected() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ws != nil
}

// Connects counts the links opened so far.
func (l *Link) Connects() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.connects
}

// Send writes one message up (state, heard, rang, stopped). It fails with ErrLinkDown when
// the link is not connected: nothing is queued, so nothing stale arrives later.
func (l *Link) Send(ctx context.Context, m api.LinkMessage) error {
	l.mu.Lock()
	ws := l.ws
	l.mu.Unlock()
	if ws == nil {
		return ErrLinkDown
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := ws.Write(ctx, websocket.MessageText, b); err != nil {
		return fmt.Errorf("%w: %v", ErrLinkDown, err)
	}
	return nil
}

// Run keeps the link up until ctx ends.
func (l *Link) Run(ctx context.Context) error {
	l.defaults()
	backoff := l.MinBackoff
	for {
		start := time.Now()
		err := l.session(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Since(start) > 2*l.MaxBackoff {
			backoff = l.MinBackoff // it was up for a while: this is a new outage
		}
		// Full jitter in [backoff/2, backoff]: hubs restarted together do not redial together.
		pause := backoff/2 + rand.N(backoff/2+1)
		var refused *refusedError
		if errors.As(err, &refused) {
			pause = max(pause, 30*time.Second) // a token problem is not fixed by hammering
		}
		l.Log.Warn("robot link down; redialling", "err", err, "in", pause.Round(time.Millisecond))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		backoff = min(backoff*2, l.MaxBackoff)
	}
}

// refusedError is the broker saying no to the token (401/403): the operator must act.
type refusedError struct {
	status int
	code   string
}

func (e *refusedError) Error() string {
	return fmt.Sprintf("broker refused the link: HTTP %d %s (does the token have the link scope?)", e.status, e.code)
}

func (l *Link) dialURL() string {
	u := strings.TrimRight(l.URL, "/") + "/v1/link"
	return u
}

// session dials once and serves the link until it fails.
func (l *Link) session(ctx context.Context) error {
	hc := &http.Client{}
	if l.HTTP != nil {
		copied := *l.HTTP
		hc = &copied
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return errRedirect }
	hc.Timeout = 0 // the link outlives any request timeout
	dctx, cancel := context.WithTimeout(ctx, l.DeadAfter)
	ws, resp, err := websocket.Dial(dctx, l.dialURL(), &websocket.DialOptions{
		HTTPClient: hc,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + l.Token}},
	})
	cancel()
	if err != nil {
		if resp != nil && resp.StatusCode >= 400 {
			var e api.ErrorBody
			if resp.Body != nil {
				json.NewDecoder(resp.Body).Decode(&e)
			}
			return &refusedError{status: resp.StatusCode, code: e.Error.Code}
		}
		return err
	}
	ws.SetReadLimit(l.ReadLimit)
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	defer ws.CloseNow()

	l.mu.Lock()
	l.ws = ws
	l.connects++
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.ws = nil
		l.mu.Unlock()
		if l.OnDown != nil {
			l.OnDown()
		}
	}()
	if err := l.Send(sctx, api.LinkMessage{Type: api.LinkHello, Hello: &api.LinkHelloBody{Version: l.Version}}); err != nil {
		return err
	}
	l.Log.Info("robot link up", "broker", l.URL)
	if l.OnUp != nil {
		go l.OnUp()
	}

	actions := make(chan api.LinkMessage, 16)
	go l.worker(sctx, actions)
	go l.pinger(sctx)
	for {
		rctx, cancel := context.WithTimeout(sctx, l.DeadAfter)
		typ, b, err := ws.Read(rctx)
		cancel()
		if err != nil {
			if sctx.Err() == nil && rctx.Err() != nil {
				return fmt.Errorf("no word from the broker for %s", l.DeadAfter)
			}
			return err
		}
		if typ != websocket.MessageText {
			l.ack(sctx, "", api.LinkAckBody{Code: api.LinkErrInvalid})
			continue
		}
		var m api.LinkMessage
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil {
			l.Log.Warn("robot link: malformed frame refused")
			l.ack(sctx, "", api.LinkAckBody{Code: api.LinkErrInvalid})
			continue
		}
		switch m.Type {
		case api.LinkPing:
			l.Send(sctx, api.LinkMessage{Type: api.LinkPong, ID: m.ID})
		case api.LinkPong, api.LinkAck:
		case api.LinkStop:
			go func() { l.ack(sctx, m.ID, l.Handle(sctx, m)) }() // stop never waits behind another action
		default:
			select {
			case actions <- m:
			default:
				l.ack(sctx, m.ID, api.LinkAckBody{Code: api.LinkErrBusy})
			}
		}
	}
}

func (l *Link) worker(ctx context.Context, actions <-chan api.LinkMessage) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-actions:
			l.ack(ctx, m.ID, l.Handle(ctx, m))
		}
	}
}

func (l *Link) pinger(ctx context.Context) {
	t := time.NewTicker(l.Ping)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			wctx, cancel := context.WithTimeout(ctx, l.DeadAfter)
			l.Send(wctx, api.LinkMessage{Type: api.LinkPing})
			cancel()
		}
	}
}

func (l *Link) ack(ctx context.Context, id string, a api.LinkAckBody) {
	if err := l.Send(ctx, api.LinkMessage{Type: api.LinkAck, ID: id, Ack: &a}); err != nil {
		l.Log.Debug("robot link: ack not sent", "err", err)
	}
}
