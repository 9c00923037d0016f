package intents

import (
	"strings"
	"testing"
)

func TestZZProbeQuiet(t *testing.T) {
	tb := demo(t)
	shapes := []string{"be quiet for {d}", "stay quiet for {d}", "no talking for {d}", "mute yourself for {d}", "keep it down for {d}", "don't talk for {d}", "shh for {d}", "quiet mode for {d}", "go quiet for {d}", "silence for {d}", "be silent for {d}", "hush for {d}", "stop talking for {d}", "not a word for {d}", "can you be quiet for {d}", "please stay silent for {d}", "mute for {d}", "zip it for {d}", "quiet for {d} please", "for {d} be quiet", "the baby is asleep be quiet for {d}", "i am on a call stay quiet for {d}", "be quiet {d}", "give us {d} of quiet", "{d} of quiet please", "no noise for {d}", "stop making noise for {d}", "keep quiet for {d}", "shut up for {d}"}
	durs := map[string]string{"ten minutes": "600", "an hour": "3600", "half an hour": "1800", "20 minutes": "1200", "a bit": ""}
	bad, total := 0, 0
	for _, sh := range shapes {
		for d, secs := range durs {
			s := strings.Replace(sh, "{d}", d, 1)
			total++
			dd := tb.Route(s, Context{})
			if dd.Intent != "robot.quiet" || secs != "" && dd.Args["duration"] != secs {
				bad++
				t.Logf("MISS %q -> %s %v want %s", s, dd.Intent, dd.Args, secs)
			}
		}
	}
	t.Logf("bad=%d of %d", bad, total)
}
