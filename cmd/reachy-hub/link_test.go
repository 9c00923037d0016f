package main

import (
	"context"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// TestSimLinkStaysUp: with --link the sim keeps its robot link after the microphone folder
// is consumed, until it is told to stop, and daemon-calls.json follows the calls a broker
// action causes.
func TestSimLinkStaysUp(t *testing.T) {
	dir := t.TempDir()
	b, state := newDevBroker(t, dir)
	srv := httptest.NewServer(b.Handler())
	defer srv.Close()
	tok, _, _ := state.CreateToken(context.Background(), "reachy", []string{"turn", "link"}, "")
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte(tok+"\n"), 0o600)
	writeSpeech(t, dir, "hello.wav", "hey reachy, what time is it")
	out := filepath.Join(dir, "out")

	ctx, stop := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"--sim", "--link", "--broker", srv.URL, "--token-file", tokenFile, "--out", out, filepath.Join(dir, "hello.wav")}, io.Discard, io.Discard, nil)
	}()
	wait := func(what string, ok func() bool) {
		t.Helper()
		for i := 0; i < 1000; i++ {
			if ok() {
				return
			}
			select {
			case c := <-code:
				t.Fatalf("the sim exited (%d) while waiting for %s", c, what)
			case <-time.After(20 * time.Millisecond):
			}
		}
		t.Fatalf("timed out waiting for %s", what)
	}
	file := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(out, name))
		return string(b)
	}
	wait("the turn in turns.json", func() bool { return strings.Contains(file("turns.json"), `"index": 1`) })
	wait("the link", func() bool { return b.Link().Status("reachy").Online })
	// The hub refuses moves (busy) while it speaks its own reply; after that, it moves.
	wait("an expression after the inputs were consumed", func() bool {
		actx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ack, err := b.Link().Send(actx, "reachy", api.LinkMessage{Type: api.LinkExpression, Expression: "happy"})
		if err != nil || (!ack.OK && ack.Code != api.LinkErrBusy) {
			t.Fatalf("an action after the inputs were consumed: %+v %v", ack, err)
		}
		return ack.OK
	})
	wait("the move in daemon-calls.json", func() bool { return strings.Contains(file("daemon-calls.json"), "reachy-mini-emotions-library/happy") })

	stop() // SIGTERM
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("exit %d", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the sim did not stop")
	}
}
