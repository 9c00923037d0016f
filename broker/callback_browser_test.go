package broker

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestCallBackInBrowser: Dad has the console open in Chromium. "Call dad" said to the robot
// rings it — a banner (data-testid ring-banner) and a tone — and Answer (ring-answer) joins
// the robot. A second "call dad" left unanswered becomes a missed call (data-testid
// missed-call) that the next load of the page shows, and the home's webhook is told.
func TestCallBackInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	hook := newFakeWebhook(t, false)
	r := newConsoleRig(t, func(c *Config, d *Deps) {
		c.Teleport.Owners = nil
		d.People = nil // dev mode: every loopback connection is the --dev-owner
		d.DevOwner = "dad@example.com"
		c.Teleport.RingTimeout = 2 * time.Second
		c.Teleport.CallWebhook = hook.srv.URL
	})
	ctx := browser(t, fakeMic(t), chromedp.Flag("autoplay-policy", "no-user-gesture-required"))
	do(t, ctx, "load", chromedp.Navigate(r.srv.URL+"/"))
	waitJS(t, ctx, "the page's first call-back poll", `document.body.dataset.callsPolled === "1"`)
	r.adoptPage(t, ctx)

	robot := r.token(t, "robot", "text", "turn")
	if tr := r.say(t, robot, "call dad").turn(t); tr.Intent != "teleport.call" || tr.Reply != "I've let Dad know." {
		t.Fatalf("call dad with the console open: %+v", tr)
	}
	waitJS(t, ctx, "the ring banner", `!!document.querySelector('[data-testid="ring-banner"] [data-testid="ring-answer"]')`)
	waitJS(t, ctx, "the ring tone", `Number(document.body.dataset.ringTones || 0) >= 1`)
	banner, _ := chromedp.Run(ctx, chromedp.Text(`[data-testid="ring-banner"]`))
	if !strings.Contains(banner, "robot (living room)") || !strings.Contains(banner, "dad") {
		t.Fatalf("ring banner: %q", banner)
	}
	do(t, ctx, "answer", chromedp.Click(`[data-testid="ring-answer"]`))
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if s := r.session(t); s != nil && s.Live && s.Mine {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if s := r.session(t); s == nil || !s.Live {
		t.Fatalf("Answer did not join the robot: %+v", s)
	}
	waitJS(t, ctx, "the banner gone after answering", `!document.querySelector('[data-testid="ring-banner"]')`)
	if resp := r.post(t, r.page(t), "leave", map[string]any{}); resp.status != 200 {
		t.Fatalf("leave: %d %s", resp.status, resp.body)
	}

	// Unanswered: the ring ends after ring_timeout and waits as a missed call.
	r.say(t, robot, "can you call dad")
	waitJS(t, ctx, "the second ring", `!!document.querySelector('[data-testid="ring-banner"]')`)
	select {
	case <-hook.got:
	case <-time.After(10 * time.Second):
		t.Fatal("the unanswered ring did not notify the webhook")
	}
	do(t, ctx, "reload", chromedp.Navigate(r.srv.URL+"/"))
	waitJS(t, ctx, "the missed call on the next load", `!!document.querySelector('[data-testid="missed-call"]')`)
	missed, _ := chromedp.Run(ctx, chromedp.Text(`[data-testid="missed-call"]`))
	if !strings.Contains(missed, "asked for dad") || !strings.Contains(missed, "robot (living room)") {
		t.Fatalf("missed call: %q", missed)
	}
	if n := hook.all(); len(n) != 1 || n[0]["wanted"] != "dad" || n[0]["robot"] != "robot" {
		t.Fatalf("webhook notices: %v", n)
	}
	do(t, ctx, "dismiss", chromedp.Click(`[data-testid="missed-call-dismiss"]`))
	waitJS(t, ctx, "the missed call dismissed", `!document.querySelector('[data-testid="missed-call"]')`)
}
