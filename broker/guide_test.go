package broker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reachy-broker/reachy-broker/intents"
)

const twoOwnIntents = `
intents:
  - name: routine.good_night
    kind: read
    description: good night routine
    handler: {type: reply, text: Good night.}
    patterns: ['start the good night routine']
    examples: [start the good night routine]
  - name: routine.movie
    kind: read
    description: movie time
    handler: {type: reply, text: Enjoy the film.}
    patterns: ['start the movie routine']
    examples: [start the movie routine]
`

// TestGuideIsWholeAndTrue: "what can you do" on a home with intents of its own is never cut
// by the length cap (nothing redacted), names what the home can do, offers calls only to the
// people who take them (Dad is an owner, Mom is not) and offers more ("what games do you
// know", which answers); `reachyctl intents guide` (the control socket's guide) says exactly
// what the robot says.
func TestGuideIsWholeAndTrue(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mine.yaml")
	if err := os.WriteFile(file, []byte(twoOwnIntents), 0o600); err != nil {
		t.Fatal(err)
	}
	_, table, err := DevIntentsConfig("127.0.0.1:0", filepath.Join(dir, "s"), file)
	if err != nil {
		t.Fatal(err)
	}
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		c.Teleport.Owners = []string{dad.Login}
		d.Table = func() *intents.Table { return table }
	})
	scopes := []string{"text", "turn", "house:read", "house:write", "timer", "robot", "play", "ask"}
	tok := tb.token(t, "robot", scopes...)
	r := tb.say(t, tok, "what can you do")
	tr := r.turn(t)
	if tr.Intent != "help" {
		t.Fatalf("what can you do: %s", r.body)
	}
	rec := lastAudit(t, tb)
	if len(rec.Redactions) != 0 || len(tr.Reply) > 400 {
		t.Fatalf("the guide was cut (%v, %d chars): %q", rec.Redactions, len(tr.Reply), tr.Reply)
	}
	for _, want := range []string{"switch the lights", "play games", "call Dad", "start the good night routine", "what games do you know"} {
		if !strings.Contains(tr.Reply, want) {
			t.Errorf("the guide does not offer %q: %q", want, tr.Reply)
		}
	}
	if strings.Contains(strings.ToLower(tr.Reply), "mom") {
		t.Errorf("the guide offers a call Mom cannot take: %q", tr.Reply)
	}
	if g := tb.b.spokenGuides(scopes); g.Help != tr.Reply {
		t.Errorf("intents guide says %q, the robot %q", g.Help, tr.Reply)
	}
	r = tb.say(t, tok, "what games do you know")
	if tr := r.turn(t); tr.Intent != intents.IntentHelpGames || !strings.Contains(tr.Reply, "rock paper scissors") {
		t.Fatalf("what games do you know: %s", r.body)
	}
	// Without the play scope, no games are offered.
	r = tb.say(t, tb.token(t, "laptop", "text", "house:read"), "what can you do")
	if reply := r.turn(t).Reply; strings.Contains(reply, "games") || strings.Contains(reply, "call") {
		t.Errorf("the guide offers what this caller may not do: %q", reply)
	}
}
