package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
)

// handleTypedCall: POST /v1/intents/{name} with a JSON object of arguments.
func (b *Broker) handleTypedCall(w http.ResponseWriter, r *http.Request) {
	b.writeResult(w, b.callIntent(r.Context(), intentCall{
		c: callerOf(r), route: "intent", name: r.PathValue("name"),
		key: r.Header.Get("Idempotency-Key"), audio: r.URL.Query().Get("audio") == "wav",
		args: func() (map[string]any, *apiError) {
			body, e := b.readJSONBody(r, w)
			if e != nil {
				return nil, e
			}
			raw := map[string]any{}
			if e := decodeJSON(body, &raw); e != nil {
				return nil, e
			}
			return raw, nil
		},
	}))
}

// intentCall is one typed call of a named intent. POST /v1/intents/{name} and an MCP
// tools/call both run it through callIntent, so the two entry points cannot drift apart.
type intentCall struct {
	c     caller
	route string // what the audit log records as the entry point: "intent" or "mcp"
	name  string
	key   string // Idempotency-Key; "" for none
	audio bool   // synthesize the reply
	// args reads the arguments. It is called only once the intent is known and allowed,
	// under the idempotency key, so a refused call never reads its body.
	args func() (map[string]any, *apiError)
}

// callIntent is the typed-call path: allowlist, scope, idempotency, argument validation
// against the closed vocabularies, the handler under its deadline, redaction, audit.
func (b *Broker) callIntent(ctx context.Context, ic intentCall) callResult {
	t := b.newTurnFor(ctx, ic.c, ic.route)
	ctx, cancel := context.WithDeadline(ctx, t.deadline)
	defer cancel()
	table := b.d.Table()
	in, ok := table.Lookup(ic.name)
	// The allowlist is decided first: nothing else is looked at for an unknown intent.
	if !ok || in.Internal {
		t.resp.Intent = "-"
		e := errf(api.CodeUnknownIntent, "there is no intent by that name")
		b.m.countError(e.Code)
		t.resp.Outcome, t.code = store.OutcomeDenied, api.CodeUnknownIntent
		b.audit(t)
		return callResult{status: codeStatus[e.Code], v: e}
	}
	t.resp.Intent, t.resp.Kind = in.Name, string(in.Kind)
	if in.RoomVoiceOnly {
		// Only the room's voice switches it (privacy mode): never a typed call or MCP.
		e := errf(api.CodeIntentDenied, "%s can only be said aloud in the robot's room", in.Name)
		b.m.countError(e.Code)
		t.resp.Outcome, t.code = store.OutcomeDenied, api.CodeIntentDenied
		b.audit(t)
		return callResult{status: codeStatus[e.Code], v: e}
	}
	if !t.c.Has(in.Scope) {
		// A missing scope is not a policy refusal: say which scope would allow the call.
		e := errf(api.CodeInsufficientScope, "this token lacks the %s scope that %s needs", in.Scope, in.Name)
		e.Scope = in.Scope
		b.m.countError(e.Code)
		t.resp.Outcome, t.code = store.OutcomeDenied, api.CodeInsufficientScope
		b.audit(t)
		return callResult{status: codeStatus[e.Code], v: e}
	}
	raw, e := ic.args()
	if e != nil {
		status, v := b.errorResult(t, e)
		return callResult{status: status, v: v}
	}
	t.audio = ic.audio
	canonical, _ := json.Marshal(raw) // map keys sorted: the same arguments hash the same
	query := ""
	if ic.audio {
		query = "audio"
	}
	return b.idempotent(ctx, t, ic.key, ic.route+"/"+ic.name, store.BodyHash(ic.route+"/"+ic.name, query, canonical), func() (int, any) {
		args := map[string]string{}
		for k, v := range raw {
			switch x := v.(type) {
			case string:
				args[k] = x
			case float64:
				args[k] = fmt.Sprint(x)
			default:
				if spec, ok := in.Arg(k); ok {
					return b.errorResult(t, errf(api.CodeInvalidArgs, "argument %s must be a string or a number", spec.Name))
				}
				return b.errorResult(t, errf(api.CodeInvalidArgs, "every argument must be a string or a number"))
			}
		}
		valid, err := table.Validate(in, args, intents.Context{DeviceRoom: t.c.room})
		if err != nil {
			var ae *intents.ArgError
			if errors.As(err, &ae) {
				return b.errorResult(t, errf(api.CodeInvalidArgs, "%s%s", ae.Error(), allowedHint(table, in, ae.Arg)))
			}
			return b.errorResult(t, errf(api.CodeInvalidArgs, "invalid arguments"))
		}
		if valid, err = b.checkArgs(in, valid); err != nil {
			return b.errorResult(t, errf(api.CodeInvalidArgs, "%s", err.Error()))
		}
		t.resp.Args = store.AllowlistArgs(valid)
		since := time.Now()
		var ans intents.Answer
		var outcome string
		if in.Acts() {
			var e *apiError
			if ans, outcome, e = b.actuate(ctx, t, table, in, valid); e != nil {
				return b.errorResult(t, e)
			}
		} else {
			ans, outcome = b.runHandler(ctx, t, table, in, valid)
		}
		since = t.mark("handler", since)
		return b.finish(ctx, t, ans, outcome, since)
	})
}

// allowedHint names an argument's allowed values, so a caller can correct itself.
func allowedHint(table *intents.Table, in *intents.Intent, arg string) string {
	spec, ok := in.Arg(arg)
	if !ok {
		names := make([]string, 0, len(in.Args))
		for _, a := range in.Args {
			names = append(names, a.Name)
		}
		if len(names) == 0 {
			return " (it takes no arguments)"
		}
		return " (arguments: " + strings.Join(names, ", ") + ")"
	}
	if vals := table.AllowedValues(spec); len(vals) > 0 {
		return " (allowed: " + strings.Join(vals, ", ") + ")"
	}
	return ""
}

// handleListIntents: only what this caller may call.
func (b *Broker) handleListIntents(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	table := b.d.Table()
	out := []api.IntentView{}
	for _, in := range table.Intents() {
		if in.Internal || in.RoomVoiceOnly || !c.Has(in.Scope) {
			continue
		}
		v := api.IntentView{Name: in.Name, Kind: string(in.Kind), Scope: in.Scope, Examples: in.Examples, Args: []api.ArgView{}}
		if v.Kind == string(intents.KindMeta) {
			v.Kind = "read"
		}
		for _, a := range in.Args {
			v.Args = append(v.Args, api.ArgView{Name: a.Name, Type: string(a.Type), Required: a.Required, Allowed: table.AllowedValues(a)})
		}
		out = append(out, v)
	}
	writeJSON(w, http.StatusOK, api.IntentList{Device: c.Name, Scopes: c.Scopes, Intents: out})
}
