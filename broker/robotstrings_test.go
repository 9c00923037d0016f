package broker

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/robot"
)

// TestStatusShowsNoRawRobotString: a hub that says hello with a version of half a megabyte
// full of terminal escapes (clear the screen, a fake prompt, a window title) is shown by the
// operator's status — what `reachyctl status --json` prints — with at most 64 characters of
// plain text: no escape, no control character reaches the operator's terminal.
func TestStatusShowsNoRawRobotString(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	tb := newTestBroker(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	live := &LiveStatus{}
	served := make(chan struct{})
	go func() { defer close(served); ServeControlWith(ctx, tb.state, live, quiet) }()
	defer func() { cancel(); <-served }()

	version := "evil-hub\x1b[2J\x1b[H\x1b]0;root@broker\x07$ \x1b[8m" + strings.Repeat("\x1b[31mX", 1<<16) + strings.Repeat("Y", 200<<10)
	l := &robot.Link{URL: tb.srv.URL, Token: tb.token(t, "robot", "link"), Version: version, Log: quiet,
		Handle: func(context.Context, api.LinkMessage) api.LinkAckBody { return api.LinkAckBody{OK: true} }}
	linkDone := make(chan struct{})
	lctx, stopLink := context.WithCancel(ctx)
	go func() { l.Run(lctx); close(linkDone) }()
	defer func() { stopLink(); <-linkDone }()
	waitLinked(t, tb.b, "robot", 1, 10*time.Second)
	live.Attach(tb.b)
	c, err := DialControl(ctx, tb.state.Dir())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var shown string
	for deadline := time.Now().Add(5 * time.Second); shown == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		st, err := c.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range st.Robots {
			if r.Device == "robot" {
				shown = r.Version
			}
		}
	}
	out, _ := json.Marshal(shown)
	if shown == "" || len([]rune(shown)) > 64 || strings.ContainsAny(shown, "\x1b\x07\r\n") || strings.Contains(string(out), `\u001b`) {
		t.Fatalf("status shows the hub's version as %s (%d runes)", out, len([]rune(shown)))
	}
	if !strings.HasPrefix(shown, "evil-hub$ XXXX") {
		t.Fatalf("status shows %q, want the version's text without its escapes", shown)
	}
}
