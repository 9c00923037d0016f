package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// MetaIdempotencyKey is the params._meta key an agent may set to name a call explicitly; a
// retry with the same key replays the first answer instead of acting again.
const MetaIdempotencyKey = "idempotencyKey"

// callTool returns the one tools/call handler of a request. The broker's typed-call path
// checks the intent, the scope and the arguments again, whatever tools/list showed.
func (h *Handler) callTool(c Caller, rpcID string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		p := req.Params
		args := map[string]any{}
		if raw := bytes.TrimSpace(p.Arguments); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
			if err := json.Unmarshal(raw, &args); err != nil {
				// Not even an object: the call path still decides the intent first, so an
				// unknown tool answers unknown_intent and a known one invalid_args.
				return h.result(h.be.Call(ctx, c, p.Name, nil, "")), nil
			}
		}
		return h.result(h.be.Call(ctx, c, p.Name, args, idempotencyKey(req, p.Name, args, rpcID))), nil
	}
}

// idempotencyKey is an explicit key (params._meta.idempotencyKey, or the Idempotency-Key
// header of a one-message POST), else one derived from the JSON-RPC request id and the
// call itself, so a client re-sending the same request after a lost answer gets the first
// answer back instead of acting twice. A different call under a reused id is a new call.
func idempotencyKey(req *sdk.CallToolRequest, name string, args map[string]any, rpcID string) string {
	if k, ok := req.Params.Meta[MetaIdempotencyKey].(string); ok && k != "" {
		return "mcp:" + k
	}
	if req.Extra != nil && rpcID != "" {
		if k := req.Extra.Header.Get("Idempotency-Key"); k != "" {
			return "mcp:" + k
		}
	}
	if rpcID == "" {
		return ""
	}
	canon, _ := json.Marshal(args) // map keys marshal sorted
	sum := sha256.Sum256(append([]byte(rpcID+"\x00"+name+"\x00"), canon...))
	return "mcp-rpc:" + hex.EncodeToString(sum[:16])
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
	return &sdk.CallToolResult{
		IsError:           tr.Outcome != "ok",
		Content:           []sdk.Content{&sdk.TextContent{Text: tr.Reply}},
		StructuredContent: out,
	}
}
