package broker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"strings"
	"time"

	"tailscale.com/client/local"
	"tailscale.com/tsnet"

	"github.com/reachy-broker/reachy-broker/broker/hostname"
)

// TailnetPort is where the API listens on the tailnet.
const TailnetPort = 8092

// Tailnet is the broker's node on the tailnet.
type Tailnet struct {
	srv    *tsnet.Server
	client *local.Client
}

// TailnetConfig configures the embedded tailnet node.
type TailnetConfig struct {
	Hostname   string
	StateDir   string
	AuthKey    string // from env or file, never from the config file itself
	Ephemeral  bool
	ControlURL string // Headscale or a test control server; empty: Tailscale's
	Logf       func(format string, args ...any)
}

// StartTailnet brings the node up within ctx's deadline.
func StartTailnet(ctx context.Context, c TailnetConfig) (*Tailnet, error) {
	if c.Hostname == "" || c.StateDir == "" {
		return nil, errors.New("tailnet: hostname and state dir are required")
	}
	if err := os.MkdirAll(c.StateDir, 0o700); err != nil {
		return nil, fmt.Errorf("tailnet state dir: %w", err)
	}
	logf := c.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	s := &tsnet.Server{Hostname: c.Hostname, Dir: c.StateDir, AuthKey: c.AuthKey, Ephemeral: c.Ephemeral,
		ControlURL: c.ControlURL, Logf: logf, UserLogf: logf}
	if _, err := s.Up(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("tailnet up: %w", err)
	}
	lc, err := s.LocalClient()
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("tailnet local client: %w", err)
	}
	return &Tailnet{srv: s, client: lc}, nil
}

// Listen opens the API listener on the tailnet only.
func (t *Tailnet) Listen(port int) (net.Listener, error) {
	return t.srv.Listen("tcp", fmt.Sprintf(":%d", port))
}

// IPs returns the node's tailnet addresses.
func (t *Tailnet) IPs() (netip.Addr, netip.Addr) { return t.srv.TailscaleIPs() }

// Hosts is the set of names the broker answers to on this node: its MagicDNS name (e.g.
// reachy-broker.tail1234.ts.net), that name's first label (what the hubs' and agents'
// configs use; it resolves only through the tailnet's MagicDNS search domain, so no public
// site can own it), and the node's tailnet addresses. They are read from the node, and read
// again when a request names a host the set does not know (an owner can rename the node).
func (t *Tailnet) Hosts() *hostname.Set {
	return hostname.Live(t.names, 5*time.Second)
}

func (t *Tailnet) names(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	st, err := t.client.StatusWithoutPeers(ctx)
	if err != nil {
		return nil, fmt.Errorf("tailnet status: %w", err)
	}
	var names []string
	if st.Self != nil && st.Self.DNSName != "" {
		fqdn := strings.TrimSuffix(st.Self.DNSName, ".")
		short, _, _ := strings.Cut(fqdn, ".")
		names = append(names, fqdn, short)
	}
	for _, ip := range st.TailscaleIPs {
		names = append(names, ip.String())
	}
	if len(names) == 0 {
		return nil, errors.New("tailnet status: the node has no name or address yet")
	}
	return names, nil
}

// Close leaves the tailnet.
func (t *Tailnet) Close() error { return t.srv.Close() }

// WhoIs identifies the tailnet node a connection comes from: its stable node ID (what
// tokens are pinned to) and its short name (for people; an owner can rename a node).
func (t *Tailnet) WhoIs(ctx context.Context, remoteAddr string) (Node, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	who, err := t.client.WhoIs(ctx, remoteAddr)
	if err != nil {
		return Node{}, fmt.Errorf("whois %s: %w", remoteAddr, err)
	}
	if who.Node == nil || who.Node.StableID == "" {
		return Node{}, fmt.Errorf("whois %s: no node", remoteAddr)
	}
	return Node{ID: string(who.Node.StableID), Name: nodeName(who.Node.ComputedName, who.Node.Name)}, nil
}

func nodeName(computed, fqdn string) string {
	if computed != "" {
		return computed
	}
	name, _, _ := strings.Cut(fqdn, ".")
	return name
}

// ListenLoopbackCheck returns addr with "localhost" resolved, or an error unless it is a
// loopback address.
func ListenLoopbackCheck(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	if host == "localhost" {
		host = "127.0.0.1"
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.IsLoopback() {
		return "", fmt.Errorf("%s is not a loopback address (127.0.0.0/8, ::1): the API is served on the tailnet", addr)
	}
	return net.JoinHostPort(host, port), nil
}

// ListenLoopback opens a listener that is refused unless addr is a loopback address.
func ListenLoopback(addr string) (net.Listener, error) {
	a, err := ListenLoopbackCheck(addr)
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	return net.Listen("tcp", a)
}

// logfFor adapts slog to tsnet's printf-style logger, at debug level.
func logfFor(l *slog.Logger) func(string, ...any) {
	return func(format string, args ...any) { l.Debug(fmt.Sprintf(format, args...), "component", "tsnet") }
}
