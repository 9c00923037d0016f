package link

// Serving one hub's link: the WebSocket a hub holds open (conn), Serve from the handshake to
// the link's end (a newer link of the same device replaces it), the heartbeat (pinger), the
// read loop that drops a silent link, and the handling of each message a hub may send —
// acks matched to their Send, state, heard clips within the robot's limits, timers it rang,
// stops and ended calls; anything else is refused with a closed code and the link stays up.

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// conn is one hub's open link.
type conn struct {
	device string
	ws     *websocket.Conn
	done   chan struct{}

	mu      sync.Mutex
	pending map[string]chan api.LinkAckBody
}

func (c *conn) write(ctx context.Context, m api.LinkMessage) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// Serve runs the link of an already authenticated device until it closes. A second link of
// the same device replaces the first (a hub that reconnects after a half-dead link).
func (r *Registry) Serve(w http.ResponseWriter, req *http.Request, device string) {
	// The API server's read and write timeouts protect request handling; a link is meant to
	// stay open, and its own heartbeat notices when it is dead.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	ws, err := websocket.Accept(w, req, nil)
	if err != nil {
		r.log.Warn("link: websocket handshake failed", "device", device, "err", err)
		return
	}
	ws.SetReadLimit(r.opts.ReadLimit)
	c := &conn{device: device, ws: ws, done: make(chan struct{}), pending: map[string]chan api.LinkAckBody{}}

	r.mu.Lock()
	old := r.conns[device]
	r.conns[device] = c
	st := r.status[device]
	st.Device, st.Online, st.Since, st.State = device, true, time.Now(), api.HubIdle
	st.Connects++
	r.status[device] = st
	r.mu.Unlock()
	if old != nil {
		old.ws.Close(websocket.StatusPolicyViolation, "replaced by a newer link")
	}
	r.log.Info("robot link up", "device", device)
	r.emit(Event{Device: device, Kind: EventUp})

	ctx, cancel := context.WithCancel(req.Context())
	defer cancel()
	go r.pinger(ctx, c)
	err = r.readLoop(ctx, c)

	close(c.done)
	ws.CloseNow()
	r.mu.Lock()
	current := r.conns[device] == c
	if current {
		delete(r.conns, device)
		st := r.status[device]
		st.Online, st.Since, st.State = false, time.Now(), ""
		r.status[device] = st
	}
	r.mu.Unlock()
	if current {
		r.log.Info("robot link down", "device", device, "why", err)
		r.emit(Event{Device: device, Kind: EventDown})
	}
}

func (r *Registry) pinger(ctx context.Context, c *conn) {
	t := time.NewTicker(r.opts.Ping)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			wctx, cancel := context.WithTimeout(ctx, r.opts.DeadAfter)
			err := c.write(wctx, api.LinkMessage{Type: api.LinkPing})
			cancel()
			if err != nil {
				return
			}
		}
	}
}

// readLoop reads frames until the link closes or stays silent for DeadAfter.
func (r *Registry) readLoop(ctx context.Context, c *conn) error {
	for {
		rctx, cancel := context.WithTimeout(ctx, r.opts.DeadAfter)
		typ, b, err := c.ws.Read(rctx)
		cancel()
		if err != nil {
			return err
		}
		if typ != websocket.MessageText {
			r.malformed.Add(1)
			r.logs.Log(r.log, slog.LevelWarn, c.device, "link: binary frame refused")
			r.reply(ctx, c, api.LinkMessage{Type: api.LinkAck, Ack: &api.LinkAckBody{Code: api.LinkErrInvalid}})
			continue
		}
		var m api.LinkMessage
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil {
			r.malformed.Add(1)
			r.logs.Log(r.log, slog.LevelWarn, c.device, "link: malformed frame refused")
			r.reply(ctx, c, api.LinkMessage{Type: api.LinkAck, Ack: &api.LinkAckBody{Code: api.LinkErrInvalid}})
			continue
		}
		r.handle(ctx, c, m)
	}
}

func (r *Registry) reply(ctx context.Context, c *conn, m api.LinkMessage) {
	wctx, cancel := context.WithTimeout(ctx, r.opts.DeadAfter)
	defer cancel()
	if err := c.write(wctx, m); err != nil {
		r.log.Debug("link: reply failed", "device", c.device, "err", err)
	}
}

func (r *Registry) handle(ctx context.Context, c *conn, m api.LinkMessage) {
	switch m.Type {
	case api.LinkAck:
		if m.Ack == nil {
			return
		}
		ack, known := cleanAck(*m.Ack)
		if !known {
			r.logs.Log(r.log, slog.LevelWarn, c.device, "link: ack with a code outside the closed list, taken as failed", "code", printable(m.Ack.Code))
		}
		m.Ack = &ack
		c.mu.Lock()
		ch := c.pending[m.ID]
		delete(c.pending, m.ID)
		c.mu.Unlock()
		if ch != nil {
			ack := *m.Ack
			if ack.Code != "" || !ack.OK {
				ack.Code = ClosedAckCode(ack.Code) // the robot's free text never goes further
			}
			if !ack.OK {
				ack.Answer = nil
			}
			ch <- ack
		}
	case api.LinkPong:
	case api.LinkPing:
		r.reply(ctx, c, api.LinkMessage{Type: api.LinkPong, ID: m.ID})
	case api.LinkHello:
		if m.Hello != nil {
			v := Clean(m.Hello.Version, maxVersion)
			r.update(c.device, func(s *Status) { s.Version = v })
		}
	case api.LinkState:
		if !slices.Contains([]string{api.HubIdle, api.HubListening, api.HubThinking, api.HubSpeaking}, m.State) {
			r.reply(ctx, c, api.LinkMessage{Type: api.LinkAck, ID: m.ID, Ack: &api.LinkAckBody{Code: api.LinkErrInvalid}})
			return
		}
		r.update(c.device, func(s *Status) { s.State = m.State })
		r.emit(Event{Device: c.device, Kind: EventState, State: m.State})
	case api.LinkHeard:
		if m.Heard == nil || len(m.Heard.WAV) == 0 {
			r.reply(ctx, c, api.LinkMessage{Type: api.LinkAck, ID: m.ID, Ack: &api.LinkAckBody{Code: api.LinkErrInvalid}})
			return
		}
		if !r.admitHeard(c.device, len(m.Heard.WAV)) {
			r.heardDropped.Add(1)
			r.logs.Log(r.log, slog.LevelWarn, c.device, "link: heard clips over the robot's limit dropped")
			if m.ID != "" {
				r.reply(ctx, c, api.LinkMessage{Type: api.LinkAck, ID: m.ID, Ack: &api.LinkAckBody{Code: api.LinkErrBusy}})
			}
			return
		}
		r.emit(Event{Device: c.device, Kind: EventHeard, WAV: m.Heard.WAV})
	case api.LinkRangLocal:
		r.emit(Event{Device: c.device, Kind: EventRang, Rang: cleanIDs(m.Rang)})
	case api.LinkHubStopped:
		r.emit(Event{Device: c.device, Kind: EventStopped})
	case api.LinkCallEnded:
		if m.CallEnded == nil {
			r.reply(ctx, c, api.LinkMessage{Type: api.LinkAck, ID: m.ID, Ack: &api.LinkAckBody{Code: api.LinkErrInvalid}})
			return
		}
		r.emit(Event{Device: c.device, Kind: EventCallEnded, CallID: Clean(m.CallEnded.CallID, maxID), Reason: Clean(m.CallEnded.Reason, maxID)})
	default:
		r.malformed.Add(1)
		r.logs.Log(r.log, slog.LevelWarn, c.device, "link: message of unknown type refused", "type", printable(m.Type))
		r.reply(ctx, c, api.LinkMessage{Type: api.LinkAck, ID: m.ID, Ack: &api.LinkAckBody{Code: api.LinkErrUnknownType}})
	}
}

func (r *Registry) update(device string, f func(*Status)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conns[device] == nil {
		return
	}
	s := r.status[device]
	f(&s)
	r.status[device] = s
}
