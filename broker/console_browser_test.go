package broker

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/reachy-broker/reachy-broker/speech"
)

// browser starts headless Chromium (Debian's chromium, installed by deploy/scripts/deps.sh)
// with a fake microphone that plays micWAV, in a fresh profile, with everything that would
// reach the internet turned off; extra adds flags.
func browser(t *testing.T, micWAV string, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium (installed by deploy/scripts/deps.sh): %v", err)
	}
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // tests run as root in containers
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1000, 1100),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("use-fake-device-for-media-stream", true),
		chromedp.Flag("use-file-for-fake-audio-capture", micWAV),
	)
	opts = append(opts, extra...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelT)
	return ctx
}

// adoptPage makes the browser's page the current person's page for the test's own calls
// (r.page): they see and act on the session that page holds (it belongs to the page that
// joined it).
func (r *consoleRig) adoptPage(t *testing.T, ctx context.Context) {
	t.Helper()
	tok, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('meta[name="console-token"]').content`))
	if err != nil || tok == "" {
		t.Fatalf("the page's token: %v", err)
	}
	login := ""
	if r.people != nil {
		r.people.mu.Lock()
		login = r.people.p.Login
		r.people.mu.Unlock()
	}
	r.tabMu.Lock()
	if r.tabs == nil {
		r.tabs = map[string]string{}
	}
	r.tabs[login] = tok
	r.tabMu.Unlock()
}

func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("browser, %s: %v", what, err)
	}
}

func waitJS(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(15*time.Second), chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatalf("browser, waiting for %s: %v", what, err)
	}
}

// firstCallAfter is when the fake daemon first received path at or after t0.
func firstCallAfter(h *simHub, path string, t0 time.Time, within time.Duration) (time.Time, bool) {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		for _, c := range h.fake.Calls() {
			if c.Path == path && !c.Time.Before(t0) {
				return c.Time, true
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Time{}, false
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// TestConsoleInBrowser drives the console in real headless Chromium: join (the robot
// announces and shows presence), type a sentence and Speak, push-to-talk with the fake
// microphone, see a family utterance appear, survive the robot's link dropping and coming
// back, and "hang up" from the room. It measures console action → daemon call and
// push-to-talk release → robot plays, and with CONSOLE_SCREENSHOT=path saves a screenshot.
func TestConsoleInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	r := newConsoleRig(t, func(c *Config, d *Deps) {
		c.Teleport.Owners = nil
		d.People = nil // dev mode: every loopback connection is the --dev-owner
		d.DevOwner = "dad@example.com"
		d.Synthesizer = speech.Espeak{}
	})
	ctx := browser(t, fakeMic(t))
	do(t, ctx, "load", chromedp.Navigate(r.srv.URL+"/"), chromedp.WaitEnabled("#join-robot"))
	if me, _ := chromedp.Run(ctx, chromedp.Text("#me")); me != "dad" {
		t.Fatalf("signed in as %q", me)
	}

	// Join: the robot announces it and holds the presence pose.
	do(t, ctx, "join", chromedp.Click("#join-robot"))
	waitJS(t, ctx, "the session controls", `!document.querySelector("#session-robot").hidden`)
	if !r.hub.hub.SessionActive() {
		t.Fatal("joined, but the robot shows no presence")
	}
	if _, ok := firstCallAfter(r.hub, "/api/media/play_sound", time.Time{}, 5*time.Second); !ok {
		t.Fatal("no announcement played")
	}

	// Type and Speak.
	t0 := time.Now()
	do(t, ctx, "say", chromedp.SendKeys("#say-text-robot", "Hello from the hotel"), chromedp.Click("#say-robot"))
	if _, ok := firstCallAfter(r.hub, "/api/media/sounds/upload", t0, 10*time.Second); !ok {
		t.Fatal("the typed sentence was not uploaded to the robot")
	}
	if _, ok := firstCallAfter(r.hub, "/api/media/play_sound", t0, 10*time.Second); !ok {
		t.Fatal("the typed sentence was not played")
	}

	// Console action → daemon call: click Look, time the daemon's goto.
	var action []time.Duration
	for i, dir := range []string{"left", "right", "up", "down", "centre", "left", "right"} {
		time.Sleep(50 * time.Millisecond)
		t0 := time.Now()
		do(t, ctx, "look", chromedp.Click("#look-"+dir+"-robot"))
		at, ok := firstCallAfter(r.hub, "/api/move/goto", t0, 5*time.Second)
		if !ok {
			t.Fatalf("look %s (#%d) never reached the daemon", dir, i)
		}
		action = append(action, at.Sub(t0))
	}
	t.Logf("console click → daemon call: median %s over %d (budget 150ms)", median(action).Round(time.Millisecond), len(action))

	// Push-to-talk: hold 3 s with the fake microphone, release, time the robot's play.
	xy, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("#ptt-robot").getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	do(t, ctx, "press", chromedp.MouseEvent(chromedp.MousePressed, xy[0], xy[1], chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1)))
	waitJS(t, ctx, "recording", `document.querySelector("#ptt-robot").classList.contains("recording")`)
	time.Sleep(3 * time.Second) // the owner talks for three seconds
	release := time.Now()
	do(t, ctx, "release", chromedp.MouseEvent(chromedp.MouseReleased, xy[0], xy[1], chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1)))
	played, ok := firstCallAfter(r.hub, "/api/media/play_sound", release, 10*time.Second)
	if !ok {
		t.Fatal("push-to-talk never played on the robot")
	}
	t.Logf("push-to-talk release → robot plays (3 s clip): %s (budget 500ms)", played.Sub(release).Round(time.Millisecond))
	var clip []byte
	for _, c := range r.hub.fake.Calls() {
		if c.Path == "/api/media/play_sound" && !c.Time.Before(release) {
			var name string
			if s := string(c.Body); strings.Contains(s, "link-") {
				name = s[strings.Index(s, "link-") : strings.Index(s, ".wav")+4]
			}
			clip = r.hub.fake.Sound(name)
		}
	}
	dec, err := speech.DecodeWAV(clip, time.Minute)
	if err != nil || dec.Duration() < 2*time.Second || peak(dec.Samples) < 0.05 {
		t.Fatalf("the robot did not get the microphone's audio: %v, %v, peak %.3f", err, dec.Duration(), peak(dec.Samples))
	}

	// A family utterance during the session appears on the page with its transcript.
	r.stt.say("Dad, when are you coming home?")
	heard, _ := speech.EncodeWAV(make([]float32, speech.SampleRate), speech.SampleRate)
	sendHeard(t, r, heard)
	waitJS(t, ctx, "the heard clip", `(document.querySelector("#clips-robot li .transcript") || {}).textContent === "Dad, when are you coming home?"`)
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#clips-robot audio").length`)); n != 1 {
		t.Fatalf("clips with audio on the page: %d", n)
	}

	if out := os.Getenv("CONSOLE_SCREENSHOT"); out != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot written to %s", filepath.Clean(out))
	}

	// The clip's audio came with the page's token: it plays from memory.
	waitJS(t, ctx, "the clip's audio", `(document.querySelector("#clips-robot audio") || {}).src.startsWith("blob:")`)

	// The robot's link drops: the session ends with it and the page says why; when the robot
	// is back it shows no presence until the owner joins again, with a new chime.
	r.hub.halt()
	waitJS(t, ctx, "offline", `document.querySelector("#online-robot").textContent === "offline"`)
	waitJS(t, ctx, "the session to end as robot_offline", `document.querySelector("#who-robot").textContent === "Nobody is connected." && `+
		`document.querySelector("#call-state-robot").textContent === "ended: robot_offline"`)
	r.hub.start()
	waitJS(t, ctx, "online again", `document.querySelector("#online-robot").textContent === "online"`)
	time.Sleep(500 * time.Millisecond) // a presence the broker restored would be here by now
	if r.hub.hub.SessionActive() {
		t.Fatal("the relinked robot shows presence without a new join")
	}
	t0 = time.Now()
	do(t, ctx, "join again", chromedp.Click("#join-robot"))
	waitJS(t, ctx, "the session controls again", `!document.querySelector("#session-robot").hidden`)
	if _, ok := firstCallAfter(r.hub, "/api/media/play_sound", t0, 5*time.Second); !ok {
		t.Fatal("the new session began without its chime")
	}
	t0 = time.Now()
	do(t, ctx, "say again", chromedp.SendKeys("#say-text-robot", "Still here"), chromedp.Click("#say-robot"))
	if _, ok := firstCallAfter(r.hub, "/api/media/play_sound", t0, 10*time.Second); !ok {
		t.Fatal("speech did not go through after the link came back")
	}

	// "hang up" from the room ends the session; the page shows it.
	r.stt.say("hang up")
	sendHeard(t, r, heard)
	waitJS(t, ctx, "the session to end", `document.querySelector("#who-robot").textContent === "Nobody is connected."`)
	if r.hub.hub.SessionActive() {
		t.Fatal(`the robot still shows presence after "hang up"`)
	}
}

func sendHeard(t *testing.T, r *consoleRig, wav []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for !r.hub.link.Connected() {
		select {
		case <-ctx.Done():
			t.Fatal("link not connected")
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := r.hub.link.Send(ctx, heardMessage(wav)); err != nil {
		t.Fatal(err)
	}
}

func peak(x []float32) float32 {
	var p float32
	for _, v := range x {
		p = max(p, v, -v)
	}
	return p
}

// fakeMic is a spoken sentence for Chromium's fake microphone, as a file.
func fakeMic(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	wav, err := speech.Espeak{}.Synthesize(ctx, "Hello everyone, this is Dad calling from the hotel. I miss you all.")
	if err != nil {
		t.Fatalf("espeak-ng: %v", err)
	}
	p := filepath.Join(t.TempDir(), "mic.wav")
	if err := os.WriteFile(p, wav, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
