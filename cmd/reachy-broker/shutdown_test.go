package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/store"
)

// TestAGameInPlayIsAuditedWhenTheBrokerStops: a broker stopped (SIGTERM) while a game is in
// play ends the game and audits its end ("shutdown") before the state store closes, so the
// audit never shows a game that began and never ended.
func TestAGameInPlayIsAuditedWhenTheBrokerStops(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	p := startBrokerProcess(t, "--dev", "--state-dir", state, "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0")
	tok := devToken(t, state, "text", "robot", "play")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code, reply, err := p.say(ctx, tok, "hey reachy, let's play rock paper scissors", "")
	if err != nil || code != 200 || !strings.Contains(reply, "shoot") {
		t.Fatalf("start a game: %d %q %v", code, reply, err)
	}
	p.stop(t)

	st, err := store.Open(state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs, err := st.TailAudit(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, r := range recs {
		seen = append(seen, r.Intent+":"+r.Args["game"]+":"+r.Args["reason"])
		if r.Intent == "play.end" && r.Args["game"] == "rps" && r.Args["reason"] == "shutdown" && r.Outcome == store.OutcomeOK {
			return
		}
	}
	t.Fatalf("no play.end for the game in play when the broker stopped; audit: %v", seen)
}
