// Package intents owns the closed allowlist: the intent table (built-in and from the home's
// config), the home's closed vocabularies (rooms, devices, people, expressions), the
// transcript normalizer, the deterministic router with its doctrine, clarification, and the
// spoken command guide generated from the table's own examples.
//
// It is pure: it must never do network or file I/O beyond reading the config it is handed,
// never call a model, and never let free text reach any intent but general.ask. Handlers
// live in sub-packages and get their clients injected by the broker.
package intents
