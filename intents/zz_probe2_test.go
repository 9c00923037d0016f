package intents

import "testing"

func TestZZProbeWrap(t *testing.T) {
	tb := demo(t)
	cmds := []string{"set a timer for 10 minutes", "turn off the kitchen light", "put the bedroom ac on", "call dad", "turn privacy on", "play simon says", "cancel the pasta timer", "be quiet for an hour", "what time is it", "is mom busy", "stop", "hang up", "is the office light on", "what's the date", "dance", "let's play hide and seek", "how long is left on the rice timer", "good night", "thank you", "what can you do", "end the game", "you can talk again"}
	leads := []string{"", "reachy ", "hey reachy ", "um ", "uh reachy ", "ok so ", "richie ", "oi ", "right ", "excuse me reachy ", "hey robot ", "so um ", "alright then "}
	tails := []string{"", " please", " thanks", " now", " reachy", " would you", " mate", " love", " right now", " ok", " thank you reachy", " if you can", " cheers"}
	bad := 0
	for _, c := range cmds {
		want := tb.Route(c, Context{})
		for _, l := range leads {
			for _, r := range tails {
				s := l + c + r
				d := tb.Route(s, Context{})
				if d.Intent != want.Intent || d.Args["state"] != want.Args["state"] || d.Args["room"] != want.Args["room"] {
					bad++
					t.Logf("MISS %q -> %s %v want %s", s, d.Intent, d.Args, want.Intent)
				}
			}
		}
	}
	t.Logf("bad=%d of %d", bad, len(cmds)*len(leads)*len(tails))
}
