package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
)

// A device token looks like rbk_<id>_<secret>: 8 random bytes of id (hex) to find the
// record, 32 random bytes (256 bits) of secret. Only SHA-256(secret) is stored, and it is
// compared in constant time.
const tokenPrefix = "rbk_"

// Device is an authenticated caller.
type Device struct {
	Name    string   `json:"device"`
	TokenID string   `json:"token_id"`
	Scopes  []string `json:"scopes"`
	Node    string   `json:"node,omitempty"` // for people: the node's name (bound-to name, then the caller's)
	// NodeID is the stable tailnet node ID the token is pinned to ("" until its first use
	// from the node it was bound to). Names can be changed by an owner; the ID cannot.
	NodeID string `json:"node_id,omitempty"`
}

// Has reports whether the device holds scope.
func (d Device) Has(scope string) bool { return scope == "" || slices.Contains(d.Scopes, scope) }

// TokenInfo describes a stored token; it never carries the secret.
type TokenInfo struct {
	ID      string     `json:"id"`
	Device  string     `json:"device"`
	Scopes  []string   `json:"scopes"`
	Node    string     `json:"node,omitempty"`
	NodeID  string     `json:"node_id,omitempty"`
	Created time.Time  `json:"created"`
	Revoked *time.Time `json:"revoked,omitempty"`
	// LastUsed is when the token last authenticated a request (to the minute: it is saved
	// with the clock's checkpoint); nil: never.
	LastUsed *time.Time `json:"last_used,omitempty"`
}

// ErrBadToken is VerifyToken's answer to a token it does not accept.
var ErrBadToken = errors.New("unknown, malformed or revoked token")

// CreateToken makes a token for device with scopes and returns the secret, which is shown
// once and never stored.
func (s *Store) CreateToken(ctx context.Context, device string, scopes []string, node string) (string, TokenInfo, error) {
	secret, info, _, err := s.createToken(ctx, device, scopes, node, false)
	return secret, info, err
}

// ReplaceToken makes a token for device as CreateToken does and, in the same transaction,
// revokes every earlier live token of the device; it returns how many it revoked. A device
// re-enrolled this way holds one token, not one per enrolment.
func (s *Store) ReplaceToken(ctx context.Context, device string, scopes []string, node string) (string, TokenInfo, int, error) {
	return s.createToken(ctx, device, scopes, node, true)
}

func (s *Store) createToken(ctx context.Context, device string, scopes []string, node string, replace bool) (string, TokenInfo, int, error) {
	if !ValidDeviceName(device) {
		return "", TokenInfo{}, 0, invalidf("device name %q: use letters, digits, dots, dashes", device)
	}
	if len(scopes) == 0 {
		return "", TokenInfo{}, 0, invalidf("a token needs at least one scope")
	}
	for _, sc := range scopes {
		if !slices.Contains(intents.KnownScopes(), sc) {
			return "", TokenInfo{}, 0, invalidf("unknown scope %q (known: %s)", sc, strings.Join(intents.KnownScopes(), ", "))
		}
	}
	idb := make([]byte, 8)
	secret := make([]byte, 32)
	if _, err := rand.Read(idb); err != nil {
		return "", TokenInfo{}, 0, err
	}
	if _, err := rand.Read(secret); err != nil {
		return "", TokenInfo{}, 0, err
	}
	id := hex.EncodeToString(idb)
	sec := base64.RawURLEncoding.EncodeToString(secret)
	hash := sha256.Sum256([]byte(sec))
	now := s.clock.wall().UTC()
	var revoked int64
	scopes = slices.Clone(scopes)
	slices.Sort(scopes)
	scopes = slices.Compact(scopes)
	err := s.write(ctx, "create token", func(ctx context.Context) error {
		return s.durableTx(ctx, func(tx *sql.Tx) error {
			if replace {
				res, err := tx.ExecContext(ctx, `UPDATE tokens SET revoked = ? WHERE device = ? AND revoked IS NULL`, now.UnixMilli(), device)
				if err != nil {
					return err
				}
				if revoked, err = res.RowsAffected(); err != nil {
					return err
				}
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO tokens (id, device, hash, scopes, node, created) VALUES (?, ?, ?, ?, ?, ?)`,
				id, device, hash[:], strings.Join(scopes, ","), node, now.UnixMilli())
			return err
		})
	})
	if err != nil {
		return "", TokenInfo{}, 0, fmt.Errorf("create token: %w", err)
	}
	if replace {
		s.tokens.update(device, func(t *storedToken) {
			if t.Revoked == nil {
				t.Revoked = &now
			}
		})
	}
	s.tokens.put(storedToken{TokenInfo: TokenInfo{ID: id, Device: device, Scopes: scopes, Node: node, Created: now}, hash: hash[:]})
	return tokenPrefix + id + "_" + sec, TokenInfo{ID: id, Device: device, Scopes: scopes, Node: node, Created: now}, int(revoked), nil
}

// VerifyToken checks a presented token and returns its device.
func (s *Store) VerifyToken(ctx context.Context, token string) (Device, error) {
	rest, ok := strings.CutPrefix(token, tokenPrefix)
	if !ok || len(rest) > 128 {
		return Device{}, ErrBadToken
	}
	id, sec, ok := strings.Cut(rest, "_")
	if !ok || len(id) != 16 || sec == "" {
		return Device{}, ErrBadToken
	}
	t, found := s.tokens.get(id)
	got := sha256.Sum256([]byte(sec))
	if !found {
		subtle.ConstantTimeCompare(got[:], got[:]) // same work either way
		return Device{}, ErrBadToken
	}
	if subtle.ConstantTimeCompare(got[:], t.hash) != 1 || t.Revoked != nil {
		return Device{}, ErrBadToken
	}
	s.tokens.used(id, s.clock.wall())
	return Device{Name: t.Device, TokenID: id, Scopes: slices.Clone(t.Scopes), Node: t.Node, NodeID: t.NodeID}, nil
}

// ListTokens lists tokens, optionally of one device.
func (s *Store) ListTokens(ctx context.Context, device string) ([]TokenInfo, error) {
	return s.tokens.list(device), nil
}

// RevokeTokens revokes every live token of device; the next request with one is refused.
func (s *Store) RevokeTokens(ctx context.Context, device string) (int, error) {
	now := time.Now().UTC()
	var n int64
	err := s.write(ctx, "revoke tokens", func(ctx context.Context) error {
		return s.durableTx(ctx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, `UPDATE tokens SET revoked = ? WHERE device = ? AND revoked IS NULL`, now.UnixMilli(), device)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		})
	})
	if err != nil {
		return 0, fmt.Errorf("revoke: %w", err)
	}
	s.tokens.update(device, func(t *storedToken) { t.Revoked = &now })
	return int(n), nil
}

// migrateTokens adds the node_id column to a database made before tokens were pinned to
// stable node IDs.
func migrateTokens(ctx context.Context, db *sql.DB) error {
	for _, col := range []struct{ name, def string }{
		{"node_id", "node_id TEXT NOT NULL DEFAULT ''"},
		{"last_used", "last_used INTEGER"}, // a database made before tokens showed their last use
	} {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('tokens') WHERE name = ?`, col.name).Scan(&n); err != nil {
			return fmt.Errorf("migrate tokens: %w", err)
		}
		if n > 0 {
			continue
		}
		if _, err := db.ExecContext(ctx, `ALTER TABLE tokens ADD COLUMN `+col.def); err != nil {
			return fmt.Errorf("migrate tokens: %w", err)
		}
	}
	return nil
}

// BindNode checks a token's node binding against the calling node (its stable ID and its name) and pins the token to
// the node's stable ID on its first use from the node it was bound to (by name or by ID).
// A token pinned to an ID is accepted from that node only, whatever it is renamed to.
func (s *Store) BindNode(ctx context.Context, dev Device, fromID, fromName string) (bool, error) {
	switch {
	case dev.Node == "" && dev.NodeID == "":
		return true, nil // not bound
	case fromID == "":
		return false, nil // bound, and the caller has no tailnet identity
	case dev.NodeID != "":
		return dev.NodeID == fromID, nil
	case dev.Node == fromID || strings.EqualFold(dev.Node, fromName):
		// Another request may have pinned it first, to another node with the same name: the
		// cache decides, under its lock, and the database follows.
		pinned, first := s.tokens.pin(dev.TokenID, fromID)
		if !first {
			return pinned == fromID, nil
		}
		err := s.write(ctx, "pin token to node", func(ctx context.Context) error {
			_, err := s.db.ExecContext(ctx, `UPDATE tokens SET node_id = ? WHERE id = ? AND node_id = ''`, fromID, dev.TokenID)
			return err
		})
		if err != nil {
			s.tokens.unpin(dev.TokenID, fromID)
			return false, fmt.Errorf("pin token to node: %w", err)
		}
		return true, nil
	}
	return false, nil
}

// SetScopes replaces the scopes of every live token of device; the next request with one
// of them is checked against the new scopes.
func (s *Store) SetScopes(ctx context.Context, device string, scopes []string) (int, error) {
	if len(scopes) == 0 {
		return 0, invalidf("a token needs at least one scope")
	}
	for _, sc := range scopes {
		if !slices.Contains(intents.KnownScopes(), sc) {
			return 0, invalidf("unknown scope %q (known: %s)", sc, strings.Join(intents.KnownScopes(), ", "))
		}
	}
	scopes = slices.Clone(scopes)
	slices.Sort(scopes)
	scopes = slices.Compact(scopes)
	var n int64
	err := s.write(ctx, "set scopes", func(ctx context.Context) error {
		return s.durableTx(ctx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, `UPDATE tokens SET scopes = ? WHERE device = ? AND revoked IS NULL`, strings.Join(scopes, ","), device)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		})
	})
	if err != nil {
		return 0, fmt.Errorf("set scopes: %w", err)
	}
	s.tokens.update(device, func(t *storedToken) {
		if t.Revoked == nil {
			t.Scopes = slices.Clone(scopes)
		}
	})
	return int(n), nil
}

// storedToken is a token as stored: its description and the hash of its secret.
type storedToken struct {
	TokenInfo
	hash []byte
}

// tokenCache holds every token in memory. The Store is the only writer of the tokens table
// (its connection holds the file's exclusive lock), so the cache is the table: it is loaded
// once at open and changed only after the database has committed the same change.
type tokenCache struct {
	mu   sync.RWMutex
	byID map[string]*storedToken

	// When each token was last used, and which of those the database has not seen yet
	// (saved with the clock's checkpoint, every minute, and at close): a request is
	// authenticated without a write.
	useMu    sync.Mutex
	lastUsed map[string]time.Time
	unsaved  map[string]bool
}

// used notes that token id authenticated a request at t.
func (c *tokenCache) used(id string, t time.Time) {
	c.useMu.Lock()
	defer c.useMu.Unlock()
	if c.lastUsed == nil {
		c.lastUsed, c.unsaved = map[string]time.Time{}, map[string]bool{}
	}
	c.lastUsed[id] = t.Round(0)
	c.unsaved[id] = true
}

// lastUse is when token id was last used (zero: never).
func (c *tokenCache) lastUse(id string) time.Time {
	c.useMu.Lock()
	defer c.useMu.Unlock()
	return c.lastUsed[id]
}

// takeUnsaved returns the uses the database has not seen, and forgets that they are unsaved.
func (c *tokenCache) takeUnsaved() map[string]time.Time {
	c.useMu.Lock()
	defer c.useMu.Unlock()
	out := map[string]time.Time{}
	for id := range c.unsaved {
		out[id] = c.lastUsed[id]
	}
	clear(c.unsaved)
	return out
}

// saveTokenUse writes the tokens' last uses the database has not seen; a failed write puts
// them back for the next try.
func (s *Store) saveTokenUse(ctx context.Context) error {
	uses := s.tokens.takeUnsaved()
	if len(uses) == 0 {
		return nil
	}
	err := s.write(ctx, "token use", func(ctx context.Context) error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		for id, t := range uses {
			if _, err := tx.ExecContext(ctx, `UPDATE tokens SET last_used = max(coalesce(last_used, 0), ?) WHERE id = ?`, t.UnixMilli(), id); err != nil {
				return err
			}
		}
		return tx.Commit()
	})
	if err != nil {
		for id, t := range uses {
			if s.tokens.lastUse(id).Equal(t) {
				s.tokens.used(id, t)
			}
		}
		return fmt.Errorf("token use: %w", err)
	}
	return nil
}

func (c *tokenCache) get(id string) (storedToken, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, ok := c.byID[id]
	if !ok {
		return storedToken{}, false
	}
	return *t, true
}

func (c *tokenCache) put(t storedToken) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID = map[string]*storedToken{}
	}
	c.byID[t.ID] = &t
}

// update applies f to every token of device.
func (c *tokenCache) update(device string, f func(*storedToken)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.byID {
		if t.Device == device {
			f(t)
		}
	}
}

// pin pins token id to node unless it is pinned already; it returns the pinned node and
// whether this call pinned it.
func (c *tokenCache) pin(id, node string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.byID[id]
	if !ok {
		return "", false
	}
	if t.NodeID != "" {
		return t.NodeID, false
	}
	t.NodeID = node
	return node, true
}

// unpin undoes a pin whose write failed.
func (c *tokenCache) unpin(id, node string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.byID[id]; ok && t.NodeID == node {
		t.NodeID = ""
	}
}

// list returns the tokens (of device, when set) oldest first, without their hashes.
func (c *tokenCache) list(device string) []TokenInfo {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []TokenInfo
	for _, t := range c.byID {
		if device == "" || t.Device == device {
			ti := t.TokenInfo
			ti.Scopes = slices.Clone(ti.Scopes)
			if u := c.lastUse(t.ID); !u.IsZero() {
				u = u.UTC()
				ti.LastUsed = &u
			}
			out = append(out, ti)
		}
	}
	slices.SortFunc(out, func(a, b TokenInfo) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// loadTokens reads the tokens table into the cache.
func (s *Store) loadTokens(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT id, device, hash, scopes, node, node_id, created, revoked, last_used FROM tokens`)
	if err != nil {
		return fmt.Errorf("load tokens: %w", err)
	}
	defer rows.Close()
	byID, uses := map[string]*storedToken{}, map[string]time.Time{}
	for rows.Next() {
		var t storedToken
		var scopes string
		var created int64
		var revoked, lastUsed sql.NullInt64
		if err := rows.Scan(&t.ID, &t.Device, &t.hash, &scopes, &t.Node, &t.NodeID, &created, &revoked, &lastUsed); err != nil {
			return fmt.Errorf("load tokens: %w", err)
		}
		t.Scopes = strings.Split(scopes, ",")
		t.Created = time.UnixMilli(created).UTC()
		if revoked.Valid {
			r := time.UnixMilli(revoked.Int64).UTC()
			t.Revoked = &r
		}
		byID[t.ID] = &t
		if lastUsed.Valid {
			uses[t.ID] = time.UnixMilli(lastUsed.Int64)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("load tokens: %w", err)
	}
	s.tokens.mu.Lock()
	s.tokens.byID = byID
	s.tokens.mu.Unlock()
	s.tokens.useMu.Lock()
	s.tokens.lastUsed, s.tokens.unsaved = uses, map[string]bool{}
	s.tokens.useMu.Unlock()
	return nil
}
