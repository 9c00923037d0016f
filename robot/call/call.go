package call

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Why an offer is refused. The last three are kinds of ErrNoMedia that name their cause.
var (
	ErrNotLive        = errors.New("the session's join has not been played in the room yet")
	ErrBusy           = errors.New("a call is already on")
	ErrNoMedia        = errors.New("no media for this offer")
	ErrNoTailnetRoute = fmt.Errorf("%w: the offer names no address the robot can reach on the tailnet", ErrNoMedia)
	ErrMediaStartSlow = fmt.Errorf("%w: a media pipeline was too slow to start", ErrNoMedia)
	ErrDeviceBusy     = fmt.Errorf("%w: the robot's camera and microphone were not released", ErrNoMedia)
)

// causeErr is the refusal error of a media process's cause.
func causeErr(cause string) error {
	switch cause {
	case CauseNoTailnetRoute:
		return ErrNoTailnetRoute
	case CauseMediaStartSlow:
		return ErrMediaStartSlow
	case CauseDeviceBusy:
		return ErrDeviceBusy
	}
	return ErrNoMedia
}

// Cause is the closed cause of an offer's refusal (one of the Cause values), for the ack.
func Cause(err error) string {
	switch {
	case errors.Is(err, ErrNoTailnetRoute):
		return CauseNoTailnetRoute
	case errors.Is(err, ErrMediaStartSlow):
		return CauseMediaStartSlow
	case errors.Is(err, ErrDeviceBusy):
		return CauseDeviceBusy
	}
	return CauseMedia
}

// Manager runs at most one call at a time, each in a media process of its own.
type Manager struct {
	Config Config
	// Media is the media process's command; an empty Path means Config.MediaBinary() (tests
	// name their own binary, which serves the media when it finds MediaProcessEnv).
	Media MediaCommand
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
	// never connected, the media process died); reason is one of the Cause values.
	Ended func(callID, reason string)
	// OutDir, if set, is where the simulator's playback writes call-owner-N.wav.
	OutDir string
	Log    *slog.Logger

	mu    sync.Mutex
	cur   *session
	calls int
}

// MediaCommand is how the hub starts a call's media process.
type MediaCommand struct {
	Path string
	Env  []string // added to the hub's environment
}

// MediaFailed is the end reason of a call the hub ended itself (api.CallEndMediaFailed).
const MediaFailed = "media_failed"

// Bounds of a call's media process: stopGrace for it to stop its media and exit once its
// stdin closed (its pipelines get 300 ms for their end of stream, its peer 500 ms to close),
// then it is killed; setUpSlack on top of the pipelines' StartTimeout for the whole set-up.
const (
	stopGrace  = 750 * time.Millisecond
	setUpSlack = 6 * time.Second
)

// session is one call: its media process and what the hub did for it.
type session struct {
	id      string
	n       int
	started time.Time
	log     *slog.Logger
	proc    *process

	mu       sync.Mutex
	stopped  bool
	reason   string
	prepared bool          // Finish is owed
	camera   bool          // Camera(false) is owed
	done     chan struct{} // closed when the process is gone and the devices are back
	up       chan struct{} // closed when the answer is out: from then on a failure is reported

	sentVideo, sentAudio, heard atomic.Int64
}

func (m *Manager) log() *slog.Logger {
	if m.Log == nil {
		return slog.Default()
	}
	return m.Log
}

// Check says whether calls can have media: the media program is found. The hub calls it at
// start to say clearly what is missing; an offer without it is refused with ErrNoMedia.
func (m *Manager) Check() error {
	_, err := m.command()
	return err
}

func (m *Manager) command() (MediaCommand, error) {
	if m.Media.Path != "" {
		return m.Media, nil
	}
	p, err := m.Config.MediaBinary()
	if err != nil {
		return MediaCommand{}, err
	}
	return MediaCommand{Path: p, Env: m.Media.Env}, nil
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

// Offer serves the browser's complete offer: it starts the call's media process, lets it
// start the pipelines, and returns the hub's complete answer (ICE gathering finished). It
// refuses with ErrNotLive before the join was played, ErrBusy while another call is on, and
// ErrNoMedia when the offer has no usable codec or candidate, a pipeline would not start, or
// the media process cannot be run.
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

// finish stops s and frees the robot for the next call; only the first call for s does
// anything (and returns true), the others wait for it.
func (m *Manager) finish(s *session, reason string) bool {
	first := m.stop(s, reason)
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

// stop ends the media process (its stdin closes; killed after stopGrace), then turns the
// camera's antennas off and gives the devices back.
func (m *Manager) stop(s *session, reason string) bool {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		<-s.done
		return false
	}
	s.stopped, s.reason = true, reason
	p := s.proc
	s.mu.Unlock()
	if p != nil {
		p.stop(stopGrace)
	}
	s.mu.Lock()
	camera, prepared := s.camera, s.prepared
	s.mu.Unlock()
	if camera && m.Camera != nil {
		m.Camera(false)
	}
	if prepared && m.Finish != nil {
		fctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		m.Finish(fctx)
		cancel()
	}
	close(s.done)
	return true
}

func (s *session) isStopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped
}

// fail ends s on the hub's own initiative and tells the broker, once, with its cause; during
// the set-up a failure is the offer's refusal.
func (m *Manager) fail(s *session, cause, why string) {
	select {
	case <-s.up:
	case <-s.done:
		return
	}
	if s.isStopped() {
		return
	}
	if cause == "" {
		cause = CauseMedia
	}
	s.log.Warn("call media failed", "call", s.id, "cause", cause, "why", why)
	if m.finish(s, cause) && m.Ended != nil {
		m.Ended(s.id, cause)
	}
}

// event handles what the media process says after its set-up, and hands the rest to it.
func (m *Manager) event(s *session, setUp chan<- MediaEvent) func(MediaEvent) {
	return func(e MediaEvent) {
		switch e.Kind {
		case EventStats:
			s.sentVideo.Store(e.VideoPackets)
			s.sentAudio.Store(e.AudioPackets)
			s.heard.Store(e.OwnerPackets)
		case EventCapturing:
			if e.Video && m.Camera != nil {
				s.mu.Lock()
				on := !s.stopped && !s.camera
				s.camera = s.camera || on
				s.mu.Unlock()
				if on {
					m.Camera(true)
				}
			}
		case EventFailed:
			go m.fail(s, e.Cause, e.Why)
		default:
			select {
			case setUp <- e:
			default: // a second answer: the set-up took the first
			}
		}
	}
}

func (m *Manager) setUp(ctx context.Context, s *session, offer string) (string, error) {
	cmd, err := m.command()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoMedia, err)
	}
	ctx, cancel := context.WithTimeout(ctx, m.Config.StartTimeout+setUpSlack)
	defer cancel()
	setUp := make(chan MediaEvent, 1)
	p, err := startProcess(cmd, s.log.With("call", s.id), m.event(s, setUp))
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoMedia, err)
	}
	s.mu.Lock()
	stopped := s.stopped
	s.proc = p
	s.mu.Unlock()
	if stopped { // ended while it was started: stop saw no process
		p.stop(stopGrace)
		return "", fmt.Errorf("%w: ended while it was set up", ErrNoMedia)
	}
	go func() {
		<-p.exited
		m.fail(s, CauseMedia, "the media process "+p.failure())
	}()
	next := func(want string) (MediaEvent, error) {
		select {
		case e := <-setUp:
			if e.Kind == EventRefused {
				return e, fmt.Errorf("%w: %s", causeErr(e.Cause), e.Why)
			}
			if e.Kind != want {
				return e, fmt.Errorf("%w: the media process said %q, want %q", ErrNoMedia, e.Kind, want)
			}
			return e, nil
		case <-p.exited:
			return MediaEvent{}, fmt.Errorf("%w: the media process %s", ErrNoMedia, p.failure())
		case <-s.done:
			return MediaEvent{}, fmt.Errorf("%w: ended while it was set up", ErrNoMedia)
		case <-ctx.Done():
			return MediaEvent{}, fmt.Errorf("%w: the media process did not answer: %v", ErrMediaStartSlow, ctx.Err())
		}
	}
	req := MediaRequest{Config: m.Config, CallID: s.id, N: s.n, Offer: offer, OutDir: m.OutDir}
	if err := p.send(req); err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoMedia, err)
	}
	if _, err := next(EventReady); err != nil {
		return "", err
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
			return "", fmt.Errorf("%w: preparing the devices: %v", ErrDeviceBusy, err)
		}
		// The devices are the call's: stop gives them back — or, when the call was ended
		// while they were handed over, they go back now.
		s.mu.Lock()
		stopped := s.stopped
		s.prepared = !stopped
		s.mu.Unlock()
		if stopped {
			if m.Finish != nil {
				fctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				m.Finish(fctx)
				cancel()
			}
			return "", fmt.Errorf("%w: ended while it was set up", ErrNoMedia)
		}
	}
	if err := p.send(MediaStart{Start: true}); err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoMedia, err)
	}
	e, err := next(EventAnswer)
	if err != nil {
		return "", err
	}
	if s.isStopped() {
		return "", fmt.Errorf("%w: ended while it was set up", ErrNoMedia)
	}
	s.log.Info("call started", "call", s.id, "candidates", e.Candidates, "remote_candidates", e.RemoteCandidates,
		"media_pid", p.pid(), "set_up", time.Since(s.started).Round(time.Millisecond))
	return e.SDP, nil
}

// jsonLine decodes one line of the media process.
func jsonLine(b []byte, v any) error { return json.Unmarshal(b, v) }

// encodeLine is v as one JSON line.
func encodeLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// environ is the media process's environment: the hub's, extra, and MediaProcessEnv.
func environ(extra []string) []string {
	return append(append(os.Environ(), extra...), MediaProcessEnv+"=1")
}
