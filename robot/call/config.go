package call

import (
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Config is the `call:` section of the hub's configuration.
//
// The pipelines are gst-launch-1.0 descriptions. The hub runs the video pipeline as one
// subprocess and the audio and playback pipelines together as a second one (the echo
// canceller, webrtcdsp, finds the speaker's webrtcechoprobe by name, so both must live in
// one process). RTP crosses the process boundary on pipes, framed as RFC 4571 (a 16-bit
// length before each packet), so no other program on the robot can read or inject it:
//   - video writes H.264 RTP to fd 3:  ... ! rtph264pay ! rtpstreampay ! fdsink fd=3
//   - audio writes Opus RTP to fd 3:   ... ! rtpopuspay ! rtpstreampay ! fdsink fd=3
//   - playback reads Opus RTP (payload type 111) from fd 4:
//     fdsrc fd=4 ! application/x-rtp-stream,media=audio,clock-rate=48000,encoding-name=OPUS,payload=111 ! rtpstreamdepay ! ...
//
// In a playback description {owner_wav} names the file the simulator writes what the owner
// said to (/dev/null without --out).
type Config struct {
	// Interfaces whose addresses become the hub's ICE host candidates; default tailscale0.
	// "lo" (loopback) is for the simulator and tests.
	Interfaces []string `yaml:"interfaces"`
	// Peers are the networks a remote candidate must be in; default the tailnet's
	// 100.64.0.0/10 and fd7a:115c:a1e0::/48. Anything else in an offer is dropped.
	Peers []string `yaml:"peers"`
	// UDPPortMin..UDPPortMax is the range the media sockets use (the tailnet policy opens
	// it to owners); default 40000-40099.
	UDPPortMin uint16 `yaml:"udp_port_min"`
	UDPPortMax uint16 `yaml:"udp_port_max"`
	Video      string `yaml:"video"`    // camera -> H.264 RTP on fd 3; "" = no video
	Audio      string `yaml:"audio"`    // microphone -> Opus RTP on fd 3 (with webrtcdsp)
	Playback   string `yaml:"playback"` // Opus RTP on fd 4 -> speaker (with webrtcechoprobe)
	// GstLaunch is the gst-launch-1.0 binary; default found on PATH.
	GstLaunch string `yaml:"gst_launch"`
	// StartTimeout bounds how long a capture pipeline may take to send its first packet;
	// default 4s. ConnectTimeout ends a call whose browser never connects; default 15s.
	StartTimeout   time.Duration `yaml:"start_timeout"`
	ConnectTimeout time.Duration `yaml:"connect_timeout"`
	// Binary is the call's media program, reachy-call, which the hub starts for the length of
	// each call; default reachy-call beside the hub's own executable, else on PATH.
	Binary string `yaml:"binary"`
}

// Tailnet ranges: Tailscale's CGNAT IPv4 block and its IPv6 ULA prefix.
var tailnetPeers = []string{"100.64.0.0/10", "fd7a:115c:a1e0::/48"}

// ReachyMini returns the pipelines for the robot: the Raspberry Pi CM4's camera through
// libcamera and its hardware H.264 encoder (v4l2h264enc, a keyframe every 30 frames ≈ 1 s:
// a gst-launch subprocess cannot answer the browser's keyframe requests), the XVF3800
// microphone array through the daemon's shared ALSA devices, with webrtcdsp cancelling what
// the speaker plays (webrtcechoprobe on the playback path).
func ReachyMini() Config {
	return Config{
		Video: "libcamerasrc ! video/x-raw,width=1280,height=720,framerate=30/1,format=NV12 ! " +
			`v4l2h264enc extra-controls="controls,repeat_sequence_header=1,h264_i_frame_period=30,video_bitrate=2000000" ! ` +
			"video/x-h264,profile=constrained-baseline,level=(string)3.1 ! h264parse config-interval=-1 ! " +
			"rtph264pay pt=96 mtu=1200 config-interval=-1 aggregate-mode=zero-latency ! rtpstreampay ! fdsink fd=3",
		Audio: "alsasrc device=reachymini_audio_src ! audioconvert ! audioresample ! " +
			"audio/x-raw,format=S16LE,rate=48000,channels=1 ! webrtcdsp echo-cancel=true noise-suppression=true gain-control=false ! " +
			"audioconvert ! opusenc bitrate=32000 ! rtpopuspay pt=111 ! rtpstreampay ! fdsink fd=3",
		Playback: playbackIn + " ! audioconvert ! audioresample ! audio/x-raw,format=S16LE,rate=48000,channels=1 ! " +
			"webrtcechoprobe ! audioconvert ! audioresample ! alsasink device=reachymini_audio_sink async=false",
	}
}

// playbackIn decodes the owner's Opus RTP from fd 4.
const playbackIn = "fdsrc fd=4 do-timestamp=true ! " +
	"application/x-rtp-stream,media=audio,clock-rate=48000,encoding-name=OPUS,payload=111 ! rtpstreamdepay ! " +
	"rtpjitterbuffer latency=60 ! rtpopusdepay ! opusdec"

// Sim returns the simulator's pipelines: a moving test picture (x264, zero latency, a
// keyframe every second), a 440 Hz room tone at -15 dBFS RMS (SimRoomToneHz,
// SimRoomToneAmp), and a speaker that writes what the owner said to {owner_wav} and also
// leaks it into the room's microphone at -6 dB — the echo the canceller must remove.
func Sim() Config {
	return Config{
		Interfaces: []string{"lo"},
		Video:      SimVideo(640, 360, 30, 800),
		Audio: fmt.Sprintf("audiotestsrc is-live=true wave=sine freq=%d volume=%g ! ", SimRoomToneHz, SimRoomToneAmp) +
			"audio/x-raw,format=S16LE,rate=48000,channels=1 ! room. " +
			"audiomixer name=room ! audio/x-raw,format=S16LE,rate=48000,channels=1 ! " +
			"webrtcdsp echo-cancel=true echo-suppression-level=low noise-suppression=false gain-control=false high-pass-filter=false ! " +
			"audioconvert ! opusenc bitrate=64000 ! rtpopuspay pt=111 ! rtpstreampay ! fdsink fd=3",
		Playback: playbackIn + " ! audioconvert ! audioresample ! audio/x-raw,format=S16LE,rate=48000,channels=1 ! " +
			"webrtcechoprobe ! tee name=speaker " +
			"speaker. ! queue ! wavenc ! filesink async=false sync=true location={owner_wav} " +
			"speaker. ! queue ! volume volume=0.5 ! room.",
	}
}

// The simulator's room tone.
const (
	SimRoomToneHz  = 440
	SimRoomToneAmp = 0.25 // peak; RMS 0.177 (-15 dBFS)
)

// SimVideo is the simulator's test picture as H.264 RTP: width x height at fps, kbps — colour
// bars scrolling sideways, so a screenshot of a call shows the picture and every frame moves.
func SimVideo(width, height, fps, kbps int) string {
	return fmt.Sprintf("videotestsrc is-live=true pattern=smpte horizontal-speed=2 ! video/x-raw,width=%d,height=%d,framerate=%d/1 ! ", width, height, fps) +
		fmt.Sprintf("x264enc tune=zerolatency speed-preset=ultrafast key-int-max=%d bitrate=%d ! ", fps, kbps) +
		"video/x-h264,profile=constrained-baseline ! " +
		"rtph264pay pt=96 mtu=1200 config-interval=-1 aggregate-mode=zero-latency ! rtpstreampay ! fdsink fd=3"
}

// Defaults fills what the file left out; empty pipelines take the Reachy Mini's.
func (c *Config) Defaults() { c.DefaultsFrom(ReachyMini()) }

// DefaultsFrom fills what the file left out from base (Sim() in the simulator). Remote
// candidates default to the tailnet, and to loopback too when "lo" is an interface.
func (c *Config) DefaultsFrom(robot Config) {
	if len(c.Interfaces) == 0 {
		c.Interfaces = robot.Interfaces
	}
	if len(c.Interfaces) == 0 {
		c.Interfaces = []string{"tailscale0"}
	}
	if len(c.Peers) == 0 {
		c.Peers = append([]string(nil), tailnetPeers...)
		if slices.Contains(c.Interfaces, "lo") {
			c.Peers = append(c.Peers, "127.0.0.0/8", "::1/128")
		}
	}
	if c.UDPPortMin == 0 && c.UDPPortMax == 0 {
		c.UDPPortMin, c.UDPPortMax = 40000, 40099
	}
	if c.Video == "" {
		c.Video = robot.Video
	}
	if c.Audio == "" {
		c.Audio = robot.Audio
	}
	if c.Playback == "" {
		c.Playback = robot.Playback
	}
	if c.GstLaunch == "" {
		c.GstLaunch = "gst-launch-1.0"
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = 4 * time.Second
	}
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = 15 * time.Second
	}
}

// Validate checks the values (after Defaults).
func (c *Config) Validate(where string) error {
	if _, err := c.PeerPrefixes(); err != nil {
		return fmt.Errorf("%s: call.peers: %w", where, err)
	}
	if c.UDPPortMin == 0 || c.UDPPortMax < c.UDPPortMin {
		return fmt.Errorf("%s: call.udp_port_min..udp_port_max must be a range of ports (e.g. 40000..40099)", where)
	}
	if !strings.Contains(c.Audio, "fd=3") || !strings.Contains(c.Playback, "fd=4") {
		return fmt.Errorf("%s: call.audio must write RTP to fd 3 and call.playback read it from fd 4 (see docs/configuration.md)", where)
	}
	if c.Video != "" && !strings.Contains(c.Video, "fd=3") {
		return fmt.Errorf("%s: call.video must write RTP to fd 3 (see docs/configuration.md)", where)
	}
	return nil
}

// PeerPrefixes parses Peers.
func (c *Config) PeerPrefixes() ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range c.Peers {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// MediaProgram is the name of the call's media program (cmd/reachy-call).
const MediaProgram = "reachy-call"

// MediaBinary finds the call's media program: Binary when it names a path, else the program
// (Binary, or reachy-call) beside the hub's own executable, then on PATH. The error says
// where it looked and how to build it.
func (c *Config) MediaBinary() (string, error) {
	name := c.Binary
	if name == "" {
		name = MediaProgram
	}
	if strings.ContainsRune(name, filepath.Separator) {
		if err := executable(name); err != nil {
			return "", fmt.Errorf("call.binary %s: %w (build it with `make build`: bin/%s)", name, err, MediaProgram)
		}
		return name, nil
	}
	var beside string
	if self, err := os.Executable(); err == nil {
		beside = filepath.Join(filepath.Dir(self), name)
		if executable(beside) == nil {
			return beside, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("the live call's media program %s is neither at %s nor on PATH: build it with `make build` (bin/%s) and install it beside reachy-hub, or name it with call.binary", name, beside, MediaProgram)
}

// executable reports why path is not a program that can be run.
func executable(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.IsDir() || st.Mode()&0o111 == 0 {
		return &fs.PathError{Op: "run", Path: path, Err: errors.New("not an executable file")}
	}
	return nil
}
