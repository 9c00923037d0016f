package intents

import "testing"

// Round 8: classes of phrasing this round's development sets (fresh-22 … 24) and the misses
// left from round 7 showed, each proven on sentences written for the class — none of them a
// corpus row.

// TestAMisheardNameBeforeARequest: whisper writes the robot's name as a real word ("peachy",
// "ricky", "reach me"); said first, before a request, it is dropped and the request reads
// as itself. It never counts as the wake phrase, and after it a sentence that says something
// of its own keeps its words.
func TestAMisheardNameBeforeARequest(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"preachy turn the bedroom light on", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"ricky what day is it", "date.today", nil},
		{"reach me timer for five minutes", "timer.start", map[string]string{"duration": "300"}},
		{"beachy please stop", "robot.stop", nil},
	})
	if d := tb.Route("ricky lights off in the office", Context{}); d.Normalized.Wake {
		t.Errorf("ricky counted as the wake phrase")
	}
	for _, s := range []string{"reach me the salt", "ricky says turn the light off", "peachy keen"} {
		if d := tb.Route(s, Context{}); d.Kind == KindWrite || d.Intent == "house.light.set" {
			t.Errorf("%q: %s, want nothing done", s, d.Intent)
		}
	}
}

// TestGreetingsSaidTogether: greetings said one after another ("hello there, good
// morning") are one greeting; a greeting before a question still asks it.
func TestGreetingsSaidTogether(t *testing.T) {
	checkRoutes(t, demo(t), []routeCase{
		{"hi hi good evening", "greeting", nil},
		{"hey there reachy good afternoon how are you doing", "greeting", nil},
		{"morning morning", "greeting", nil},
		{"hello good morning is mom busy today", "calendar.status", map[string]string{"person": "mom"}},
	})
}
