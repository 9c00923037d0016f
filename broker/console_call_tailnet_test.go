package broker

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reachy-broker/reachy-broker/broker/hostname"
	"github.com/reachy-broker/reachy-broker/robot/call/calltest"
)

// The live call the way it happens: the robot (a real `reachy-hub --sim --link` and its
// reachy-call) in a network namespace of its own, reached over a veth pair on
// 100.64.0.0/10 as over a tailnet, its media bound to that veth only; the owner's browser
// as shipped — Debian's Chromium WITHOUT --allow-loopback-in-peer-connection, and Debian's
// Firefox ESR with no loopback preference — on the test's side, where it also has the
// machine's own LAN interface and default route, as an owner's laptop does. The page's
// offer then names mDNS names or LAN addresses the hub must not use; the hub answers with
// its tailnet address and learns the browser's from its connectivity checks.

// pageMediaJS reports what the page's video shows and what the browser says it decoded:
// the call's state, the video's size and clock, frames decoded and their codec (getStats),
// and the candidate pair in use.
const pageMediaJS = `(async () => {
  const v = document.querySelector('#robot-robot [data-testid="robot-video"]');
  const pc = window.reachyCall && window.reachyCall.pc;
  const r = { state: document.querySelector('#robot-robot [data-testid="call-state"]').textContent,
    reason: (document.querySelector('#robot-robot [data-testid="call-reason"]') || {}).textContent || "",
    error: (document.querySelector("#error") || {}).textContent || "",
    w: v.videoWidth, t: v.currentTime, decoded: 0, codec: "", local: "", remote: "", offered: "", audio: 0,
    h264: RTCRtpReceiver.getCapabilities("video").codecs.some((k) => /^video\/h264$/i.test(k.mimeType)),
    timeline: document.querySelector('#robot-robot [data-testid="timeline"]').textContent };
  if (pc) {
    r.offered = (pc.localDescription ? pc.localDescription.sdp : "").split("\n").filter((l) => l.startsWith("a=candidate:")).map((l) => l.trim()).join(" | ");
    let st = new Map(); try { st = await pc.getStats(); } catch (e) { /* closed */ }
    const by = {}; st.forEach((s) => { by[s.id] = s; });
    st.forEach((s) => {
      if (s.type === "inbound-rtp" && s.kind === "audio") r.audio = s.packetsReceived || 0;
      if (s.type === "inbound-rtp" && s.kind === "video") { r.decoded = s.framesDecoded || 0; const c = by[s.codecId]; r.codec = c ? c.mimeType : ""; }
      if (s.type === "candidate-pair" && s.state === "succeeded" && (s.nominated || s.selected)) {
        const l = by[s.localCandidateId], m = by[s.remoteCandidateId];
        if (l) r.local = l.candidateType + " " + (l.address || l.ip);
        if (m) r.remote = m.candidateType + " " + (m.address || m.ip);
      }
    });
  }
  return JSON.stringify(r);
})()`

type pageMedia struct {
	State, Reason, Error string
	W                    int
	T                    float64
	Decoded              int
	Codec                string
	Local, Remote        string
	Offered              string
	Audio                int  // the room's audio packets received
	H264                 bool // the browser can decode H.264
	Timeline             string
}

func parsePageMedia(t *testing.T, s string) pageMedia {
	t.Helper()
	var m pageMedia
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("the page's media report %q: %v", s, err)
	}
	return m
}

// checkDecoding samples the page twice, 1.5 s apart: the call is live, the video has a
// size, its clock advances, and the browser decodes more H.264 frames.
func checkDecoding(t *testing.T, name string, eval func() string) pageMedia {
	t.Helper()
	a := parsePageMedia(t, eval())
	time.Sleep(1500 * time.Millisecond)
	b := parsePageMedia(t, eval())
	t.Logf("%s: %s, video %dpx wide, clock %.2f→%.2f s, frames decoded %d→%d (%s); the browser uses %s → the robot's %s; its offer: %s",
		name, b.State, b.W, a.T, b.T, a.Decoded, b.Decoded, b.Codec, b.Local, b.Remote, b.Offered)
	if b.State != "live" || b.W == 0 || b.T <= a.T || b.Decoded <= a.Decoded {
		t.Fatalf("%s: the robot's video is not being decoded: %+v then %+v", name, a, b)
	}
	if !strings.EqualFold(b.Codec, "video/H264") {
		t.Errorf("%s: the browser decodes %q, want the robot's H.264", name, b.Codec)
	}
	return b
}

// vethBroker is the console's test broker answering also to the name the robot in the
// namespace reaches it by (the host side's address, as a robot names its broker on a tailnet).
func vethBroker(t *testing.T, tn *calltest.Tailnet) *consoleRig {
	t.Helper()
	hosts := hostname.Loopback()
	if err := hosts.Add(tn.HostIP.String()); err != nil {
		t.Fatal(err)
	}
	return newConsoleBroker(t, func(c *Config, d *Deps) { d.Hosts = hosts })
}

// loadAverage is /proc/loadavg's one-minute figure, quoted beside every timing.
func loadAverage() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

// TestCallOnTailnetChromium: Debian's Chromium as shipped calls the robot over the
// tailnet-like veth and goes live with the robot's H.264 decoded — the microphone granted
// (its offer names its addresses) and refused (it names only mDNS names: the hub learns its
// address from its checks).
func TestCallOnTailnetChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("makes a network namespace, builds the hub, starts GStreamer and a browser")
	}
	calltest.NeedGst(t)
	tn := calltest.NewTailnet(t)
	t.Log(tn)
	for _, c := range []struct {
		name  string
		flags []chromedp.ExecAllocatorOption
	}{
		{"microphone granted", nil},
		{"microphone refused", []chromedp.ExecAllocatorOption{
			chromedp.Flag("use-fake-ui-for-media-stream", false), chromedp.Flag("deny-permission-prompts", true)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := vethBroker(t, tn)
			startSimHubProcess(t, r, t.TempDir(), tn)
			ctx := browser(t, toneFile(t, 440, 0.3, 4), c.flags...)
			do(t, ctx, "load", chromedp.Navigate(callPageURL(r)), chromedp.WaitEnabled(testid("call-start")))
			startCallInPage(t, ctx)
			eval := func() string { return jsAwait(t, ctx, pageMediaJS) }
			m := checkDecoding(t, c.name, eval)
			if !strings.Contains(m.Remote, tn.NSIP.String()) {
				t.Errorf("the browser reaches the robot at %q, want its tailnet address %s", m.Remote, tn.NSIP)
			}
			logFirstFrame(t, jsAwait(t, ctx, `JSON.stringify(window.callMarks)`))
			do(t, ctx, "end", chromedp.Click(testid("call-end")))
			waitEnded(t, ctx, "owner_left", "you left")
		})
	}
}

// jsAwait evaluates expr (a promise of a string) in Chromium.
func jsAwait(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("browser, %.60s…: %v", expr, err)
	}
	return s
}

// logFirstFrame logs chime played → first decoded frame from the page's marks.
func logFirstFrame(t *testing.T, marksJSON string) time.Duration {
	t.Helper()
	var m map[string]float64
	if err := json.Unmarshal([]byte(marksJSON), &m); err != nil || m["firstFrame"] == 0 {
		t.Logf("no first-frame mark in %s", marksJSON)
		return 0
	}
	d := time.Duration((m["firstFrame"] - m["joined"]) * float64(time.Millisecond)).Round(time.Millisecond)
	t.Logf("chime played → first decoded frame %s (offer +%.0f ms, answer +%.0f ms, connected +%.0f ms, frame +%.0f ms) at load average %s",
		d, m["offered"]-m["joined"], m["answered"]-m["offered"], m["connected"]-m["answered"], m["firstFrame"]-m["connected"], loadAverage())
	return d
}

// firefoxPrefs are a stock Firefox ESR's, plus what a headless test needs: a fake
// microphone, the microphone permission stored as allowed (an owner's "Allow" remembered,
// or Settings → Permissions → Microphone), and Firefox's stand-in for its prompt answered
// "Allow". No loopback preference. Without a stored permission (each of the two alone, or
// media.navigator.permission.disabled, which skips the prompt), Firefox treats the page as
// not permitted: it gathers only its default route's address, mDNS-named — the LAN's — and
// its checks never come from the tailnet: the hub refuses them, as WireGuard would.
func firefoxPrefs() map[string]any {
	return map[string]any{
		"media.navigator.streams.fake":               true,
		"media.navigator.permission.fake":            true,
		"permissions.default.microphone":             1,
		"browser.shell.checkDefaultBrowser":          false,
		"datareporting.policy.dataSubmissionEnabled": false,
	}
}

// TestCallOnTailnetFirefox: Debian's Firefox ESR calls the robot over the tailnet-like veth
// and goes live. Debian's build turns Cisco's OpenH264 plugin off
// (/etc/firefox-esr/firefox-esr.js: media.gmp-gmpopenh264.enabled false) and this machine
// is offline, so it cannot decode the robot's H.264: the call then carries sound only and
// the page says why and what to do; with the plugin, the video is checked decoded.
func TestCallOnTailnetFirefox(t *testing.T) {
	if testing.Short() {
		t.Skip("makes a network namespace, builds the hub, starts GStreamer and a browser")
	}
	calltest.NeedGst(t)
	calltest.NeedFirefox(t)
	tn := calltest.NewTailnet(t)
	t.Log(tn)
	r := vethBroker(t, tn)
	startSimHubProcess(t, r, t.TempDir(), tn)
	f := calltest.NewFirefox(t, firefoxPrefs())
	f.Navigate(callPageURL(r))
	start := `document.querySelector('#robot-robot [data-testid="call-start"]')`
	state := `document.querySelector('#robot-robot [data-testid="call-state"]').textContent`
	eval := func() string { return f.MustEval(pageMediaJS, false) }
	offered := `(window.reachyCall && window.reachyCall.pc && window.reachyCall.pc.localDescription ? window.reachyCall.pc.localDescription.sdp : "")`
	// Firefox decides per call whether the page may gather on every interface (it counts
	// the page as permitted) or only on its default route's, mDNS-named: with these prefs
	// it decided the second in 1 of 5 runs here, and its checks then came from the LAN's
	// address, which the hub refuses (the owner sees the call end media_failed). The test
	// calls again, up to 3 times, and logs each try.
	live := false
	for attempt := 1; attempt <= 3 && !live; attempt++ {
		if !f.Poll(start+` && !`+start+`.disabled`, 15*time.Second) {
			t.Fatalf("firefox-esr: the Call button is not ready: %s", eval())
		}
		f.MustEval(start+`.click(), "clicked"`, true)
		var offer string
		if f.Poll(offered+`.includes("a=candidate")`, 20*time.Second) {
			offer = strings.Join(candidateLines(f.MustEval(offered, false)), " | ")
		}
		live = f.Poll(state+` === "live"`, 20*time.Second)
		t.Logf("firefox-esr, call %d: %s; its offer: %s", attempt, f.MustEval(state, false), offer)
		if !live {
			f.Poll(state+`.startsWith("ended")`, 20*time.Second)
		}
	}
	if !live {
		t.Fatalf("firefox-esr: no call went live in 3: %s", eval())
	}
	a := parsePageMedia(t, eval())
	if !a.H264 {
		time.Sleep(1500 * time.Millisecond)
		b := parsePageMedia(t, eval())
		t.Logf("firefox-esr cannot decode H.264 (no OpenH264 plugin): %s with sound only (room audio packets %d→%d), video %dpx; the browser uses %s → the robot's %s; the timeline says %q",
			b.State, a.Audio, b.Audio, b.W, b.Local, b.Remote, b.Timeline)
		if b.State != "live" || b.Audio <= a.Audio {
			t.Fatalf("firefox-esr: the call without H.264 should be live with the room's sound: %+v then %+v", a, b)
		}
		for _, want := range []string{"cannot decode the robot's video (H.264)", "OpenH264 Video Codec provided by Cisco Systems"} {
			if !strings.Contains(b.Timeline, want) {
				t.Errorf("firefox-esr: the page does not tell the owner %q: the call's timeline says %q", want, b.Timeline)
			}
		}
		if strings.Contains(b.Error+b.Reason, "the robot cannot send video") {
			t.Errorf("firefox-esr: the page blames the robot for the browser's missing decoder: %q", b.Error+b.Reason)
		}
		if !strings.Contains(b.Remote, tn.NSIP.String()) {
			t.Errorf("the browser reaches the robot at %q, want its tailnet address %s", b.Remote, tn.NSIP)
		}
	} else {
		m := checkDecoding(t, "firefox-esr", eval)
		if !strings.Contains(m.Remote, tn.NSIP.String()) {
			t.Errorf("the browser reaches the robot at %q, want its tailnet address %s", m.Remote, tn.NSIP)
		}
		logFirstFrame(t, f.MustEval(`JSON.stringify(window.callMarks)`, false))
	}
	f.MustEval(`document.querySelector('#robot-robot [data-testid="call-end"]').click(), "ended"`, true)
	if !f.Poll(state+` === "ended: owner_left"`, 10*time.Second) {
		t.Fatalf("firefox-esr: the call did not end: %s", eval())
	}
}

func candidateLines(sdp string) []string {
	var out []string
	for l := range strings.Lines(sdp) {
		if strings.HasPrefix(l, "a=candidate:") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// TestCallOnLoopbackStockChromium is the README's tour: the broker and `reachy-hub --sim`
// on this machine's loopback, the owner's Chromium as shipped (no
// --allow-loopback-in-peer-connection), microphone granted and refused. Chromium gathers no
// loopback candidate: its checks reach the hub's 127.0.0.1 from the machine's own LAN
// address, which the simulator on loopback accepts. It goes live with the video decoded.
func TestCallOnLoopbackStockChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the hub, starts GStreamer and a browser")
	}
	calltest.NeedGst(t)
	for _, c := range []struct {
		name  string
		flags []chromedp.ExecAllocatorOption
	}{
		{"microphone granted", nil},
		{"microphone refused", []chromedp.ExecAllocatorOption{
			chromedp.Flag("use-fake-ui-for-media-stream", false), chromedp.Flag("deny-permission-prompts", true)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newConsoleBroker(t)
			simHubProcess(t, r, t.TempDir())
			ctx := browser(t, toneFile(t, 440, 0.3, 4), c.flags...)
			do(t, ctx, "load", chromedp.Navigate(callPageURL(r)), chromedp.WaitEnabled(testid("call-start")))
			startCallInPage(t, ctx)
			checkDecoding(t, c.name, func() string { return jsAwait(t, ctx, pageMediaJS) })
			logFirstFrame(t, jsAwait(t, ctx, `JSON.stringify(window.callMarks)`))
		})
	}
}

// TestCallBudgetsOnTailnet measures the call's budgets the way an owner meets them: over the
// tailnet-like veth, Chromium as shipped, microphone granted, CALL_BUDGET_CALLS calls (20)
// one after another from one page — each a join (chime) and a call, ended with End. It
// reports how many went live, chime played → first decoded frame (median, worst) and the
// audio's one-way delay (jitter buffer + half the round trip, median), each with the load
// average, and holds them to the budgets: first frame < 1.0 s, audio < 150 ms, ≥ 19 of 20
// live. A measurement, not a routine test: it runs only with CALL_BUDGETS=1.
func TestCallBudgetsOnTailnet(t *testing.T) {
	if os.Getenv("CALL_BUDGETS") == "" {
		t.Skip("a measurement of the call's budgets: run with CALL_BUDGETS=1 (and CALL_BUDGET_CALLS=N, default 20)")
	}
	calltest.NeedGst(t)
	tn := calltest.NewTailnet(t)
	calls := 20
	if n, err := strconv.Atoi(os.Getenv("CALL_BUDGET_CALLS")); err == nil && n > 0 {
		calls = n
	}
	r := vethBroker(t, tn)
	startSimHubProcess(t, r, t.TempDir(), tn)
	ctx := browser(t, toneFile(t, 440, 0.3, 4))
	do(t, ctx, "load", chromedp.Navigate(callPageURL(r)), chromedp.WaitEnabled(testid("call-start")))
	var frames []time.Duration
	var audio []float64
	var loads []string
	live := 0
	for i := 1; i <= calls; i++ {
		loads = append(loads, loadAverage())
		// A fresh page for each call, as an owner opening the console: calling again from the
		// page right after End races the last session's end (noted in the report).
		do(t, ctx, "load", chromedp.Navigate(callPageURL(r)), chromedp.WaitEnabled(testid("call-start")))
		// The page takes a click only once the last call's media is released: click until it
		// says it is connecting (bounded), so a click it ignored is not counted as a call.
		started := false
		for try := 0; try < 20 && !started; try++ {
			do(t, ctx, "call", chromedp.WaitEnabled(testid("call-start")), chromedp.Click(testid("call-start")))
			started, _ = chromedp.Run(ctx, chromedp.Poll[bool](`!`+stateText+`.startsWith("ended")`,
				chromedp.WithPollingTimeout(500*time.Millisecond), chromedp.WithPollingInterval(20*time.Millisecond)))
		}
		if !started {
			t.Fatalf("call %d: the page never took the click: %s", i, jsString(t, ctx, stateText))
		}
		ok, _ := chromedp.Run(ctx, chromedp.Poll[bool](stateText+` === "live" || `+stateText+`.startsWith("ended")`,
			chromedp.WithPollingTimeout(30*time.Second), chromedp.WithPollingInterval(20*time.Millisecond)))
		state := jsString(t, ctx, stateText)
		if !ok || state != "live" {
			t.Logf("call %d: %s (%s) at load average %s", i, state, jsString(t, ctx, `document.querySelector('#robot-robot [data-testid="call-reason"]').textContent`), loads[i-1])
			do(t, ctx, "leave", chromedp.Evaluate[chromedp.Void](`(() => { const b = document.querySelector("#leave-robot"); if (b && !b.hidden) b.click(); })()`))
			waitFor(t, "the session to end", 15*time.Second, func() bool { return r.robotView(t).Session == nil })
			continue
		}
		live++
		waitJS(t, ctx, "the first frame", `window.callMarks && window.callMarks.firstFrame > 0`)
		frames = append(frames, logFirstFrame(t, jsAwait(t, ctx, `JSON.stringify(window.callMarks)`)))
		dl, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](delayJS, chromedp.EvalAwaitPromise))
		if err == nil && len(dl) == 2 && dl[0] >= 0 {
			audio = append(audio, dl[0]+dl[1])
			t.Logf("call %d: audio one-way %.0f ms (jitter buffer %.0f + half the round trip %.1f) at load average %s", i, dl[0]+dl[1], dl[0], dl[1], loadAverage())
		}
		do(t, ctx, "end", chromedp.Click(testid("call-end")))
		waitEnded(t, ctx, "owner_left", "you left")
		// Each call is a new session with its own chime: wait until the broker and the page
		// both know the last one is over.
		waitFor(t, "the session to end", 10*time.Second, func() bool { return r.robotView(t).Session == nil })
	}
	slices.Sort(audio)
	if len(frames) == 0 || len(audio) == 0 {
		t.Fatalf("%d of %d calls went live; nothing to measure", live, calls)
	}
	t.Logf("budgets over the tailnet-like veth, Chromium as shipped: %d of %d calls live; chime played → first decoded frame median %s, worst %s; audio one-way median %.0f ms; load average per call %v",
		live, calls, median(frames), slices.Max(append(frames, 0)), audio[len(audio)/2], loads)
	if live*20 < calls*19 {
		t.Errorf("%d of %d calls went live, budget 19 of 20", live, calls)
	}
	if m := median(frames); m >= time.Second {
		t.Errorf("chime → first frame median %s, budget 1.0 s (at load average ≤ 2)", m)
	}
	if m := audio[len(audio)/2]; m >= 150 {
		t.Errorf("audio one-way median %.0f ms, budget 150 ms", m)
	}
}

// TestCallAgainRightAfterEnd: an owner who presses End and then Call at once gets a new
// call (a new join, with its chime), not "the robot has not announced you": the page must
// not take the session it just left for a live one until its next look at the state.
func TestCallAgainRightAfterEnd(t *testing.T) {
	ctx := simCallPage(t)
	startCallInPage(t, ctx)
	for i := 1; i <= 2; i++ {
		do(t, ctx, "end", chromedp.Click(testid("call-end")))
		startCallInPage(t, ctx)
		t.Logf("call %d after End: live", i+1)
	}
}

// simCallPage is the console's call page, loaded in Chromium, for the sim robot (a real hub
// process on loopback) with Call enabled.
func simCallPage(t *testing.T) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the hub, starts GStreamer and a browser")
	}
	calltest.NeedGst(t)
	r := newConsoleBroker(t)
	simHubProcess(t, r, t.TempDir())
	ctx := browser(t, toneFile(t, 440, 0.3, 4))
	do(t, ctx, "load", chromedp.Navigate(callPageURL(r)), chromedp.WaitEnabled(testid("call-start")))
	return ctx
}

// holdJS wraps the page's fetch so a test can hold what a slow network delays: the answer
// to a leave (sent now, answered later) while the state polls go on.
const holdJS = `(() => {
  const real = window.fetch.bind(window);
  const h = window.__hold = { leave: false, held: [], pollsDone: 0 };
  window.fetch = (url, opts) => {
    const u = String(url);
    const p = real(url, opts);
    if (u.includes("/console/api/state")) return p.finally(() => { h.pollsDone++; });
    if (h.leave && u.endsWith("/leave")) return new Promise((res) => h.held.push(() => res(p)));
    return p;
  };
  return true;
})()`

// TestCallPressedWhileEndIsInFlight: End stops the call at once; a Call pressed before the
// broker has answered the leave (the state poll already shows the session gone) either
// starts a call that goes live, or is not taken yet — it never starts a call that the late
// answer to End then ends by itself ("ended: you left" over a call just started).
func TestCallPressedWhileEndIsInFlight(t *testing.T) {
	ctx := simCallPage(t)
	evalPage(t, ctx, "hold", holdJS)
	startCallInPage(t, ctx)
	evalPage(t, ctx, "hold the leave's answer", `window.__hold.leave = true`)
	do(t, ctx, "end", chromedp.Click(testid("call-end")))
	if got := jsString(t, ctx, stateText); got != "ended: owner_left" {
		t.Fatalf("right after End the page says %q, want ended: owner_left (the media stops at once)", got)
	}
	evalPage(t, ctx, "mark", `(window.__hold.mark = window.__hold.pollsDone, true)`)
	waitJS(t, ctx, "two looks at the state while the leave's answer is held", `window.__hold.pollsDone >= window.__hold.mark + 2`)
	// The owner presses Call as soon as the page shows it (a disabled button takes no click).
	evalPage(t, ctx, "press Call", `(document.querySelector('#robot-robot [data-testid="call-start"]').click(), true)`)
	taken := jsString(t, ctx, stateText) == "connecting"
	evalPage(t, ctx, "answer the leave", `window.__hold.leave = false; window.__hold.held.splice(0).forEach((f) => f()); true`)
	if !taken {
		startCallInPage(t, ctx)
		return
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](stateText+` === "live"`, chromedp.WithPollingTimeout(15*time.Second), chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatalf("the Call pressed while End was in flight did not go live: %v; the page says %q, timeline %q", err, jsString(t, ctx, stateText), jsString(t, ctx, timelineTxt))
	}
}

// evalPage runs a script in the page that must answer true.
func evalPage(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
	if err != nil || !ok {
		t.Fatalf("browser, %s: %v (answered %v)", what, err, ok)
	}
}
