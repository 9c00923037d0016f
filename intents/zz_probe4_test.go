package intents

import (
	"strings"
	"testing"
)

func TestZZProbeTimer(t *testing.T) {
	tb := demo(t)
	shapes := []string{"set a timer for {d}", "timer for {d}", "{d} timer", "start a {d} timer", "can you time {d}", "give me {d}",
		"set a timer for {d} for the {l}", "{l} timer {d}", "{l} {d}", "put {d} on the {l}", "{d} for the {l}", "set the {l} timer for {d}",
		"time the {l} for {d}", "remind me in {d}", "wake me in {d}", "count down {d}", "i need a timer for {d}", "{d} on the timer please",
		"start a timer {d} for {l}", "timer {l} {d} please", "set timer {d} {l}", "make a {d} timer for the {l}", "countdown {d}"}
	durs := map[string]string{"ten minutes": "600", "10 minutes": "600", "five mins": "300", "an hour": "3600", "half an hour": "1800", "twenty five minutes": "1500", "90 seconds": "90", "a minute and a half": "90", "two hours": "7200", "forty five minutes": "2700"}
	labels := []string{"pasta", "eggs", "rice", "oven", "laundry", "bath"}
	bad, total := 0, 0
	for _, sh := range shapes {
		for d, secs := range durs {
			for _, l := range labels[:2] {
				s := strings.Replace(strings.Replace(sh, "{d}", d, 1), "{l}", l, 1)
				total++
				dd := tb.Route(s, Context{})
				if dd.Intent != "timer.start" || dd.Args["duration"] != secs {
					bad++
					t.Logf("MISS %q -> %s %v want %s", s, dd.Intent, dd.Args, secs)
				}
			}
		}
	}
	t.Logf("bad=%d of %d", bad, total)
}
