package media

import (
	"context"
	"io"
	"log/slog"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/sdp/v3"
	"github.com/pion/stun/v4"
	"github.com/pion/webrtc/v4"

	"github.com/reachy-broker/reachy-broker/robot/call"
)

// testBrowser is a pion peer on loopback offering what the console's page offers: the
// robot's video received, the owner's microphone sent.
func testBrowser(t *testing.T) *webrtc.PeerConnection {
	t.Helper()
	me := &webrtc.MediaEngine{}
	if err := me.RegisterDefaultCodecs(); err != nil {
		t.Fatal(err)
	}
	return offeringBrowser(t, me)
}

// offeringBrowser is testBrowser with the codecs of me.
func offeringBrowser(t *testing.T, me *webrtc.MediaEngine) *webrtc.PeerConnection {
	t.Helper()
	var se webrtc.SettingEngine
	se.SetInterfaceFilter(func(name string) bool { return name == "lo" })
	se.SetIncludeLoopbackCandidate(true)
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	pc, err := webrtc.NewAPI(webrtc.WithMediaEngine(me), webrtc.WithSettingEngine(se)).NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeVideo, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
		t.Fatal(err)
	}
	mic, _ := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "mic", "owner")
	if _, err := pc.AddTrack(mic); err != nil {
		t.Fatal(err)
	}
	o, err := pc.CreateOffer(nil)
	if err != nil {
		t.Fatal(err)
	}
	g := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(o); err != nil {
		t.Fatal(err)
	}
	select {
	case <-g:
	case <-time.After(5 * time.Second):
		t.Fatal("browser: gathering did not finish")
	}
	return pc
}

var candidateLine = regexp.MustCompile(`(?m)^a=candidate:(\S+) (\d) (\S+) (\d+) (\S+) (\d+) typ host.*\r?\n`)

// hideAddresses rewrites an offer's host candidates the way a browser without a
// microphone grant does (Chromium: an mDNS name for each address), or to an address the
// hub must not use (a home LAN's), or removes them (Firefox on some machines offers none).
func hideAddresses(offer, how string) string {
	switch how {
	case "mdns":
		return candidateLine.ReplaceAllString(offer, "a=candidate:$1 $2 $3 $4 2f0e3b8c-6a51-4bde-9c2f-5d1e7a0c4b93.local $6 typ host generation 0\r\n")
	case "lan":
		return candidateLine.ReplaceAllString(offer, "a=candidate:$1 $2 $3 $4 192.168.1.20 $6 typ host generation 0\r\n")
	default:
		return candidateLine.ReplaceAllString(offer, "")
	}
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// answerFor runs the hub's side of a call's set-up without its pipelines: the offer
// checked, the peer built, the answer made and checked.
func answerFor(t *testing.T, cfg call.Config, offer string) (*webrtc.PeerConnection, string, int, error) {
	t.Helper()
	s := newSession(call.MediaRequest{Config: cfg, CallID: "c1", N: 1, Offer: offer}, quietLog())
	t.Cleanup(s.stop)
	pc, _, kept, err := s.prepare()
	if err != nil {
		return nil, "", 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	answer, _, err := s.localAnswer(ctx, pc)
	return pc, answer, kept, err
}

func simConfig() call.Config {
	cfg := call.Sim()
	cfg.Defaults()
	return cfg
}

// TestBrowserWithoutUsableCandidatesConnects: an offer whose candidates are all mDNS names
// (Chromium when the owner refused the microphone or listens only), all outside the tailnet
// (a home LAN), or absent (Firefox) is answered — those lines dropped, none used — and the
// call connects: ICE learns the browser's address as a peer-reflexive candidate from the
// browser's own connectivity checks.
func TestBrowserWithoutUsableCandidatesConnects(t *testing.T) {
	for _, how := range []string{"mdns", "lan", "none"} {
		t.Run(how, func(t *testing.T) {
			b := testBrowser(t)
			offer := hideAddresses(b.LocalDescription().SDP, how)
			if strings.Contains(offer, "127.0.0.1") {
				t.Fatalf("the offer still names the browser's address:\n%s", offer)
			}
			hub, answer, kept, err := answerFor(t, simConfig(), offer)
			if err != nil {
				t.Fatalf("the hub refused an offer without a usable candidate: %v", err)
			}
			if kept != 0 {
				t.Fatalf("the hub kept %d of the offer's candidates, want none", kept)
			}
			connected := make(chan struct{})
			hub.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
				if s == webrtc.PeerConnectionStateConnected {
					close(connected)
				}
			})
			if err := b.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: answer}); err != nil {
				t.Fatal(err)
			}
			select {
			case <-connected:
			case <-time.After(10 * time.Second):
				t.Fatalf("the call never connected (hub %s, browser %s)", hub.ConnectionState(), b.ConnectionState())
			}
			pair, err := hub.SCTP().Transport().ICETransport().GetSelectedCandidatePair()
			if err != nil || pair == nil {
				t.Fatalf("no selected pair: %v", err)
			}
			if pair.Remote.Typ != webrtc.ICECandidateTypePrflx || pair.Remote.Address != "127.0.0.1" {
				t.Fatalf("the hub reaches the browser at %s %s, want the peer-reflexive 127.0.0.1 its checks came from", pair.Remote.Typ, pair.Remote.Address)
			}
		})
	}
}

func sdpValue(t *testing.T, sdp, key string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^a=` + key + `:(\S+)`).FindStringSubmatch(sdp)
	if m == nil {
		t.Fatalf("no a=%s in\n%s", key, sdp)
	}
	return m[1]
}

// TestChecksFromOutsideThePeersAreRefused: a connectivity check with the call's own
// credentials is answered only from an address inside the allowed networks: from anywhere
// else it is dropped, and no peer-reflexive candidate is made of it. (Loopback stands in
// for the tailnet: the hub allows 127.0.0.1 only, and a check from 127.0.0.2 is refused.)
func TestChecksFromOutsideThePeersAreRefused(t *testing.T) {
	cfg := simConfig()
	cfg.Peers = []string{"127.0.0.1/32"}
	b := testBrowser(t)
	offer := hideAddresses(b.LocalDescription().SDP, "none")
	_, answer, _, err := answerFor(t, cfg, offer)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^a=candidate:\S+ 1 udp \d+ 127\.0\.0\.1 (\d+) typ host`).FindStringSubmatch(answer)
	if m == nil {
		t.Fatalf("no loopback host candidate in the answer:\n%s", answer)
	}
	hubAddr, _ := net.ResolveUDPAddr("udp4", "127.0.0.1:"+m[1])
	user := sdpValue(t, answer, "ice-ufrag") + ":" + sdpValue(t, offer, "ice-ufrag")
	pwd := sdpValue(t, answer, "ice-pwd")

	check := func(from string) bool {
		t.Helper()
		conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.ParseIP(from)})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		req, err := stun.Build(stun.TransactionID, stun.BindingRequest, stun.NewUsername(user),
			ice.AttrControlling(7), ice.PriorityAttr(2130706431), stun.NewShortTermIntegrity(pwd), stun.Fingerprint)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 1500)
		for range 3 { // UDP: a few tries
			if _, err := conn.WriteToUDP(req.Raw, hubAddr); err != nil {
				t.Fatal(err)
			}
			conn.SetReadDeadline(time.Now().Add(400 * time.Millisecond))
			n, err := conn.Read(buf)
			if err != nil {
				continue
			}
			var res stun.Message
			res.Raw = append([]byte(nil), buf[:n]...)
			if res.Decode() == nil && res.Type == stun.BindingSuccess && res.TransactionID == req.TransactionID {
				return true
			}
		}
		return false
	}
	if check("127.0.0.2") {
		t.Error("a check from 127.0.0.2, outside the allowed networks, was answered")
	}
	if !check("127.0.0.1") {
		t.Error("a check from 127.0.0.1, inside the allowed networks, was not answered: the test cannot tell refusal from silence")
	}
}

// TestBrowserWithoutH264GetsSound: a browser that cannot decode H.264 (Firefox ESR without
// its OpenH264 plugin offers VP8, VP9 and AV1 only) still gets the call, with sound: the
// hub answers its video section without sending (it never transcodes) and the room's audio
// and the owner's voice go on.
func TestBrowserWithoutH264GetsSound(t *testing.T) {
	me := &webrtc.MediaEngine{}
	for _, c := range []struct {
		codec webrtc.RTPCodecParameters
		kind  webrtc.RTPCodecType
	}{
		{webrtc.RTPCodecParameters{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000}, PayloadType: 120}, webrtc.RTPCodecTypeVideo},
		{webrtc.RTPCodecParameters{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeVP9, ClockRate: 90000}, PayloadType: 121}, webrtc.RTPCodecTypeVideo},
		{webrtc.RTPCodecParameters{RTPCodecCapability: opus, PayloadType: 109}, webrtc.RTPCodecTypeAudio},
	} {
		if err := me.RegisterCodec(c.codec, c.kind); err != nil {
			t.Fatal(err)
		}
	}
	b := offeringBrowser(t, me)
	_, answer, _, err := answerFor(t, simConfig(), b.LocalDescription().SDP)
	if err != nil {
		t.Fatalf("the hub refused a browser without H.264: %v", err)
	}
	var sd sdp.SessionDescription
	if err := sd.UnmarshalString(answer); err != nil {
		t.Fatal(err)
	}
	for _, m := range sd.MediaDescriptions {
		sends := false
		for _, a := range m.Attributes {
			sends = sends || a.Key == "sendrecv" || a.Key == "sendonly"
		}
		switch m.MediaName.Media {
		case "video":
			if sends && m.MediaName.Port.Value != 0 {
				t.Errorf("the hub offers to send video the browser cannot decode:\n%s", answer)
			}
		case "audio":
			if !sends {
				t.Errorf("the hub's answer carries no sound:\n%s", answer)
			}
		}
	}
}
