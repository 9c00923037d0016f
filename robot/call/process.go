package call

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// process is a call's running media process.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	exited chan struct{} // closed once it is gone and its output read
	err    error         // its exit status; read after exited
	stderr *lines

	mu     sync.Mutex
	closed bool
}

// Bounds on what the media process writes: an event line (an answer's SDP is a few KB), and
// its log (each line, and how many lines of one call reach the hub's log).
const (
	maxEventLine  = 1 << 20
	maxLogLine    = 512
	maxLogLines   = 200
	stderrTailLen = 512
)

// startProcess starts cmd as a call's media process: its events go to event, its log to
// log (bounded), and it dies with the hub (dieWithParent).
func startProcess(mc MediaCommand, log *slog.Logger, event func(MediaEvent)) (*process, error) {
	cmd := exec.Command(mc.Path)
	cmd.Env = environ(mc.Env)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, stdin: stdin, exited: make(chan struct{})}
	cmd.Stdout = &lines{max: maxEventLine, line: func(b []byte) {
		var e MediaEvent
		if err := jsonLine(b, &e); err != nil {
			log.Warn("call media: an unreadable line", "err", err)
			return
		}
		event(e)
	}}
	logged := 0
	p.stderr = &lines{max: maxLogLine, keepTail: stderrTailLen, line: func(b []byte) {
		if logged++; logged <= maxLogLines {
			log.Info("call media", "log", string(b))
		} else if logged == maxLogLines+1 {
			log.Warn("call media: further log lines dropped", "after", maxLogLines)
		}
	}}
	cmd.Stderr = p.stderr
	cmd.WaitDelay = time.Second // nothing it started may hold its output open past it
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the call's media process %s: %w", mc.Path, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func (p *process) pid() int { return p.cmd.Process.Pid }

// send writes one JSON line to the process.
func (p *process) send(v any) error {
	b, err := encodeLine(v)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return fmt.Errorf("the media process is being stopped")
	}
	if _, err := p.stdin.Write(b); err != nil {
		return fmt.Errorf("writing to the media process: %w", err)
	}
	return nil
}

// stop closes the process's stdin (it stops its media and exits), kills it after grace,
// and returns once it is gone.
func (p *process) stop(grace time.Duration) {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		p.stdin.Close()
	}
	p.mu.Unlock()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exited:
		return
	case <-t.C:
	}
	p.cmd.Process.Signal(syscall.SIGKILL) // its pipelines die with it (their parent-death signal)
	<-p.exited                            // SIGKILL cannot be ignored, and WaitDelay bounds the output: bounded
}

// failure describes why the process ended, for the log.
func (p *process) failure() string {
	msg := strings.TrimSpace(p.stderr.tail())
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:]
	}
	if p.err != nil {
		return fmt.Sprintf("ended: %v: %s", p.err, msg)
	}
	return "ended: " + msg
}

// lines splits what is written into lines of at most max bytes (longer ones are cut) and
// hands each to line; with keepTail it also keeps the last keepTail bytes.
type lines struct {
	max      int
	keepTail int
	line     func([]byte)

	mu   sync.Mutex
	buf  []byte
	over bool // the line in buf was cut at max
	last []byte
}

func (l *lines) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(b)
	if l.keepTail > 0 {
		l.last = append(l.last, b...)
		if len(l.last) > l.keepTail {
			l.last = append(l.last[:0], l.last[len(l.last)-l.keepTail:]...)
		}
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		chunk := b
		if i >= 0 {
			chunk = b[:i]
		}
		if room := l.max - len(l.buf); room > 0 {
			l.buf = append(l.buf, chunk[:min(room, len(chunk))]...)
		}
		if i < 0 {
			break
		}
		if len(l.buf) > 0 {
			l.line(l.buf)
		}
		l.buf = l.buf[:0]
		b = b[i+1:]
	}
	return n, nil
}

func (l *lines) tail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.last)
}
