// Package hostname owns the broker's own names: the set of Host header values its listeners
// answer to (its MagicDNS name, its tailnet addresses, the names of a certificate it serves,
// and the loopback names of a loopback listener), and the canonical spelling of a Host.
//
// A page that rebinds its own DNS name to the broker's address is "same-origin" with itself,
// so a browser lets it read what the broker answers; the only thing that tells such a request
// apart is its Host. The broker checks every request's Host against a Set before any handler
// runs.
//
// It must never accept a name because of what the request says about itself (the Set is
// built from the broker's own configuration and its tailnet node only), and never do I/O
// beyond the lookup it is given.
package hostname

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Host is a request's Host, split and canonicalized: a lower-case DNS name without its
// trailing dot, or an IP address in its canonical form; Port is empty when none was given.
type Host struct {
	Name string
	IP   netip.Addr
	Port string
}

// String is the Host in the form a Host header carries it ("name:port", "[v6]:port").
func (h Host) String() string {
	name := h.Name
	if h.IP.IsValid() {
		name = h.IP.String()
	}
	if h.Port == "" {
		if h.IP.Is6() {
			return "[" + name + "]"
		}
		return name
	}
	return net.JoinHostPort(name, h.Port)
}

// key is how the Set stores and looks the host up.
func (h Host) key() string {
	if h.IP.IsValid() {
		return h.IP.String()
	}
	return h.Name
}

// Parse splits and canonicalizes a Host header value ("Broker.Example.", "[FD7A::1]:8092").
// It refuses what no browser or HTTP client sends for a real host: an empty host, a port
// that is not a number in 1-65535, an IPv6 zone, characters outside a DNS name.
func Parse(hostport string) (Host, error) {
	bad := func(why string) (Host, error) { return Host{}, fmt.Errorf("host %q: %s", hostport, why) }
	host, port := hostport, ""
	bracketed := strings.HasPrefix(hostport, "[")
	switch {
	case bracketed:
		end := strings.IndexByte(hostport, ']')
		if end < 0 {
			return bad("an unclosed bracket")
		}
		host, port = hostport[1:end], hostport[end+1:]
		if port != "" && !strings.HasPrefix(port, ":") {
			return bad("text after the address")
		}
		port = strings.TrimPrefix(port, ":")
	case strings.Count(hostport, ":") == 1:
		host, port, _ = strings.Cut(hostport, ":")
	case strings.Contains(hostport, ":"):
		return bad("an IPv6 address must be in brackets")
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || port[0] < '1' || port[0] > '9' {
			return bad("the port is not a port number")
		}
	}
	if host == "" {
		return bad("no host name")
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if ip.Zone() != "" || bracketed != ip.Is6() {
			return bad("not an address a client sends")
		}
		return Host{IP: ip.Unmap(), Port: port}, nil
	}
	if bracketed {
		return bad("not an IPv6 address")
	}
	name := strings.TrimSuffix(strings.ToLower(host), ".")
	if name == "" || len(name) > 253 || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789-.") != "" ||
		strings.Contains(name, "..") || strings.HasPrefix(name, ".") {
		return bad("not a DNS name")
	}
	return Host{Name: name, Port: port}, nil
}

// nameKey is how a configured name (a DNS name, or an IP address with or without brackets)
// is stored.
func nameKey(name string) (string, error) {
	if ip, err := netip.ParseAddr(name); err == nil && ip.Zone() == "" {
		return ip.Unmap().String(), nil
	}
	h, err := Parse(name)
	if err != nil {
		return "", err
	}
	if h.Port != "" {
		return "", fmt.Errorf("name %q: a name, not a name and a port", name)
	}
	return h.key(), nil
}

// Lookup returns a broker's current names (its tailnet node's, which an owner can rename).
type Lookup func(ctx context.Context) ([]string, error)

// Set is the names a listener answers to. It is safe for concurrent use.
type Set struct {
	loopback bool // any loopback address, and localhost
	lookup   Lookup
	every    time.Duration

	mu     sync.Mutex
	fixed  map[string]bool // added with Add
	looked map[string]bool // from the last lookup
	last   time.Time       // when the last lookup finished
	lookMu sync.Mutex      // one lookup at a time
}

// Loopback is the Set of a loopback listener: localhost and any loopback address
// (127.0.0.0/8, ::1). A rebinding page cannot own them: a DNS name it controls is never one.
func Loopback() *Set { return &Set{loopback: true} }

// Fixed is a Set of exactly names (DNS names or IP addresses, any case, with or without a
// trailing dot or brackets).
func Fixed(names ...string) (*Set, error) {
	s := &Set{}
	return s, s.Add(names...)
}

// Live is a Set whose names come from lookup: asked on first use, and again when a request
// names a host the Set does not know, at most once every interval (so a node renamed in the
// admin console is answered to without a restart, and a flood of foreign names costs one
// lookup per interval).
func Live(lookup Lookup, interval time.Duration) *Set {
	return &Set{lookup: lookup, every: interval}
}

// Add makes the Set answer to names too (e.g. the DNS names of a TLS certificate the
// broker serves).
func (s *Set) Add(names ...string) error {
	keys := make([]string, 0, len(names))
	for _, n := range names {
		k, err := nameKey(n)
		if err != nil {
			return err
		}
		keys = append(keys, k)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fixed == nil {
		s.fixed = map[string]bool{}
	}
	for _, k := range keys {
		s.fixed[k] = true
	}
	return nil
}

// Names lists the names the Set answers to now (loopback Sets: "localhost" and the
// loopback addresses' rule), sorted.
func (s *Set) Names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	if s.loopback {
		out = append(out, "localhost", "127.0.0.0/8", "::1")
	}
	for k := range s.fixed {
		out = append(out, k)
	}
	for k := range s.looked {
		out = append(out, k)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Match reports whether hostport (a request's Host) is one of the Set's names, and returns
// it canonicalized. ctx bounds the lookup a miss may trigger.
func (s *Set) Match(ctx context.Context, hostport string) (Host, bool) {
	h, err := Parse(hostport)
	if err != nil {
		return Host{}, false
	}
	if s.has(h) {
		return h, true
	}
	if s.lookup == nil {
		return Host{}, false
	}
	asked := time.Now()
	s.lookMu.Lock()
	defer s.lookMu.Unlock()
	s.mu.Lock()
	fresh, recent := s.last.After(asked), !s.last.IsZero() && time.Since(s.last) < s.every
	s.mu.Unlock()
	if !fresh && !recent {
		s.refresh(ctx)
	}
	return h, s.has(h)
}

func (s *Set) refresh(ctx context.Context) {
	names, err := s.lookup(ctx)
	looked := map[string]bool{}
	for _, n := range names {
		if k, perr := nameKey(n); perr == nil {
			looked[k] = true
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last = time.Now()
	if err == nil {
		s.looked = looked
	}
}

func (s *Set) has(h Host) bool {
	if s.loopback && (h.Name == "localhost" || h.IP.IsLoopback()) {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fixed[h.key()] || s.looked[h.key()]
}
