package call

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/robot/call/calltest"
)

// testManager is a simulator manager writing the owner's voice into dir.
func testManager(t *testing.T, dir string, live *atomic.Bool) (*Manager, *events) {
	cfg := Sim()
	cfg.Defaults()
	if err := cfg.Validate("test"); err != nil {
		t.Fatal(err)
	}
	ev := &events{}
	m := &Manager{Config: cfg, Live: live.Load, OutDir: dir, Media: selfAsMedia(t),
		Prepare: func(context.Context) error { ev.add("prepare"); return nil },
		Finish:  func(context.Context) { ev.add("finish") },
		Camera: func(on bool) {
			if on {
				ev.add("camera on")
			} else {
				ev.add("camera off")
			}
		},
		Ended: func(id, reason string) { ev.add("ended " + id + " " + reason) },
	}
	t.Cleanup(func() { m.End("", "test over") })
	return m, ev
}

// selfAsMedia names this test binary as the media program (TestMain serves the media when
// it finds MediaProcessEnv).
func selfAsMedia(t testing.TB) MediaCommand {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return MediaCommand{Path: self}
}

type events struct {
	mu sync.Mutex
	l  []string
}

func (e *events) add(s string) { e.mu.Lock(); e.l = append(e.l, s); e.mu.Unlock() }
func (e *events) list() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.l...)
}

// TestSimCall is a whole call against the simulator: refused before the join played, then
// live video with keyframes, the room's tone at its level, the owner's tone in --out, no
// echo of the owner back to them, host candidates on loopback only, and every track and
// pipeline stopped within 1 s of the end.
func TestSimCall(t *testing.T) {
	calltest.NeedGst(t)
	dir := t.TempDir()
	var live atomic.Bool
	m, ev := testManager(t, dir, &live)
	b := calltest.NewBrowser(t, true)
	offer := b.Offer()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// Before the join announcement played: refused, nothing captured.
	if _, err := m.Offer(ctx, "c1", offer); !errors.Is(err, ErrNotLive) {
		t.Fatalf("offer before the join played: %v, want ErrNotLive", err)
	}
	if got := ev.list(); len(got) != 0 {
		t.Fatalf("media prepared before the join played: %v", got)
	}

	live.Store(true)
	answer, err := m.Offer(ctx, "c1", offer)
	if err != nil {
		t.Fatal(err)
	}
	checkHostLoopback(t, answer)
	if video := section(answer, "video"); !strings.Contains(video, "a=sendonly") {
		t.Fatalf("the owner's camera was not refused: video section\n%s", video)
	}
	if _, err := m.Offer(ctx, "c2", offer); !errors.Is(err, ErrBusy) {
		t.Fatalf("second call: %v, want ErrBusy", err)
	}
	b.Accept(answer)

	callStart := time.Now()
	time.Sleep(7 * time.Second)

	// Video: the first thing that arrives is a keyframe (held from before the browser
	// connected), so the owner sees the room at once, not after up to a second of frames a
	// browser cannot decode; then >= 5 s of frames at the configured 30 fps, a keyframe about
	// every second.
	st := b.Stats()
	if st.FirstKeyframe.IsZero() || st.FramesBeforeKeyframe != 0 {
		t.Errorf("video: %d frames arrived before the first keyframe (at %v after the answer), want the keyframe first",
			st.FramesBeforeKeyframe, st.FirstKeyframe.Sub(callStart))
	}
	t.Logf("first keyframe %v after the answer was accepted", st.FirstKeyframe.Sub(callStart).Round(time.Millisecond))
	window := st.FramesBetween(callStart.Add(1500*time.Millisecond), callStart.Add(6500*time.Millisecond))
	if fps := float64(window) / 5; fps < 27 || fps > 33 {
		t.Errorf("video: %.1f frames/s over 5 s, want 30", fps)
	}
	if st.Keyframes < 6 {
		t.Errorf("video: %d keyframes in 7 s, want one a second", st.Keyframes)
	}

	// While the owner talks, their 660 Hz tone (played into the room at -6 dB) must come back
	// >= 20 dB below what they sent (-15.1 dBFS).
	b.WaitAudio(3*time.Second, 3*time.Second)
	echoDB := calltest.ToneDB(b.LastSeconds(3*time.Second), calltest.OwnerToneHz)
	// The room's 440 Hz tone arrives at its level (-15.1 dBFS) once the owner is silent (the
	// canceller takes 2-3 dB off the room while both talk at once).
	b.StopVoice()
	time.Sleep(2500 * time.Millisecond)
	roomDB := calltest.ToneDB(b.LastSeconds(1500*time.Millisecond), SimRoomToneHz)
	t.Logf("room tone %.1f dBFS (sent -15.1), owner's echo %.1f dBFS (owner sent -15.1)", roomDB, echoDB)
	if roomDB < -18.1 || roomDB > -12.1 {
		t.Errorf("room tone arrived at %.1f dBFS, want -15.1 ± 3", roomDB)
	}
	if echoDB > -35.1 {
		t.Errorf("the owner's own voice came back at %.1f dBFS: only %.1f dB below what they sent, want >= 20", echoDB, -15.1-echoDB)
	}

	// End: every track stops within 1 s, every pipeline is gone.
	before := b.Stats().Packets
	mediaPID := m.mediaPID()
	if calltest.MediaProcesses(mediaPID) == 0 {
		t.Error("no pipeline runs under the media process: the measurement is broken")
	}
	endAt := time.Now()
	m.End("c1", "owner_left")
	if took := time.Since(endAt); took > time.Second {
		t.Errorf("End took %s, want < 1 s", took)
	}
	time.Sleep(1500 * time.Millisecond)
	st = b.Stats()
	last, after := st.LastPacket, st.Packets
	if before == 0 || after < before {
		t.Error("no packet counted before the end: the measurement is broken")
	}
	if last.After(endAt.Add(time.Second)) {
		t.Errorf("media still arrived %s after the end", last.Sub(endAt))
	}
	if m.Active() != "" {
		t.Fatal("call still active after End")
	}
	if calltest.Alive(mediaPID) {
		t.Error("the media process still runs after End")
	}
	if n := len(calltest.Descendants(mediaPID)); n != 0 {
		t.Errorf("%d of the media process's pipelines still run after End", n)
	}

	// The owner's voice reached the robot's speaker (the simulator's --out) at its level.
	pcm, err := calltest.ReadWAV(filepath.Join(dir, "call-owner-1.wav"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pcm) < 3*48000 {
		t.Fatalf("owner WAV holds %d samples, want >= 3 s", len(pcm))
	}
	// The owner spoke for the first 7 s: measure 3 s of it, before they fell silent.
	ownerDB := calltest.ToneDB(pcm[len(pcm)/2-3*48000:len(pcm)/2], calltest.OwnerToneHz)
	t.Logf("owner's tone in --out: %.1f dBFS (sent -15.1)", ownerDB)
	if ownerDB < -18.1 || ownerDB > -12.1 {
		t.Errorf("owner's tone reached --out at %.1f dBFS, want -15.1 ± 3", ownerDB)
	}
	want := []string{"prepare", "camera on", "camera off", "finish"}
	if got := ev.list(); !sameSet(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, s := range a {
		seen[s]++
	}
	for _, s := range b {
		seen[s]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

// section returns the m= section of kind in an SDP.
func section(sdp, kind string) string {
	i := strings.Index(sdp, "m="+kind)
	if i < 0 {
		return ""
	}
	rest := sdp[i+2:]
	if j := strings.Index(rest, "m="); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// checkHostLoopback fails unless every candidate of sdp is a host candidate on loopback.
func checkHostLoopback(t *testing.T, sdp string) {
	t.Helper()
	n := 0
	for _, line := range strings.Split(sdp, "\n") {
		if !strings.HasPrefix(line, "a=candidate:") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 8 || f[6] != "typ" || f[7] != "host" {
			t.Errorf("candidate is not host: %s", line)
			continue
		}
		ip := net.ParseIP(f[4])
		if ip == nil || !ip.IsLoopback() {
			t.Errorf("candidate outside the allowed interface (lo): %s", line)
		}
		if strings.EqualFold(f[2], "tcp") {
			t.Errorf("TCP candidate: %s", line)
		}
		n++
	}
	if n == 0 {
		t.Error("no candidate in the answer")
	}
}

// TestCallMediaFailed: a pipeline that dies mid-call, or the call's media process itself
// (killed, as a crash would), ends the call by itself, tells the broker media_failed exactly
// once, and leaves nothing running.
func TestCallMediaFailed(t *testing.T) {
	calltest.NeedGst(t)
	for _, crash := range []string{"camera pipeline", "media process"} {
		t.Run(strings.ReplaceAll(crash, " ", "_"), func(t *testing.T) {
			var live atomic.Bool
			live.Store(true)
			m, ev := testManager(t, t.TempDir(), &live)
			b := calltest.NewBrowser(t, false)
			defer b.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			answer, err := m.Offer(ctx, "c9", b.Offer())
			if err != nil {
				t.Fatal(err)
			}
			b.Accept(answer)
			deadline := time.Now().Add(5 * time.Second)
			for b.Stats().Keyframes == 0 && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			mediaPID := m.mediaPID()
			procs := calltest.Descendants(mediaPID)
			if len(procs) < 2 {
				t.Fatalf("the media process runs %d pipelines, want 2 (video, audio)", len(procs))
			}
			victim := mediaPID
			if crash == "camera pipeline" {
				victim = procs[0].PID
			}
			syscall.Kill(victim, syscall.SIGKILL)
			killed := time.Now()
			for m.Active() != "" && time.Since(killed) < 3*time.Second {
				time.Sleep(20 * time.Millisecond)
			}
			if took := time.Since(killed); took > time.Second {
				t.Fatalf("the call outlived its dead %s by %s", crash, took)
			}
			time.Sleep(time.Second) // a second report would come now
			if n := count(ev.list(), "ended c9 media_failed"); n != 1 {
				t.Fatalf("events %v: the broker was told media_failed %d times, want once", ev.list(), n)
			}
			if calltest.Alive(mediaPID) {
				t.Error("the media process still runs after the call failed")
			}
			for _, p := range procs {
				if calltest.Alive(p.PID) {
					t.Errorf("pipeline %d (%s) still runs after the call failed", p.PID, p.Name)
				}
			}
		})
	}
}

// mediaPID is the current call's media process.
func (m *Manager) mediaPID() int {
	m.mu.Lock()
	s := m.cur
	m.mu.Unlock()
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil {
		return 0
	}
	return s.proc.pid()
}

func count(l []string, s string) int {
	n := 0
	for _, x := range l {
		if x == s {
			n++
		}
	}
	return n
}

// TestCallNeverConnected: a browser that takes the answer but never connects does not keep
// the camera on: the call ends after the connect timeout, and the broker is told the cause —
// ice_failed (the browser offered a tailnet address; the connection never came up), not
// media_failed.
func TestCallNeverConnected(t *testing.T) {
	calltest.NeedGst(t)
	var live atomic.Bool
	live.Store(true)
	m, ev := testManager(t, t.TempDir(), &live)
	m.Config.ConnectTimeout = 1500 * time.Millisecond
	b := calltest.NewBrowser(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := m.Offer(ctx, "c3", b.Offer()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for m.Active() != "" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if m.Active() != "" || !contains(ev.list(), "ended c3 "+CauseICEFailed) {
		t.Fatalf("a call nobody connected to is still on: events %v", ev.list())
	}
}

// TestCallRefusalCauses: an offer refused because the robot's devices were not handed over
// says device_busy; one whose pipelines were too slow to start says media_start_slow — each
// a closed cause the broker shows the owner, never the free text of the hub's log.
func TestCallRefusalCauses(t *testing.T) {
	calltest.NeedGst(t)
	var live atomic.Bool
	live.Store(true)
	m, _ := testManager(t, t.TempDir(), &live)
	m.Prepare = func(context.Context) error { return errors.New("the daemon answered 409: the camera is in use") }
	b := calltest.NewBrowser(t, false)
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_, err := m.Offer(ctx, "c5", b.Offer())
	if !errors.Is(err, ErrNoMedia) || Cause(err) != CauseDeviceBusy {
		t.Fatalf("devices not handed over: %v (cause %s), want %s", err, Cause(err), CauseDeviceBusy)
	}
	m.Prepare = nil
	m.Config.StartTimeout = time.Millisecond
	b2 := calltest.NewBrowser(t, false)
	defer b2.Close()
	_, err = m.Offer(ctx, "c6", b2.Offer())
	if !errors.Is(err, ErrNoMedia) || Cause(err) != CauseMediaStartSlow {
		t.Fatalf("pipelines too slow: %v (cause %s), want %s", err, Cause(err), CauseMediaStartSlow)
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// TestSimEchoPathIsReal is TestSimCall's control: with the canceller off, the simulator's
// speaker really leaks the owner's voice back into the room's microphone (-6 dB), so the
// echo TestSimCall does not find is one the canceller removed.
func TestSimEchoPathIsReal(t *testing.T) {
	calltest.NeedGst(t)
	var live atomic.Bool
	live.Store(true)
	m, _ := testManager(t, t.TempDir(), &live)
	m.Config.Audio = strings.Replace(m.Config.Audio, "echo-cancel=true", "echo-cancel=false", 1)
	b := calltest.NewBrowser(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	answer, err := m.Offer(ctx, "c4", b.Offer())
	if err != nil {
		t.Fatal(err)
	}
	b.Accept(answer)
	time.Sleep(3 * time.Second)
	b.WaitAudio(2*time.Second, 5*time.Second)
	room := b.LastSeconds(2 * time.Second)
	if room == nil {
		t.Fatal("no room audio decoded")
	}
	echo := calltest.ToneDB(room, calltest.OwnerToneHz)
	t.Logf("without the canceller the owner's tone comes back at %.1f dBFS (sent -15.1)", echo)
	if echo < -27 {
		t.Fatalf("the simulator's echo path is broken: the owner's tone came back at %.1f dBFS without a canceller, want about -21", echo)
	}
}

// TestStopReachesWhatAPipelineStarted: a launcher that ignores the interrupt and runs
// gst-launch as its own child (a wrapper script) is still stopped within a second, child
// included.
func TestStopReachesWhatAPipelineStarted(t *testing.T) {
	calltest.NeedGst(t)
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	wrapper := filepath.Join(dir, "gst-wrapper")
	os.WriteFile(wrapper, []byte("#!/bin/sh\ntrap '' INT\ngst-launch-1.0 \"$@\" &\necho $! >> "+pids+"\nwait\nwait\n"), 0o755)
	var live atomic.Bool
	live.Store(true)
	m, _ := testManager(t, dir, &live)
	m.Config.GstLaunch = wrapper
	b := calltest.NewBrowser(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	answer, err := m.Offer(ctx, "c5", b.Offer())
	if err != nil {
		t.Fatal(err)
	}
	b.Accept(answer)
	time.Sleep(time.Second)
	at := time.Now()
	ended := make(chan struct{})
	go func() { m.End("c5", "owner_left"); close(ended) }()
	select {
	case <-ended:
	case <-time.After(3 * time.Second):
		t.Fatal("End did not return within 3 s: a process the pipeline started holds it")
	}
	if took := time.Since(at); took > time.Second {
		t.Errorf("End took %s", took)
	}
	raw, _ := os.ReadFile(pids)
	list := strings.Fields(string(raw))
	if len(list) != 2 {
		t.Fatalf("the wrapper started %d pipelines, want 2", len(list))
	}
	for _, pid := range list {
		if st, err := os.ReadFile("/proc/" + pid + "/stat"); err == nil && !strings.Contains(string(st), ") Z ") {
			t.Errorf("gst-launch %s, started by the wrapper, outlived the call", pid)
		}
	}
}
