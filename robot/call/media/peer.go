package media

import (
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/interceptor"
	"github.com/pion/sdp/v3"
	"github.com/pion/webrtc/v4"

	"github.com/reachy-broker/reachy-broker/robot/call"
)

// The codecs the hub sends and takes: H.264 constrained baseline (every browser decodes it,
// and the Pi encodes it in hardware) and Opus.
var (
	h264 = webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeH264, ClockRate: 90000,
		SDPFmtpLine: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f"}
	opus = webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2,
		SDPFmtpLine: "minptime=10;useinbandfec=1"}
)

// opusPT is the payload type the playback pipeline expects, whatever the browser chose.
const opusPT = 111

// newAPI builds a pion API that gathers host candidates only, on the configured
// interfaces' addresses inside the allowed networks, in the configured port range; no mDNS,
// no TCP. A remote address outside the allowed networks is never used, whether the offer
// named it or a connectivity check came from it: the browser's address is usually learned
// from its own checks (a peer-reflexive candidate), because a browser hides its host
// addresses behind mDNS names unless the page holds a microphone, and Firefox offers none
// at all on some machines.
func newAPI(c *call.Config) (*webrtc.API, error) {
	peers, err := c.PeerPrefixes()
	if err != nil {
		return nil, err
	}
	me := &webrtc.MediaEngine{}
	if err := me.RegisterCodec(webrtc.RTPCodecParameters{RTPCodecCapability: h264, PayloadType: 102}, webrtc.RTPCodecTypeVideo); err != nil {
		return nil, err
	}
	if err := me.RegisterCodec(webrtc.RTPCodecParameters{RTPCodecCapability: opus, PayloadType: opusPT}, webrtc.RTPCodecTypeAudio); err != nil {
		return nil, err
	}
	ir := &interceptor.Registry{}
	if err := webrtc.RegisterDefaultInterceptors(me, ir); err != nil {
		return nil, err
	}
	var se webrtc.SettingEngine
	interfaces := slices.Clone(c.Interfaces)
	se.SetInterfaceFilter(func(name string) bool { return slices.Contains(interfaces, name) })
	se.SetIncludeLoopbackCandidate(hasLoopback(interfaces))
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4, webrtc.NetworkTypeUDP6})
	if err := se.SetEphemeralUDPPortRange(c.UDPPortMin, c.UDPPortMax); err != nil {
		return nil, err
	}
	// Gather only on addresses a peer may be at (a tailnet interface also holds a link-local
	// IPv6 address), and accept a remote candidate — signalled or peer-reflexive — only
	// from them.
	se.SetIPFilter(func(ip net.IP) bool { return allowedPeer(peers, ip) })
	remote := peers
	if hasLoopback(interfaces) {
		// The simulator on loopback (the README's tour): a browser as shipped gathers no
		// loopback candidate, and its checks reach the hub's 127.0.0.1 from this machine's
		// own LAN address. Only this machine can reach a loopback socket, so its own
		// addresses are accepted too — on loopback only, never on a tailnet interface.
		remote = append(slices.Clone(peers), ownAddresses()...)
	}
	se.SetRemoteIPFilter(func(ip net.IP) bool { return allowedPeer(remote, ip) })
	se.SetICETimeouts(4*time.Second, 8*time.Second, time.Second)
	return webrtc.NewAPI(webrtc.WithMediaEngine(me), webrtc.WithInterceptorRegistry(ir), webrtc.WithSettingEngine(se)), nil
}

func hasLoopback(interfaces []string) bool {
	for _, name := range interfaces {
		if ifc, err := net.InterfaceByName(name); err == nil && ifc.Flags&net.FlagLoopback != 0 {
			return true
		}
	}
	return false
}

// ownAddresses are this machine's interface addresses, each as a single-address prefix.
func ownAddresses() []netip.Prefix {
	var out []netip.Prefix
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if p, err := netip.ParsePrefix(a.String()); err == nil {
			out = append(out, netip.PrefixFrom(p.Addr().Unmap(), p.Addr().BitLen()))
		}
	}
	return out
}

// via6 is Tailscale's 4via6 block inside its ULA: its addresses are LAN IPv4 hosts behind
// a subnet router, so media sent there leaves the tailnet at the router. Never a peer,
// whatever call.peers says.
var via6 = netip.MustParsePrefix("fd7a:115c:a1e0:b1a::/64")

func allowedPeer(peers []netip.Prefix, ip net.IP) bool {
	a, ok := netip.AddrFromSlice(ip)
	if !ok {
		return false
	}
	a = a.Unmap()
	if via6.Contains(a) {
		return false
	}
	for _, p := range peers {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// filterOffer keeps only the offer's host candidates whose address is in peers (no
// server-reflexive, relay or mDNS candidate ever reaches ICE) and reports how many remain.
// None may remain: the browser's address is then learned from its connectivity checks.
// It also reads the owner's camera as not offered (a sending video section becomes
// receive-only, or inactive), so the answer never accepts it: a browser sends only what
// the answer accepts.
func filterOffer(offer string, peers []netip.Prefix) (string, int, error) {
	var sd sdp.SessionDescription
	if err := sd.UnmarshalString(offer); err != nil {
		return "", 0, fmt.Errorf("offer: %w", err)
	}
	kept := 0
	for _, m := range sd.MediaDescriptions {
		attrs := m.Attributes[:0]
		for _, a := range m.Attributes {
			if m.MediaName.Media == "video" {
				switch a.Key {
				case "sendrecv":
					a.Key = "recvonly"
				case "sendonly":
					a.Key = "inactive"
				}
			}
			if a.Key == "candidate" {
				c, err := ice.UnmarshalCandidate(a.Value)
				if err != nil || c.Type() != ice.CandidateTypeHost {
					continue
				}
				ip := net.ParseIP(c.Address())
				if ip == nil || !allowedPeer(peers, ip) {
					continue
				}
				kept++
			}
			attrs = append(attrs, a)
		}
		m.Attributes = attrs
	}
	b, err := sd.Marshal()
	if err != nil {
		return "", 0, fmt.Errorf("offer: %w", err)
	}
	return string(b), kept, nil
}

// offersH264 reports whether a video section of the offer can receive H.264 (the only video
// the robot sends: its camera's hardware encoder makes nothing else, and the hub never
// transcodes).
func offersH264(offer string) bool {
	var sd sdp.SessionDescription
	if sd.UnmarshalString(offer) != nil {
		return false
	}
	for _, m := range sd.MediaDescriptions {
		if m.MediaName.Media != "video" {
			continue
		}
		for _, a := range m.Attributes {
			if a.Key == "rtpmap" && strings.Contains(strings.ToUpper(a.Value), " H264/") {
				return true
			}
		}
	}
	return false
}

// checkAnswer verifies every candidate of the hub's own answer is a host candidate on one
// of the configured interfaces, at an address inside the allowed networks (the tailnet;
// loopback too in the simulator): the last check before anything leaves the hub.
func checkAnswer(answer string, c call.Config) (int, error) {
	peers, err := c.PeerPrefixes()
	if err != nil {
		return 0, err
	}
	allowed := map[netip.Addr]bool{}
	for _, name := range c.Interfaces {
		ifc, err := net.InterfaceByName(name)
		if err != nil {
			continue
		}
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			if p, err := netip.ParsePrefix(a.String()); err == nil {
				allowed[p.Addr().Unmap()] = true
			}
		}
	}
	n := 0
	for _, line := range strings.Split(answer, "\n") {
		v, ok := strings.CutPrefix(strings.TrimSpace(line), "a=candidate:")
		if !ok {
			continue
		}
		cand, err := ice.UnmarshalCandidate("candidate:" + v)
		if err != nil {
			return n, fmt.Errorf("answer candidate: %w", err)
		}
		a, err := netip.ParseAddr(cand.Address())
		if cand.Type() != ice.CandidateTypeHost || err != nil || !allowed[a.Unmap()] || !allowedPeer(peers, a.AsSlice()) {
			return n, fmt.Errorf("answer candidate %s %s is not a host candidate on %v inside %v", cand.Type(), cand.Address(), c.Interfaces, c.Peers)
		}
		n++
	}
	if n == 0 {
		return 0, fmt.Errorf("no host candidate on %v inside %v", c.Interfaces, c.Peers)
	}
	return n, nil
}
