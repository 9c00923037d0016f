package call

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
)

// Why an offer is refused.
var (
	ErrNotLive = errors.New("the session's join has not been played in the room yet")
	ErrBusy    = errors.New("a call is already on")
	ErrNoMedia = errors.New("no media for this offer")
)

// Manager runs at most one call at a time.
type Manager struct {
	Config Config
	// Live reports whether the session's join chime and announcement have played; no offer
	// is served while it is false.
	Live func() bool
	// Prepare runs before the pipelines start (the daemon hands over camera and audio:
	// POST /api/media/release); Finish after they stopped (/acquire). Both optional.
	Prepare func(ctx context.Context) error
	Finish  func(ctx context.Context)
	// Camera is told when the camera goes on and off (the robot shows it with its antennas).
	Camera func(on bool)
	// Ended is told when the hub ended a call by itself (a pipeline died, the peer failed or
	// never connected); reason is api.CallEndMediaFailed.
	Ended func(callID, reason string)
	// OutDir, if set, is where the simulator's playback writes call-owner-N.wav.
	OutDir string
	Log    *slog.Logger

	mu    sync.Mutex
	cur   *session
	calls int
}

// MediaFailed is the end reason of a call the hub ended itself (api.CallEndMediaFailed).
const MediaFailed = "media_failed"

// session is one call: its peer, its pipelines, and how to stop them.
type session struct {
	id      string
	n       int
	started time.Time
	log     *slog.Logger

	mu       sync.Mutex
	stopped  bool
	reason   string
	cleanups []func()
	done     chan struct{} // closed when every cleanup has run
	up       chan struct{} // closed when the answer is out: from then on a failure is reported

	sentVideo, sentAudio, heard atomic.Int64
	pipes                       []*pipeline // for diagnostics and tests
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
func (s *session) stop(reason string) bool {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		<-s.done
		return false
	}
	s.stopped, s.reason = true, reason
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
	return true
}

func (s *session) isStopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped
}

func (m *Manager) log() *slog.Logger {
	if m.Log == nil {
		return slog.Default()
	}
	return m.Log
}

// Active returns the current call's ID, or "".
func (m *Manager) Active() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cur == nil {
		return ""
	}
	return m.cur.id
}

// Offer serves the browser's complete offer: it starts the pipelines and returns the
// hub's complete answer (ICE gathering finished). It refuses with ErrNotLive before the
// join was played, ErrBusy while another call is on, and ErrNoMedia when the offer has no
// usable codec or candidate or a pipeline would not start.
func (m *Manager) Offer(ctx context.Context, callID, offer string) (string, error) {
	m.mu.Lock()
	if m.Live == nil || !m.Live() {
		m.mu.Unlock()
		return "", ErrNotLive
	}
	if m.cur != nil {
		m.mu.Unlock()
		return "", ErrBusy
	}
	m.calls++
	s := &session{id: callID, n: m.calls, started: time.Now(), done: make(chan struct{}), up: make(chan struct{}), log: m.log()}
	m.cur = s
	m.mu.Unlock()

	answer, err := m.setUp(ctx, s, offer)
	if err != nil {
		m.finish(s, "not_started")
		if !errors.Is(err, ErrNotLive) && !errors.Is(err, ErrBusy) {
			m.log().Warn("call refused", "call", callID, "err", err)
		}
		return "", err
	}
	close(s.up)
	return answer, nil
}

// End stops call callID ("" = whichever is on) and returns once its media has stopped.
// Ending a call that is not on does nothing.
func (m *Manager) End(callID, reason string) {
	m.mu.Lock()
	s := m.cur
	m.mu.Unlock()
	if s == nil || (callID != "" && s.id != callID) {
		return
	}
	m.finish(s, reason)
}

// finish stops s and frees the robot for the next call.
func (m *Manager) finish(s *session, reason string) bool {
	first := s.stop(reason)
	m.mu.Lock()
	if m.cur == s {
		m.cur = nil
	}
	m.mu.Unlock()
	if first && reason != "not_started" {
		s.log.Info("call ended", "call", s.id, "reason", reason, "after", time.Since(s.started).Round(time.Millisecond),
			"video_packets", s.sentVideo.Load(), "audio_packets", s.sentAudio.Load(), "owner_packets", s.heard.Load())
	}
	return first
}

// fail ends s on the hub's own initiative and tells the broker; during the set-up a failure
// is the offer's refusal, reported once the answer would have been out.
func (m *Manager) fail(s *session, why string) {
	select {
	case <-s.up:
	case <-s.done:
		return
	}
	if s.isStopped() {
		return
	}
	s.log.Warn("call media failed", "call", s.id, "why", why)
	if m.finish(s, MediaFailed) && m.Ended != nil {
		m.Ended(s.id, MediaFailed)
	}
}

func (m *Manager) setUp(ctx context.Context, s *session, offer string) (string, error) {
	cfg := m.Config
	peers, err := cfg.peerPrefixes()
	if err != nil {
		return "", err
	}
	offer, kept, err := filterOffer(offer, peers)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoMedia, err)
	}
	if kept == 0 {
		return "", fmt.Errorf("%w: the offer has no host candidate in %v", ErrNoMedia, cfg.Peers)
	}
	api, err := cfg.newAPI()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoMedia, err)
	}
	pc, err := api.NewPeerConnection(webrtc.Configuration{}) // no ICE servers: host candidates only
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoMedia, err)
	}
	s.add(func() { closePeer(pc) })

	var video *webrtc.TrackLocalStaticRTP
	if cfg.Video != "" {
		video, err = webrtc.NewTrackLocalStaticRTP(h264, "video", "robot")
		if err != nil {
			return "", err
		}
		if _, err := pc.AddTransceiverFromTrack(video, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
			return "", err
		}
	}
	audio, err := webrtc.NewTrackLocalStaticRTP(opus, "audio", "robot")
	if err != nil {
		return "", err
	}
	if _, err := pc.AddTransceiverFromTrack(audio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendrecv}); err != nil {
		return "", err
	}
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: offer}); err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoMedia, err)
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
		return "", fmt.Errorf("%w: the offer asks for neither video nor audio", ErrNoMedia)
	}
	for _, t := range pc.GetTransceivers() {
		if snd := t.Sender(); snd != nil {
			go drainRTCP(snd)
		}
	}

	// Consent is checked again right before anything is captured.
	if !m.Live() {
		return "", ErrNotLive
	}
	if m.Prepare != nil {
		pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		err := m.Prepare(pctx)
		cancel()
		if err != nil {
			return "", fmt.Errorf("%w: preparing the devices: %v", ErrNoMedia, err)
		}
	}
	if m.Finish != nil {
		s.add(func() {
			fctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			m.Finish(fctx)
		})
	}

	ownerIn, err := m.startMedia(ctx, s, video, audio)
	if err != nil {
		return "", err
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
			once.Do(func() { close(connected) })
		case webrtc.PeerConnectionStateFailed:
			go m.fail(s, "peer connection failed")
		}
	})
	go func() {
		t := time.NewTimer(cfg.ConnectTimeout)
		defer t.Stop()
		select {
		case <-connected:
		case <-s.done:
		case <-t.C:
			m.fail(s, "the browser never connected")
		}
	}()

	ans, err := pc.CreateAnswer(nil)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoMedia, err)
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(ans); err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoMedia, err)
	}
	gctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	select {
	case <-gathered:
	case <-gctx.Done():
		return "", fmt.Errorf("%w: ICE gathering did not finish", ErrNoMedia)
	}
	answer := pc.LocalDescription().SDP
	n, err := checkAnswer(answer, cfg.Interfaces)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoMedia, err)
	}
	if s.isStopped() {
		return "", fmt.Errorf("%w: ended while it was set up", ErrNoMedia)
	}
	s.log.Info("call started", "call", s.id, "video", video != nil, "candidates", n, "remote_candidates", kept)
	return answer, nil
}

// startMedia starts the capture and playback pipelines, forwards their RTP into the tracks,
// and waits (bounded) for each capture pipeline's first packet. It returns the writer of
// the owner's RTP into the playback pipeline.
func (m *Manager) startMedia(ctx context.Context, s *session, video, audio *webrtc.TrackLocalStaticRTP) (io.Writer, error) {
	cfg := m.Config
	owner := os.DevNull
	if m.OutDir != "" {
		owner = filepath.Join(m.OutDir, fmt.Sprintf("call-owner-%d.wav", s.n))
	}
	type capture struct {
		name  string
		r     *os.File
		track *webrtc.TrackLocalStaticRTP
		count *atomic.Int64
		first chan struct{}
		p     *pipeline
	}
	var caps []*capture
	start := func(name, desc string, track *webrtc.TrackLocalStaticRTP, count *atomic.Int64, extra ...*os.File) (*pipeline, error) {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		p, err := startPipeline(cfg.GstLaunch, name, desc, append([]*os.File{w}, extra...)...)
		w.Close()
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("%w: %v", ErrNoMedia, err)
		}
		c := &capture{name: name, r: r, track: track, count: count, first: make(chan struct{}), p: p}
		caps = append(caps, c)
		s.mu.Lock()
		s.pipes = append(s.pipes, p)
		s.mu.Unlock()
		s.add(func() { p.stop(); r.Close() })
		go forwardCapture(r, track, count, c.first)
		go func() {
			select {
			case <-p.exited:
				m.fail(s, fmt.Sprintf("the %s pipeline %s", name, p.failure()))
			case <-s.done:
			}
		}()
		return p, nil
	}
	if video != nil {
		if _, err := start("video", cfg.Video, video, &s.sentVideo); err != nil {
			return nil, err
		}
	}
	ownerR, ownerW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	desc := cfg.Audio + " " + strings.ReplaceAll(cfg.Playback, "{owner_wav}", owner)
	_, err = start("audio", desc, audio, &s.sentAudio, ownerR)
	ownerR.Close()
	if err != nil {
		ownerW.Close()
		return nil, err
	}
	// Closed first among the cleanups' effects: the playback's end of stream.
	s.add(func() { ownerW.Close() })
	if m.Camera != nil && video != nil {
		m.Camera(true)
		s.add(func() { m.Camera(false) })
	}
	t := time.NewTimer(cfg.StartTimeout)
	defer t.Stop()
	for _, c := range caps {
		select {
		case <-c.first:
		case <-c.p.exited:
			return nil, fmt.Errorf("%w: the %s pipeline %s", ErrNoMedia, c.name, c.p.failure())
		case <-t.C:
			return nil, fmt.Errorf("%w: the %s pipeline sent nothing in %s", ErrNoMedia, c.name, cfg.StartTimeout)
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.done:
			return nil, fmt.Errorf("%w: ended while it was set up", ErrNoMedia)
		}
	}
	return ownerW, nil
}

// forwardCapture moves a pipeline's RTP into a track, unchanged (pion sets the SSRC and
// payload type the browser negotiated). It ends when the pipe closes.
func forwardCapture(r io.Reader, track *webrtc.TrackLocalStaticRTP, count *atomic.Int64, first chan struct{}) {
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
