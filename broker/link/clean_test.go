package link

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// hidden reports what of s a reader would not see as text (a control character, an escape,
// a format character), or "".
func hidden(s string) string {
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return strings.ToValidUTF8(string(r), "?")
		}
	}
	return ""
}

// TestRobotStringsAreBoundedAndClean: a hub that says hello with a 1 MiB version full of
// terminal escapes, acks with a code of its own making and reports ten thousand made-up
// timer IDs gets none of it kept or passed on raw: the version the status shows (what
// `reachyctl status --json` and the console print) is at most 64 characters of text, the ack
// code is one of the closed list, and the IDs are bounded plain tokens.
func TestRobotStringsAreBoundedAndClean(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, url := serve(t, Options{})
	rang := make(chan []string, 1)
	defer r.Subscribe(func(e Event) {
		if e.Kind == EventRang {
			rang <- e.Rang
		}
	})()
	ws := dial(t, ctx, "ws"+strings.TrimPrefix(url, "http"))
	waitOnline(t, r, true)

	version := "reachy-hub 1.0 \x1b[2J\x1b[31mrm -rf /\x1b]0;owned\x07\u202e\u200b\r\n" + strings.Repeat("A\x1b[5m", 1<<16) + strings.Repeat("B", 700<<10) // 1 MiB
	hello, _ := json.Marshal(api.LinkMessage{Type: api.LinkHello, Hello: &api.LinkHelloBody{Version: version}})
	write(t, ctx, ws, string(hello))
	ids := []string{"t-1", "t-2\x1b[31m", strings.Repeat("x", 500)}
	for i := 0; i < 10000; i++ {
		ids = append(ids, "t-made-up")
	}
	report, _ := json.Marshal(api.LinkMessage{Type: api.LinkRangLocal, Rang: ids})
	write(t, ctx, ws, string(report))

	got := make(chan api.LinkAckBody, 1)
	go func() {
		ack, _ := r.Send(ctx, "robot", api.LinkMessage{Type: api.LinkExpression, Expression: "happy"})
		got <- ack
	}()
	m := read(t, ctx, ws)
	write(t, ctx, ws, `{"type":"ack","id":"`+m.ID+`","ack":{"ok":false,"code":"\u001b[31mdisk_wiped, call 555-0134"}}`)
	if ack := <-got; ack.Code != api.LinkErrFailed {
		t.Fatalf("ack code %q, want %q (closed list)", ack.Code, api.LinkErrFailed)
	}

	var v string
	for deadline := time.Now().Add(5 * time.Second); v == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		v = r.Status("robot").Version
	}
	if v != "reachy-hub 1.0 rm -rf / AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"[:len(v)] || len([]rune(v)) > 64 || hidden(v) != "" {
		t.Fatalf("version kept as %q (%d runes)", v, len([]rune(v)))
	}
	if !strings.HasPrefix(v, "reachy-hub 1.0 rm -rf /") {
		t.Fatalf("version kept as %q", v)
	}
	select {
	case got := <-rang:
		if len(got) > 256 || got[0] != "t-1" || len(got) > 1 && got[1] != "t-made-up" {
			t.Fatalf("rang IDs passed on: %d, first %q", len(got), got[:min(3, len(got))])
		}
	case <-ctx.Done():
		t.Fatal("no rang event")
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"v1.2.3":                      "v1.2.3",
		"\x1b[31mred\x1b[0m":          "red",
		"a\x1b]8;;http://x\x1b\\link": "alink",
		"tab\tand\nnewline":           "tab and newline",
		"bidi\u202eevil\u200b":        "bidievil",
		"c1\u009b31mcsi":              "c1csi",
		"\xff\xfebad utf8":            "bad utf8",
		"  lead and trail  ":          "lead and trail",
		strings.Repeat("é", 100):      strings.Repeat("é", 64),
	} {
		if got := Clean(in, 64); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}
