package intents

import "testing"

func TestZZProbeNeg(t *testing.T) {
	tb := demo(t)
	cmds := []string{"set a timer for 10 minutes", "turn off the kitchen light", "put the bedroom ac on", "call dad", "turn privacy off", "start simon says", "hang up", "cancel the pasta timer", "mute yourself for an hour", "switch the office light on"}
	leads := []string{"don't ", "dont ", "please don't ", "do not ", "never ", "no need to ", "you don't need to ", "don't you dare "}
	reasons := []string{"", " i am making tea", ", i'm still here", " because we are eating out", " the baby is asleep", " so they can sleep", " my head hurts", " i already did it", " we dont need it", " mum is not home"}
	bad := 0
	for _, c := range cmds {
		for _, l := range leads {
			for _, r := range reasons {
				s := l + c + r
				d := tb.Route(s, Context{})
				if tb.wouldAct(d) && d.Intent != "robot.stop" && !(d.Intent == IntentClarify && d.Pending == nil) {
					bad++
					t.Logf("ACTS %q -> %s %v", s, d.Intent, d.Args)
				}
			}
		}
	}
	t.Logf("bad=%d", bad)
}

func TestZZProbePos(t *testing.T) {
	tb := demo(t)
	cmds := []string{"set a timer for 10 minutes", "turn off the kitchen light", "put the bedroom ac on", "call dad", "turn privacy on", "start simon says", "cancel the pasta timer", "be quiet for an hour", "switch the office light on", "what time is it", "is mom busy", "stop talking"}
	leads := []string{"", "reachy ", "please ", "um can you ", "could you please ", "hey richie "}
	reasons := []string{"", " i am making tea", ", i'm still here", " because we are eating out", " the baby is asleep", " so they can sleep", " my head hurts", " thanks", " love", " please", " we have guests", " it is late"}
	bad := 0
	for _, c := range cmds {
		want := tb.Route(c, Context{}).Intent
		for _, l := range leads {
			for _, r := range reasons {
				s := l + c + r
				d := tb.Route(s, Context{})
				if d.Intent != want {
					bad++
					t.Logf("MISS %q -> %s %v want %s", s, d.Intent, d.Args, want)
				}
			}
		}
	}
	t.Logf("bad=%d of %d", bad, len(cmds)*len(leads)*len(reasons))
}
