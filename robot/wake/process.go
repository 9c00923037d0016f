package wake

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The neural engine (and the engines built on it) cannot meet the hub's 40 MB: ONNX Runtime's
// library and heap alone take more (docs/security.md). So the hub runs them in a process of
// their own, reachy-wake (cmd/reachy-wake), started when the hub starts and killed with it. The
// hub sends each utterance down the process's stdin and reads the verdict on its stdout:
//
//	hub -> wake   one JSON line: the Options (the engine, phrases, heads, fusion)
//	wake -> hub   one JSON line: {"ready":true} or {"error":"..."} (then it exits)
//	hub -> wake   per utterance: a JSON line {"samples":N}, then N little-endian float32
//	wake -> hub   per utterance: one JSON line {"heard":..,"detection":{..}} or {"error":".."}
//
// The process ends when its stdin does (the hub closing it, or dying); Pdeathsig kills it too
// if the hub is killed outright. A process that hangs is killed at the utterance's deadline
// and started again for the next one; one that crashes is reported (its last log line) and
// started again. Its log reaches the hub's, bounded.

// Program is the wake process's program name (cmd/reachy-wake).
const Program = "reachy-wake"

// NeedsProcess says whether the hub runs engine in the wake process: every engine that loads
// ONNX Runtime.
func NeedsProcess(engine string) bool {
	switch engine {
	case EngineNeural, EngineEither, EngineBoth, EngineFused:
		return true
	}
	return false
}

// FindProgram finds reachy-wake beside the hub's own executable, then on PATH. The error
// says where it looked and how to build it.
func FindProgram() (string, error) {
	var beside string
	if self, err := os.Executable(); err == nil {
		beside = filepath.Join(filepath.Dir(self), Program)
		if st, err := os.Stat(beside); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return beside, nil
		}
	}
	if p, err := exec.LookPath(Program); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%w: the neural wake engines run in their own process, %s, which is neither at %s nor on PATH: build it with `make build` (bin/%s) and install it beside reachy-hub, or use wake_spotter: pocketsphinx",
		ErrModel, Program, beside, Program)
}

// Bounds on the wake process: its start (ONNX Runtime and two models loading), an answer
// line, an utterance (the hub hands over at most max_utterance, 14 s by default), its log.
const (
	processStartTimeout = 30 * time.Second
	maxAnswerLine       = 64 << 10
	// MaxProcessSamples is the longest utterance the wake process takes (60 s).
	MaxProcessSamples = 60 * SampleRate
	maxProcessLogLine = 512
	maxProcessLogs    = 200 // lines of one process's log that reach the hub's
	processStopGrace  = time.Second
	restartBackoff    = 5 * time.Second
)

// Process is a Spotter that runs its engine in the wake process. One call at a time (the
// Guard's), like every Spotter.
type Process struct {
	path string
	opts Options
	log  *slog.Logger
	// Timeout bounds one utterance's answer; 0 means 2 s plus the audio's own length (the
	// Guard's deadline). Past it the process is killed and started again for the next.
	Timeout time.Duration

	mu       sync.Mutex // held for a whole utterance
	ch       *child
	closed   bool
	failedAt time.Time // the last start that failed, and why
	failed   error
	pid      atomic.Int64 // read without mu: a hung utterance holds it
	starts   atomic.Int64
}

// child is one run of the wake process.
type child struct {
	cmd    *exec.Cmd
	pid    int
	stdin  io.WriteCloser
	out    *bufio.Reader
	exited chan struct{}
	err    error // its exit status, read after exited
	log    *processLog
}

// StartProcess starts the wake process at path with the engine o names and waits until it
// has loaded (or said why it cannot: a missing runtime, a bad head), so that a hub whose
// spotter cannot run refuses to start, as it does for an in-process engine.
func StartProcess(path string, o Options, log *slog.Logger) (*Process, error) {
	if log == nil {
		log = slog.Default()
	}
	p := &Process{path: path, opts: o, log: log}
	ctx, cancel := context.WithTimeout(context.Background(), processStartTimeout)
	defer cancel()
	ch, err := p.start(ctx)
	if err != nil {
		return nil, err
	}
	p.ch = ch
	return p, nil
}

// PID is the last wake process's started (it may have ended since).
func (p *Process) PID() int { return int(p.pid.Load()) }

// Starts counts the wake process's starts (the first, and one after each crash or hang).
func (p *Process) Starts() int { return int(p.starts.Load()) }

func (p *Process) start(ctx context.Context) (*child, error) {
	p.starts.Add(1)
	cmd := exec.Command(p.path)
	// One glibc arena for ONNX Runtime's heap: the process calls it from one thread anyway.
	cmd.Env = append(os.Environ(), "MALLOC_ARENA_MAX=1", "MALLOC_MMAP_THRESHOLD_=65536", "MALLOC_TRIM_THRESHOLD_=131072")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// Its stdout is a pipe of our own rather than StdoutPipe's: Wait must not close the read
	// end before its last line (a start error) has been read.
	pr, pw, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return nil, err
	}
	cmd.Stdout = pw
	ch := &child{cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(pr, 4096), exited: make(chan struct{}),
		log: &processLog{log: p.log}}
	cmd.Stderr = ch.log
	cmd.WaitDelay = time.Second
	dieWithParent(cmd)
	err = cmd.Start()
	pw.Close()
	if err != nil {
		pr.Close()
		stdin.Close()
		return nil, fmt.Errorf("%w: starting the wake process %s: %v", ErrModel, p.path, err)
	}
	ch.pid = cmd.Process.Pid
	p.pid.Store(int64(ch.pid))
	go ch.wait(pr)
	hello, err := json.Marshal(p.opts)
	if err != nil {
		ch.kill()
		return nil, fmt.Errorf("wake process: %w", err)
	}
	type ready struct {
		Ready bool   `json:"ready"`
		Error string `json:"error"`
	}
	var r ready
	err = ch.exchange(ctx, append(hello, '\n'), nil, &r)
	if err == nil && !r.Ready {
		err = fmt.Errorf("%w: the wake process %s: %s", ErrModel, p.path, r.Error)
		if r.Error == "" {
			err = fmt.Errorf("%w: the wake process %s did not say it was ready", ErrModel, p.path)
		}
		if strings.Contains(r.Error, ErrRuntime.Error()) {
			err = fmt.Errorf("%w: the wake process %s: %s", ErrRuntime, p.path, r.Error)
		}
	}
	if err != nil {
		ch.kill()
		return nil, err
	}
	p.log.Info("wake process started", "pid", ch.pid, "engine", p.opts.Engine, "program", p.path)
	return ch, nil
}

// wait reaps the process, then closes the read end of its stdout (once it is gone, nothing
// more will be read: a reader still blocked on it returns).
func (c *child) wait(stdout *os.File) {
	c.err = c.cmd.Wait()
	close(c.exited)
	time.AfterFunc(time.Second, func() { stdout.Close() })
}

// kill ends the process at once and waits until it is reaped (bounded: SIGKILL cannot be
// ignored, and WaitDelay bounds its log's pipe).
func (c *child) kill() {
	c.cmd.Process.Signal(syscall.SIGKILL)
	<-c.exited
}

// exchange writes head (and body) and reads one JSON line into v, bounded by ctx and by the
// process's end. On any failure the caller kills the process.
func (c *child) exchange(ctx context.Context, head, body []byte, v any) error {
	type result struct {
		line []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		if _, err := c.stdin.Write(head); err != nil {
			done <- result{err: err}
			return
		}
		if len(body) > 0 {
			if _, err := c.stdin.Write(body); err != nil {
				done <- result{err: err}
				return
			}
		}
		line, err := readLine(c.out, maxAnswerLine)
		done <- result{line, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return c.ended(r.err)
		}
		if err := json.Unmarshal(r.line, v); err != nil {
			return fmt.Errorf("wake process %d: an unreadable answer: %v", c.pid, err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wake process %d did not answer in time: %w", c.pid, ctx.Err())
	}
}

// ended describes a process whose pipe failed: its exit status and its last log line.
func (c *child) ended(err error) error {
	select {
	case <-c.exited:
		return fmt.Errorf("wake process %d ended (%v): %s", c.pid, c.err, c.log.last())
	case <-time.After(500 * time.Millisecond):
	}
	return fmt.Errorf("wake process %d: %v: %s", c.pid, err, c.log.last())
}

// readLine reads one line of at most max bytes.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max {
			return nil, fmt.Errorf("a line longer than %d bytes", max)
		}
		line = append(line, chunk...)
		if err == nil {
			return bytes.TrimSpace(line), nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
}

// processAnswer is the wake process's verdict on one utterance.
type processAnswer struct {
	Heard     bool      `json:"heard"`
	Detection Detection `json:"detection"`
	Error     string    `json:"error,omitempty"`
}

// Spot sends the utterance to the wake process and returns its verdict. A process that is
// not running (it crashed, or hung and was killed) is started first; one that does not answer
// by the deadline is killed, and the error says so.
func (p *Process) Spot(ctx context.Context, samples []float32) (Detection, bool, error) {
	if err := ctx.Err(); err != nil {
		return Detection{}, false, err
	}
	if len(samples) > MaxProcessSamples {
		samples = samples[:MaxProcessSamples]
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = 2*time.Second + time.Duration(len(samples))*time.Second/SampleRate
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return Detection{}, false, fmt.Errorf("wake: spotter closed")
	}
	if p.ch != nil {
		select {
		case <-p.ch.exited:
			p.log.Error("wake process ended", "pid", p.ch.pid, "status", fmt.Sprint(p.ch.err), "log", p.ch.log.last())
			p.ch = nil
		default:
		}
	}
	if p.ch == nil {
		// Started again under its own bound, not the utterance's: a slow start (ONNX Runtime
		// loading on the robot) then serves the next utterance rather than being killed over
		// and over. One that failed to start is not tried again for restartBackoff.
		if time.Since(p.failedAt) < restartBackoff {
			return Detection{}, false, fmt.Errorf("wake process: not started again yet (%v ago): %w", time.Since(p.failedAt).Round(time.Millisecond), p.failed)
		}
		sctx, scancel := context.WithTimeout(context.Background(), processStartTimeout)
		ch, err := p.start(sctx)
		scancel()
		if err != nil {
			p.failedAt, p.failed = time.Now(), err
			p.log.Error("wake process could not start again", "err", err)
			return Detection{}, false, err
		}
		p.ch = ch
		if err := ctx.Err(); err != nil {
			return Detection{}, false, fmt.Errorf("wake process started again, after the utterance's deadline: %w", err)
		}
	}
	head := fmt.Appendf(nil, "{\"samples\":%d}\n", len(samples))
	body := make([]byte, 4*len(samples))
	for i, v := range samples {
		binary.LittleEndian.PutUint32(body[4*i:], math.Float32bits(v))
	}
	var a processAnswer
	if err := p.ch.exchange(ctx, head, body, &a); err != nil {
		p.log.Error("wake process failed: killing it; it starts again for the next utterance", "pid", p.ch.pid, "err", err)
		p.ch.kill()
		p.ch = nil
		return Detection{}, false, err
	}
	if a.Error != "" {
		return Detection{}, false, fmt.Errorf("wake process: %s", a.Error)
	}
	return a.Detection, a.Heard, nil
}

// Close ends the wake process: its stdin closes (it exits), and it is killed if it is not gone
// within a second.
func (p *Process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.ch == nil {
		return nil
	}
	ch := p.ch
	p.ch = nil
	ch.stdin.Close()
	select {
	case <-ch.exited:
	case <-time.After(processStopGrace):
		ch.kill()
	}
	return nil
}

// processLog passes the wake process's log lines to the hub's log: each cut at
// maxProcessLogLine bytes, at most maxProcessLogs of them per process, then one line saying
// the rest were dropped. It keeps the last line, for a crash report.
type processLog struct {
	log *slog.Logger

	mu      sync.Mutex
	buf     []byte
	lines   int
	lastOne string
}

func (l *processLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(b)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		chunk := b
		if i >= 0 {
			chunk = b[:i]
		}
		if room := maxProcessLogLine - len(l.buf); room > 0 {
			l.buf = append(l.buf, chunk[:min(room, len(chunk))]...)
		}
		if i < 0 {
			break
		}
		if len(l.buf) > 0 {
			l.emit(string(l.buf))
		}
		l.buf = l.buf[:0]
		b = b[i+1:]
	}
	return n, nil
}

func (l *processLog) emit(s string) {
	l.lastOne = s
	if l.lines++; l.lines <= maxProcessLogs {
		l.log.Info("wake process", "log", s)
	} else if l.lines == maxProcessLogs+1 {
		l.log.Warn("wake process: further log lines dropped", "after", maxProcessLogs)
	}
}

// last is the last line the process logged (the partial one if it died mid-line).
func (l *processLog) last() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 {
		return string(l.buf)
	}
	if l.lastOne == "" {
		return "(it logged nothing)"
	}
	return l.lastOne
}
