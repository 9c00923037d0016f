package broker

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/play"
	"github.com/reachy-broker/reachy-broker/broker/store"
)

// firstChoice makes every random choice the first one (IntN(n) == 0, with no rejection).
type firstChoice struct{}

func (firstChoice) Uint64() uint64 { return 1 }

// TestGamesNeedThePlayScopeAndAuditNoAnswer: a robot's token without the play scope cannot
// start a game (the owner grants it); with it, the game's answers go to the game with no wake
// phrase and the follow-up open, "stop" is still robot.stop, and the audit holds the game's
// start, its answers as play.answer with the game's name, and its end — never what was said.
func TestGamesNeedThePlayScopeAndAuditNoAnswer(t *testing.T) {
	// The robot always picks rock.
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		table, err := play.Default()
		if err != nil {
			t.Fatal(err)
		}
		d.Games = play.New(play.Options{Table: table, Rand: rand.New(firstChoice{}), Audit: GameAudit(d.State), Log: d.Logger})
	})
	plain := tb.token(t, "bedside", "text", "robot", "ask")
	resp := tb.say(t, plain, "hey reachy, let's play rock paper scissors")
	if tr := resp.turn(t); tr.Intent != "play.rps" || tr.Outcome != store.OutcomeDenied || tr.FollowUp {
		t.Fatalf("without play: %d %s", resp.status, resp.body)
	}
	if resp := tb.do(t, "POST", "/v1/intents/play.answer", tb.token(t, "x", "intent", "play"), "application/json", []byte(`{}`)); resp.status == 200 {
		t.Fatalf("play.answer was called by name: %s", resp.body)
	}

	tok := tb.token(t, "robot", "text", "robot", "ask", "play")
	turn := func(text, intent string) api.TurnResponse {
		t.Helper()
		resp := tb.say(t, tok, text)
		tr := resp.turn(t)
		if resp.status != 200 || tr.Intent != intent {
			t.Fatalf("%q: %d %s, want %s", text, resp.status, resp.body, intent)
		}
		return tr
	}
	if tr := turn("hey reachy, let's play rock paper scissors", "play.rps"); !tr.FollowUp || !strings.Contains(tr.Reply, "shoot") {
		t.Fatalf("start: %+v", tr)
	}
	if tr := turn("Scissors!", "play.answer"); !tr.FollowUp || !strings.Contains(tr.Reply, "I picked") || tr.Args["game"] != "rps" || len(tr.Args) != 1 {
		t.Fatalf("answer: %+v", tr)
	}
	turn("stop", "robot.stop") // stops the moment; the game goes on
	turn("paper", "play.answer")
	if tr := turn("stop the game", "play.stop"); tr.FollowUp {
		t.Fatalf("stop the game: %+v", tr)
	}
	if tr := turn("paper", "general.ask"); tr.Intent == "play.answer" {
		t.Fatal("an answer went to a game that was stopped")
	}
	recs, err := tb.state.TailAudit(context.Background(), 20)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, r := range recs {
		if r.Device != "robot" || !strings.HasPrefix(r.Intent, "play.") {
			continue
		}
		b, _ := json.Marshal(r)
		for _, said := range []string{"scissors", "paper", "Scissors"} {
			if strings.Contains(string(b), said) {
				t.Fatalf("the audit kept what was said: %s", b)
			}
		}
		seen = append(seen, r.Intent+":"+r.Args["game"]+":"+r.Args["reason"]+":"+r.Outcome)
	}
	want := "play.rps:::ok play.answer:rps::ok play.answer:rps::ok play.end:rps:stopped:ok play.stop:rps::ok"
	// (the broker's own record of the stop turn is written behind its reply, after the end)
	if got := strings.Join(seen, " "); got != want {
		t.Fatalf("audit\n got %s\nwant %s", got, want)
	}
}
