// Package broker owns the service between an untrusted robot and the family's home: the HTTP
// API of the wire contract, the tailnet (tsnet) and loopback listeners, device tokens and
// scopes, the turn pipeline (audio -> text -> intent -> handler -> redaction -> speech), what
// is audited and when, idempotency, limits and metrics. Its records (tokens, the audit log,
// idempotency keys, missed calls, privacy mode) are kept by broker/store, which it alone opens.
//
// It must never listen on anything but the tailnet or loopback, never answer a request whose
// Host is not one of its own names (broker/hostname), never let a request reach a
// handler before its token, node and scope are checked and its intent is on the allowlist,
// never store or log audio, raw transcripts or secrets, and never answer with text that has
// not passed the redactor.
package broker
