package broker

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/speech"
)

// devOwner makes a console broker in dev mode (every loopback connection is dad) that
// speaks with espeak.
func devOwner(c *Config, d *Deps) {
	c.Teleport.Owners = nil
	d.People = nil
	d.DevOwner = dad.Login
	d.Synthesizer = speech.Espeak{}
}

// TestClosedPageEndsSessionInBrowser: a tab that is closed ends its session at once (it says
// so as it goes); a browser that is killed outright — as a laptop goes to sleep — ends it
// within 15 s (its heartbeat stops). Either way the robot drops its presence, and a new
// page must join again, with a new chime.
func TestClosedPageEndsSessionInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	r := newConsoleRig(t, devOwner)
	joinIn := func(ctx context.Context) time.Time {
		t.Helper()
		do(t, ctx, "load", chromedp.Navigate(r.srv.URL+"/"), chromedp.WaitEnabled("#join-robot"))
		t0 := time.Now()
		do(t, ctx, "join", chromedp.Click("#join-robot"))
		waitJS(t, ctx, "the session controls", `!document.querySelector("#session-robot").hidden`)
		if _, ok := firstCallAfter(r.hub, "/api/media/play_sound", t0, 5*time.Second); !ok {
			t.Fatal("the session began without its chime")
		}
		return t0
	}
	ended := func(what string, within time.Duration) time.Duration {
		t.Helper()
		start := time.Now()
		for time.Since(start) < within+5*time.Second {
			if r.robotView(t).Session == nil && !r.hub.hub.SessionActive() {
				took := time.Since(start)
				if took > within {
					t.Fatalf("%s: the session ended %s later; want within %s", what, took.Round(100*time.Millisecond), within)
				}
				return took
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("%s: the session and the robot's presence outlived the page by %s", what, time.Since(start).Round(time.Second))
		return 0
	}

	// A tab closed: it leaves as it goes.
	browserCtx := browser(t, fakeMic(t))
	do(t, browserCtx, "start the browser", chromedp.Navigate("about:blank"))
	tab, closeTab := chromedp.NewContext(browserCtx)
	joinIn(tab)
	closeTab() // closes the tab: the page hides, then goes
	took := ended("tab closed", 15*time.Second)
	t.Logf("tab closed → session ended in %s", took.Round(100*time.Millisecond))

	// A browser killed outright (no goodbye): the heartbeat stops.
	tab2, _ := chromedp.NewContext(browserCtx)
	joinIn(tab2)
	killBrowser(t, browserCtx)
	took = ended("browser killed", 15*time.Second)
	t.Logf("browser killed → session ended in %s (page timeout 10 s)", took.Round(100*time.Millisecond))
	ends := r.robotView(t).LastEnd
	if ends == nil || ends.Reason != api.CallEndPageLost {
		t.Fatalf("the killed page's session ended as %+v, want page_lost", ends)
	}

	// A new browser: it says why the last session ended, and joins anew with a chime.
	ctx := browser(t, fakeMic(t))
	do(t, ctx, "load", chromedp.Navigate(r.srv.URL+"/"), chromedp.WaitEnabled("#join-robot"))
	// A fresh page keeps its stage clean (no stale "ended:" state) and says it as a line.
	waitJS(t, ctx, "why it ended", `!document.querySelector('#robot-robot [data-testid="last-end"]').hidden && `+
		`document.querySelector('#robot-robot [data-testid="last-end"]').textContent.includes("this page stopped answering")`)
	joinIn(ctx)
}

// killBrowser kills the browser process of ctx with SIGKILL: nothing of the page runs after.
func killBrowser(t *testing.T, ctx context.Context) {
	t.Helper()
	c := chromedp.FromContext(ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		t.Fatal("no browser process")
	}
	if err := c.Browser.Process().Kill(); err != nil {
		t.Fatal(err)
	}
}

// TestBrokerRestartInBrowser: the broker stops (as on SIGTERM) with a session open and
// comes back on the same address; the page says the session ended because the broker
// restarted, and joins again — with a new chime — without a reload.
func TestBrokerRestartInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	r := newConsoleRig(t, devOwner)
	ctx := browser(t, fakeMic(t))
	do(t, ctx, "load", chromedp.Navigate(r.srv.URL+"/"), chromedp.WaitEnabled("#join-robot"))
	do(t, ctx, "join", chromedp.Click("#join-robot"))
	waitJS(t, ctx, "the session controls", `!document.querySelector("#session-robot").hidden`)
	if v := jsString(t, ctx, `String(window.samePage = true)`); v != "true" {
		t.Fatal("the page could not be marked")
	}

	// The broker stops: its console ends the session, its links close, its listener goes.
	addr := r.srv.Listener.Addr().String()
	r.b.Close()
	r.b.Link().Close()
	r.srv.CloseClientConnections()
	r.srv.Close()
	if r.hub.hub.SessionActive() {
		t.Fatal("the robot kept its presence after the broker stopped")
	}

	// The next run, on the same address and state.
	next := newTestBrokerOn(t, r.state, devOwner)
	cctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go next.b.RunConsole(cctx)
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("the address of the last run: %v", err)
	}
	srv := &http.Server{Handler: next.b.Handler()}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	waitLinked(t, next.b, "robot", 1, 20*time.Second)

	waitJS(t, ctx, "the page to say the broker restarted", `document.querySelector("#call-state-robot").textContent === "ended: broker_restart" && `+
		`document.querySelector("#call-reason-robot").textContent.includes("the broker restarted")`)
	t0 := time.Now()
	do(t, ctx, "join again", chromedp.WaitVisible("#join-robot"), chromedp.WaitEnabled("#join-robot"), chromedp.Click("#join-robot"))
	// The join waits for the chime and announcement to play (espeak on a loaded machine).
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!document.querySelector("#session-robot").hidden`,
		chromedp.WithPollingTimeout(40*time.Second), chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		t.Fatalf("no session after joining again: %v; the page says %q", err, jsString(t, ctx, `document.querySelector("#error").textContent + " / " + document.querySelector("#who-robot").textContent`))
	}
	if _, ok := firstCallAfter(r.hub, "/api/media/play_sound", t0, 5*time.Second); !ok {
		t.Fatal("the new session began without its chime")
	}
	if v := jsString(t, ctx, `String(window.samePage === true)`); v != "true" {
		t.Fatal("the page was reloaded")
	}
}
