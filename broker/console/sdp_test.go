package console

import (
	"strings"
	"testing"
)

// What a stock browser's offer looks like on an owner's laptop: a LAN address, a global
// IPv6 address, an mDNS name (Chromium hides host addresses behind one without camera or
// microphone permission), reflexive, relayed and TCP candidates — and one tailnet address.
const browserOffer = "v=0\r\n" +
	"o=- 4611731400430051336 2 IN IP4 192.168.1.23\r\n" +
	"s=-\r\nt=0 0\r\n" +
	"m=audio 50000 UDP/TLS/RTP/SAVPF 111\r\n" +
	"c=IN IP4 192.168.1.23\r\n" +
	"a=rtcp:9 IN IP4 192.168.1.23\r\n" +
	"a=candidate:1 1 udp 2122260223 192.168.1.23 50000 typ host generation 0\r\n" +
	"a=candidate:2 1 udp 2122197247 2a01:4f8:1:2::17 50001 typ host generation 0\r\n" +
	"a=candidate:3 1 udp 2122129151 3b1e2f6a-1c2d-4e5f-8a9b-0c1d2e3f4a5b.local 50002 typ host generation 0\r\n" +
	"a=candidate:4 1 udp 1686052607 203.0.113.9 61000 typ srflx raddr 192.168.1.23 rport 50000\r\n" +
	"a=candidate:5 1 udp 41885439 198.51.100.7 3478 typ relay raddr 203.0.113.9 rport 61000\r\n" +
	"a=candidate:6 1 tcp 1518280447 100.101.102.103 9 typ host tcptype active\r\n" +
	"a=candidate:7 1 udp 1853824767 100.101.102.104 50003 typ prflx raddr 0.0.0.0 rport 0\r\n" +
	"a=candidate:8 1 udp 2122063615 100.101.102.103 50004 typ host generation 0\r\n" +
	"a=candidate:9 1 udp 2122063615 fd7a:115c:a1e0::7 50005 typ host generation 0\r\n" +
	"a=candidate:10 1 udp 2122063615 fe80::1%eth0 50006 typ host\r\n" +
	"a=candidate:11 1 udp 2122063615 127.0.0.1 50007 typ host\r\n" +
	"a=remote-candidates:1 192.168.1.50 40000\r\n" +
	"a=end-of-candidates\r\n" +
	"m=video 9 UDP/TLS/RTP/SAVPF 96\r\n" +
	"c=IN IP6 2a01:4f8:1:2::17\r\n" +
	"a=recvonly\r\n"

func TestOnlyTailnetHostCandidatesPass(t *testing.T) {
	for _, tc := range []struct {
		name     string
		m        mediaAddrs
		kept     []string // candidate foundations that pass
		loopback bool
	}{
		{"tailnet", mediaAddrs{}, []string{"8", "9"}, false},
		{"dev", mediaAddrs{loopback: true}, []string{"8", "9", "11"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, f := tc.m.filterSDP(browserOffer)
			var kept []string
			for _, line := range strings.Split(out, "\r\n") {
				if v, ok := strings.CutPrefix(line, "a=candidate:"); ok {
					kept = append(kept, strings.Fields(v)[0])
				}
			}
			if strings.Join(kept, ",") != strings.Join(tc.kept, ",") {
				t.Fatalf("kept candidates %v, want %v:\n%s", kept, tc.kept, out)
			}
			if f.kept != len(tc.kept) || f.dropped != 12-len(tc.kept) {
				t.Errorf("counted kept %d dropped %d", f.kept, f.dropped)
			}
			// No address outside the tailnet survives anywhere in the description: not in
			// a candidate, the connection or origin lines, RTCP, or remote-candidates.
			for _, leak := range []string{"192.168.1", "2a01:4f8", ".local", "203.0.113.9", "198.51.100.7", "fe80::", "100.101.102.104"} {
				if strings.Contains(out, leak) {
					t.Errorf("%s reaches the other side:\n%s", leak, out)
				}
			}
			if strings.Contains(out, "127.0.0.1") != tc.loopback {
				t.Errorf("loopback kept = %v, want %v", !tc.loopback, tc.loopback)
			}
			for _, want := range []string{"c=IN IP4 0.0.0.0\r\n", "c=IN IP6 ::\r\n", "a=rtcp:9 IN IP4 0.0.0.0\r\n", "o=- 4611731400430051336 2 IN IP4 0.0.0.0\r\n", "a=recvonly\r\n", "a=end-of-candidates\r\n"} {
				if !strings.Contains(out, want) {
					t.Errorf("missing %q:\n%s", want, out)
				}
			}
		})
	}
}

// A description with only allowed addresses passes unchanged (but for line endings).
func TestTailnetDescriptionPassesUnchanged(t *testing.T) {
	in := "v=0\r\no=- 1 2 IN IP4 100.64.0.2\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 100.64.0.2\r\n" +
		"a=candidate:1 1 UDP 2130706431 100.64.0.2 40001 typ host\r\n"
	out, f := mediaAddrs{}.filterSDP(strings.ReplaceAll(in, "\r\n", "\n"))
	if out != in || f.kept != 1 || f.dropped != 0 {
		t.Fatalf("got %q (%+v)", out, f)
	}
}

func FuzzFilterSDP(f *testing.F) {
	f.Add(browserOffer)
	f.Add("a=candidate:1 1 udp 1 100.64.0.1 1 typ host\nc=IN\no=\n")
	f.Fuzz(func(t *testing.T, sdp string) {
		out, _ := mediaAddrs{}.filterSDP(sdp)
		for _, line := range strings.Split(out, "\r\n") {
			if v, ok := strings.CutPrefix(line, "a=candidate:"); ok && !(mediaAddrs{}).hostCandidate(v) {
				t.Fatalf("a candidate that is not a tailnet host passed: %q", line)
			}
		}
	})
}

// A line a browser splits differently from a strict reading must not pass: fields
// separated by tabs or other whitespace, the attribute's name in capitals, non-ASCII bytes,
// a second "typ" after the host's. Each carries a non-tailnet address a browser would
// contact (a review found Chromium and Firefox sending STUN to the tab-separated one).
func TestAmbiguousCandidateLinesNeverPass(t *testing.T) {
	const tailnet = "a=candidate:6 1 udp 2130706431 100.64.0.2 40006 typ host\r\n"
	for name, line := range map[string]string{
		"tabs":            "a=candidate:f\t1\tudp\t1\t100.64.0.1\t5000\ttyp\thost 1 udp 2122260223 192.0.2.2 5999 typ srflx",
		"vertical tab":    "a=candidate:f\v1\vudp\v1\v100.64.0.1\v5000\vtyp\vhost 1 udp 2122260223 192.0.2.2 5999 typ host",
		"no-break space":  "a=candidate:f\u00a01 udp 1 100.64.0.1 5000 typ host 1 udp 2122260223 192.0.2.2 5999 typ host",
		"capitals":        "a=Candidate:1 1 udp 2122260223 192.0.2.2 6001 typ host",
		"all capitals":    "A=CANDIDATE:1 1 UDP 2122260223 192.0.2.2 6001 TYP HOST",
		"double space":    "a=candidate:1 1 udp 2122260223  100.64.0.1 6001 typ host",
		"second typ":      "a=candidate:1 1 udp 2122260223 100.64.0.1 6001 typ host typ srflx raddr 192.0.2.2 rport 1",
		"4via6":           "a=candidate:1 1 udp 2122260223 fd7a:115c:a1e0:b1a:0:1:c0a8:101 6001 typ host",
		"remote, capital": "a=Remote-Candidates:1 192.0.2.2 6001",
	} {
		out, f := mediaAddrs{}.filterSDP("v=0\r\ns=-\r\n" + line + "\r\n" + tailnet)
		if strings.Contains(out, "192.0.2.2") || strings.Contains(out, "c0a8") || strings.Count(out, "a=candidate:") != 1 {
			t.Errorf("%s: passed:\n%s", name, out)
		}
		if f.kept != 1 || f.dropped != 1 {
			t.Errorf("%s: kept %d dropped %d, want 1 and 1", name, f.kept, f.dropped)
		}
	}
	// A session name with non-ASCII is replaced, not dropped (the line is required).
	if out, _ := (mediaAddrs{}).filterSDP("v=0\r\ns=caf\u00e9\r\n" + tailnet); !strings.Contains(out, "\r\ns=-\r\n") {
		t.Errorf("session name: %q", out)
	}
}
