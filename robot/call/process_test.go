package call

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/robot/call/calltest"
)

// TestHubProcess is the hub of TestMediaDiesWithTheHub in a process of its own: it starts a
// call — a live one (its media process, with the test browser), or one whose media process
// hangs before answering (CALLTEST_HUB=hung) — prints the media process's PID, and waits to
// be killed. It does nothing in a normal test run.
func TestHubProcess(t *testing.T) {
	mode := os.Getenv("CALLTEST_HUB")
	if mode == "" {
		t.Skip("the hub process of TestMediaDiesWithTheHub")
	}
	var live atomic.Bool
	live.Store(true)
	dir := t.TempDir()
	m, _ := testManager(t, dir, &live)
	if mode == "hung" {
		m.Media = MediaCommand{Path: hungMedia(t, dir)}
		go m.Offer(context.Background(), "c1", "v=0\r\n")
		for deadline := time.Now().Add(5 * time.Second); m.mediaPID() == 0 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
	} else {
		b := calltest.NewBrowser(t, false)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		answer, err := m.Offer(ctx, "c1", b.Offer())
		if err != nil {
			t.Fatal(err)
		}
		b.Accept(answer)
		for deadline := time.Now().Add(5 * time.Second); b.Stats().Keyframes == 0 && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
	}
	fmt.Printf("MEDIA %d\n", m.mediaPID())
	time.Sleep(30 * time.Second) // killed long before
}

// hungMedia writes a media program that never answers (nor reads its stdin) and returns it.
func hungMedia(t testing.TB, dir string) string {
	p := filepath.Join(dir, "reachy-call")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho $$ > "+filepath.Join(dir, "pid")+"\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMediaDiesWithTheHub: the hub killed outright (kill -9: no chance to end its call) takes
// its call's media process and that process's pipelines with it within a second — the
// camera and microphone never stay on for a hub that is gone — even a media process that
// hangs and would never notice its stdin close.
func TestMediaDiesWithTheHub(t *testing.T) {
	calltest.NeedGst(t)
	for _, mode := range []string{"live", "hung"} {
		t.Run(mode, func(t *testing.T) { mediaDiesWithTheHub(t, mode) })
	}
}

func mediaDiesWithTheHub(t *testing.T, mode string) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	hub := exec.Command(self, "-test.run=^TestHubProcess$", "-test.v")
	hub.Env = append(os.Environ(), "CALLTEST_HUB="+mode)
	hub.Stderr = os.Stderr
	out, err := hub.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := hub.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	defer func() { hub.Process.Kill(); <-exited }()
	pidc := make(chan int, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "MEDIA "); ok {
				pid, _ := strconv.Atoi(v)
				pidc <- pid
			}
		}
		hub.Wait()
		close(exited)
	}()
	var mediaPID int
	select {
	case mediaPID = <-pidc:
	case <-exited:
		t.Fatal("the hub process ended before its call was up")
	case <-time.After(20 * time.Second):
		t.Fatal("the hub process's call was not up within 20 s")
	}
	media := calltest.Descendants(hub.Process.Pid)
	pipelines := calltest.Descendants(mediaPID)
	if want := map[string]int{"live": 2, "hung": 0}[mode]; mediaPID == 0 || !calltest.Alive(mediaPID) || len(pipelines) < want {
		t.Fatalf("the hub's call runs media process %d with %d pipelines under it, want a live one with %d", mediaPID, len(pipelines), want)
	}
	// Read again for a moment: a process in the middle of its exec (the hung one's sh
	// becoming sleep) shows no environment for an instant.
	found := false
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		for _, p := range media {
			found = found || (p.PID == mediaPID && p.Media)
		}
		if found || time.Now().After(deadline) {
			break
		}
		media = calltest.Descendants(hub.Process.Pid)
	}
	if !found {
		t.Fatalf("media process %d is not the hub's", mediaPID)
	}

	hub.Process.Signal(syscall.SIGKILL)
	<-exited
	killed := time.Now()
	gone := func() bool {
		if calltest.Alive(mediaPID) {
			return false
		}
		for _, p := range pipelines {
			if calltest.Alive(p.PID) {
				return false
			}
		}
		return true
	}
	for !gone() && time.Since(killed) < 3*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	took := time.Since(killed)
	t.Logf("media process and %d pipelines gone %s after the hub was killed", len(pipelines), took.Round(time.Millisecond))
	if took > time.Second {
		t.Errorf("the call's media outlived the killed hub by %s (media process alive: %v)", took.Round(time.Millisecond), calltest.Alive(mediaPID))
	}
	if calltest.Alive(mediaPID) {
		syscall.Kill(mediaPID, syscall.SIGKILL)
	}
}

// TestHungMediaProcessIsBounded: a media process that never answers (hung before its
// answer) holds the offer no longer than the offer's deadline: the offer is refused
// no_media, the process is killed, the devices were never taken, and the next call can come.
func TestHungMediaProcessIsBounded(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	hung := hungMedia(t, dir)
	var live atomic.Bool
	live.Store(true)
	m, ev := testManager(t, dir, &live)
	m.Media = MediaCommand{Path: hung}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	at := time.Now()
	_, err := m.Offer(ctx, "c1", "v=0\r\n")
	took := time.Since(at)
	if !errors.Is(err, ErrNoMedia) {
		t.Fatalf("offer to a hung media process: %v, want ErrNoMedia", err)
	}
	if took > time.Second+stopGrace+500*time.Millisecond {
		t.Errorf("the offer took %s with a 1 s deadline", took.Round(time.Millisecond))
	}
	raw, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
	if pid == 0 {
		t.Fatal("the hung media process never ran: the test is broken")
	}
	if calltest.Alive(pid) {
		t.Error("the hung media process outlived its refused offer")
	}
	if m.Active() != "" {
		t.Error("a refused call is still active")
	}
	if got := ev.list(); len(got) != 0 {
		t.Errorf("a call that never answered touched the devices: %v", got)
	}
}

// TestMissingMediaProgram: without reachy-call the hub says where it looked and how to build
// it, and an offer is refused no_media with nothing captured.
func TestMissingMediaProgram(t *testing.T) {
	calltest.NeedGst(t)
	offer := calltest.NewBrowser(t, false).Offer()
	t.Setenv("PATH", t.TempDir()) // not on PATH either
	for _, binary := range []string{"", "/nonexistent/bin/reachy-call"} {
		var live atomic.Bool
		live.Store(true)
		m, ev := testManager(t, t.TempDir(), &live)
		m.Media = MediaCommand{}
		m.Config.Binary = binary
		err := m.Check()
		want := binary
		if want == "" {
			self, _ := os.Executable()
			want = filepath.Join(filepath.Dir(self), "reachy-call")
		}
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "make build") {
			t.Errorf("call.binary %q: Check says %v; want the path %s and how to build it", binary, err, want)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		_, err = m.Offer(ctx, "c1", offer)
		cancel()
		if !errors.Is(err, ErrNoMedia) {
			t.Errorf("call.binary %q: offer %v, want ErrNoMedia", binary, err)
		}
		if got := ev.list(); len(got) != 0 || m.Active() != "" {
			t.Errorf("call.binary %q: a call without media touched the devices (%v) or stayed on (%q)", binary, got, m.Active())
		}
	}
}

// TestEndWhileTheDevicesAreHandedOver: a call ended while the daemon is handing the devices
// over gets them back, and nothing is captured.
func TestEndWhileTheDevicesAreHandedOver(t *testing.T) {
	calltest.NeedGst(t)
	var live atomic.Bool
	live.Store(true)
	m, ev := testManager(t, t.TempDir(), &live)
	releasing, release := make(chan struct{}), make(chan struct{})
	m.Prepare = func(context.Context) error {
		ev.add("prepare")
		close(releasing)
		<-release
		return nil
	}
	offered := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err := m.Offer(ctx, "c1", calltest.NewBrowser(t, false).Offer())
		offered <- err
	}()
	select {
	case <-releasing:
	case <-time.After(10 * time.Second):
		t.Fatal("the devices were never asked for")
	}
	ended := make(chan struct{})
	go func() { m.End("c1", "owner_left"); close(ended) }()
	time.Sleep(100 * time.Millisecond) // End is under way
	close(release)
	<-ended
	if err := <-offered; !errors.Is(err, ErrNoMedia) {
		t.Fatalf("offer of a call ended during its set-up: %v, want ErrNoMedia", err)
	}
	if got := ev.list(); !sameSet(got, []string{"prepare", "finish"}) {
		t.Errorf("events %v: the devices handed over for an ended call were not given back (or the camera went on)", got)
	}
}

// TestMediaLogIsBounded: a media process that floods its log (300 lines of 1000 bytes) reaches
// the hub's log as at most 200 lines of at most 512 bytes each, then one line saying the rest
// was dropped.
func TestMediaLogIsBounded(t *testing.T) {
	dir := t.TempDir()
	noisy := filepath.Join(dir, "reachy-call")
	os.WriteFile(noisy, []byte("#!/bin/sh\nhead -c 300000 /dev/zero | tr '\\0' 'x' | fold -w 1000 >&2\nexec sleep 30\n"), 0o755)
	var live atomic.Bool
	live.Store(true)
	m, _ := testManager(t, dir, &live)
	m.Media = MediaCommand{Path: noisy}
	var logs syncBuffer
	m.Log = slog.New(slog.NewTextHandler(&logs, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := m.Offer(ctx, "c1", "v=0\r\n"); !errors.Is(err, ErrNoMedia) {
		t.Fatalf("offer: %v, want ErrNoMedia", err)
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	media, dropped := 0, 0
	for _, l := range lines {
		switch {
		case strings.Contains(l, "msg=\"call media\""):
			media++
			if len(l) > maxLogLine+200 {
				t.Errorf("a log line of %d bytes reached the hub's log", len(l))
			}
		case strings.Contains(l, "further log lines dropped"):
			dropped++
		}
	}
	if media != maxLogLines || dropped != 1 {
		t.Errorf("%d lines of the media process's log and %d drop notices reached the hub's log, want %d and 1", media, dropped, maxLogLines)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
