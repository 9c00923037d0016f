package broker

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reachy-broker/reachy-broker/robot/call/calltest"
	"github.com/reachy-broker/reachy-broker/speech"
)

// freeUDPRange finds n consecutive free loopback UDP ports for the hub's media (the test
// owns its ports; nothing fixed).
func freeUDPRange(t *testing.T, n int) (int, int) {
	t.Helper()
	for range 20 {
		c, err := net.ListenPacket("udp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		base := c.LocalAddr().(*net.UDPAddr).Port
		c.Close()
		if base+n > 65535 {
			continue
		}
		ok := true
		for p := base; p < base+n && ok; p++ {
			c, err := net.ListenPacket("udp4", fmt.Sprintf("127.0.0.1:%d", p))
			if err != nil {
				ok = false
				continue
			}
			c.Close()
		}
		if ok {
			return base, base + n - 1
		}
	}
	t.Fatal("no free UDP port range")
	return 0, 0
}

// simHubProcess builds reachy-hub and reachy-call and starts `reachy-hub --sim --link` linked to the broker through
// a cuttable proxy; it is stopped (SIGTERM, bounded) when the test ends.
func simHubProcess(t *testing.T, r *consoleRig, out string) (*exec.Cmd, *calltest.CutProxy) {
	t.Helper()
	return startSimHubProcess(t, r, out, nil)
}

// startSimHub is simHubProcess; with a tailnet the hub runs in its namespace, reaches the
// broker at the host side's address, and binds its media to the namespace's veth only.
func startSimHubProcess(t *testing.T, r *consoleRig, out string, tn *calltest.Tailnet) (*exec.Cmd, *calltest.CutProxy) {
	t.Helper()
	dir := t.TempDir()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the hub with")
	}
	hub := filepath.Join(dir, "reachy-hub")
	bctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	// reachy-call beside reachy-hub, as installed: the hub starts it for each call's media.
	if o, err := exec.CommandContext(bctx, goTool, "build", "-o", dir+string(filepath.Separator), "../cmd/reachy-hub", "../cmd/reachy-call").CombinedOutput(); err != nil {
		t.Fatalf("go build reachy-hub reachy-call: %v\n%s", err, o)
	}
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte(r.token(t, "robot", "turn", "link")+"\n"), 0o600)
	listen, callCfg := "127.0.0.1:0", ""
	lo, hi := freeUDPRange(t, 20)
	if tn != nil {
		listen = net.JoinHostPort(tn.HostIP.String(), "0")
		lo, hi = 40000, 40099 // the namespace's ports are its own
		callCfg = fmt.Sprintf("  interfaces: [%s]\n", tn.NSIf)
	}
	proxy := calltest.NewCutProxyOn(t, listen, r.srv.Listener.Addr().String())
	cfgFile := filepath.Join(dir, "hub.yaml")
	os.WriteFile(cfgFile, fmt.Appendf(nil, "broker_url: http://%s\ntoken_file: %s\ncall:\n  udp_port_min: %d\n  udp_port_max: %d\n%s",
		proxy.Addr(), tokenFile, lo, hi, callCfg), 0o600)
	quiet, _ := speech.EncodeWAV(make([]float32, speech.SampleRate/2), speech.SampleRate)
	mic := filepath.Join(dir, "mic")
	os.MkdirAll(mic, 0o755)
	os.WriteFile(filepath.Join(mic, "quiet.wav"), quiet, 0o644)
	args := []string{"--sim", "--link", "--config", cfgFile, "--broker", "http://" + proxy.Addr(), "--token-file", tokenFile, "--out", out, mic}
	cmd := exec.Command(hub, args...)
	if tn != nil {
		cmd = tn.Command(hub, args...) // `ip netns exec` execs the hub: the same process
	}
	var logs syncBuffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() || os.Getenv("CALL_DEBUG") != "" {
			t.Logf("reachy-hub output:\n%s", logs.String())
		}
	})
	waitLinked(t, r.b, "robot", 1, 20*time.Second)
	return cmd, proxy
}

// syncBuffer is a bytes.Buffer safe to write from a subprocess's pipes while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
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

// roomAudioJS records 1 s (after half a second's start) of what the page plays from the robot (Web Audio, from the
// video's stream) and returns the levels (dBFS RMS) at 440 Hz (the room tone) and 660 Hz
// (the owner's own tone coming back), and in total.
const roomAudioJS = `(async () => {
  const v = document.querySelector('#robot-robot [data-testid="robot-video"]');
  const ctx = new AudioContext({ sampleRate: 48000 });
  const src = ctx.createMediaStreamSource(v.srcObject);
  const proc = ctx.createScriptProcessor(4096, 1, 1);
  const chunks = []; let n = 0;
  await new Promise((res) => {
    let skip = 24000; // the first half second is the node starting up (silence), not the call
    proc.onaudioprocess = (e) => { const d = e.inputBuffer.getChannelData(0); if (skip > 0) { skip -= d.length; return; }
      chunks.push(new Float32Array(d)); n += d.length; if (n >= 48000) res(); };
    src.connect(proc); proc.connect(ctx.destination); setTimeout(res, 5000);
  });
  proc.disconnect(); src.disconnect(); ctx.close();
  const all = new Float32Array(n); let o = 0; for (const c of chunks) { all.set(c, o); o += c.length; }
  const tone = (f) => { const w = 2 * Math.PI * f / 48000, k = 2 * Math.cos(w); let s1 = 0, s2 = 0;
    for (const x of all) { const s = x + k * s1 - s2; s2 = s1; s1 = s; }
    const amp = 2 * Math.sqrt(Math.max(s1 * s1 + s2 * s2 - k * s1 * s2, 0)) / all.length; return 20 * Math.log10(amp / Math.SQRT2); };
  let e = 0; for (const x of all) e += x * x;
  return [tone(440), tone(660), 10 * Math.log10(e / Math.max(1, all.length)), all.length];
})()`

// delayJS is the audio's one-way delay as the browser reports it: the jitter buffer's
// mean delay over two seconds of the call (not its start) plus half the round trip.
const delayJS = `(async () => {
  const sample = async () => { const st = await window.reachyCall.pc.getStats(); let jb = 0, em = 0, rtt = 0;
    st.forEach((s) => {
      if (s.type === "inbound-rtp" && s.kind === "audio") { jb = s.jitterBufferDelay; em = s.jitterBufferEmittedCount; }
      if (s.type === "candidate-pair" && s.nominated && s.state === "succeeded") rtt = s.currentRoundTripTime || 0;
    });
    return { jb, em, rtt }; };
  const a = await sample(); await new Promise((r) => setTimeout(r, 2000)); const b = await sample();
  return [b.em > a.em ? (b.jb - a.jb) / (b.em - a.em) * 1000 : -1, b.rtt * 500];
})()`

// strictOr is a budget: as stated with CALL_BUDGETS=1 (a quiet machine, the measurement
// quoted in the docs); in an ordinary run on a shared machine, factor times it, so a test
// run under load still catches a regression of the call's path without flaking.
func strictOr(budget time.Duration, factor int) time.Duration {
	if os.Getenv("CALL_BUDGETS") != "" {
		return budget
	}
	return budget * time.Duration(factor)
}

// TestLiveCallWithSimHub is the whole call, end to end: Chromium (fake microphone playing
// a 660 Hz tone) on the console, the broker, and a real `reachy-hub --sim --link`
// subprocess with its GStreamer pipelines. It checks live video for 5 s at the configured
// rate, the room's tone in the page, the owner's tone in the hub's --out within 3 dB, the
// echo ≥ 20 dB below it, "hang up" stopping the hub's media within 1 s, the link dropping
// ending the call with robot_offline; and measures the budgets: Call → first frame after
// the chime (< 1.5 s), the audio's one-way delay (< 200 ms). CALL_SCREENSHOTS=1 writes
// docs/teleport-call-desktop.png of the live call.
func TestLiveCallWithSimHub(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the hub, starts GStreamer and a browser")
	}
	calltest.NeedGst(t)
	r := newConsoleBroker(t)
	out := t.TempDir()
	hub, proxy := simHubProcess(t, r, out)
	const ownerAmp = 0.25 // -15.1 dBFS RMS
	ownerDB := 20 * math.Log10(ownerAmp/math.Sqrt2)
	ctx := browser(t, toneFile(t, calltest.OwnerToneHz, ownerAmp, 4), callFlags...)
	do(t, ctx, "load", chromedp.Navigate(callPageURL(r)), chromedp.WaitEnabled(testid("call-start")))

	startCallInPage(t, ctx)
	waitJS(t, ctx, "the first frame's time", `window.callMarks && window.callMarks.firstFrame > 0`)
	marks, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`window.callMarks`))
	if err != nil {
		t.Fatal(err)
	}
	ms := func(from, to string) time.Duration {
		return time.Duration((marks[to] - marks[from]) * float64(time.Millisecond)).Round(time.Millisecond)
	}
	toFrame := ms("joined", "firstFrame")
	t.Logf("budget: chime played → first decoded frame %s (budget 1.5s): offer posted +%s, hub's answer +%s, connected +%s, first frame +%s; click → first frame %s (join and chime included; the offer's ICE gathering took %s beside it)",
		toFrame, ms("joined", "offered"), ms("offered", "answered"), ms("answered", "connected"), ms("connected", "firstFrame"), ms("click", "firstFrame"), ms("click", "gathered"))
	if toFrame <= 0 || toFrame > strictOr(1500*time.Millisecond, 3) {
		t.Errorf("chime → first frame %s, budget 1.5 s", toFrame)
	}

	// Video: frames rising every second for 5 s, at about the configured 30 fps.
	f0, _ := chromedp.Run(ctx, chromedp.Evaluate[int](videoFrames))
	prev := f0
	for i := range 5 {
		time.Sleep(time.Second)
		f, _ := chromedp.Run(ctx, chromedp.Evaluate[int](videoFrames))
		if f <= prev {
			t.Fatalf("video frames stopped rising in second %d: %d → %d", i+1, prev, f)
		}
		prev = f
	}
	if fps := float64(prev-f0) / 5; fps < 24 {
		t.Errorf("video at %.1f fps over 5 s, want about 30", fps)
	} else {
		t.Logf("video: %d frames in 5 s (%.1f fps)", prev-f0, fps)
	}

	// The room's tone reaches the page; the owner's own voice does not come back (measured
	// 10 s into the call: the hub's echo canceller has converged by then).
	since, _ := chromedp.Run(ctx, chromedp.Evaluate[float64](`performance.now() - window.callMarks.connected`))
	if wait := 10*time.Second - time.Duration(since*float64(time.Millisecond)); wait > 0 {
		time.Sleep(wait)
	}
	lv, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](roomAudioJS, chromedp.EvalAwaitPromise))
	if err != nil || len(lv) != 4 || lv[3] < 40000 {
		t.Fatalf("room audio in the page: %v %v", lv, err)
	}
	room := 20 * math.Log10(0.25/math.Sqrt2)
	t.Logf("room tone in the page %.1f dBFS (sent at %.1f); owner's tone coming back %.1f dBFS (%.1f dB below the owner's %.1f)", lv[0], room, lv[1], ownerDB-lv[1], ownerDB)
	if math.Abs(lv[0]-room) > 4 { // Opus, the hub's echo canceller and Chromium's playout: about -3 dB here
		t.Errorf("room tone at %.1f dBFS in the page, want %.1f ± 4", lv[0], room)
	}
	if ownerDB-lv[1] < 20 {
		t.Errorf("the owner's voice comes back %.1f dB below it, want ≥ 20", ownerDB-lv[1])
	}
	dl, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](delayJS, chromedp.EvalAwaitPromise))
	if err != nil || len(dl) != 2 || dl[0] < 0 {
		t.Fatalf("stats: %v %v", dl, err)
	}
	oneWay := dl[0] + dl[1]
	t.Logf("budget: audio one-way delay %.0f ms (jitter buffer %.0f ms + half the round trip %.1f ms; budget 200 ms)", oneWay, dl[0], dl[1])
	if oneWay >= float64(strictOr(200*time.Millisecond, 2)/time.Millisecond) {
		t.Errorf("audio one-way delay %.0f ms, budget 200 ms", oneWay)
	}
	if os.Getenv("CALL_SCREENSHOTS") != "" {
		do(t, ctx, "timeline", chromedp.SendKeys("#say-text-robot", "Hello from the hotel"), chromedp.Click("#say-robot"))
		waitJS(t, ctx, "typed", timelineTxt+`.includes("Hello from the hotel")`)
		time.Sleep(time.Second) // the timer shows a few seconds
		do(t, ctx, "top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
		// Headless Chromium's screenshot leaves a playing <video> layer black: the frame the
		// page has decoded is drawn into a canvas in its place, so the picture shows it.
		do(t, ctx, "frame", chromedp.Evaluate[chromedp.Void](`(() => {
			const v = document.querySelector('#video-robot');
			const c = document.createElement('canvas');
			c.width = v.videoWidth; c.height = v.videoHeight;
			c.getContext('2d').drawImage(v, 0, 0);
			c.style.width = v.clientWidth + 'px'; c.style.height = v.clientHeight + 'px';
			c.style.display = 'block'; c.id = 'frame-shot';
			v.hidden = true;
			v.before(c);
		})()`))
		screenshot(t, ctx, "../docs/teleport-call-desktop.png")
		do(t, ctx, "video back", chromedp.Evaluate[chromedp.Void](`document.querySelector('#frame-shot').remove(), document.querySelector('#video-robot').hidden = false`))
	}

	// "Hang up" (the room's turn): the hub's media stops within 1 s; the page says why.
	if n := calltest.MediaProcesses(hub.Process.Pid); n == 0 {
		t.Fatal("no media pipelines running during the call")
	}
	robotTok := r.token(t, "robot", "text", "turn")
	hungUp := time.Now()
	if resp := r.say(t, robotTok, "hang up"); resp.status != 200 {
		t.Fatalf("hang up: %d %s", resp.status, resp.body)
	}
	for calltest.MediaProcesses(hub.Process.Pid) > 0 && time.Since(hungUp) < 5*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	stopped := time.Since(hungUp)
	t.Logf("hang up → the hub's media pipelines gone: %s (budget 1s)", stopped.Round(time.Millisecond))
	if stopped > time.Second {
		t.Errorf("media went on %s after hang up", stopped.Round(time.Millisecond))
	}
	waitEnded(t, ctx, "hang_up", "the room said hang up")

	// The owner's tone arrived in the hub's --out at its level.
	pcm, err := calltest.ReadWAV(filepath.Join(out, "call-owner-1.wav"))
	if err != nil || len(pcm) < 48000 {
		t.Fatalf("the owner's voice is not in --out: %d samples, %v", len(pcm), err)
	}
	got := calltest.ToneDB(pcm[len(pcm)-48000:], calltest.OwnerToneHz)
	t.Logf("owner's tone in the hub's --out %.1f dBFS (the file microphone %.1f)", got, ownerDB)
	if math.Abs(got-ownerDB) > 3 {
		t.Errorf("owner's tone in --out at %.1f dBFS, want %.1f ± 3", got, ownerDB)
	}

	// The robot's link drops mid-call: the call ends with robot_offline and its media stops.
	startCallInPage(t, ctx)
	cut := time.Now()
	proxy.Cut()
	waitEnded(t, ctx, "robot_offline", "the robot went offline")
	for calltest.MediaProcesses(hub.Process.Pid) > 0 && time.Since(cut) < 5*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	if d := time.Since(cut); d > 1500*time.Millisecond {
		t.Errorf("the hub's media went on %s after its link dropped", d.Round(time.Millisecond))
	}
}
