package calltest

import (
	"io"
	"net"
	"sync"
	"testing"
)

// CutProxy forwards TCP to a target and can cut every connection at once (the
// robot's network drops between the hub and the broker); new connections are forwarded again.
type CutProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

// NewCutProxy listens on a loopback port of its own and forwards to target until the test ends.
func NewCutProxy(t testing.TB, target string) *CutProxy {
	t.Helper()
	return NewCutProxyOn(t, "127.0.0.1:0", target)
}

// NewCutProxyOn is NewCutProxy listening on listen (a port of its own on a test
// network's address: the broker as a robot in a namespace reaches it).
func NewCutProxyOn(t testing.TB, listen, target string) *CutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		t.Fatal(err)
	}
	p := &CutProxy{ln: ln}
	t.Cleanup(func() { ln.Close(); p.Cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, u)
			p.mu.Unlock()
			go func() { io.Copy(u, c); u.Close() }()
			go func() { io.Copy(c, u); c.Close() }()
		}
	}()
	return p
}

// Addr is where to connect instead of the target.
func (p *CutProxy) Addr() string { return p.ln.Addr().String() }

// Cut closes every connection made so far.
func (p *CutProxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}
