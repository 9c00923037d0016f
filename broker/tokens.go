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
	Node    string   `json:"node,omitempty"` // tailnet node the token is bound to
}

// Has reports whether the device holds scope.
func (d Device) Has(scope string) bool { return scope == "" || slices.Contains(d.Scopes, scope) }

// TokenInfo describes a stored token; it never carries the secret.
type TokenInfo struct {
	ID      string     `json:"id"`
	Device  string     `json:"device"`
	Scopes  []string   `json:"scopes"`
	Node    string     `json:"node,omitempty"`
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
	_, err := s.db.ExecContext(ctx, `INSERT INTO tokens (id, device, hash, scopes, node, created) VALUES (?, ?, ?, ?, ?, ?)`,
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
		device, scopes, node string
		hash                 []byte
		revoked              sql.NullInt64
	)
	err := s.run(ctx, "verify token", func(ctx context.Context) error {
		return s.db.QueryRowContext(ctx, `SELECT device, hash, scopes, node, revoked FROM tokens WHERE id = ?`, id).
			Scan(&device, &hash, &scopes, &node, &revoked)
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
	return Device{Name: device, TokenID: id, Scopes: strings.Split(scopes, ","), Node: node}, nil
}

// ListTokens lists tokens, optionally of one device.
func (s *State) ListTokens(ctx context.Context, device string) ([]TokenInfo, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, device, scopes, node, created, revoked FROM tokens
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
		if err := rows.Scan(&ti.ID, &ti.Device, &scopes, &ti.Node, &created, &revoked); err != nil {
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
	res, err := s.db.ExecContext(ctx, `UPDATE tokens SET revoked = ? WHERE device = ? AND revoked IS NULL`, time.Now().UnixMilli(), device)
	if err != nil {
		return 0, fmt.Errorf("revoke: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
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
	res, err := s.db.ExecContext(ctx, `UPDATE tokens SET scopes = ? WHERE device = ? AND revoked IS NULL`, strings.Join(scopes, ","), device)
	if err != nil {
		return 0, fmt.Errorf("set scopes: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
