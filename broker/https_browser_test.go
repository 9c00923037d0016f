package broker

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/reachy-broker/reachy-broker/broker/hostname"
)

// pageErrors collects what a page's JavaScript throws or reports as an error: uncaught
// exceptions (and unhandled rejections), console.error, and the browser's own JavaScript
// errors. A resource that fails to load is not one.
type pageErrors struct {
	mu   sync.Mutex
	seen []string
}

func watchPageErrors(t *testing.T, ctx context.Context) *pageErrors {
	t.Helper()
	pe := &pageErrors{}
	err := chromedp.Listen(ctx, func(ev any) {
		var msg string
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			msg = "exception: " + e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				msg += " " + e.ExceptionDetails.Exception.Description
			}
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				msg = "console.error"
				for _, a := range e.Args {
					msg += " " + string(a.Value) + a.Description
				}
			}
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError && e.Entry.Source == cdplog.EntrySourceJavascript {
				msg = "javascript: " + e.Entry.Text
			}
		}
		if msg != "" {
			pe.mu.Lock()
			pe.seen = append(pe.seen, msg)
			pe.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return pe
}

func (pe *pageErrors) list() []string {
	pe.mu.Lock()
	defer pe.mu.Unlock()
	return append([]string(nil), pe.seen...)
}

// mapConsoleName makes Chromium resolve consoleName to 127.0.0.1, as MagicDNS resolves a
// broker's name to its tailnet address.
var mapConsoleName = chromedp.Flag("host-resolver-rules", "MAP "+consoleName+" 127.0.0.1")

// TestConsoleOverHTTPSInBrowser (#28.1): the owner opens the console where a real owner
// does — at the broker's tailnet name, over plain http — and the browser is sent to HTTPS,
// where the page is a secure context: the (fake) microphone opens, push-to-talk records
// and the robot plays what was said. No note about HTTPS is shown and nothing throws.
func TestConsoleOverHTTPSInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	r := newHTTPSRig(t)
	// The test CA is trusted for this certificate's key only.
	ctx := browser(t, fakeMic(t), mapConsoleName, chromedp.Flag("ignore-certificate-errors-spki-list", r.cert.spki))
	errs := watchPageErrors(t, ctx)
	want := "https://" + consoleName + ":" + r.httpsPort + "/"
	do(t, ctx, "load over http at the tailnet name", chromedp.Navigate("http://"+consoleName+":"+r.httpPort+"/"), chromedp.WaitEnabled("#join-robot"))
	if href, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`)); href != want {
		t.Fatalf("the console is at %q, want %q (redirected to HTTPS)", href, want)
	}
	if secure, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.isSecureContext && !!navigator.mediaDevices`)); !secure {
		t.Fatal("the console over HTTPS is not a secure context")
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#insecure").length`)); n != 0 {
		t.Error("the HTTPS page shows the note about plain HTTP")
	}
	tracks, err := chromedp.Run(ctx, chromedp.Evaluate[int](`navigator.mediaDevices.getUserMedia({audio: true}).then(s => { const n = s.getAudioTracks().length; s.getTracks().forEach(t => t.stop()); return n; })`, chromedp.EvalAwaitPromise))
	if err != nil || tracks != 1 {
		t.Fatalf("getUserMedia over HTTPS: %d tracks, %v", tracks, err)
	}

	// Push-to-talk over HTTPS: join, hold, release; the robot plays it.
	do(t, ctx, "join", chromedp.Click("#join-robot"))
	waitJS(t, ctx, "the session controls", `!document.querySelector("#session-robot").hidden`)
	pressRelease(t, ctx, "#ptt-robot", time.Second, func() {
		waitJS(t, ctx, "recording", `document.querySelector("#ptt-robot").classList.contains("recording")`)
	})
	release := time.Now()
	if _, ok := firstCallAfter(r.hub, "/api/media/play_sound", release, 10*time.Second); !ok {
		t.Fatal("push-to-talk over HTTPS never played on the robot")
	}
	if e := errs.list(); len(e) > 0 {
		t.Errorf("the page reported errors: %q", e)
	}
}

// TestConsoleOverPlainHTTPExplains (#28.1): on a tailnet with HTTPS certificates turned off
// the console is served over plain http at the broker's name. The page is not a secure
// context, so it has no microphone: it says so in plain words — why, and what the owner must
// turn on — and "Hold to talk" shows that sentence instead of throwing. Nothing throws.
func TestConsoleOverPlainHTTPExplains(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	hosts := hostname.Loopback()
	if err := hosts.Add(consoleName); err != nil {
		t.Fatal(err)
	}
	r := newConsoleRig(t, func(c *Config, d *Deps) {
		d.Hosts = hosts
		d.ConsoleHTTPS = ConsoleHTTPS{Off: HTTPSOffTailnet}
	})
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(r.srv.URL, "http://"))
	ctx := browser(t, fakeMic(t), mapConsoleName)
	errs := watchPageErrors(t, ctx)
	do(t, ctx, "load over http", chromedp.Navigate(fmt.Sprintf("http://%s:%s/", consoleName, port)), chromedp.WaitEnabled("#join-robot"))
	if secure, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.isSecureContext`)); secure {
		t.Fatal("plain http at a tailnet name counts as a secure context; this test proves nothing")
	}
	waitJS(t, ctx, "the note", `!!document.querySelector("#insecure")`)
	note, _ := chromedp.Run(ctx, chromedp.Text("#insecure"))
	for _, want := range []string{"microphone", "https://", "HTTPS Certificates", "turned off", "Tailscale admin console", "restart the broker"} {
		if !strings.Contains(note, want) {
			t.Errorf("the note does not say %q: %s", want, note)
		}
	}

	do(t, ctx, "join", chromedp.Click("#join-robot"))
	waitJS(t, ctx, "the session controls", `!document.querySelector("#session-robot").hidden`)
	pressRelease(t, ctx, "#ptt-robot", 300*time.Millisecond, nil)
	waitJS(t, ctx, "the sentence on Hold to talk", `!document.querySelector("#error").hidden`)
	msg, _ := chromedp.Run(ctx, chromedp.Text("#error"))
	if !strings.Contains(msg, "https://") || strings.Contains(msg, "undefined") || strings.Contains(msg, "Cannot read") {
		t.Errorf("Hold to talk over plain HTTP says %q", msg)
	}
	if e := errs.list(); len(e) > 0 {
		t.Errorf("the page reported errors: %q", e)
	}
}

// pressRelease holds the left mouse button on sel for hold (calling during, if any, while
// it is held), then releases it.
func pressRelease(t *testing.T, ctx context.Context, sel string, hold time.Duration, during func()) {
	t.Helper()
	xy, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector(`+"`"+sel+"`"+`).getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	do(t, ctx, "press", chromedp.MouseEvent(chromedp.MousePressed, xy[0], xy[1], chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1)))
	if during != nil {
		during()
	}
	time.Sleep(hold)
	do(t, ctx, "release", chromedp.MouseEvent(chromedp.MouseReleased, xy[0], xy[1], chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1)))
}
