package intents

import "testing"

// Classes of phrasing the fifth fresh set (fresh-9, issue 37) showed the router missing,
// each proven on sentences written for the class — none of them a corpus row.

// TestAReasonSaidWithoutAPause: a transcript has no commas; a statement said straight after
// a request ("lights off in the kids room they're asleep") is a reason, as it is after a
// comma, and leaves the request. A subject linked into the request's own clause ("tell me
// when it is ready", "if I am out") is not a reason, and what is not a request stays so.
func TestAReasonSaidWithoutAPause(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"switch the bedroom light off the baby is sleeping", "house.light.set", map[string]string{"room": "bedroom", "state": "off"}},
		{"lights off in the office its way too bright", "house.light.set", map[string]string{"room": "office", "state": "off"}},
		{"switch on the kitchen light its so dark", "house.light.set", map[string]string{"room": "kitchen", "state": "on"}},
		{"ac on in the living room its like a sauna", "house.ac.set", map[string]string{"room": "living room", "state": "on"}},
		{"turn off the kids room light he is asleep", "house.light.set", map[string]string{"room": "kids room", "state": "off"}},
		{"put the bedroom light on she is scared of the dark", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"lights off in the kids room the twins are asleep now", "house.light.set", map[string]string{"room": "kids room", "state": "off"}},
		{"turn the office light on i am reading", "house.light.set", map[string]string{"room": "office", "state": "on"}},
		{"what day is it today i must pay the rent", "date.today", nil},
		{"whats the time i must leave soon", "time.now", nil},
		{"be quiet for an hour we are watching a film", "robot.quiet", map[string]string{"state": "on", "duration": "3600"}},
		{"shush now we are watching tv", "robot.stop", nil},
		{"is the kitchen light on i cannot remember", "house.light.get", map[string]string{"room": "kitchen"}},
		{"set a timer for ten minutes the pasta is on", "timer.start", map[string]string{"duration": "600", "label": "pasta"}},
	})
	for _, s := range []string{
		"turn off the kitchen light when they are asleep",
		"turn the office light off if i am out",
		"i think the kitchen light is on",
		"mom said turn off the bedroom light it is late",
		"don't turn off the kitchen light i am reading",
		"tell me when it is time to turn the light off",
		"i turned the bedroom light off they are asleep",
		"turn off the light and the heater we are going out",
		"it's hot in here make the air cold and turn off the kitchen light",
		"call mom she wants to talk to dad",
	} {
		if d := tb.Route(s, Context{}); actsOrWouldAct(tb, d) {
			t.Errorf("%q: %s %v acts (why: %v)", s, d.Intent, d.Args, d.Doctrine)
		}
	}
}
