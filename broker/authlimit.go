package broker

import (
	"net"
	"time"

	"golang.org/x/time/rate"
)

// maxAuthAddrs bounds the failed-authentication table; addresses whose budget has refilled
// are forgotten first.
const maxAuthAddrs = 4096

// remoteHost is the address part of a request's remote address.
func remoteHost(remoteAddr string) string {
	if h, _, err := net.SplitHostPort(remoteAddr); err == nil {
		return h
	}
	return remoteAddr
}

// authBlocked says how long addr must wait before its next authentication is checked
// (0: now).
func (b *Broker) authBlocked(addr string) time.Duration {
	b.authMu.Lock()
	defer b.authMu.Unlock()
	l, ok := b.authBad[addr]
	if !ok {
		return 0
	}
	tokens := l.Tokens()
	if tokens >= 1 {
		return 0
	}
	return time.Duration((1 - tokens) / float64(l.Limit()) * float64(time.Second))
}

// authFailed spends one of addr's failed-authentication budget.
func (b *Broker) authFailed(addr string) {
	b.authMu.Lock()
	defer b.authMu.Unlock()
	l, ok := b.authBad[addr]
	if !ok {
		if len(b.authBad) >= maxAuthAddrs {
			b.forgetRefilledLocked()
		}
		n := max(b.d.Config.Limits.AuthFailuresPerMinute, 1)
		l = rate.NewLimiter(rate.Every(time.Minute/time.Duration(n)), n)
		b.authBad[addr] = l
	}
	l.Allow()
}

func (b *Broker) forgetRefilledLocked() {
	for a, l := range b.authBad {
		if l.Tokens() >= float64(l.Burst()) {
			delete(b.authBad, a)
		}
	}
	if len(b.authBad) >= maxAuthAddrs { // still full: a flood from many addresses
		clear(b.authBad)
	}
}
