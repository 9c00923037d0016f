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

// TestRoomsNamedByWhoseTheyAre: a family names rooms by whose they are ("mum and dad's
// room", "the twins' room"), and says "their light" of people just named; the home says
// whose each room is (Room.Whose). A room the home does not have stays unknown, and a
// room of "a baby" in a question about the world is not this home's.
func TestRoomsNamedByWhoseTheyAre(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"turn off the light in mum and dad's room", "house.light.set", map[string]string{"room": "bedroom", "state": "off"}},
		{"is the light on in dad's room", "house.light.get", map[string]string{"room": "bedroom"}},
		{"put the ac on in mom and dads bedroom", "house.ac.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"switch on the light in the parents room", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"mommy's room light on please", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"turn off the light in daddy and mummy's room", "house.light.set", map[string]string{"room": "bedroom", "state": "off"}},
		{"lights off in the twins room", "house.light.set", map[string]string{"room": "kids room", "state": "off"}},
		{"is the light on in the boys room", "house.light.get", map[string]string{"room": "kids room"}},
		{"the kids are asleep switch their light off", "house.light.set", map[string]string{"room": "kids room", "state": "off"}},
		{"can you check if the girls left their light on", "house.light.get", map[string]string{"room": "kids room"}},
		{"the children are in bed now could you turn their lamp off", "house.light.set", map[string]string{"room": "kids room", "state": "off"}},
		{"mum is asleep turn her light off", "house.light.set", map[string]string{"room": "bedroom", "state": "off"}},
	})
	for s, want := range map[string]string{
		"what colour should I paint a baby's room": IntentGeneralAsk,
		"turn on the light in grandma's room":      IntentClarify,
	} {
		if d := tb.Route(s, Context{}); d.Intent != want {
			t.Errorf("%q: %s %v, want %s (why: %v)", s, d.Intent, d.Args, want, d.Doctrine)
		}
	}
	for _, s := range []string{
		"mum said turn off the light in her room",
		"dad turned off the light in his room",
		"don't switch off the light in the twins room",
	} {
		if d := tb.Route(s, Context{}); actsOrWouldAct(tb, d) {
			t.Errorf("%q: %s %v acts (why: %v)", s, d.Intent, d.Args, d.Doctrine)
		}
	}
	// A word two rooms claim names neither.
	h := Home{
		People: []Person{{Name: "mom", Aliases: []string{"mum"}}},
		Rooms: []Room{{Name: "bedroom", Whose: []string{"mom", "kids"}, Devices: []string{"light"}},
			{Name: "den", Whose: []string{"kids"}, Devices: []string{"light"}}},
	}
	owners := ownerWords(h)
	if owners["mum"] == nil || owners["mum"].Name != "bedroom" || owners["kids"] != nil {
		t.Errorf("owners: mum → %v, kids → %v; want bedroom and none", owners["mum"], owners["kids"])
	}
}

// TestACommandSaidStraightAfterAStatement: "I'm cold put the AC on" — a statement with its
// own subject, then a command, no comma between: the statement is the reason, the command
// acts; what the statement reports or plans never does.
func TestACommandSaidStraightAfterAStatement(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"it is cold in here turn on the ac", "house.ac.set", map[string]string{"room": "living room", "state": "on"}},
		{"the baby is sleeping turn off the kids room light", "house.light.set", map[string]string{"room": "kids room", "state": "off"}},
		{"we are going out switch off all the lights", "house.light.set", map[string]string{"room": "all", "state": "off"}},
		{"i cant see anything turn the office light on", "house.light.set", map[string]string{"room": "office", "state": "on"}},
		{"its roasting in the bedroom put the ac on", "house.ac.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"dad is working switch off the living room light", "house.light.set", map[string]string{"room": "living room", "state": "off"}},
		{"the movie is starting could you turn off the living room lights", "house.light.set", map[string]string{"room": "living room", "state": "off"}},
		{"i am reading in the office can u put the light on", "house.light.set", map[string]string{"room": "office", "state": "on"}},
		{"the pasta is done cancel the pasta timer", "timer.cancel", map[string]string{"label": "pasta"}},
		{"we are back switch on the kitchen light", "house.light.set", map[string]string{"room": "kitchen", "state": "on"}},
	})
	for _, s := range []string{
		"i am going to turn off the kitchen light",
		"mom said turn off the bedroom light",
		"we will switch off the lights later",
		"i think we should turn on the ac",
		"the kids want to turn off the office light",
		"dad is asleep don't turn off the bedroom light",
		"mom is always saying turn off the lights",
		"she was shouting turn off the kitchen light",
		"the kids are screaming turn the bedroom light off",
		"dad keeps telling me switch off the office light",
		"i was cold put the ac on in the bedroom",
	} {
		if d := tb.Route(s, Context{}); actsOrWouldAct(tb, d) {
			t.Errorf("%q: %s %v acts (why: %v)", s, d.Intent, d.Args, d.Doctrine)
		}
	}
}

// TestHouseRequestsSaidSideways: asking to be given light ("can I have some light in the
// kitchen"), to have a device in a state ("would it be possible to have the bedroom AC on at
// 22"), a device's "status", a request with haste tagged on ("... and be quick about it"),
// and a feeling said before a polite request ("so dark could you ...") are house requests.
// A switch without "on" or "off" ("flip the kitchen light") is asked about, never guessed,
// and a mode or level the home cannot set stays unclear.
func TestHouseRequestsSaidSideways(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"could we have some light in the office", "house.light.set", map[string]string{"room": "office", "state": "on"}},
		{"can I get some more light in the kids room please", "house.light.set", map[string]string{"room": "kids room", "state": "on"}},
		{"would it be possible to have the living room AC on", "house.ac.set", map[string]string{"room": "living room", "state": "on"}},
		{"please get the kitchen lights off", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"bedroom light status", "house.light.get", map[string]string{"room": "bedroom"}},
		{"what's the living room ac status", "house.ac.get", map[string]string{"room": "living room"}},
		{"office light off and be quick about it", "house.light.set", map[string]string{"room": "office", "state": "off"}},
		{"kitchen light on, hurry up", "house.light.set", map[string]string{"room": "kitchen", "state": "on"}},
		{"so dark could you turn the office light on", "house.light.set", map[string]string{"room": "office", "state": "on"}},
		{"proper boiling can u put the living room ac on", "house.ac.set", map[string]string{"room": "living room", "state": "on"}},
		{"flip the office light", "clarify", nil},
		{"toggle the kids room light", "clarify", nil},
		{"switch the bedroom ac", "clarify", nil},
	})
	for _, s := range []string{"flip the office light", "switch the bedroom ac"} {
		if d := tb.Route(s, Context{}); d.Pending == nil || d.Pending.Missing != "state" || d.Prompt != "On or off?" {
			t.Errorf("%q: pending %+v, prompt %q; want a question for the state", s, d.Pending, d.Prompt)
		}
	}
	for s, want := range map[string]string{
		"how many lights are there in this house": IntentUnclear, // what the home has, not how it is
		"how many lamps have we got":              IntentUnclear,
		"how many lights are on":                  "house.light.get",
		"switch to night light setting":           IntentUnclear,
		"turn up the bedroom ac":                  IntentClarify, // the temperature is asked
		"dim the kitchen lights":                  IntentUnclear,
	} {
		if d := tb.Route(s, Context{}); d.Intent != want {
			t.Errorf("%q: %s %v, want %s (why: %v)", s, d.Intent, d.Args, want, d.Doctrine)
		}
	}
	for _, s := range []string{
		"did you have the office light on",
		"we had some light in the kitchen",
		"i need some light in the office tomorrow",
	} {
		if d := tb.Route(s, Context{}); actsOrWouldAct(tb, d) {
			t.Errorf("%q: %s %v acts (why: %v)", s, d.Intent, d.Args, d.Doctrine)
		}
	}
}

// TestThingsSpokenOfInGeneral: an appliance said with "a" or "an" in a question ("can an
// oven catch fire"), an appliance's own timer ("a timer on a microwave") and a person the
// speaker wants to talk to ("how do I tell my dad ...") are the world's, for the agent; the
// home's own appliances, timers and calls stay home.
func TestThingsSpokenOfInGeneral(t *testing.T) {
	tb := demo(t)
	for s, want := range map[string]string{
		"can a fridge be left on all day":                    IntentGeneralAsk,
		"is it safe to leave an electric heater on":          IntentGeneralAsk,
		"why does a microwave stop when you open it":         IntentGeneralAsk,
		"how do you set the timer on a washing machine":      IntentGeneralAsk,
		"how do i reset the timer on my phone":               IntentGeneralAsk,
		"how do i tell my mum i failed my test":              IntentGeneralAsk,
		"how can i convince my dad to get a dog":             IntentGeneralAsk,
		"how do i ask my dad for more pocket money":          IntentGeneralAsk,
		"how do i fix his phone screen":                      IntentGeneralAsk,
		"is the oven on":                                     IntentUnclear,
		"set a timer on the oven for ten minutes":            "timer.start",
		"how long is left on the pasta timer":                "timer.status",
		"how do i ring dad":                                  IntentUnclear,
		"tell me a story about turning on the bedroom light": IntentGeneralAsk, // made up: nothing read or done
		"write a poem about the kitchen light":               IntentGeneralAsk,
		"tell me if the bedroom light is on":                 "house.light.get",
		"tell me a joke and turn off the kitchen light":      IntentClarify, // two requests, one acting: one at a time
	} {
		if d := tb.Route(s, Context{}); d.Intent != want {
			t.Errorf("%q: %s %v, want %s (why: %v)", s, d.Intent, d.Args, want, d.Doctrine)
		}
	}
}

// TestACommandBegunAgain: a command broken off on a cut-off word and begun again with the
// same verb is the one said last ("turn on the kit turn off the office light"); two whole
// commands are still two. An opening "like" before a request is a filler.
func TestACommandBegunAgain(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"turn on the kit turn off the office light", "house.light.set", map[string]string{"room": "office", "state": "off"}},
		{"switch off the bedr switch off the kids room light", "house.light.set", map[string]string{"room": "kids room", "state": "off"}},
		{"put the liv put the bedroom ac on", "house.ac.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"turn the off turn the kitchen light off i mean", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"switch the kid switch the bedroom light on", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"like can you turn the office light on", "house.light.set", map[string]string{"room": "office", "state": "on"}},
		{"um like what time is it", "time.now", nil},
		{"like can you make it so the office light is on", "house.light.set", map[string]string{"room": "office", "state": "on"}},
		{"like whats the date", "date.today", nil},
		{"turn off the bed turn on the office light please", "house.light.set", map[string]string{"room": "office", "state": "on"}},
		{"so like could you switch the kitchen light off", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
	})
	if d := tb.Route("turn on the kitchen light turn off the office light", Context{}); d.Kind == KindWrite {
		t.Errorf("two whole commands: %s %v acts", d.Intent, d.Args)
	}
}

// TestNothingSaidAboutARequestActs: sentences an adversarial review of this round's rules
// wrote to make them act when nothing was asked of the robot — a name said to someone of the
// family before the command, the words of a command named by a copula, a report or a
// retraction after it, a pronoun that does not fit the owner, someone else's kids, said of
// what someone can do, made up in a story, something taken down from a shelf. None acts.
func TestNothingSaidAboutARequestActs(t *testing.T) {
	tb := demo(t)
	for _, s := range []string{
		"I'm bored dad start a timer for ten minutes",
		"I'm changing mum turn on privacy mode",
		"it's dark dad turn on the office light",
		"so dark dad could you turn the office light on",
		"we're done mum hang up",
		"the example is cancel the timer",
		"the phrase is hang up the phone",
		"the instructions are turn the AC on in the bedroom",
		"the title of my essay is call mom",
		"the story is called mum is asleep turn her light off",
		"I'm cold put the AC on is all I hear every day",
		"lights off in the kids room they're finally asleep she texted",
		"call mom she's waiting was the message",
		"turn off the kitchen light they shouted on the telly",
		"mum is asleep turn her light off haha no",
		"turn on the kit turn off the office light just kidding",
		"you can't even call mom",
		"tell me a story where you call mom",
		"get the lights off the christmas tree in the lounge",
		"get the office light off ebay",
	} {
		if d := tb.Route(s, Context{}); actsOrWouldAct(tb, d) {
			t.Errorf("%q: %s %v acts (why: %v)", s, d.Intent, d.Args, d.Doctrine)
		}
	}
	// A pronoun that fits no owner named, or someone else's kids: the command stands, and
	// which light is asked, never guessed.
	for _, s := range []string{"mom is asleep turn his light off", "the neighbours' kids are asleep turn their light off"} {
		if d := tb.Route(s, Context{}); d.Kind == KindWrite {
			t.Errorf("%q: %s %v acts on a guessed room (why: %v)", s, d.Intent, d.Args, d.Doctrine)
		}
	}
	// and what is asked still acts
	checkRoutes(t, tb, []routeCase{
		{"mum is asleep turn her light off", "house.light.set", map[string]string{"room": "bedroom", "state": "off"}},
		{"dad is asleep turn his light off", "house.light.set", map[string]string{"room": "bedroom", "state": "off"}},
		{"thanks for turning the kitchen light off", "smalltalk.thanks", nil},
		{"thank you for the light", "smalltalk.thanks", nil},
		{"goodbye robot we have to go home now", "smalltalk.goodbye", nil},
		{"please get the kitchen lights off", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
	})
}

// TestGamesAndDevicesInOtherEnglishes: the games and the AC in the words of other Englishes
// and other languages ("paper scissors stone", "the clima", "the sleeping room").
func TestGamesAndDevicesInOtherEnglishes(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"play paper scissors stone with me", "play.rps", nil},
		{"scissors paper stone reachy", "play.rps", nil},
		{"lets do the dancing and stopping game", "play.freeze", nil},
		{"close the clima in the living room", "house.ac.set", map[string]string{"room": "living room", "state": "off"}},
		{"put the aircon on in the bedroom", "house.ac.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"open the air condition in sleeping room", "house.ac.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"turn off light in sleeping room please", "house.light.set", map[string]string{"room": "bedroom", "state": "off"}},
	})
	for _, s := range []string{"my grandma played scissors paper stone as a girl", "is the clima on in the living room"} {
		if d := tb.Route(s, Context{}); actsOrWouldAct(tb, d) {
			t.Errorf("%q: %s %v acts (why: %v)", s, d.Intent, d.Args, d.Doctrine)
		}
	}
}
