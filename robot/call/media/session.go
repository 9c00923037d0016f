package media

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/reachy-broker/reachy-broker/robot/call"
)

// errStopped is a set-up cut short because the hub ended the call.
var errStopped = errors.New("ended while it was set up")

// session is one call: its peer, its pipelines, and how to stop them.
type session struct {
	req call.MediaRequest
	log *slog.Logger

	mu       sync.Mutex
	stopped  bool
	cleanups []func()
	done     chan struct{} // closed when every cleanup has run

	failOnce sync.Once
	failed   chan struct{} // closed on the first failure; why says what, cause which (call.Cause…)
	why      string
	cause    string
	remote   int // the offer's tailnet host candidates: none, and a failed ICE is no_tailnet_route

	sentVideo, sentAudio, heard atomic.Int64
	connected                   atomic.Bool // the browser's peer connection is up: the video's held keyframe goes first
}

func newSession(req call.MediaRequest, log *slog.Logger) *session {
	return &session{req: req, log: log, done: make(chan struct{}), failed: make(chan struct{})}
}

// add registers a cleanup; on a session already stopping it runs at once and add is false.
func (s *session) add(f func()) bool {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		f()
		return false
	}
	s.cleanups = append(s.cleanups, f)
	s.mu.Unlock()
	return true
}

// stop runs every cleanup at once (they are each bounded) and waits for them; only the
// first call does anything, the others wait for it.
func (s *session) stop() {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		<-s.done
		return
	}
	s.stopped = true
	fs := s.cleanups
	s.cleanups = nil
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, f := range fs {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	wg.Wait()
	close(s.done)
}

// fail records the call's first failure and its cause.
func (s *session) fail(cause, why string) {
	s.failOnce.Do(func() {
		s.why, s.cause = why, cause
		close(s.failed)
	})
}

// iceCause is the cause of a peer that never connected or lost its connection: the browser
// offered no tailnet address at all (Tailscale is not running on its device, or it hid its
// addresses and its own checks never reached the robot), or ICE failed between them.
func (s *session) iceCause() string {
	if s.remote == 0 {
		return call.CauseNoTailnetRoute
	}
	return call.CauseICEFailed
}

// causeError is a refusal that names its cause (call.Cause…).
type causeError struct {
	cause string
	err   error
}

func (e *causeError) Error() string { return e.err.Error() }
func (e *causeError) Unwrap() error { return e.err }

// causeOf is the cause a refusal names, or call.CauseMedia.
func causeOf(err error) string {
	var ce *causeError
	if errors.As(err, &ce) {
		return ce.cause
	}
	return call.CauseMedia
}

func (s *session) stats() call.MediaEvent {
	return call.MediaEvent{Kind: call.EventStats, VideoPackets: s.sentVideo.Load(), AudioPackets: s.sentAudio.Load(), OwnerPackets: s.heard.Load()}
}

// prepare checks the offer and builds the peer: it returns once the call needs nothing but
// the devices. An error is the offer's refusal.
func (s *session) prepare() (*webrtc.PeerConnection, tracks, int, error) {
	cfg := s.req.Config
	var tr tracks
	peers, err := cfg.PeerPrefixes()
	if err != nil {
		return nil, tr, 0, err
	}
	offer, kept, err := filterOffer(s.req.Offer, peers)
	if err != nil {
		return nil, tr, 0, err
	}
	if kept == 0 {
		// A browser names its addresses as mDNS names unless the page holds a microphone
		// (Chromium), or offers none on the tailnet at all (Firefox): its checks to the
		// answer's candidates tell ICE where it is.
		s.log.Info("the offer names no usable candidate: the browser's address comes from its checks", "peers", cfg.Peers)
	}
	s.remote = kept
	api, err := newAPI(&cfg)
	if err != nil {
		return nil, tr, 0, err
	}
	pc, err := api.NewPeerConnection(webrtc.Configuration{}) // no ICE servers: host candidates only
	if err != nil {
		return nil, tr, 0, err
	}
	s.add(func() { closePeer(pc) })

	video := cfg.Video != ""
	if video && !offersH264(offer) {
		// The browser cannot decode the robot's H.264 (Firefox without its OpenH264 plugin
		// offers VP8, VP9 and AV1 only): the call goes on with sound, the camera stays off,
		// and the page says why there is no picture.
		s.log.Warn("the browser's offer has no H.264 video: the call carries sound only")
		video = false
	}
	if video {
		tr.video, err = webrtc.NewTrackLocalStaticRTP(h264, "video", "robot")
		if err != nil {
			return nil, tr, 0, err
		}
		if _, err := pc.AddTransceiverFromTrack(tr.video, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
			return nil, tr, 0, err
		}
	}
	tr.audio, err = webrtc.NewTrackLocalStaticRTP(opus, "audio", "robot")
	if err != nil {
		return nil, tr, 0, err
	}
	if _, err := pc.AddTransceiverFromTrack(tr.audio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendrecv}); err != nil {
		return nil, tr, 0, err
	}
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: offer}); err != nil {
		return nil, tr, 0, err
	}
	// The owner's camera is never taken: every section the hub did not offer a track for
	// (their video, a second audio) is answered inactive.
	sending := 0
	for _, t := range pc.GetTransceivers() {
		if t.Sender() == nil || t.Mid() == "" {
			t.Stop()
			continue
		}
		sending++
	}
	if sending == 0 {
		return nil, tr, 0, errors.New("the offer asks for neither video nor audio")
	}
	for _, t := range pc.GetTransceivers() {
		if snd := t.Sender(); snd != nil {
			go drainRTCP(snd)
		}
	}
	return pc, tr, kept, nil
}

// tracks are the robot's outgoing tracks (video is nil without a camera pipeline).
type tracks struct {
	video, audio *webrtc.TrackLocalStaticRTP
}

// answer starts the media (the hub has said the devices are the call's), wires the owner's
// voice to the speaker, and returns the checked answer once ICE gathering finished.
func (s *session) answer(ctx context.Context, pc *webrtc.PeerConnection, tr tracks, captures func(video bool)) (string, int, error) {
	cfg := s.req.Config
	ownerIn, err := s.startMedia(ctx, tr, captures)
	if err != nil {
		return "", 0, err
	}
	pc.OnTrack(func(t *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		if t.Kind() != webrtc.RTPCodecTypeAudio || !strings.EqualFold(t.Codec().MimeType, webrtc.MimeTypeOpus) {
			return // never read: the owner's camera does not reach the robot
		}
		go forwardOwner(t, ownerIn, &s.heard)
	})
	connected := make(chan struct{})
	var once sync.Once
	pc.OnConnectionStateChange(func(st webrtc.PeerConnectionState) {
		switch st {
		case webrtc.PeerConnectionStateConnected:
			s.connected.Store(true)
			once.Do(func() { close(connected) })
		case webrtc.PeerConnectionStateFailed:
			s.fail(s.iceCause(), "peer connection failed")
		}
	})
	go func() {
		t := time.NewTimer(cfg.ConnectTimeout)
		defer t.Stop()
		select {
		case <-connected:
		case <-s.done:
		case <-t.C:
			s.fail(s.iceCause(), "the browser never connected")
		}
	}()

	return s.localAnswer(ctx, pc)
}

// localAnswer makes the answer, waits (bounded) for ICE gathering to finish, and checks it.
func (s *session) localAnswer(ctx context.Context, pc *webrtc.PeerConnection) (string, int, error) {
	ans, err := pc.CreateAnswer(nil)
	if err != nil {
		return "", 0, err
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(ans); err != nil {
		return "", 0, err
	}
	gctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	select {
	case <-gathered:
	case <-gctx.Done():
		return "", 0, errors.New("ICE gathering did not finish")
	case <-s.done:
		return "", 0, errStopped
	}
	answer := pc.LocalDescription().SDP
	n, err := checkAnswer(answer, s.req.Config)
	if err != nil {
		return "", 0, err
	}
	return answer, n, nil
}

// startMedia starts the capture and playback pipelines, forwards their RTP into the tracks,
// and waits (bounded) for each capture pipeline's first packet. It returns the writer of
// the owner's RTP into the playback pipeline.
func (s *session) startMedia(ctx context.Context, tr tracks, captures func(video bool)) (io.Writer, error) {
	cfg := s.req.Config
	owner := os.DevNull
	if s.req.OutDir != "" {
		owner = filepath.Join(s.req.OutDir, fmt.Sprintf("call-owner-%d.wav", s.req.N))
	}
	type capture struct {
		name  string
		first chan struct{}
		p     *pipeline
	}
	var caps []*capture
	start := func(name, desc string, track *webrtc.TrackLocalStaticRTP, count *atomic.Int64, held *gop, extra ...*os.File) error {
		r, w, err := os.Pipe()
		if err != nil {
			return err
		}
		p, err := startPipeline(cfg.GstLaunch, name, desc, append([]*os.File{w}, extra...)...)
		w.Close()
		if err != nil {
			r.Close()
			return err
		}
		c := &capture{name: name, first: make(chan struct{}), p: p}
		caps = append(caps, c)
		s.add(func() { p.stop(); r.Close() })
		go forwardCapture(r, track, count, c.first, &s.connected, held)
		go func() {
			select {
			case <-p.exited:
				s.fail(call.CauseMedia, fmt.Sprintf("the %s pipeline %s", name, p.failure()))
			case <-s.done:
			}
		}()
		return nil
	}
	if tr.video != nil {
		if err := start("video", cfg.Video, tr.video, &s.sentVideo, &gop{}); err != nil {
			return nil, err
		}
	}
	ownerR, ownerW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	desc := cfg.Audio + " " + strings.ReplaceAll(cfg.Playback, "{owner_wav}", owner)
	err = start("audio", desc, tr.audio, &s.sentAudio, nil, ownerR)
	ownerR.Close()
	if err != nil {
		ownerW.Close()
		return nil, err
	}
	// Closed first among the cleanups' effects: the playback's end of stream.
	s.add(func() { ownerW.Close() })
	captures(tr.video != nil)
	t := time.NewTimer(cfg.StartTimeout)
	defer t.Stop()
	for _, c := range caps {
		select {
		case <-c.first:
		case <-c.p.exited:
			return nil, fmt.Errorf("the %s pipeline %s", c.name, c.p.failure())
		case <-t.C:
			return nil, &causeError{call.CauseMediaStartSlow, fmt.Errorf("the %s pipeline sent nothing in %s", c.name, cfg.StartTimeout)}
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.done:
			return nil, errStopped
		}
	}
	return ownerW, nil
}

// forwardCapture moves a pipeline's RTP into a track, unchanged (pion sets the SSRC and
// payload type the browser negotiated). With held (the video), what comes before the browser
// is connected is held from its last keyframe on and sent first once it is. It ends when
// the pipe closes.
func forwardCapture(r io.Reader, track *webrtc.TrackLocalStaticRTP, count *atomic.Int64, first chan struct{}, connected *atomic.Bool, held *gop) {
	fr := newFramedReader(r)
	var pkt rtp.Packet
	for {
		b, err := fr.next()
		if err != nil {
			return
		}
		if err := pkt.Unmarshal(b); err != nil {
			continue
		}
		if count.Add(1) == 1 {
			close(first)
		}
		if held != nil {
			if !connected.Load() {
				held.keep(&pkt)
				continue
			}
			for _, p := range held.take() {
				track.WriteRTP(p)
			}
			held = nil
		}
		track.WriteRTP(&pkt) // no receiver yet, or gone: dropped, like on the wire
	}
}

// forwardOwner moves the owner's Opus RTP into the playback pipeline with the payload type
// it expects. It ends when the track or the pipe ends.
func forwardOwner(t *webrtc.TrackRemote, w io.Writer, count *atomic.Int64) {
	buf := make([]byte, maxRTP)
	scratch := make([]byte, 0, maxRTP+2)
	for {
		n, _, err := t.Read(buf)
		if err != nil {
			return
		}
		if n < 12 {
			continue
		}
		buf[1] = buf[1]&0x80 | opusPT
		if err := writeFrame(w, scratch, buf[:n]); err != nil {
			return
		}
		count.Add(1)
	}
}

// drainRTCP reads a sender's RTCP so its interceptors run (NACKs are answered from their
// buffer; keyframe requests cannot be: the encoder sends one every second).
func drainRTCP(s *webrtc.RTPSender) {
	buf := make([]byte, maxRTP)
	for {
		if _, _, err := s.Read(buf); err != nil {
			return
		}
	}
}

// closePeer closes pc, waiting at most 500 ms (its goroutines end on their own).
func closePeer(pc *webrtc.PeerConnection) {
	done := make(chan struct{})
	go func() { pc.Close(); close(done) }()
	t := time.NewTimer(500 * time.Millisecond)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}
