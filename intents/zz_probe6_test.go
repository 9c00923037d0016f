package intents

import (
	"strings"
	"testing"
)

func TestZZProbeGame(t *testing.T) {
	tb := demo(t)
	games := map[string]string{"rock paper scissors": "play.rps", "simon says": "play.simon", "freeze dance": "play.freeze", "hide and seek": "play.hide", "guess the animal": "play.animal"}
	shapes := []string{"let's play {g}", "play {g}", "can we play {g} now please", "i want to play {g}", "start {g}", "{g}!", "{g} please", "how about {g}", "lets do {g}", "time for {g}", "we wanna play {g}", "play {g} with me", "play {g} with us", "fancy a game of {g}", "let's have a game of {g}", "one round of {g}", "come on let's play {g}", "{g} time", "{g} again", "another round of {g}", "i challenge you to {g}", "let's do {g} reachy", "we are bored let's play {g}", "ok {g} go", "i'm bored, {g}?"}
	bad, total := 0, 0
	for _, sh := range shapes {
		for g, want := range games {
			s := strings.Replace(sh, "{g}", g, 1)
			total++
			dd := tb.Route(s, Context{})
			if dd.Intent != want && dd.Intent != "play.invite" {
				bad++
				t.Logf("MISS %q -> %s %v want %s", s, dd.Intent, dd.Args, want)
			}
		}
	}
	t.Logf("bad=%d of %d", bad, total)
}
