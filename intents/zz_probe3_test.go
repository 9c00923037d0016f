package intents

import (
	"strings"
	"testing"
)

func TestZZProbeNonAct(t *testing.T) {
	tb := demo(t)
	cmds := []string{"set a timer for 10 minutes", "turn off the kitchen light", "put the bedroom ac on", "call dad", "turn privacy off", "play simon says", "hang up", "cancel the pasta timer", "be quiet for an hour", "switch on all the lights", "start freeze dance", "end the call"}
	forms := []string{"mom said {}", "dad wants you to {}", "if it gets late {}", "when i get home {}", "did you {}", "should i {}", "i might {} later", "the teacher told us to {}", "say {}", "repeat after me {}", "{} is what grandma always says", "on tv they said {}", "my brother keeps telling me to {}", "i wish i could {}", "remember when you {} yesterday", "nobody asked you to {}", "what happens if you {}", "the robot in the film said {}", "grandpa will {} tomorrow", "i was going to {} but never mind", "you never {} when i ask", "why did you {}", "how do i {}", "dont {} until i say so", "\"{}\" he shouted", "next time {} ok", "pretend you {}", "in the story the girl says {}"}
	bad := 0
	for _, c := range cmds {
		for _, f := range forms {
			for _, l := range []string{"", "reachy "} {
				s := l + strings.Replace(f, "{}", c, 1)
				d := tb.Route(s, Context{})
				if tb.wouldAct(d) && d.Intent != "robot.stop" && !(d.Intent == IntentClarify && d.Pending == nil) {
					bad++
					t.Logf("ACTS %q -> %s %v", s, d.Intent, d.Args)
				}
			}
		}
	}
	t.Logf("bad=%d of %d", bad, len(cmds)*len(forms)*2)
}
