package broker

// reachyctl's side of the control socket: ControlClient dials the running broker's socket in
// the state directory and asks it for what reachyctl would otherwise do on the database
// itself — tokens, the audit tail, the clock, reload and route, status and guides, an
// integrity check and an online backup. The server side is in control.go.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
)

// ControlClient is reachyctl's side of the control socket: the same token, audit and backup
// operations as State, asked of the running broker that holds the state.
type ControlClient struct {
	hc  *http.Client
	dir string
}

// ErrNoControl is returned by DialControl when no broker answers on the state directory's
// control socket.
var ErrNoControl = errors.New("no broker answers on the control socket")

// DialControl connects to the control socket of the broker using state directory dir.
func DialControl(ctx context.Context, dir string) (*ControlClient, error) {
	path := ControlSocket(dir)
	var d net.Dialer
	c := &ControlClient{dir: dir, hc: &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return d.DialContext(ctx, "unix", path) },
	}}}
	pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := c.call(pctx, http.MethodGet, "/v1/ping", nil, nil); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: %w (%v)", path, ErrNoControl, err)
	}
	return c, nil
}

// Close releases the client's connections.
func (c *ControlClient) Close() error {
	c.hc.CloseIdleConnections()
	return nil
}

// CreateToken asks the broker to create a token (State.CreateToken).
func (c *ControlClient) CreateToken(ctx context.Context, device string, scopes []string, node string) (string, store.TokenInfo, error) {
	var out controlTokenCreated
	err := c.call(ctx, http.MethodPost, "/v1/tokens", controlTokenRequest{Device: device, Scopes: scopes, Node: node}, &out)
	return out.Token, out.Info, err
}

// ReplaceToken asks the broker to create a token and revoke the device's earlier ones
// (store.ReplaceToken).
func (c *ControlClient) ReplaceToken(ctx context.Context, device string, scopes []string, node string) (string, store.TokenInfo, int, error) {
	var out controlTokenCreated
	err := c.call(ctx, http.MethodPost, "/v1/tokens", controlTokenRequest{Device: device, Scopes: scopes, Node: node, Replace: true}, &out)
	return out.Token, out.Info, out.Revoked, err
}

// Clock is the store's view of the clock (store.Clock).
func (c *ControlClient) Clock(ctx context.Context) (store.ClockState, error) {
	var out store.ClockState
	err := c.call(ctx, http.MethodGet, "/v1/clock", nil, &out)
	return out, err
}

// TrustClock tells the broker's store that its clock is right (store.TrustClock).
func (c *ControlClient) TrustClock(ctx context.Context) (store.ClockState, error) {
	var out store.ClockState
	err := c.call(ctx, http.MethodPost, "/v1/clock/trust", nil, &out)
	return out, err
}

// ListTokens lists the broker's tokens (State.ListTokens).
func (c *ControlClient) ListTokens(ctx context.Context, device string) ([]store.TokenInfo, error) {
	var out []store.TokenInfo
	err := c.call(ctx, http.MethodGet, "/v1/tokens?device="+url.QueryEscape(device), nil, &out)
	return out, err
}

// RevokeTokens asks the broker to revoke a device's tokens (State.RevokeTokens).
func (c *ControlClient) RevokeTokens(ctx context.Context, device string) (int, error) {
	var out controlCount
	err := c.call(ctx, http.MethodPost, "/v1/tokens/revoke", controlTokenRequest{Device: device}, &out)
	return out.N, err
}

// SetScopes asks the broker to change a device's scopes (State.SetScopes).
func (c *ControlClient) SetScopes(ctx context.Context, device string, scopes []string) (int, error) {
	var out controlCount
	err := c.call(ctx, http.MethodPost, "/v1/tokens/scopes", controlTokenRequest{Device: device, Scopes: scopes}, &out)
	return out.N, err
}

// TailAudit returns the broker's last n audit records (State.TailAudit).
func (c *ControlClient) TailAudit(ctx context.Context, n int) ([]store.AuditRecord, error) {
	var out []store.AuditRecord
	err := c.call(ctx, http.MethodGet, "/v1/audit?n="+strconv.Itoa(n), nil, &out)
	return out, err
}

// Reload asks the running broker to re-read its config's intent table (as SIGHUP does).
func (c *ControlClient) Reload(ctx context.Context) (ReloadResult, error) {
	var out ReloadResult
	err := c.call(ctx, http.MethodPost, "/v1/reload", struct{}{}, &out)
	return out, err
}

// Route asks the running broker how its live table routes text from a device in room ("":
// the home's device room).
func (c *ControlClient) Route(ctx context.Context, text, room string) (intents.Decision, error) {
	var out intents.Decision
	err := c.call(ctx, http.MethodPost, "/v1/route", controlRouteRequest{Text: text, Room: room}, &out)
	return out, err
}

// Status asks the running broker for the operator's view (Broker.Status).
func (c *ControlClient) Status(ctx context.Context) (Status, error) {
	var out Status
	err := c.call(ctx, http.MethodGet, "/v1/status", nil, &out)
	return out, err
}

// Guides asks the running broker what its robot says to "what can you do" (and "what games
// do you know") for a caller holding scopes (nil: every scope).
func (c *ControlClient) Guides(ctx context.Context, scopes []string) (SpokenGuides, error) {
	var out SpokenGuides
	err := c.call(ctx, http.MethodPost, "/v1/guide", controlGuideRequest{Scopes: scopes}, &out)
	return out, err
}

// Check asks the broker to run an integrity check of its database (State.Check).
func (c *ControlClient) Check(ctx context.Context) error {
	return c.call(ctx, http.MethodGet, "/v1/check", nil, nil)
}

// Backup asks the broker for a consistent copy of its database and writes it to dst, which
// must not exist (State.Backup).
func (c *ControlClient) Backup(ctx context.Context, dst string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://broker/v1/backup", nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return controlRespErr(resp)
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		os.Remove(dst)
		return fmt.Errorf("backup: %w", err)
	}
	if err := errors.Join(f.Sync(), f.Close()); err != nil {
		os.Remove(dst)
		return fmt.Errorf("backup: %w", err)
	}
	return nil
}

func (c *ControlClient) call(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://broker"+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("the broker's control socket: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return controlRespErr(resp)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func controlRespErr(resp *http.Response) error {
	var eb api.ErrorBody
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxControlBody)).Decode(&eb); err != nil || eb.Error.Message == "" {
		return fmt.Errorf("the broker answered %s", resp.Status)
	}
	return errors.New(eb.Error.Message)
}
