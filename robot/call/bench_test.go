package call

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/robot/call/calltest"
)

// TestBrowserProcess is the browser of BenchmarkHubForwarding720p30 in its own process (so
// the benchmark's process holds only the hub): it prints its offer, reads the answer, takes
// the media until its stdin closes, then prints what arrived. It does nothing in a normal
// test run.
func TestBrowserProcess(t *testing.T) {
	if os.Getenv("CALLTEST_BROWSER") != "1" {
		t.Skip("the benchmark's browser process; run by BenchmarkHubForwarding720p30")
	}
	b := calltest.NewBrowser(t, false)
	fmt.Printf("OFFER %s\n", base64.StdEncoding.EncodeToString([]byte(b.Offer())))
	in := bufio.NewReader(os.Stdin)
	line, err := in.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	answer, err := base64.StdEncoding.DecodeString(strings.TrimSpace(strings.TrimPrefix(line, "ANSWER ")))
	if err != nil {
		t.Fatal(err)
	}
	b.Accept(string(answer))
	io.Copy(io.Discard, in)
	st := b.Stats()
	fmt.Printf("STATS frames=%d keyframes=%d packets=%d\n", len(st.Frames), st.Keyframes, st.Packets)
}

// BenchmarkHubForwarding720p30 measures the CPU of the call's media process (reachy-call:
// the pion peer and the RTP forwarding; the encoder runs in its gst subprocess, the browser
// in another process) while it forwards a 720p30 call with its audio both ways, over 10 s
// after a 3 s warm-up.
// CALLTEST_BROWSER_BIN names another binary for the browser (e.g. the amd64 test binary
// while this one runs arm64 under qemu-user).
//
//	go test -run '^$' -bench HubForwarding720p30 -benchtime 1x ./robot/call/
func BenchmarkHubForwarding720p30(b *testing.B) {
	calltest.NeedGst(b)
	cfg := Sim()
	// Snow does not compress: the encoder spends its whole 2.5 Mbit/s, as on a real camera.
	cfg.Video = strings.Replace(SimVideo(1280, 720, 30, 2500), "pattern=smpte horizontal-speed=2", "pattern=snow", 1)
	cfg.Defaults()
	var live atomic.Bool
	live.Store(true)
	m := &Manager{Config: cfg, Live: live.Load, Media: selfAsMedia(b)}
	defer m.End("", "bench over")

	bin := os.Getenv("CALLTEST_BROWSER_BIN")
	if bin == "" {
		bin = os.Args[0]
	}
	cmd := exec.Command(bin, "-test.run=^TestBrowserProcess$", "-test.v")
	cmd.Env = append(os.Environ(), "CALLTEST_BROWSER=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Process.Kill()
	out := bufio.NewScanner(stdout)
	out.Buffer(make([]byte, 1<<20), 1<<20)
	var offer []byte
	for out.Scan() {
		if v, ok := strings.CutPrefix(out.Text(), "OFFER "); ok {
			offer, _ = base64.StdEncoding.DecodeString(v)
			break
		}
	}
	if offer == nil {
		b.Fatal("the browser process sent no offer")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	answer, err := m.Offer(ctx, "bench", string(offer))
	if err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(stdin, "ANSWER %s\n", base64.StdEncoding.EncodeToString([]byte(answer)))

	time.Sleep(3 * time.Second)
	m.mu.Lock()
	s := m.cur
	m.mu.Unlock()
	if s == nil {
		b.Fatal("the call ended during the warm-up")
	}
	pid := s.proc.pid()
	v0, cpu0, t0 := s.sentVideo.Load(), procCPU(pid), time.Now()
	b.ResetTimer()
	time.Sleep(10 * time.Second)
	b.StopTimer()
	v1, cpu1, wall := s.sentVideo.Load(), procCPU(pid), time.Since(t0)
	rss := procStatusKB(pid, "VmRSS")
	m.End("bench", "bench over")
	stdin.Close()
	for out.Scan() {
		if strings.HasPrefix(out.Text(), "STATS ") {
			b.Logf("browser: %s", out.Text())
		}
	}
	cmd.Wait()
	pct := 100 * (cpu1 - cpu0).Seconds() / wall.Seconds()
	b.ReportMetric(pct, "media-cpu-%")
	b.ReportMetric(float64(v1-v0)/wall.Seconds(), "video-pkts/s")
	b.ReportMetric(float64(rss)/1024, "media-rss-MB")
	b.Logf("media process CPU %.1f%% of one core while forwarding %.0f video packets/s (720p30, 2.5 Mbit/s) plus audio both ways",
		pct, float64(v1-v0)/wall.Seconds())
}

// procCPU is process pid's user+system CPU time so far (all threads; not its children).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	var utime, stime int64
	fmt.Sscan(f[11], &utime)
	fmt.Sscan(f[12], &stime)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

// procStatusKB reads a kB field of /proc/PID/status (0 elsewhere).
func procStatusKB(pid int, field string) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			var kb int
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), &kb)
			return kb
		}
	}
	return 0
}
