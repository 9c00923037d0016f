package intents

import "testing"

// Classes of phrasing the fresh sets (issue 37) showed the router missing, each proven on
// sentences written for the class — none of them a corpus row. A fix that learned a row and
// not its class fails here.

// TestCourtesyWrappersAreTheRequestInside: the wrappers people put around a request ("I
// wonder if you might ...", "would you be a dear and ...", "..., there's a dear") leave the
// request, which acts; the same wrappers around a question leave the question.
func TestCourtesyWrappersAreTheRequestInside(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"I wonder if you could switch the office light on", "house.light.set", map[string]string{"room": "office", "state": "on"}},
		{"I was wondering if you might turn off the bedroom air conditioning", "house.ac.set", map[string]string{"room": "bedroom", "state": "off"}},
		{"would you be a dear and turn the kitchen light off", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"would you be good enough to start a timer for ten minutes", "timer.start", map[string]string{"duration": "600"}},
		{"might you switch the office light off, if you please", "house.light.set", map[string]string{"room": "office", "state": "off"}},
		{"do you think you could turn on the bedroom light", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"could I ask you to set a timer for 3 minutes for the eggs", "timer.start", map[string]string{"duration": "180", "label": "eggs"}},
		{"be so good as to put the bedroom light on, there's a dear", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"Might you tell me the time, if you please?", "time.now", nil},
		{"would you happen to know what day it is", "date.today", nil},
		{"I wonder if you could tell me the date", "date.today", nil},
		{"could you possibly call dad for me", "teleport.call", map[string]string{"person": "dad"}},
		{"I wonder if you could be quiet for half an hour", "robot.quiet", map[string]string{"state": "on", "duration": "1800"}},
	})
	// The wrapper never hides what the request inside says: a condition, a negation, a
	// question about the state, a report stay what they are.
	for _, s := range []string{
		"I wonder if the kitchen light is on",
		"I was wondering if you could not turn the bedroom light on",
		"would you be a dear and turn the kitchen light off if it gets dark",
		"do you think you could have turned the office light off yesterday",
		"I wonder if you could tell me if the bedroom light is on",
		"would you happen to know whether dad turned the light off",
		"mom wonders if you could turn the kitchen light off, there's a dear",
	} {
		if d := tb.Route(s, Context{}); actsOrWouldAct(tb, d) {
			t.Errorf("%q: %s %v acts (why: %v)", s, d.Intent, d.Args, d.Doctrine)
		}
	}
}
