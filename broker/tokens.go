package broker

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
}

var errBadToken = errors.New("unknown, malformed or revoked token")

// CreateToken makes a token for device with scopes and returns the secret, which is shown
// once and never stored.
func (s *State) CreateToken(ctx context.Context, device string, scopes []string, node string) (string, TokenInfo, error) {
	if !deviceNameRE.MatchString(device) {
		return "", TokenInfo{}, fmt.Errorf("device name %q: use letters, digits, dots, dashes", device)
	}
	if len(scopes) == 0 {
		return "", TokenInfo{}, errors.New("a token needs at least one scope")
	}
	for _, sc := range scopes {
		if !slices.Contains(intents.KnownScopes(), sc) {
			return "", TokenInfo{}, fmt.Errorf("unknown scope %q (known: %s)", sc, strings.Join(intents.KnownScopes(), ", "))
		}
	}
	idb := make([]byte, 8)
	secret := make([]byte, 32)
	if _, err := rand.Read(idb); err != nil {
		return "", TokenInfo{}, err
	}
	if _, err := rand.Read(secret); err != nil {
		return "", TokenInfo{}, err
	}
	id := hex.EncodeToString(idb)
	sec := base64.RawURLEncoding.EncodeToString(secret)
	hash := sha256.Sum256([]byte(sec))
	now := time.Now().UTC()
	scopes = slices.Clone(scopes)
	slices.Sort(scopes)
	scopes = slices.Compact(scopes)
	_, err := s.durable.ExecContext(ctx, `INSERT INTO tokens (id, device, hash, scopes, node, created) VALUES (?, ?, ?, ?, ?, ?)`,
		id, device, hash[:], strings.Join(scopes, ","), node, now.UnixMilli())
	if err != nil {
		return "", TokenInfo{}, fmt.Errorf("create token: %w", err)
	}
	return tokenPrefix + id + "_" + sec, TokenInfo{ID: id, Device: device, Scopes: scopes, Node: node, Created: now}, nil
}

// VerifyToken checks a presented token and returns its device.
func (s *State) VerifyToken(ctx context.Context, token string) (Device, error) {
	rest, ok := strings.CutPrefix(token, tokenPrefix)
	if !ok || len(rest) > 128 {
		return Device{}, errBadToken
	}
	id, sec, ok := strings.Cut(rest, "_")
	if !ok || len(id) != 16 || sec == "" {
		return Device{}, errBadToken
	}
	var (
		device, scopes, node, nodeID string
		hash                         []byte
		revoked                      sql.NullInt64
	)
	err := s.run(ctx, "verify token", func(ctx context.Context) error {
		stmt, err := s.prepared(ctx, verifyTokenSQL)
		if err != nil {
			return err
		}
		return stmt.QueryRowContext(ctx, id).Scan(&device, &hash, &scopes, &node, &nodeID, &revoked)
	})
	got := sha256.Sum256([]byte(sec))
	if errors.Is(err, sql.ErrNoRows) {
		subtle.ConstantTimeCompare(got[:], got[:]) // same work either way
		return Device{}, errBadToken
	}
	if err != nil {
		return Device{}, fmt.Errorf("verify token: %w", err)
	}
	if subtle.ConstantTimeCompare(got[:], hash) != 1 || revoked.Valid {
		return Device{}, errBadToken
	}
	return Device{Name: device, TokenID: id, Scopes: strings.Split(scopes, ","), Node: node, NodeID: nodeID}, nil
}

// ListTokens lists tokens, optionally of one device.
func (s *State) ListTokens(ctx context.Context, device string) ([]TokenInfo, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, device, scopes, node, node_id, created, revoked FROM tokens
		WHERE ? = '' OR device = ? ORDER BY created`, device, device)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	defer rows.Close()
	var out []TokenInfo
	for rows.Next() {
		var ti TokenInfo
		var scopes string
		var created int64
		var revoked sql.NullInt64
		if err := rows.Scan(&ti.ID, &ti.Device, &scopes, &ti.Node, &ti.NodeID, &created, &revoked); err != nil {
			return nil, err
		}
		ti.Scopes = strings.Split(scopes, ",")
		ti.Created = time.UnixMilli(created).UTC()
		if revoked.Valid {
			t := time.UnixMilli(revoked.Int64).UTC()
			ti.Revoked = &t
		}
		out = append(out, ti)
	}
	return out, rows.Err()
}

// RevokeTokens revokes every live token of device; the next request with one is refused.
func (s *State) RevokeTokens(ctx context.Context, device string) (int, error) {
	res, err := s.durable.ExecContext(ctx, `UPDATE tokens SET revoked = ? WHERE device = ? AND revoked IS NULL`, time.Now().UnixMilli(), device)
	if err != nil {
		return 0, fmt.Errorf("revoke: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// migrateTokens adds the node_id column to a database made before tokens were pinned to
// stable node IDs.
func migrateTokens(ctx context.Context, db *sql.DB) error {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('tokens') WHERE name = 'node_id'`).Scan(&n); err != nil {
		return fmt.Errorf("migrate tokens: %w", err)
	}
	if n > 0 {
		return nil
	}
	if _, err := db.ExecContext(ctx, `ALTER TABLE tokens ADD COLUMN node_id TEXT NOT NULL DEFAULT ''`); err != nil {
		return fmt.Errorf("migrate tokens: %w", err)
	}
	return nil
}

// bindNode checks a token's node binding against the calling node and pins the token to
// the node's stable ID on its first use from the node it was bound to (by name or by ID).
// A token pinned to an ID is accepted from that node only, whatever it is renamed to.
func (s *State) bindNode(ctx context.Context, dev Device, from Node) (bool, error) {
	switch {
	case dev.Node == "" && dev.NodeID == "":
		return true, nil // not bound
	case from.ID == "":
		return false, nil // bound, and the caller has no tailnet identity
	case dev.NodeID != "":
		return dev.NodeID == from.ID, nil
	case dev.Node == from.ID || strings.EqualFold(dev.Node, from.Name):
		_, err := s.db.ExecContext(ctx, `UPDATE tokens SET node_id = ? WHERE id = ? AND node_id = ''`, from.ID, dev.TokenID)
		if err != nil {
			return false, fmt.Errorf("pin token to node: %w", err)
		}
		// Another request may have pinned it first, to another node with the same name.
		var pinned string
		if err := s.db.QueryRowContext(ctx, `SELECT node_id FROM tokens WHERE id = ?`, dev.TokenID).Scan(&pinned); err != nil {
			return false, fmt.Errorf("pin token to node: %w", err)
		}
		return pinned == from.ID, nil
	}
	return false, nil
}

// SetScopes replaces the scopes of every live token of device; the next request with one
// of them is checked against the new scopes (nothing is cached between requests).
func (s *State) SetScopes(ctx context.Context, device string, scopes []string) (int, error) {
	if len(scopes) == 0 {
		return 0, errors.New("a token needs at least one scope")
	}
	for _, sc := range scopes {
		if !slices.Contains(intents.KnownScopes(), sc) {
			return 0, fmt.Errorf("unknown scope %q (known: %s)", sc, strings.Join(intents.KnownScopes(), ", "))
		}
	}
	scopes = slices.Clone(scopes)
	slices.Sort(scopes)
	scopes = slices.Compact(scopes)
	res, err := s.durable.ExecContext(ctx, `UPDATE tokens SET scopes = ? WHERE device = ? AND revoked IS NULL`, strings.Join(scopes, ","), device)
	if err != nil {
		return 0, fmt.Errorf("set scopes: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
