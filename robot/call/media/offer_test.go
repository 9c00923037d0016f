package media

import (
	"net"
	"strings"
	"testing"

	"github.com/reachy-broker/reachy-broker/robot/call"
)

const offerWithCandidates = `v=0
o=- 1 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0
m=video 9 UDP/TLS/RTP/SAVPF 96
c=IN IP4 0.0.0.0
a=mid:0
a=sendrecv
a=rtpmap:96 H264/90000
a=candidate:1 1 udp 2130706431 100.101.102.103 50000 typ host
a=candidate:2 1 udp 2130706431 192.168.1.20 50001 typ host
a=candidate:3 1 udp 1694498815 203.0.113.7 50002 typ srflx raddr 100.101.102.103 rport 50000
a=candidate:4 1 udp 16777215 100.64.0.9 3478 typ relay raddr 0.0.0.0 rport 0
a=candidate:5 1 udp 2130706431 4f3c0b2e-1d2e-4f7a-9a11-2b7c9d1e5f00.local 50003 typ host
a=candidate:6 1 tcp 2130706431 100.101.102.103 9 typ host tcptype active
a=candidate:7 1 udp 2130706431 fd7a:115c:a1e0::1 50004 typ host
`

// TestOfferKeepsTailnetHostCandidatesOnly: only the offer's host candidates inside the
// tailnet reach ICE — no LAN address, no server-reflexive or relay candidate (even one with
// a tailnet address), no mDNS name — and the owner's camera is read as not offered.
func TestOfferKeepsTailnetHostCandidatesOnly(t *testing.T) {
	c := call.Config{}
	c.Defaults()
	peers, err := c.PeerPrefixes()
	if err != nil {
		t.Fatal(err)
	}
	out, kept, err := filterOffer(strings.ReplaceAll(offerWithCandidates, "\n", "\r\n"), peers)
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"192.168.1.20", "203.0.113.7", "typ relay", ".local"} {
		if strings.Contains(out, gone) {
			t.Errorf("the filtered offer still holds %q:\n%s", gone, out)
		}
	}
	for _, stays := range []string{"100.101.102.103 50000 typ host", "fd7a:115c:a1e0::1 50004 typ host"} {
		if !strings.Contains(out, stays) {
			t.Errorf("the filtered offer lost %q:\n%s", stays, out)
		}
	}
	if strings.Contains(out, "a=sendrecv") || !strings.Contains(out, "a=recvonly") {
		t.Errorf("the owner's camera is still offered to the hub:\n%s", out)
	}
	if kept != 3 { // the UDP and TCP host candidates on 100.101.102.103, and the IPv6 one
		t.Errorf("kept %d candidates, want 3", kept)
	}
}

// TestAnswerCheckRefusesForeignCandidates: the last check before an answer leaves the hub
// refuses a candidate that is not a host candidate on an allowed interface, inside the
// allowed networks.
func TestAnswerCheckRefusesForeignCandidates(t *testing.T) {
	lo := call.Config{Interfaces: []string{"lo"}}
	lo.Defaults()
	ok := "a=candidate:1 1 udp 2130706431 127.0.0.1 40001 typ host\r\n"
	if _, err := checkAnswer(ok, lo); err != nil {
		t.Fatalf("loopback host candidate on lo refused: %v", err)
	}
	for _, bad := range []string{
		"a=candidate:1 1 udp 1694498815 203.0.113.7 40001 typ srflx raddr 127.0.0.1 rport 40001\r\n",
		"a=candidate:1 1 udp 2130706431 192.0.2.1 40001 typ host\r\n",
		"",
	} {
		if _, err := checkAnswer(ok+bad, lo); err == nil && bad != "" {
			t.Errorf("answer with %q passed", bad)
		}
		if _, err := checkAnswer(bad, lo); err == nil {
			t.Errorf("answer with only %q passed", bad)
		}
	}
	// On lo but outside the allowed networks (the tailnet's only): refused.
	tailnetOnly := lo
	tailnetOnly.Peers = []string{"100.64.0.0/10", "fd7a:115c:a1e0::/48"}
	if _, err := checkAnswer(ok, tailnetOnly); err == nil {
		t.Error("a loopback candidate passed a hub whose peers are the tailnet only")
	}
}

// A 4via6 address is inside Tailscale's ULA but names a LAN host behind a subnet router:
// it is never a peer, even with the default peers (the whole ULA).
func TestFourViaSixIsNoPeer(t *testing.T) {
	c := call.Config{}
	c.Defaults()
	peers, err := c.PeerPrefixes()
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[string]bool{"fd7a:115c:a1e0:b1a:0:1:c0a8:101": false, "fd7a:115c:a1e0::1": true, "100.64.0.9": true} {
		if got := allowedPeer(peers, net.ParseIP(addr)); got != want {
			t.Errorf("%s allowed = %v, want %v", addr, got, want)
		}
	}
}
