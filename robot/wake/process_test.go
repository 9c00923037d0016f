package wake

import (
	"bufio"
	"bytes"
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
	"syscall"
	"testing"
	"time"
)

// fakeProcessEnv makes this test binary a wake process with a fake engine (TestMain): it
// hears the phrase in loud audio, and misbehaves as the variable's value asks.
const fakeProcessEnv = "WAKE_FAKE_PROCESS"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeProcessEnv); mode != "" {
		os.Exit(fakeProcessMain(mode))
	}
	os.Exit(m.Run())
}

// fakeProcessMain serves with a fake engine. Modes: ok; hang (every Spot hangs, so it never
// reads its input's end); crash-once (the first Spot of the first run logs a line and exits 3; the
// mark file is WAKE_FAKE_MARK); fail-start (the engine cannot be built); flood (10,000 log
// lines at start).
func fakeProcessMain(mode string) int {
	if mode == "hang" {
		keepAlive()
	}
	if mode == "flood" {
		for i := range 3000 {
			fmt.Fprintf(os.Stderr, "flood line %d %s\n", i, strings.Repeat("x", 1000))
		}
	}
	return ServeWith(func(o Options) (Spotter, error) {
		if _, err := os.Stat(os.Getenv("WAKE_FAKE_MARK")); err == nil && mode == "crash-then-fail" {
			return nil, fmt.Errorf("%w: the fake engine's model is gone", ErrModel)
		}
		if mode == "fail-start" {
			return nil, fmt.Errorf("%w: the fake engine has no model in %s", ErrModel, o.ModelDir)
		}
		return &loudSpotter{mode: mode}, nil
	})
}

// keepAlive keeps a timer pending, so that the Go runtime does not call a process whose every
// goroutine is blocked (the hung engine) a deadlock and end it: it must hang, as a wedged
// engine would, until a signal ends it.
func keepAlive() {
	go func() {
		time.Sleep(time.Hour)
	}()
}

// loudSpotter hears the phrase where the audio's mean level is above 0.1.
type loudSpotter struct{ mode string }

func (l *loudSpotter) Spot(ctx context.Context, x []float32) (Detection, bool, error) {
	switch l.mode {
	case "hang":
		select {}
	case "crash-once", "crash-then-fail":
		mark := os.Getenv("WAKE_FAKE_MARK")
		if _, err := os.Stat(mark); err != nil {
			os.WriteFile(mark, nil, 0o644)
			fmt.Fprintln(os.Stderr, "the fake engine exploded")
			os.Exit(3)
		}
	}
	sum := 0.0
	for _, v := range x {
		sum += float64(max(v, -v))
	}
	mean := sum / float64(max(1, len(x)))
	return Detection{Phrase: "hey reachy", Start: 1, End: len(x), Score: mean, Needed: 0.1}, mean > 0.1, nil
}

func (l *loudSpotter) Close() error { return nil }

// fakeProgram returns a program that runs this test binary as a fake wake process in mode.
func fakeProgram(t *testing.T, mode string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, Program)
	script := fmt.Sprintf("#!/bin/sh\n%s=%s WAKE_FAKE_MARK=%s exec %s\n", fakeProcessEnv, mode, filepath.Join(dir, "mark"), self)
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// logBuffer is a slog destination the test reads.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newLog() (*slog.Logger, *logBuffer) {
	b := &logBuffer{}
	return slog.New(slog.NewTextHandler(b, nil)), b
}

func level(n int, v float32) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = v
	}
	return x
}

func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	// A zombie (Z) is dead, only not yet reaped.
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}

// TestWakeProcessAnswersForTheHub: the engine in the wake process hears what it hears in
// the hub — the verdict and the detection come back whole — utterance after utterance, and
// Close ends the process.
func TestWakeProcessAnswersForTheHub(t *testing.T) {
	log, _ := newLog()
	p, err := StartProcess(fakeProgram(t, "ok"), Options{Engine: EngineNeural, Phrases: []string{"hey reachy"}}, log)
	if err != nil {
		t.Fatal(err)
	}
	pid := p.PID()
	for i, c := range []struct {
		level float32
		heard bool
	}{{0.5, true}, {0.01, false}, {0.3, true}} {
		d, ok, err := p.Spot(context.Background(), level(16000+i, c.level))
		if err != nil || ok != c.heard || d.Phrase != "hey reachy" || d.End != 16000+i || d.Start != 1 {
			t.Errorf("utterance %d at level %v: heard %v (want %v), %+v, err %v", i, c.level, ok, c.heard, d, err)
		}
	}
	if p.Starts() != 1 || p.PID() != pid {
		t.Errorf("started %d times (pid %d, then %d); want once", p.Starts(), pid, p.PID())
	}
	p.Close()
	if alive(pid) {
		t.Errorf("wake process %d outlived Close", pid)
	}
	if _, _, err := p.Spot(context.Background(), level(100, 0.5)); err == nil {
		t.Error("a closed spotter answered")
	}
}

// TestHubProcessForWake is the hub of TestWakeProcessDiesWithTheHub in a process of its own:
// it starts a wake process (a serving one, or one that hangs in its first utterance and
// ignores its input ending), prints its PID, and waits to be killed. It does nothing in a
// normal test run.
func TestHubProcessForWake(t *testing.T) {
	mode := os.Getenv("WAKE_TEST_HUB")
	if mode == "" {
		t.Skip("the hub process of TestWakeProcessDiesWithTheHub")
	}
	log, _ := newLog()
	p, err := StartProcess(fakeProgram(t, mode), Options{Engine: EngineNeural}, log)
	if err != nil {
		t.Fatal(err)
	}
	if mode == "hang" {
		p.Timeout = time.Hour
		go p.Spot(context.Background(), level(1600, 0.5))
		time.Sleep(200 * time.Millisecond)
	}
	fmt.Printf("WAKE %d\n", p.PID())
	time.Sleep(30 * time.Second) // killed long before
}

// TestWakeProcessDiesWithTheHub: the hub killed outright (kill -9: no chance to close
// anything) takes its wake process with it within a second — even one that hangs inside an
// utterance and would never notice its input end.
func TestWakeProcessDiesWithTheHub(t *testing.T) {
	for _, mode := range []string{"ok", "hang"} {
		t.Run(mode, func(t *testing.T) {
			self, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			hub := exec.Command(self, "-test.run=^TestHubProcessForWake$", "-test.v")
			hub.Env = append(os.Environ(), "WAKE_TEST_HUB="+mode)
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
					if v, ok := strings.CutPrefix(sc.Text(), "WAKE "); ok {
						pid, _ := strconv.Atoi(v)
						pidc <- pid
					}
				}
				hub.Wait()
				close(exited)
			}()
			var pid int
			select {
			case pid = <-pidc:
			case <-exited:
				t.Fatal("the hub process ended before its wake process was up")
			case <-time.After(30 * time.Second):
				t.Fatal("the hub process's wake process was not up within 30 s")
			}
			if !alive(pid) {
				t.Fatalf("wake process %d is not running", pid)
			}
			hub.Process.Signal(syscall.SIGKILL)
			<-exited
			killed := time.Now()
			for alive(pid) && time.Since(killed) < 3*time.Second {
				time.Sleep(10 * time.Millisecond)
			}
			took := time.Since(killed)
			t.Logf("wake process gone %s after the hub was killed", took.Round(time.Millisecond))
			if took > time.Second {
				t.Errorf("the wake process outlived the killed hub by %s", took.Round(time.Millisecond))
				syscall.Kill(pid, syscall.SIGKILL)
			}
		})
	}
}

// TestHungWakeProcessIsBounded: a wake process that never answers holds an utterance no
// longer than its deadline — the hub's Guard says "not addressed" in time, the process is
// killed, and the next utterance gets a new one, bounded the same way.
func TestHungWakeProcessIsBounded(t *testing.T) {
	log, logs := newLog()
	p, err := StartProcess(fakeProgram(t, "hang"), Options{Engine: EngineNeural}, log)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Timeout = 300 * time.Millisecond
	g := NewGuard(p, log)
	g.Timeout = time.Second
	for i := range 2 {
		pid := p.PID()
		at := time.Now()
		_, ok := g.Addressed(context.Background(), level(1600, 0.5))
		took := time.Since(at)
		if ok {
			t.Fatal("a hung wake process addressed the robot")
		}
		if took > 900*time.Millisecond {
			t.Errorf("utterance %d: answered after %s with a 300 ms deadline", i, took.Round(time.Millisecond))
		}
		if i == 0 && alive(pid) {
			t.Errorf("the hung wake process %d outlived its deadline", pid)
		}
	}
	if p.Starts() != 2 {
		t.Errorf("the wake process was started %d times; want 2 (once, then again after the first was killed)", p.Starts())
	}
	if st := g.Stats(); st.Errors != 2 || st.Detected != 0 {
		t.Errorf("guard stats %+v: want 2 errors", st)
	}
	if !strings.Contains(logs.String(), "did not answer in time") {
		t.Errorf("the hub's log does not say the wake process hung:\n%s", logs.String())
	}
}

// TestCrashedWakeProcessIsReported: a wake process that dies in an utterance is reported —
// in the hub's log with its exit status and its last log line, and as the utterance's error
// (not addressed) — and the next utterance is heard by a new one.
func TestCrashedWakeProcessIsReported(t *testing.T) {
	log, logs := newLog()
	p, err := StartProcess(fakeProgram(t, "crash-once"), Options{Engine: EngineNeural}, log)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, ok, err := p.Spot(context.Background(), level(1600, 0.5))
	if ok || err == nil || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "exploded") {
		t.Fatalf("the crashed utterance: heard %v, err %v; want an error with the exit status and the last log line", ok, err)
	}
	if !strings.Contains(logs.String(), "wake process failed") || !strings.Contains(logs.String(), "exploded") {
		t.Errorf("the hub's log does not report the crash:\n%s", logs.String())
	}
	if _, ok, err := p.Spot(context.Background(), level(1600, 0.5)); !ok || err != nil {
		t.Errorf("after the crash: heard %v, err %v; want a new process to hear it", ok, err)
	}
	if p.Starts() != 2 {
		t.Errorf("started %d times; want 2", p.Starts())
	}
}

// TestMissingWakeProgram: without reachy-wake the hub says where it looked and how to build
// it; a wake process that cannot build its engine says why, and the start fails with it.
func TestMissingWakeProgram(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := FindProgram()
	self, _ := os.Executable()
	if want := filepath.Join(filepath.Dir(self), Program); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "make build") {
		t.Errorf("FindProgram without reachy-wake: %v; want the path %s and how to build it", err, want)
	}
	log, _ := newLog()
	if _, err := StartProcess(filepath.Join(t.TempDir(), Program), Options{}, log); err == nil || !errors.Is(err, ErrModel) {
		t.Errorf("starting a program that is not there: %v", err)
	}
	_, err = StartProcess(fakeProgram(t, "fail-start"), Options{ModelDir: "/nowhere/model"}, log)
	if err == nil || !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), "no model in /nowhere/model") {
		t.Errorf("a wake process whose engine cannot load: %v; want its reason", err)
	}
}

// TestWakeProcessLogIsBounded: a wake process flooding its log reaches the hub's log bounded
// (200 lines of at most 512 bytes, then one line saying the rest were dropped), and still
// answers.
func TestWakeProcessLogIsBounded(t *testing.T) {
	log, logs := newLog()
	p, err := StartProcess(fakeProgram(t, "flood"), Options{Engine: EngineNeural}, log)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, ok, err := p.Spot(context.Background(), level(1600, 0.5)); !ok || err != nil {
		t.Fatalf("heard %v, err %v", ok, err)
	}
	p.Close()
	out := logs.String()
	if n := strings.Count(out, "flood line"); n != maxProcessLogs {
		t.Errorf("%d flood lines reached the hub's log; want %d", n, maxProcessLogs)
	}
	if !strings.Contains(out, "further log lines dropped") {
		t.Error("the hub's log does not say lines were dropped")
	}
	for _, line := range strings.Split(out, "\n") {
		if len(line) > maxProcessLogLine+300 {
			t.Fatalf("a log line of %d bytes", len(line))
		}
	}
}

// TestWakeProcessThatCannotStartAgainIsNotHammered: a wake process that crashed and then
// cannot start again (its model gone) fails each utterance at once, saying why, and is tried
// again only every few seconds, not on every utterance.
func TestWakeProcessThatCannotStartAgainIsNotHammered(t *testing.T) {
	log, logs := newLog()
	p, err := StartProcess(fakeProgram(t, "crash-then-fail"), Options{Engine: EngineNeural}, log)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, _, err := p.Spot(context.Background(), level(1600, 0.5)); err == nil {
		t.Fatal("the crash was not reported")
	}
	for i := range 3 {
		at := time.Now()
		_, ok, err := p.Spot(context.Background(), level(1600, 0.5))
		if ok || err == nil || !strings.Contains(err.Error(), "model is gone") || time.Since(at) > 5*time.Second {
			t.Errorf("utterance %d after the crash: heard %v, err %v, in %s", i, ok, err, time.Since(at).Round(time.Millisecond))
		}
	}
	if p.Starts() != 2 {
		t.Errorf("started %d times: want 2 (the first, one try after the crash)", p.Starts())
	}
	if !strings.Contains(logs.String(), "could not start again") {
		t.Errorf("the hub's log does not say it could not start again:\n%s", logs.String())
	}
}

// TestFusedRunsTheNeuralEngineInTheWakeProcess: the fused engine as the hub runs it asks the
// wake process (here a fake that hears loud audio) and PocketSphinx in this process on the
// same utterance, and decides from both: the fake's evidence alone moves the decision. A wake
// process that dies makes the utterance an error (the Guard's "not addressed"), never a
// decision from PocketSphinx's half alone. Needs PocketSphinx's model.
func TestFusedRunsTheNeuralEngineInTheWakeProcess(t *testing.T) {
	if _, _, err := modelPaths(""); err != nil {
		t.Skip(err)
	}
	// A fusion that follows the neural margin only.
	fu := &Fusion{Phrase: "hey reachy", Features: FusionFeatures, Mean: make([]float64, 5), Scale: []float64{1, 1, 1, 1, 1},
		Weights: []float64{10, 0, 0, 0, 0}, Threshold: 0}
	log, _ := newLog()
	o := Options{Engine: EngineFused, Phrases: []string{"hey reachy"}, Fusions: map[string]*Fusion{"hey reachy": fu}}
	f, err := StartFused(fakeProgram(t, "crash-then-fail"), o, log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := f.neural.(*Process)
	os.WriteFile(filepath.Join(filepath.Dir(p.path), "mark"), nil, 0o644) // no crash yet: the fake hears
	loud, quiet := level(8000, 0.5), level(8000, 0.01)
	if _, ok, err := f.Spot(context.Background(), loud); !ok || err != nil {
		t.Errorf("loud audio: heard %v, err %v; want the fake neural engine's yes", ok, err)
	}
	if _, ok, err := f.Spot(context.Background(), quiet); ok || err != nil {
		t.Errorf("quiet audio: heard %v, err %v; want no", ok, err)
	}
	syscall.Kill(p.PID(), syscall.SIGKILL)
	time.Sleep(100 * time.Millisecond)
	if _, ok, err := f.Spot(context.Background(), loud); ok || err == nil {
		t.Errorf("with the wake process dead (and unable to start again): heard %v, err %v; want an error", ok, err)
	}
}
