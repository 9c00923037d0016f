package intents

import (
	"fmt"
	"strings"
	"testing"
)

// TestQuietTimeRoutes: the ways people ask for quiet that lasts, end it, and the sentences
// that only stop the moment or ask for nothing.
func TestQuietTimeRoutes(t *testing.T) {
	on := map[string]string{"state": "on"}
	off := map[string]string{"state": "off"}
	checkRoutes(t, demo(t), []routeCase{
		{"Mute", "robot.quiet", on},
		{"mute the speaker please", "robot.quiet", on},
		{"Be quiet for an hour.", "robot.quiet", map[string]string{"state": "on", "duration": "3600"}},
		{"Don't talk until I say so.", "robot.quiet", on},
		{"the baby's asleep, shush", "robot.quiet", on},
		{"Shush, the baby is sleeping.", "robot.quiet", on},
		{"set mute until said otherwise", "robot.quiet", on},
		{"stop talking for the rest of the evening", "robot.quiet", on},
		{"go into silent mode", "robot.quiet", on},
		{"stop, be quiet for an hour", "robot.quiet", map[string]string{"state": "on", "duration": "3600"}},
		{"You can talk again.", "robot.quiet", off},
		{"okay reachy you can speak again", "robot.quiet", off},
		{"unmute yourself", "robot.quiet", off},
		{"turn quiet mode off", "robot.quiet", off},
		// The robot's sound switched off is muting it; a condition it lasts until is kept.
		{"turn off the sound", "robot.quiet", on},
		{"switch your speakers off", "robot.quiet", on},
		{"shut down the sound please", "robot.quiet", on},
		{"please mute my speaker", "robot.quiet", on},
		{"turn off your voice reachy", "robot.quiet", on},
		{"don't talk until I ask you to", "robot.quiet", on},
		{"be quiet until I'm home from work", "robot.quiet", on},
		{"do not speak today", "robot.quiet", on},
		{"be quiet this evening", "robot.quiet", on},
		{"turn down the volume", "general.ask", nil}, // quieter is not silent: not quiet time
		// "stop" alone, and a moment, stop the speech of the moment only.
		{"stop", "robot.stop", nil},
		{"Be quiet for a second.", "robot.stop", nil},
		{"Please stop talking for a minute.", "robot.stop", nil},
		{"shush", "robot.stop", nil},
		{"stop talking again", "robot.stop", nil},
	})
}

// TestQuietTimeLengths: every length from one minute to twelve hours is kept in seconds; a
// length the robot cannot be quiet for is not passed on as something else.
func TestQuietTimeLengths(t *testing.T) {
	tb := demo(t)
	for _, c := range []struct {
		said string
		secs int
	}{{"1 minute", 60}, {"one minute", 60}, {"5 minutes", 300}, {"half an hour", 1800},
		{"2 hours", 7200}, {"ninety minutes", 5400}, {"12 hours", 43200}, {"twelve hours", 43200}} {
		for _, frame := range []string{"be quiet for %s", "mute for %s", "don't talk for %s", "no talking for the next %s please"} {
			s := fmt.Sprintf(frame, c.said)
			d := tb.Route(s, Context{})
			if d.Intent != IntentQuiet || d.Args["state"] != "on" || d.Args["duration"] != fmt.Sprint(c.secs) {
				t.Errorf("%q: %s %v, want robot.quiet on %d s", s, d.Intent, d.Args, c.secs)
			}
		}
	}
	// Outside the range: the handler refuses 30 s and 13 h (the argument says what was
	// asked); two days is no duration at all here and is asked about, never set.
	for s, secs := range map[string]string{"be quiet for 30 seconds": "30", "mute for 13 hours": "46800"} {
		if d := tb.Route(s, Context{}); d.Intent != IntentQuiet || d.Args["duration"] != secs {
			t.Errorf("%q: %s %v, want robot.quiet with duration %s", s, d.Intent, d.Args, secs)
		}
	}
	if d := tb.Route("be quiet for 2 days", Context{}); d.Intent == IntentQuiet {
		t.Errorf("be quiet for 2 days: %s %v, want it asked about", d.Intent, d.Args)
	}
}

// TestOnlyACommandSetsQuietTime: wishes, reports, conditions, negations, the past and
// questions about quiet never set or end quiet time.
func TestOnlyACommandSetsQuietTime(t *testing.T) {
	tb := demo(t)
	asks := []string{"be quiet for an hour", "mute", "don't talk until I say so", "shush", "be quiet", "you can talk again",
		"unmute", "be quiet for the rest of the night", "mute yourself for 20 minutes", "stop talking until further notice",
		"go into quiet mode", "talk again", "turn off the sound", "mute the speakers", "switch your speakers off",
		"be quiet until I'm home from work", "do not speak today"}
	forms := []string{"I wish you'd %s", "she said %s", "mum said to %s", "if the baby wakes up, %s", "yesterday you said %s",
		"should I tell you to %s?", "no need to %s", "I'll tell you to %s later", "the teacher said %s",
		"when the baby is asleep, %s", "unless I say so, %s", "did I tell you to %s?", "my brother told me to tell you to %s",
		"it would be nice if you'd %s", "I hope you %s", "don't %s", "you don't have to %s", "I'm going to tell you to %s"}
	for _, a := range asks {
		for _, f := range forms {
			if strings.HasPrefix(f, "don't") && (strings.HasPrefix(a, "don't") || strings.HasPrefix(a, "do not")) {
				continue
			}
			s := fmt.Sprintf(f, a)
			if d := tb.Route(s, Context{}); d.Intent == IntentQuiet {
				t.Errorf("%q set quiet time: %v (%v)", s, d.Args, d.Doctrine)
			}
		}
	}
	for _, s := range []string{"I wish you'd be quiet", "don't be quiet for an hour", "is quiet time over?", "were you muted?",
		"how do I mute the tv", "mute the tv", "why can't you talk again", "I turned off the sound", "the speakers are off",
		"did you turn off the sound?", "the kids switched the speakers off", "turn off the sound on the tv"} {
		if d := tb.Route(s, Context{}); d.Intent == IntentQuiet {
			t.Errorf("%q set quiet time: %v", s, d.Args)
		}
	}
}
