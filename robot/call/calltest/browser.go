// Package calltest is the owner's browser in tests of a live call: an in-process pion peer
// that offers to receive the robot's video and audio and sends a test tone as the owner's
// voice (GStreamer encodes it), and measures what arrives. It runs only on loopback; it is
// test tooling and must never be linked into a binary.
package calltest

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// NeedGst skips a media test when GStreamer (or one of the elements the pipelines use) is
// not installed; deploy/scripts/deps.sh installs it.
func NeedGst(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("gst-launch-1.0"); err != nil {
		t.Skip("GStreamer is not installed (gst-launch-1.0 not on PATH): run deploy/scripts/deps.sh")
	}
	for _, e := range []string{"x264enc", "opusenc", "webrtcdsp", "rtpstreampay", "audiomixer"} {
		if err := exec.Command("gst-inspect-1.0", "--exists", e).Run(); err != nil {
			t.Skipf("GStreamer element %s is missing: run deploy/scripts/deps.sh (gstreamer1.0-plugins-good/-ugly/-bad)", e)
		}
	}
}

// Browser is an in-process pion peer playing the owner's browser: it offers to receive
// video and audio and sends a test tone as the owner's voice.
type Browser struct {
	t  testing.TB
	pc *webrtc.PeerConnection

	mu         sync.Mutex
	frames     []time.Time // arrival of each video frame's last packet
	keyframes  map[uint32]time.Time
	pcm        []int16 // the room's audio, decoded
	lastPacket time.Time
	packets    int
	// The first keyframe's arrival, and the frames that arrived before it: a browser throws
	// those away, showing nothing until the keyframe.
	firstKey        time.Time
	framesBeforeKey int

	tone    *proc
	decoder *proc
}

// OwnerToneHz is the owner's test tone, at -15 dBFS RMS.
const OwnerToneHz = 660

func NewBrowser(t testing.TB, sendVideo bool) *Browser {
	t.Helper()
	me := &webrtc.MediaEngine{}
	if err := me.RegisterDefaultCodecs(); err != nil {
		t.Fatal(err)
	}
	var se webrtc.SettingEngine
	se.SetInterfaceFilter(func(name string) bool { return name == "lo" })
	se.SetIncludeLoopbackCandidate(true)
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	api := webrtc.NewAPI(webrtc.WithMediaEngine(me), webrtc.WithSettingEngine(se))
	pc, err := api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		t.Fatal(err)
	}
	b := &Browser{t: t, pc: pc, keyframes: map[uint32]time.Time{}}
	t.Cleanup(b.Close)
	if sendVideo {
		// A browser that offers its camera: the hub must not take it.
		cam, _ := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeH264}, "cam", "owner")
		if _, err := pc.AddTransceiverFromTrack(cam, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendrecv}); err != nil {
			t.Fatal(err)
		}
	} else if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeVideo, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
		t.Fatal(err)
	}
	voice, _ := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "mic", "owner")
	if _, err := pc.AddTransceiverFromTrack(voice, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendrecv}); err != nil {
		t.Fatal(err)
	}
	// The owner's voice: a 660 Hz tone at -15 dBFS RMS, Opus-encoded by GStreamer.
	r, w, _ := os.Pipe()
	b.tone, err = startGst(fmt.Sprintf("audiotestsrc is-live=true wave=sine freq=%d volume=0.25 ! "+
		"audio/x-raw,format=S16LE,rate=48000,channels=1 ! opusenc bitrate=64000 ! rtpopuspay pt=111 ! rtpstreampay ! fdsink fd=3", OwnerToneHz), w)
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	go forwardRTP(r, voice)
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		if tr.Kind() == webrtc.RTPCodecTypeVideo {
			go b.readVideo(tr)
		} else {
			go b.readAudio(tr)
		}
	})
	return b
}

// Offer returns the browser's complete offer (gathering finished).
func (b *Browser) Offer() string {
	b.t.Helper()
	o, err := b.pc.CreateOffer(nil)
	if err != nil {
		b.t.Fatal(err)
	}
	g := webrtc.GatheringCompletePromise(b.pc)
	if err := b.pc.SetLocalDescription(o); err != nil {
		b.t.Fatal(err)
	}
	select {
	case <-g:
	case <-time.After(5 * time.Second):
		b.t.Fatal("browser: gathering did not finish")
	}
	return b.pc.LocalDescription().SDP
}

func (b *Browser) Accept(answer string) {
	b.t.Helper()
	if err := b.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: answer}); err != nil {
		b.t.Fatal(err)
	}
}

func (b *Browser) readVideo(tr *webrtc.TrackRemote) {
	var p rtp.Packet
	buf := make([]byte, 1500)
	for {
		n, _, err := tr.Read(buf)
		if err != nil {
			return
		}
		if p.Unmarshal(buf[:n]) != nil {
			continue
		}
		now := time.Now()
		b.mu.Lock()
		b.packets++
		b.lastPacket = now
		if isKeyframe(p.Payload) {
			if _, ok := b.keyframes[p.Timestamp]; !ok {
				b.keyframes[p.Timestamp] = now
			}
			if b.firstKey.IsZero() {
				b.firstKey = now
			}
		}
		if p.Marker {
			b.frames = append(b.frames, now)
			if b.firstKey.IsZero() {
				b.framesBeforeKey++
			}
		}
		b.mu.Unlock()
	}
}

// isKeyframe reports whether an H.264 RTP payload carries (the start of) an IDR slice.
func isKeyframe(pl []byte) bool {
	if len(pl) < 2 {
		return false
	}
	switch pl[0] & 0x1f {
	case 5:
		return true
	case 24: // STAP-A
		for i := 1; i+2 < len(pl); {
			n := int(binary.BigEndian.Uint16(pl[i:]))
			if i+2 < len(pl) && pl[i+2]&0x1f == 5 {
				return true
			}
			i += 2 + n
		}
	case 28: // FU-A
		return pl[1]&0x80 != 0 && pl[1]&0x1f == 5
	}
	return false
}

// readAudio decodes the room's audio with GStreamer into 48 kHz mono PCM.
func (b *Browser) readAudio(tr *webrtc.TrackRemote) {
	in, inW, _ := os.Pipe()
	outR, out, _ := os.Pipe()
	// No jitter buffer: on loopback packets arrive in order, and the decoder's output is
	// measured, not played.
	dec, err := startGst("fdsrc fd=4 ! "+
		"application/x-rtp-stream,media=audio,clock-rate=48000,encoding-name=OPUS,payload=111 ! rtpstreamdepay ! "+
		"rtpopusdepay ! opusdec ! audioconvert ! audioresample ! "+
		"audio/x-raw,format=S16LE,rate=48000,channels=1 ! fdsink fd=3 async=false", out, in)
	in.Close()
	out.Close()
	if err != nil {
		b.t.Error(err)
		return
	}
	b.mu.Lock()
	b.decoder = dec
	b.mu.Unlock()
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := outR.Read(buf)
			b.mu.Lock()
			for i := 0; i+1 < n; i += 2 {
				b.pcm = append(b.pcm, int16(binary.LittleEndian.Uint16(buf[i:])))
			}
			b.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	buf := make([]byte, 1500)
	scratch := make([]byte, 0, 1502)
	for {
		n, _, err := tr.Read(buf)
		if err != nil {
			inW.Close()
			return
		}
		b.mu.Lock()
		b.packets++
		b.lastPacket = time.Now()
		b.mu.Unlock()
		buf[1] = buf[1]&0x80 | opusPT
		writeFrame(inW, scratch, buf[:n])
	}
}

// StopVoice ends the owner's tone: from then on the owner is silent.
func (b *Browser) StopVoice() { b.tone.stop() }

// Stats is what has arrived so far.
type Stats struct {
	Frames     []time.Time // arrival of each video frame's last packet
	Keyframes  int         // distinct keyframes
	Packets    int         // RTP packets, video and audio
	LastPacket time.Time
	Samples    int // decoded room audio, 48 kHz
	// FirstKeyframe is when the first keyframe arrived (zero: none yet); FramesBeforeKeyframe
	// counts the frames that came before it, which a browser cannot show.
	FirstKeyframe        time.Time
	FramesBeforeKeyframe int
}

// Stats returns what has arrived so far.
func (b *Browser) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return Stats{Frames: append([]time.Time(nil), b.frames...), Keyframes: len(b.keyframes), Packets: b.packets,
		LastPacket: b.lastPacket, Samples: len(b.pcm), FirstKeyframe: b.firstKey, FramesBeforeKeyframe: b.framesBeforeKey}
}

// FramesBetween counts the video frames that arrived in [from, to).
func (s Stats) FramesBetween(from, to time.Time) int {
	n := 0
	for _, f := range s.Frames {
		if !f.Before(from) && f.Before(to) {
			n++
		}
	}
	return n
}

// Close ends the browser: its peer and its GStreamer processes.
func (b *Browser) Close() {
	b.pc.Close()
	b.tone.stop()
	b.mu.Lock()
	d := b.decoder
	b.mu.Unlock()
	if d != nil {
		d.stop()
	}
}

// WaitAudio waits (at most within) for d of the room's decoded audio; it fails the test
// with what the decoder said if it does not come.
func (b *Browser) WaitAudio(d, within time.Duration) {
	b.t.Helper()
	need := int(d.Seconds() * 48000)
	deadline := time.Now().Add(within)
	for b.Stats().Samples < need {
		if time.Now().After(deadline) {
			b.mu.Lock()
			dec := b.decoder
			b.mu.Unlock()
			why := "no audio track"
			if dec != nil {
				why = "decoder: " + dec.log()
			}
			b.t.Fatalf("%s of room audio did not arrive in %s (%d samples; %s)", d, within, b.Stats().Samples, why)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// LastSeconds returns the last d of the room's decoded audio.
func (b *Browser) LastSeconds(d time.Duration) []int16 {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := int(d.Seconds() * 48000)
	if n > len(b.pcm) {
		return nil
	}
	return append([]int16(nil), b.pcm[len(b.pcm)-n:]...)
}

// ToneDB is the RMS level (dBFS) of the f Hz component of 48 kHz PCM (Goertzel).
func ToneDB(pcm []int16, f float64) float64 {
	if len(pcm) == 0 {
		return math.Inf(-1)
	}
	w := 2 * math.Pi * f / 48000
	coeff := 2 * math.Cos(w)
	var s1, s2 float64
	for _, v := range pcm {
		s := float64(v)/32768 + coeff*s1 - s2
		s2, s1 = s1, s
	}
	power := s1*s1 + s2*s2 - coeff*s1*s2
	amp := 2 * math.Sqrt(math.Max(power, 0)) / float64(len(pcm))
	return 20 * math.Log10(amp/math.Sqrt2)
}

// ReadWAV reads a 16-bit mono WAV, tolerating a header whose sizes were never finalised.
func ReadWAV(path string) ([]int16, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	i := strings.Index(string(b), "data")
	if i < 0 || len(b) < i+8 {
		return nil, io.ErrUnexpectedEOF
	}
	b = b[i+8:]
	out := make([]int16, len(b)/2)
	for j := range out {
		out[j] = int16(binary.LittleEndian.Uint16(b[2*j:]))
	}
	return out, nil
}
