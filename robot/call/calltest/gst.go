package calltest

import (
	"bufio"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// proc is one gst-launch-1.0 subprocess of the test browser.
type proc struct {
	cmd    *exec.Cmd
	exited chan struct{}
	mu     sync.Mutex
	stderr strings.Builder
}

func (p *proc) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.Write(b)
}

func (p *proc) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// startGst runs gst-launch-1.0 with desc (split at spaces); files become fd 3, 4, ...
func startGst(desc string, files ...*os.File) (*proc, error) {
	p := &proc{exited: make(chan struct{})}
	p.cmd = exec.Command("gst-launch-1.0", append([]string{"-q", "-e"}, strings.Fields(desc)...)...)
	p.cmd.ExtraFiles = files
	p.cmd.Stderr = p
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { p.cmd.Wait(); close(p.exited) }()
	return p, nil
}

// stop interrupts the process, kills it 300 ms later, and waits for it.
func (p *proc) stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-p.exited:
	case <-time.After(300 * time.Millisecond):
		p.cmd.Process.Kill()
		<-p.exited
	}
}

// forwardRTP moves RFC 4571-framed RTP from r into track until r ends.
func forwardRTP(r io.Reader, track *webrtc.TrackLocalStaticRTP) {
	br := bufio.NewReader(r)
	buf := make([]byte, 1500)
	var pkt rtp.Packet
	for {
		var hdr [2]byte
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			return
		}
		n := int(binary.BigEndian.Uint16(hdr[:]))
		if n > len(buf) {
			return
		}
		if _, err := io.ReadFull(br, buf[:n]); err != nil {
			return
		}
		if pkt.Unmarshal(buf[:n]) == nil {
			track.WriteRTP(&pkt)
		}
	}
}

// writeFrame writes one RTP packet as an RFC 4571 frame.
func writeFrame(w io.Writer, scratch, pkt []byte) error {
	scratch = binary.BigEndian.AppendUint16(scratch[:0], uint16(len(pkt)))
	_, err := w.Write(append(scratch, pkt...))
	return err
}

// opusPT is the payload type the decoder's caps name.
const opusPT = 111
