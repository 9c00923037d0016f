package broker

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/device"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/speech"
)

// callFlags are what Chromium needs for a WebRTC call on loopback in a test: loopback
// candidates, raw host addresses (no mDNS names to resolve), and audio without a gesture.
var callFlags = []chromedp.ExecAllocatorOption{
	chromedp.Flag("allow-loopback-in-peer-connection", true),
	chromedp.Flag("autoplay-policy", "no-user-gesture-required"),
	chromedp.Flag("disable-features", "Translate,BlinkGenPropertyTrees,WebRtcHideLocalIpsWithMdns"),
}

// toneFile writes a sine tone WAV for Chromium's fake microphone.
func toneFile(t *testing.T, hz, amp float64, secs int) string {
	t.Helper()
	x := make([]float32, speech.SampleRate*secs)
	for i := range x {
		x[i] = float32(amp * math.Sin(2*math.Pi*hz*float64(i)/speech.SampleRate))
	}
	wav, err := speech.EncodeWAV(x, speech.SampleRate)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), fmt.Sprintf("tone-%.0f.wav", hz))
	if err := os.WriteFile(p, wav, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// peerTab is a second tab of the same browser standing in for the hub's media end: it
// answers the page's offer with a moving picture and a 440 Hz tone, so the call screen is
// tested with real WebRTC media before (and apart from) the hub's own pipelines.
type peerTab struct{ ctx context.Context }

func newPeerTab(t *testing.T, browserCtx context.Context) *peerTab {
	t.Helper()
	do(t, browserCtx, "start the browser", chromedp.Navigate("about:blank")) // the peer tab shares its browser
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	// A loopback page (a secure context, unlike about:blank) may ask for the fake microphone.
	blank := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<!doctype html><title>hub</title>")
	}))
	t.Cleanup(blank.Close)
	do(t, ctx, "open the peer tab", chromedp.Navigate(blank.URL))
	return &peerTab{ctx: ctx}
}

const peerAnswerJS = `(async (offer) => {
  if (window.hubPC) window.hubPC.close();
  const pc = new RTCPeerConnection({ iceServers: [] });
  window.hubPC = pc;
  if (!window.hubStream) {
    const cv = document.createElement("canvas"); cv.width = 640; cv.height = 360; document.body.append(cv);
    const g = cv.getContext("2d"); let n = 0;
    setInterval(() => { n++; g.fillStyle = "hsl(" + (n * 3 % 360) + ",45%,40%)"; g.fillRect(0, 0, 640, 360);
      g.fillStyle = "#fff"; g.font = "40px sans-serif"; g.fillText("the living room " + n, 40, 190); }, 33);
    const ac = new AudioContext(); const o = ac.createOscillator(); o.frequency.value = 440;
    const gain = ac.createGain(); gain.gain.value = 0.3; const dst = ac.createMediaStreamDestination();
    o.connect(gain).connect(dst); o.start();
    window.hubStream = new MediaStream([...cv.captureStream(30).getVideoTracks(), ...dst.stream.getAudioTracks()]);
  }
  // A tab without camera or microphone permission gathers on the default route's interface
  // only; the hub it stands in for answers from loopback, so it takes the (fake) microphone
  // once, as a page that may use devices gathers on every interface.
  if (!window.hubDevices) window.hubDevices = await navigator.mediaDevices.getUserMedia({ audio: true });
  for (const tr of window.hubStream.getTracks()) pc.addTrack(tr, window.hubStream);
  await pc.setRemoteDescription({ type: "offer", sdp: offer });
  await pc.setLocalDescription(await pc.createAnswer());
  await new Promise((res) => { if (pc.iceGatheringState === "complete") res();
    pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === "complete") res(); }; setTimeout(res, 3000); });
  return pc.localDescription.sdp;
})`

// answer is the hub's handling of a call offer: the peer tab's answer in the ack.
func (p *peerTab) answer(m api.LinkMessage) api.LinkAckBody {
	ctx, cancel := context.WithTimeout(p.ctx, 8*time.Second)
	defer cancel()
	sdp, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf("%s(%q)", peerAnswerJS, m.CallOffer.SDP), chromedp.EvalAwaitPromise))
	if err != nil {
		return api.LinkAckBody{Code: api.LinkErrNoMedia}
	}
	return api.LinkAckBody{OK: true, Answer: &api.LinkCallAnswer{CallID: m.CallOffer.CallID, SDP: sdp}}
}

func jsString(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("browser, %s: %v", expr, err)
	}
	return s
}

const (
	sel         = `document.querySelector('#robot-robot [data-testid="%s"]')`
	stateText   = `document.querySelector('#robot-robot [data-testid="call-state"]').textContent`
	timelineTxt = `document.querySelector('#robot-robot [data-testid="timeline"]').textContent`
	videoFrames = `(() => { const v = document.querySelector('#robot-robot [data-testid="robot-video"]'); return v.getVideoPlaybackQuality ? v.getVideoPlaybackQuality().totalVideoFrames : 0; })()`
)

// testid selects one of the call screen's controls on the robot's card (each robot has one).
func testid(id string) string { return fmt.Sprintf(`#robot-robot [data-testid="%s"]`, id) }

// callPageURL opens the page with the microphone's processing off, as a measurement needs.
func callPageURL(r *consoleRig) string {
	return r.srv.URL + "/?echoCancellation=0&noiseSuppression=0&autoGainControl=0"
}

// startCallInPage clicks Call and waits until the page says live with frames decoding.
func startCallInPage(t *testing.T, ctx context.Context) {
	t.Helper()
	do(t, ctx, "call", chromedp.WaitVisible(testid("call-start")), chromedp.WaitEnabled(testid("call-start")), chromedp.Click(testid("call-start")))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](stateText+` === "live"`, chromedp.WithPollingTimeout(15*time.Second), chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatalf("the call did not go live: %v; the page says %q, error %q, timeline %q", err, jsString(t, ctx, stateText+` + " " + document.querySelector('#robot-robot [data-testid="call-reason"]').textContent`),
			jsString(t, ctx, `document.querySelector("#error").textContent`), jsString(t, ctx, timelineTxt))
	}
	waitJS(t, ctx, "frames", videoFrames+` > 0`)
}

// waitEnded waits for "ended: REASON" and its sentence beside it.
func waitEnded(t *testing.T, ctx context.Context, reason, sentence string) {
	t.Helper()
	want := fmt.Sprintf(`%s === "ended: %s" && document.querySelector('#robot-robot [data-testid="call-reason"]').textContent === %q`, stateText, reason, sentence)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](want, chromedp.WithPollingTimeout(15*time.Second), chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatalf("waiting for ended: %s: %v; the page says %q, error %q", reason, err,
			jsString(t, ctx, stateText+` + " / " + document.querySelector('#robot-robot [data-testid="call-reason"]').textContent`),
			jsString(t, ctx, `document.querySelector("#error").textContent`))
	}
	if v := jsString(t, ctx, `String(!!(window.reachyCall && window.reachyCall.pc && window.reachyCall.pc.connectionState !== "closed" && document.querySelector('#robot-robot [data-testid="robot-video"]').srcObject))`); v != "false" {
		t.Fatalf("after ended: %s the page still holds media", reason)
	}
}

func (r *callRig) callID(t *testing.T) string {
	t.Helper()
	if s := r.robotView(t).Session; s != nil && s.Call != nil {
		return s.Call.ID
	}
	t.Fatal("no call on the broker")
	return ""
}

func (r *callRig) hubEnds(t *testing.T, reason string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.hub.link.Send(ctx, api.LinkMessage{Type: api.LinkCallEnded, CallEnded: &api.LinkCallEndedBody{CallID: r.callID(t), Reason: reason}}); err != nil {
		t.Fatal(err)
	}
}

// TestCallScreenInBrowser drives the call screen in headless Chromium against a peer that
// answers with real WebRTC media: live video, the timeline (a clip heard before the call
// went live, a typed sentence, an expression, a click on the video, a clip heard during it),
// text over the limit refused with the limit, mute, and every way a call ends shown as
// "ended: REASON" with its sentence.
func TestCallScreenInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	r := newCallRig(t, func(c *Config, d *Deps) {
		c.Teleport.IdleTimeout = 34 * time.Second
		if os.Getenv("CALL_DEBUG") != "" {
			d.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
		}
	})
	ctx := browser(t, toneFile(t, 440, 0.3, 4), callFlags...)
	peer := newPeerTab(t, ctx)
	r.calls.setAnswer(peer.answer)
	do(t, ctx, "load", chromedp.Navigate(callPageURL(r.consoleRig)), chromedp.WaitEnabled(testid("call-start")))
	r.adoptPage(t, ctx)
	if n := jsString(t, ctx, `String(document.querySelectorAll('#robot-robot [data-testid="robot-video"]').length)`); n != "1" {
		t.Fatalf("video elements: %s", n)
	}

	// Joined without video first: what the room says then is in the timeline as before the call.
	do(t, ctx, "join", chromedp.Click("#join-robot"))
	waitJS(t, ctx, "joined", `!document.querySelector("#session-robot").hidden`)
	silence, _ := speech.EncodeWAV(make([]float32, speech.SampleRate), speech.SampleRate)
	r.stt.say("Dad, look at my drawing")
	sendHeard(t, r.consoleRig, silence)
	waitJS(t, ctx, "the clip before the call", timelineTxt+`.includes("before the call was live") && `+timelineTxt+`.includes("Dad, look at my drawing")`)

	startCallInPage(t, ctx)
	f0, _ := chromedp.Run(ctx, chromedp.Evaluate[int](videoFrames))
	time.Sleep(2 * time.Second)
	f1, _ := chromedp.Run(ctx, chromedp.Evaluate[int](videoFrames))
	if f1-f0 < 20 {
		t.Fatalf("video frames rose by %d in 2 s", f1-f0)
	}
	if cam := jsString(t, ctx, `String(window.reachyCall.pc.getSenders().filter(s => s.track && s.track.kind === "video").length)`); cam != "0" {
		t.Fatalf("the owner's camera is being sent: %s video senders", cam)
	}

	// Typed sentence, an expression, a click on the video, a clip during the call.
	do(t, ctx, "say", chromedp.SendKeys("#say-text-robot", "Hello from the hotel"), chromedp.Click("#say-robot"))
	waitJS(t, ctx, "typed in the timeline", timelineTxt+`.includes("You typed: “Hello from the hotel”")`)
	expr := jsString(t, ctx, `document.querySelector("#expressions-robot button").textContent`)
	do(t, ctx, "expression", chromedp.Click("#expressions-robot button"))
	waitJS(t, ctx, "expression in the timeline", timelineTxt+fmt.Sprintf(`.includes("The robot showed %s")`, expr))
	looks := len(r.calls.messages(api.LinkLook))
	xy, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const b = document.querySelector('#robot-robot [data-testid="robot-video"]').getBoundingClientRect(); return [b.x + b.width * 0.9, b.y + b.height / 2]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	do(t, ctx, "click the video", chromedp.MouseClickXY(xy[0], xy[1]))
	waitFor(t, "the look", 5*time.Second, func() bool { return len(r.calls.messages(api.LinkLook)) > looks })
	if l := r.calls.messages(api.LinkLook)[looks].Look; l.YawDeg > -15 || math.Abs(l.PitchDeg) > 3 {
		t.Fatalf("a click at the right edge's middle turned the head to %+v", l)
	}
	r.stt.say("We're at the park tomorrow")
	sendHeard(t, r.consoleRig, silence)
	waitJS(t, ctx, "the clip during the call", timelineTxt+`.includes("Heard in the room:We're at the park tomorrow")`)
	waitJS(t, ctx, "the owner's speech noted", timelineTxt+`.includes("You: (spoke)")`)

	// Over the limit: refused on the page with the limit; nothing reaches the robot.
	uploads := len(r.hub.paths("/api/media/sounds/upload"))
	do(t, ctx, "too long", chromedp.SendKeys("#say-text-robot", strings.Repeat("a", 301)))
	waitJS(t, ctx, "the limit shown", fmt.Sprintf(sel, "text-limit")+`.textContent.includes("301 characters") && `+fmt.Sprintf(sel, "text-limit")+`.textContent.includes("limit is 300") && getComputedStyle(`+fmt.Sprintf(sel, "text-limit")+`).display !== "none"`)
	do(t, ctx, "enter", chromedp.SendKeys("#say-text-robot", "\r"))
	time.Sleep(300 * time.Millisecond)
	if len(r.hub.paths("/api/media/sounds/upload")) != uploads {
		t.Fatal("text over the limit reached the robot")
	}
	if v := jsString(t, ctx, `document.querySelector("#say-text-robot").value.length.toString()`); v != "301" {
		t.Fatalf("the page cut the text silently to %s characters", v)
	}
	do(t, ctx, "clear", chromedp.Evaluate[chromedp.Void](`(() => { const i = document.querySelector("#say-text-robot"); i.value = ""; i.dispatchEvent(new Event("input")); })()`))

	// Mute: the microphone's track is off and the button says so.
	do(t, ctx, "mute", chromedp.Click(testid("mute")))
	if v := jsString(t, ctx, `window.reachyCall.mic.getAudioTracks()[0].enabled + " " + document.querySelector('#robot-robot [data-testid="mute"]').textContent`); v != "false Unmute" {
		t.Fatalf("after mute: %s", v)
	}
	do(t, ctx, "unmute", chromedp.Click(testid("mute")))

	// Every end, with its reason and its sentence.
	r.hubEnds(t, api.CallEndMediaFailed)
	waitEnded(t, ctx, "media_failed", "the video and sound stopped working; call again")

	startCallInPage(t, ctx)
	r.hubEnds(t, api.CallEndPrivacy)
	waitEnded(t, ctx, "privacy", "privacy mode")

	startCallInPage(t, ctx)
	r.hubEnds(t, api.CallEndDeclined)
	waitEnded(t, ctx, "declined", "declined in the room")

	startCallInPage(t, ctx)
	r.stt.say("hang up")
	sendHeard(t, r.consoleRig, silence)
	waitEnded(t, ctx, "hang_up", "the room said hang up")
	waitJS(t, ctx, "who ended it in the timeline", timelineTxt+`.includes("The call ended: the room said hang up")`)

	startCallInPage(t, ctx)
	r.hub.halt()
	waitEnded(t, ctx, "robot_offline", "the robot went offline")
	r.hub.start()
	waitLinked(t, r.b, "robot", 2, 10*time.Second)

	startCallInPage(t, ctx)
	do(t, ctx, "end", chromedp.Click(testid("call-end")))
	waitEnded(t, ctx, "owner_left", "you left")

	// Idle: muted (so the owner's voice does not count), the warning comes 30 s before the
	// end; "I'm still here" puts it off; left alone, the call ends as idle.
	startCallInPage(t, ctx)
	do(t, ctx, "mute", chromedp.Click(testid("mute")))
	shown := func(id string) string { return `getComputedStyle(` + fmt.Sprintf(sel, id) + `).display !== "none"` }
	if v := jsString(t, ctx, `String(`+shown("idle-warning")+`)`); v != "false" {
		t.Fatal("the idle warning is on screen with minutes to go")
	}
	waitJS(t, ctx, "the idle warning", shown("idle-warning")+` && `+fmt.Sprintf(sel, "idle-warning")+`.textContent.includes("the call ends in")`)
	deadline := r.robotView(t).Session.IdleDeadline
	do(t, ctx, "still here", chromedp.Click(testid("still-here")))
	waitJS(t, ctx, "the warning gone", `!`+shown("idle-warning"))
	waitFor(t, "I'm still here to move the idle deadline", 10*time.Second, func() bool {
		s := r.robotView(t).Session
		return s != nil && s.IdleDeadline != nil && s.IdleDeadline.After(deadline.Add(500*time.Millisecond))
	})
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](stateText+` === "ended: idle"`, chromedp.WithPollingTimeout(45*time.Second), chromedp.WithPollingInterval(200*time.Millisecond))); err != nil {
		t.Fatalf("the idle call did not end as idle: %v", err)
	}
	waitEnded(t, ctx, "idle", "idle for 1 minute")

	// Quiet time: the join is refused with its reason.
	if resp := r.say(t, r.token(t, "robot", "text", "robot", "ask"), "Be quiet for an hour, Reachy."); resp.status != 200 || resp.turn(t).Intent != "robot.quiet" {
		t.Fatalf("quiet: %d %s", resp.status, resp.body)
	}
	do(t, ctx, "call in quiet time", chromedp.Click(testid("call-start")))
	waitEnded(t, ctx, "quiet_time", "quiet time in the room")
}

// TestCallScreenOnPhone: on a phone (Chromium's mobile emulation) the video fills the
// width, the call starts muted, and holding the push-to-talk button with a finger opens the
// microphone only while held. CALL_SCREENSHOTS=1 writes docs/teleport-call-phone.png.
func TestCallScreenOnPhone(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	r := newCallRig(t)
	ctx := browser(t, toneFile(t, 440, 0.3, 4), callFlags...)
	peer := newPeerTab(t, ctx)
	r.calls.setAnswer(peer.answer)
	do(t, ctx, "load", chromedp.Emulate(device.Pixel5), chromedp.Navigate(callPageURL(r.consoleRig)), chromedp.WaitEnabled(testid("call-start")))
	startCallInPage(t, ctx)
	geo, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const v = document.querySelector('#robot-robot [data-testid="robot-video"]').getBoundingClientRect();
		const p = document.querySelector('#robot-robot [data-testid="push-to-talk"]').getBoundingClientRect();
		return [innerWidth, v.x, v.width, p.width, p.height, p.x + p.width / 2, p.y + p.height / 2, document.documentElement.scrollWidth]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	vw := geo[0]
	if vw > 500 || geo[1] != 0 || math.Abs(geo[2]-vw) > 1 || geo[3] < 0.8*vw || geo[4] < 44 || geo[7] > vw {
		t.Fatalf("phone layout: viewport %.0f, video x %.0f width %.0f, push-to-talk %.0fx%.0f, page width %.0f", vw, geo[1], geo[2], geo[3], geo[4], geo[7])
	}
	micOn := `String(window.reachyCall.mic.getAudioTracks()[0].enabled)`
	if v := jsString(t, ctx, micOn); v != "false" {
		t.Fatalf("a phone call should start muted (the phone's speaker would come back): mic on = %s", v)
	}
	do(t, ctx, "touch", touch(input.DispatchTouchEventTypeTouchStart, geo[5], geo[6]))
	waitJS(t, ctx, "mic open while held", micOn+` === "true"`)
	if os.Getenv("CALL_SCREENSHOTS") != "" {
		do(t, ctx, "top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
		screenshot(t, ctx, "../docs/teleport-call-phone.png")
	}
	do(t, ctx, "release", touch(input.DispatchTouchEventTypeTouchEnd, 0, 0))
	waitJS(t, ctx, "mic closed on release", micOn+` === "false"`)
}

// touch presses (start) or lifts (end) one finger.
func touch(typ input.DispatchTouchEventType, x, y float64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		p := input.DispatchTouchEventParams{Type: typ, TouchPoints: []*input.TouchPoint{}}
		if typ == input.DispatchTouchEventTypeTouchStart {
			one := 1.0
			zero := 0.0
			p.TouchPoints = []*input.TouchPoint{{X: x, Y: y, RadiusX: &one, RadiusY: &one, Force: &one, ID: &zero}}
		}
		_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, p)
		return err
	})
}

// screenshot writes the visible window as a PNG (docs/; only with CALL_SCREENSHOTS set).
func screenshot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot written to %s", filepath.Clean(path))
}
