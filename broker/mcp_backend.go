package broker

import (
	"context"
	"net/http"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/mcp"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
)

// mcpBackend is the broker as the MCP endpoint sees it: the live table, the caller the gate
// authenticated, the per-device rate limit, and the typed-call path.
type mcpBackend struct{ b *Broker }

func (m mcpBackend) Table() *intents.Table { return m.b.d.Table() }

func (m mcpBackend) Caller(r *http.Request) (mcp.Caller, bool) {
	c, ok := r.Context().Value(deviceKey).(caller)
	return mcp.Caller{Device: c.Name, Node: c.Node, Scopes: c.Scopes}, ok
}

func (m mcpBackend) Allow(c mcp.Caller, n int) (time.Duration, bool) {
	d := m.b.reserve(c.Device, n)
	if d > 0 {
		m.b.m.countError(api.CodeRateLimited)
	}
	return d, d == 0
}

// Call runs callIntent with the audit route "mcp"; the reply is never synthesized.
func (m mcpBackend) Call(ctx context.Context, c mcp.Caller, name string, args map[string]any, key string) mcp.Result {
	bc := caller{Device: store.Device{Name: c.Device, Node: c.Node, Scopes: c.Scopes}, room: m.b.d.Config.DeviceRoom(c.Device)}
	res := m.b.callIntent(ctx, intentCall{c: bc, route: "mcp", name: name, key: key,
		args: func() (map[string]any, *apiError) {
			if args == nil {
				return nil, errf(api.CodeInvalidArgs, "the arguments must be a JSON object")
			}
			return args, nil
		}})
	out := mcp.Result{Status: res.status}
	switch v := res.v.(type) {
	case *api.TurnResponse:
		out.Response = v
	case *apiError:
		out.Error = &api.ErrorDetail{Code: v.Code, Message: v.Message}
	}
	out.Replayed = res.replayed
	if res.status == 0 {
		out.Error = &api.ErrorDetail{Code: api.CodeTimeout, Message: "the call was cancelled before it was decided"}
	}
	return out
}
