package broker

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestFreshConsolePageShowsNoStaleEnd: a page opened after a session ended shows no call —
// the stage (the video box and the call state over it) stays hidden — and says how the last
// call ended in a line of text instead.
func TestFreshConsolePageShowsNoStaleEnd(t *testing.T) {
	r := newConsoleRig(t)
	tok := r.page(t)
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("join: %d %s", resp.status, resp.body)
	}
	if resp := r.post(t, tok, "leave", map[string]any{}); resp.status != 200 {
		t.Fatalf("leave: %d %s", resp.status, resp.body)
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	ctx := browser(t, fakeMic(t))
	do(t, ctx, "load", chromedp.Navigate(r.srv.URL+"/"), chromedp.WaitEnabled("#join-robot"))
	waitJS(t, ctx, "the last end as a line of text", `!document.querySelector('#robot-robot [data-testid="last-end"]').hidden &&
		document.querySelector('#robot-robot [data-testid="last-end"]').textContent.includes("you left")`)
	if got := jsString(t, ctx, `String(document.querySelector('#stage-robot').hidden) + " [" +
		document.querySelector('#robot-robot [data-testid="call-state"]').textContent + "]"`); got != "true []" {
		t.Fatalf("a fresh page shows the last call's end state on its stage: hidden, state = %s", got)
	}
}
