package broker

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// TestDevConsoleWithoutOwnerSaysHowToStartOne (#29.8): `make run` starts a loopback broker
// without --dev-owner. Its console cannot tell who is there; the person reading the page is
// the owner, so it must not say "ask the home's owner": it says how to start the broker
// with an owner (--dev-owner, make run DEV_OWNER=...), on a page styled like the rest (the
// stylesheet is served to a refused page too), and the console's calls say the same in
// their closed error.
func TestDevConsoleWithoutOwnerSaysHowToStartOne(t *testing.T) {
	tb := newTestBroker(t) // loopback, no tailnet identity, no --dev-owner
	page := tb.do(t, "GET", "/", "", "", nil)
	body := string(page.body)
	if page.status != http.StatusForbidden {
		t.Fatalf("the console of a dev broker without an owner: %d", page.status)
	}
	for _, want := range []string{"--dev-owner", "make run DEV_OWNER=", "dev mode", `href="/console/app.css"`, `class="denied"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page does not say %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "Ask the home's owner") {
		t.Errorf("the page sends the owner to ask the owner:\n%s", body)
	}
	css := tb.do(t, "GET", "/console/app.css", "", "", nil)
	if css.status != http.StatusOK || !strings.HasPrefix(css.header.Get("Content-Type"), "text/css") || !strings.Contains(string(css.body), ".denied") {
		t.Errorf("the refused page's stylesheet: %d %q", css.status, css.header.Get("Content-Type"))
	}
	call := tb.do(t, "GET", "/console/api/state", "", "", nil)
	if call.status != http.StatusForbidden || call.code(t) != api.CodeNotOwner || !strings.Contains(string(call.body), "--dev-owner") {
		t.Errorf("a console call: %d %s", call.status, call.body)
	}

	if testing.Short() {
		return
	}
	// In a browser the page is styled: the card is white on the console's grey, in its font.
	ctx := browser(t, fakeMic(t))
	do(t, ctx, "load", chromedp.Navigate(tb.srv.URL+"/"), chromedp.WaitVisible("#how"))
	style, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => { const s = getComputedStyle(document.querySelector(".denied")); return [s.backgroundColor, s.borderTopLeftRadius, getComputedStyle(document.documentElement).fontFamily]; })()`))
	if err != nil || len(style) != 3 || style[0] != "rgb(255, 255, 255)" || style[1] == "0px" || !strings.Contains(style[2], "system-ui") {
		t.Errorf("the page is not styled like the console: %q %v", style, err)
	}
}
