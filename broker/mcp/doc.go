// Package mcp owns the broker's Model Context Protocol endpoint: POST /mcp, stateless
// Streamable HTTP, served with the official Go SDK. An owner's agent sees the intent
// allowlist as tools — one tool per intent its token's scopes allow, its input schema
// generated from the table's closed vocabularies — and every tools/call runs the broker's
// one typed-call path (the same as POST /v1/intents/{name}): allowlist, scope, arguments,
// idempotency, the handler under its deadline, redaction, audit.
//
// It also owns what only MCP needs around that path: the JSON-RPC body cap and batch bound,
// the per-device rate limit charged per message, the step-up answer (403
// insufficient_scope naming the scope a tool needs), the RFC 9728 protected resource
// metadata, and the tools/list_changed notice after a table reload.
//
// It must never authenticate anyone itself (the broker's gate has checked the token, its
// node and the mcp scope before a request reaches it), keep state between requests beyond
// which table a device last listed, run a handler or touch a data source except through the
// broker's typed-call path, return a field that is not on the allowlist (intent, kind,
// allowlisted args, outcome, redacted reply, turn id), accept a token from a URL, or send a
// redirect.
package mcp
