package media

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// pipeline is one gst-launch-1.0 subprocess.
type pipeline struct {
	name   string
	cmd    *exec.Cmd
	exited chan struct{} // closed once the process is gone (and waited for)
	err    error         // its exit status; read after exited
	stderr *tail
}

// Bounds of stopping a pipeline: the end of stream gets eosGrace to reach the sinks (a
// WAV file gets its header), then the process is killed.
const eosGrace = 300 * time.Millisecond

// startPipeline runs gst-launch-1.0 with desc; files become fd 3, 4, ... in the child. The
// child gets -e, so an interrupt ends the stream cleanly, and dies with the hub
// (parentDeath).
func startPipeline(gst, name, desc string, files ...*os.File) (*pipeline, error) {
	cmd := exec.Command(gst, append([]string{"-q", "-e"}, launchArgs(desc)...)...)
	cmd.ExtraFiles = files
	cmd.Stdin, cmd.Stdout = nil, nil
	p := &pipeline{name: name, cmd: cmd, exited: make(chan struct{}), stderr: &tail{max: 2048}}
	cmd.Stderr = p.stderr
	cmd.WaitDelay = time.Second // a descendant holding stderr open cannot hold Wait
	parentDeath(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s pipeline: %w", name, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// stop ends the pipeline: an interrupt (end of stream), then a kill after eosGrace. It
// returns once the process is gone.
func (p *pipeline) stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	signalGroup(p.cmd, syscall.SIGINT)
	t := time.NewTimer(eosGrace)
	defer t.Stop()
	select {
	case <-p.exited:
		return
	case <-t.C:
	}
	signalGroup(p.cmd, syscall.SIGKILL)
	<-p.exited // SIGKILL cannot be ignored, and WaitDelay bounds the stderr copy: bounded
}

// failure describes why the pipeline ended, for the log.
func (p *pipeline) failure() string {
	msg := strings.TrimSpace(p.stderr.String())
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:]
	}
	if p.err != nil {
		return fmt.Sprintf("%v: %s", p.err, msg)
	}
	return "ended: " + msg
}

// launchArgs splits a description into gst-launch's arguments at spaces outside double
// quotes (gst-launch escapes the spaces inside one argument, so one string would be one
// element).
func launchArgs(desc string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, r := range desc {
		switch {
		case r == '"':
			quoted = !quoted
			cur.WriteRune(r)
		case !quoted && (r == ' ' || r == '\t' || r == '\n'):
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// tail keeps the last max bytes written (a pipeline's stderr).
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// maxRTP is the largest RTP packet accepted from or written to a pipeline.
const maxRTP = 1500

var errFrame = errors.New("RTP frame longer than 1500 bytes")

// framedReader reads RFC 4571 frames (a big-endian 16-bit length, then the packet).
type framedReader struct {
	r   *bufio.Reader
	buf [maxRTP]byte
}

func newFramedReader(r io.Reader) *framedReader {
	return &framedReader{r: bufio.NewReaderSize(r, 16<<10)}
}

// next returns the next packet; the slice is valid until the following call.
func (f *framedReader) next() ([]byte, error) {
	var hdr [2]byte
	if _, err := io.ReadFull(f.r, hdr[:]); err != nil {
		return nil, err
	}
	n := int(binary.BigEndian.Uint16(hdr[:]))
	if n > maxRTP {
		return nil, errFrame
	}
	if _, err := io.ReadFull(f.r, f.buf[:n]); err != nil {
		return nil, err
	}
	return f.buf[:n], nil
}

// writeFrame writes one packet as an RFC 4571 frame in a single write.
func writeFrame(w io.Writer, scratch []byte, pkt []byte) error {
	if len(pkt) > maxRTP {
		return errFrame
	}
	scratch = binary.BigEndian.AppendUint16(scratch[:0], uint16(len(pkt)))
	scratch = append(scratch, pkt...)
	_, err := w.Write(scratch)
	return err
}
