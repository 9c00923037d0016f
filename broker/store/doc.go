// Package store owns the broker's records: the SQLite file in the state directory and the
// directory's lock, the schema and its migrations, device tokens, the audit log (a record
// written pending before an action, settled once, kept append-only by a trigger), the
// idempotency keys, missed calls, privacy mode, retention and the trusted time it counts
// by, and online backups. Every record is written, settled, kept and purged here, on one
// connection that holds the file's exclusive lock for the Store's lifetime.
//
// It must never touch the network, never route, run or refuse an intent (the broker decides
// what happens; the store only keeps what was decided), never store audio, transcripts or
// secrets (a token's secret is kept only as its hash; an audit record keeps allowlisted
// arguments only), never open and close the database file behind SQLite while the pool is open
// (POSIX would drop its locks), and never let a clock it has not checked delete a record.
package store
