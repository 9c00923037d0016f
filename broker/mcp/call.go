package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// MetaIdempotencyKey is the params._meta key an agent sets to name a call; a retry with the
// same key replays the first answer instead of acting again. A call without a key (here or
// in the Idempotency-Key header of a one-message POST) runs as a fresh call: no key is ever
// derived from the JSON-RPC id, which a new agent process starts again at 1.
const MetaIdempotencyKey = "idempotencyKey"

// ReplayNote heads the text of a tool result answered from the idempotency store, so an
// agent (and the person reading its transcript) cannot take it for a fresh action.
const ReplayNote = "(replayed: this answer was given earlier for the same idempotency key; nothing was done again)"

// callTool returns the one tools/call handler of a request. The broker's typed-call path
// checks the intent, the scope and the arguments again, whatever tools/list showed.
// oneMessage says whether the POST carried this call alone (its Idempotency-Key header can
// then name it).
func (h *Handler) callTool(c Caller, oneMessage bool) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		p := req.Params
		if roomOnly[p.Name] {
			// Not a tool (buildTools): answered as any name outside the list, before anything runs.
			return h.result(Result{Status: http.StatusNotFound, Error: &api.ErrorDetail{Code: api.CodeUnknownIntent,
				Message: p.Name + " is said by the room itself, not by an agent"}}), nil
		}
		args := map[string]any{}
		if raw := bytes.TrimSpace(p.Arguments); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
			if err := json.Unmarshal(raw, &args); err != nil {
				// Not even an object: the call path still decides the intent first, so an
				// unknown tool answers unknown_intent and a known one invalid_args.
				return h.result(h.be.Call(ctx, c, p.Name, nil, "")), nil
			}
		}
		return h.result(h.be.Call(ctx, c, p.Name, args, idempotencyKey(req, oneMessage))), nil
	}
}

// idempotencyKey is the key the client sent — params._meta.idempotencyKey, or the
// Idempotency-Key header of a POST that carried this call alone — or "" (a fresh call).
// Nothing the client did not send as a key (its JSON-RPC id, the tool, the arguments)
// makes one: ids restart with every agent process, and a new run's call must act.
func idempotencyKey(req *sdk.CallToolRequest, oneMessage bool) string {
	if k, ok := req.Params.Meta[MetaIdempotencyKey].(string); ok && k != "" {
		return "mcp:" + k
	}
	if oneMessage && req.Extra != nil {
		if k := req.Extra.Header.Get("Idempotency-Key"); k != "" {
			return "mcp:" + k
		}
	}
	return ""
}

// output is a tool's structured result: allowlisted fields only, never audio, never the
// raw arguments of a free-text question.
type output struct {
	TurnID   string            `json:"turn_id,omitempty"`
	Intent   string            `json:"intent,omitempty"`
	Kind     string            `json:"kind,omitempty"`
	Args     map[string]string `json:"args,omitempty"`
	Outcome  string            `json:"outcome,omitempty"`
	Reply    string            `json:"reply,omitempty"`
	Replayed bool              `json:"replayed,omitempty"`
	Error    *api.ErrorDetail  `json:"error,omitempty"`
}

// result turns the typed-call answer into a tool result. Refusals and failures are tool
// errors (isError) carrying the closed code, so the agent can read and correct them.
func (h *Handler) result(res Result) *sdk.CallToolResult {
	if res.Error != nil || res.Response == nil {
		e := res.Error
		if e == nil {
			e = &api.ErrorDetail{Code: api.CodeInternal, Message: "the call gave no answer"}
		}
		return &sdk.CallToolResult{
			IsError:           true,
			Content:           []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("%s: %s", e.Code, e.Message)}},
			StructuredContent: output{Error: e, Replayed: res.Replayed},
		}
	}
	tr := res.Response
	out := output{TurnID: tr.TurnID, Intent: tr.Intent, Kind: tr.Kind, Args: tr.Args, Outcome: tr.Outcome,
		Reply: tr.Reply, Replayed: res.Replayed}
	text := tr.Reply
	if res.Replayed {
		text = ReplayNote + " " + text
	}
	return &sdk.CallToolResult{
		IsError:           tr.Outcome != "ok",
		Content:           []sdk.Content{&sdk.TextContent{Text: text}},
		StructuredContent: out,
	}
}
