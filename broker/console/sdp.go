package console

import (
	"net/netip"
	"slices"
	"strings"
)

// The broker carries a call's signalling between two parties it trusts with nothing: the
// owner's browser and the robot. Neither may steer the other's media out of the tailnet or
// learn an address the tailnet does not already show, so every session description is
// rewritten on its way through: only host candidates with a tailnet address (loopback in
// dev mode) pass; server-reflexive, peer-reflexive, relayed and mDNS candidates, TCP
// candidates and addresses from any other network are removed, and the connection and
// origin lines' addresses (which browsers fill with a default candidate's) are blanked
// unless they are tailnet addresses.

// Tailnet address ranges: Tailscale's CGNAT range and its IPv6 ULA — but not the ULA's
// 4via6 block, whose addresses are LAN IPv4 hosts behind a subnet router (a check sent
// there leaves the tailnet at the router).
var (
	tailnet4 = netip.MustParsePrefix("100.64.0.0/10")
	tailnet6 = netip.MustParsePrefix("fd7a:115c:a1e0::/48")
	via6     = netip.MustParsePrefix("fd7a:115c:a1e0:b1a::/64")
)

// mediaAddrs says which addresses a call's media may use.
type mediaAddrs struct {
	loopback bool // dev mode: the browser and the robot share this machine
}

func (m mediaAddrs) allowed(a netip.Addr) bool {
	a = a.Unmap()
	switch {
	case via6.Contains(a):
		return false
	case tailnet4.Contains(a), tailnet6.Contains(a):
		return true
	case a.IsLoopback():
		return m.loopback
	}
	return false
}

// sdpFilter reports what filtering a session description did.
type sdpFilter struct {
	kept    int // candidates passed on
	dropped int // candidate lines removed
}

// filterSDP returns sdp with only the candidates and addresses m allows. Lines end in
// CRLF, as SDP's do, whatever they ended in before.
func (m mediaAddrs) filterSDP(sdp string) (string, sdpFilter) {
	var (
		out strings.Builder
		f   sdpFilter
	)
	out.Grow(len(sdp))
	for line := range strings.Lines(sdp) {
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			continue
		}
		// A browser's parser and this one must see the same fields: a line with a byte
		// outside printable ASCII (a tab, a vertical tab, a no-break space) could split one
		// way here and another there, so it never passes.
		if !printableASCII(line) {
			switch {
			case isCandidateLine(line):
				f.dropped++
			case strings.HasPrefix(line, "s="): // the one required line that is free text
				out.WriteString("s=-\r\n")
			}
			continue
		}
		switch lower := strings.ToLower(line); {
		case strings.HasPrefix(lower, "a=candidate:"):
			if !m.hostCandidate(line[len("a=candidate:"):]) {
				f.dropped++
				continue
			}
			f.kept++
			line = "a=candidate:" + line[len("a=candidate:"):] // the name as browsers write it
		case isCandidateLine(line):
			// Names the other side's candidates (a=remote-candidates, RFC 8839 §5.2), or
			// an attribute named like a candidate in another spelling: never needed for a
			// fresh call, and an address carrier.
			f.dropped++
			continue
		case strings.HasPrefix(lower, "c="), strings.HasPrefix(lower, "o="),
			strings.HasPrefix(lower, "a=rtcp:"):
			line = m.blankAddress(line)
		}
		out.WriteString(line)
		out.WriteString("\r\n")
	}
	return out.String(), f
}

// hostCandidate reports whether a candidate attribute's value (after "a=candidate:") is a
// UDP host candidate on an allowed address: "foundation component transport priority
// address port typ host …" (RFC 8839 §5.1).
func (m mediaAddrs) hostCandidate(v string) bool {
	// Fields are split on single spaces, as browsers split them; an empty field (two
	// spaces) or a second "typ" or a related address makes the line ambiguous: dropped.
	fields := strings.Split(v, " ")
	if len(fields) < 8 || fields[6] != "typ" || fields[7] != "host" || slices.Contains(fields, "") {
		return false
	}
	for _, extra := range fields[8:] {
		if extra == "typ" || extra == "raddr" || extra == "rport" {
			return false
		}
	}
	if !strings.EqualFold(fields[2], "udp") {
		return false // the robot's media is UDP only: a TCP candidate is never used
	}
	addr, err := netip.ParseAddr(fields[4]) // an mDNS name (….local) does not parse
	if err != nil || addr.Zone() != "" {
		return false
	}
	return m.allowed(addr)
}

// isCandidateLine reports whether an attribute line names candidates in any spelling.
func isCandidateLine(line string) bool {
	name, _, _ := strings.Cut(strings.ToLower(line), ":")
	return strings.HasPrefix(name, "a=") && strings.Contains(name, "candidate") && name != "a=end-of-candidates"
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// blankAddress replaces the address of a connection ("c=IN IP4 a"), origin ("o=… IN IP4
// a") or RTCP ("a=rtcp:port IN IP4 a") line with the unspecified address of its family
// unless m allows it: browsers copy a default candidate's address there, which would say
// the owner's LAN address even with its candidate removed.
func (m mediaAddrs) blankAddress(line string) string {
	fields := strings.Fields(line)
	n := len(fields)
	if n < 3 || fields[n-3] != "IN" && !strings.HasSuffix(fields[n-3], "IN") {
		return line
	}
	family, addr := fields[n-2], fields[n-1]
	if a, err := netip.ParseAddr(strings.SplitN(addr, "/", 2)[0]); err == nil && m.allowed(a) {
		return line
	}
	unspecified := "0.0.0.0"
	if family == "IP6" {
		unspecified = "::"
	}
	fields[n-1] = unspecified
	return strings.Join(fields, " ")
}
