package intents

import (
	"slices"
	"testing"
)

// Round 10: classes of phrasing the round's development sets (fresh-38 … 41) showed, each
// proven on sentences written for the class — none of them a corpus row.

// TestSpelledLettersAreNoSentenceEnds: a recogniser writes spelled-out letters with dots
// ("u. s. d.", "i. b. m.") and titles keep theirs ("mrs. patel"); neither ends a sentence,
// so such an utterance is read as one sentence, not cut into pieces and read piece by piece.
func TestSpelledLettersAreNoSentenceEnds(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"if i have five u. s. d. how much is that in a. u. d.", nil},
		{"what is i. b. m. stock at", nil},
		{"can you ask mrs. patel if dr. singh is coming", nil},
		{"Turn off the light. I. Am. Tired.", []string{"Turn off the light.", "I.", "Am.", "Tired."}},
		{"Turn the lights on. Thanks!", []string{"Turn the lights on.", "Thanks!"}},
		{"what's 2.5 times 4? just curious", []string{"what's 2.5 times 4?", "just curious"}},
	} {
		if got := splitSentences(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("splitSentences(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestAReasonAfterARequestLeavesItOne: a statement said after a request that says how
// things are — with a thing named in it ("the baby monitor is going", "there's someone at
// the door"), someone the home did not name ("harold can't settle"), "the little one", or
// words read off a packet — is the request's reason, not a second request: the request is
// done. A part that names a light or the AC, says on or off, or reports someone's words
// still asks for one thing at a time or is not done.
func TestAReasonAfterARequestLeavesItOne(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"switch off the kitchen light, the baby monitor is going", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"can you turn the bedroom light on, my little one is scared of the dark", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"turn off the office light, there's someone at the door", "house.light.set", map[string]string{"room": "office", "state": "off"}},
		{"put the bedroom ac on please, it is like a sauna up there and harold cannot settle", "house.ac.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"start a timer for twelve minutes, the packet says", "timer.start", map[string]string{"duration": "720"}},
		{"put a timer on for eight minutes for the rice, it says on the bag", "timer.start", map[string]string{"duration": "480", "label": "rice"}},
		{"call mum, theyre asking for her at the door", "teleport.call", map[string]string{"person": "mom"}},
	})
	checkNothingDone(t, tb, []string{
		"turn off the kitchen light, ill do it myself",
		"turn off the kitchen light, jake did it already",
		"call mom, hes gonna tell her anyway",
		"call mom, the book says",
		"turn off the kitchen light, the box says",
		"turn off the kitchen light, mum says",
		"turn off the kitchen light, the tv says",
		"turn off the kitchen light, harold said so",
		"turn off the kitchen light, the bedroom light is on too",
		"turn off the kitchen light and the bedroom one",
		"turn the office light on, the kids room one off",
		"turn the living room lights off and the bedroom ones on",
		"turn off the lights in the bedroom and the kids room",
		"set the bedroom ac to 20, the living room one is fine",
		"turn off the kitchen light, totally forgot about it",
		"my teacher said set a timer for ten minutes and then totally forgot about it",
	})
}

// TestPrivacyVerbsThatGoEitherWayAreAsked: a learner's "close the privacy" may mean off (as
// "close the light" does) or on (as "close the curtains" does): the robot asks, and the
// answer completes it. Words that take the mode away switch it off.
func TestPrivacyVerbsThatGoEitherWayAreAsked(t *testing.T) {
	tb := demo(t)
	for _, s := range []string{"close the privacy", "open the privacy mode please", "toggle privacy", "can you shut the privacy mode"} {
		d := tb.Route(s, Context{})
		if Acting(d) || d.Pending == nil || d.Pending.Intent != "privacy.set" || d.Pending.Missing != "state" {
			t.Errorf("%q: %s %v (pending %+v), want privacy mode asked on or off", s, d.Intent, d.Args, d.Pending)
			continue
		}
		for answer, want := range map[string]string{"off": "off", "on please": "on"} {
			c, ok := tb.Complete(*d.Pending, answer, Context{})
			if !ok || c.Intent != "privacy.set" || c.Args["state"] != want {
				t.Errorf("%q, answered %q: %s %v, want privacy.set %s", s, answer, c.Intent, c.Args, want)
			}
		}
	}
	checkRoutes(t, tb, []routeCase{
		{"take out the privacy, my wife wants to call", "privacy.set", map[string]string{"state": "off"}},
		{"remove privacy mode", "privacy.set", map[string]string{"state": "off"}},
		{"get rid of the privacy mode now", "privacy.set", map[string]string{"state": "off"}},
		{"you close camera for privacy nobody can call", "privacy.set", map[string]string{"state": "on"}},
	})
}

// TestHowPeopleSayACommandIsNoRequest: "in Turkey we say close the light", "my kids say
// lights out" tell how people put a command; the robot does nothing (it may offer).
func TestHowPeopleSayACommandIsNoRequest(t *testing.T) {
	tb := demo(t)
	checkNothingDone(t, tb, []string{
		`In Poland we say "close the light", here you say "turn off".`,
		"in english you say switch off the light",
		"my kids say lights out in the kids room",
		"people say put the ac on in the bedroom",
		"grandma say call mom",
		"we say open the light in the kitchen",
	})
	for _, s := range []string{"my kids say lights out in the kids room", "in english you say switch off the light"} {
		if d := tb.Route(s, Context{}); d.Pending != nil {
			t.Errorf("%q: asks %q, want nothing asked toward acting", s, d.Prompt)
		}
	}
	checkRoutes(t, tb, []routeCase{ // "say" inside a description or a wish is not a report
		{"the copy game, the one where you say simon", "play.simon", nil},
	})
}

// TestRaisedByRound10Writers: classes the round's development sets found acting wrongly or
// not at all — each on sentences written for the class.
func TestRaisedByRound10Writers(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		// a word cut off and said again whole: the recogniser's dash
		{"set a timer for eight minutes for the e- eggs", "timer.start", map[string]string{"duration": "480", "label": "eggs"}},
		{"turn off the off- office light", "house.light.set", map[string]string{"room": "office", "state": "off"}},
		// "turn it on" said with a setting: on, at that setting
		{"the bedroom ac, turn it on twenty two", "house.ac.set", map[string]string{"room": "bedroom", "state": "on", "temperature": "22"}},
		// the American South's "cut on": on and off both said — asked, never switched the wrong way
		{"honey cut on the lights in the kitchen", IntentClarify, nil},
		{"cut off the office light", "house.light.set", map[string]string{"room": "office", "state": "off"}},
		// a timer "for it" whose sentence before names it
		{"I'm doing the pasta now. Could you time nine minutes for it?", "timer.start", map[string]string{"duration": "540", "label": "pasta"}},
	})
	checkNothingDone(t, tb, []string{
		"Pardon? I didn't catch that, say it again, dear.",
		"could you say that again",
		"nobody call mom she is in a meeting",
		"no one ring dad now, he's driving",
	})
	if d := tb.Route("i got a cut on the finger", Context{}); d.Intent != IntentGeneralAsk || d.Args["question"] != "i got a cut on the finger" {
		t.Errorf("a cut on the finger: %s %v, want the question as said", d.Intent, d.Args)
	}
}

// TestLearnersWordsRound10: learners' and their families' words — "the mother of the kids",
// the Tagalog "po" and Hindi "ji" of respect,
// "remember me in ..." (to remind), rock paper scissors as
// other languages count it, a Turkish "sus" to stop, the living room as "the sala" — and
// where they must not reach: "the mother of the president" is someone else's.
func TestLearnersWordsRound10(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"is the mother of the kids busy", "calendar.status", map[string]string{"person": "mom"}},
		{"who is the mother of the president", IntentGeneralAsk, nil},
		{"what's the time po", "time.now", nil},
		{"what is the date today ji", "date.today", nil},
		{"call 112 my father fell down", "help.emergency", nil},
		{"remember me in ten minutes to turn the rice off", "timer.start", map[string]string{"duration": "600", "label": "rice"}},
		{"scissors stone cloth with me", "play.rps", nil},
		{"paper stone scissors, you and me", "play.rps", nil},
		{"sus reachy sus", "robot.stop", nil},
		{"switch off the light in the sala", "house.light.set", map[string]string{"room": "living room", "state": "off"}},
		{"blah blah, stop", "robot.stop", nil}, // a stop beside words no intent reads is done
	})
	checkNothingDone(t, tb, []string{
		"remember me on my birthday",
		"my husband always says close the air when nobody is in the room",
		"if dad calls while we're eating, don't answer",
		"Tomorrow maybe we play Simon says, not now.",
	})
}

// TestGrandparentsWordsRound10: Scots, Yorkshire and the American South as grandparents say
// them — "ye", "the bairns' room", "the wee light", "ey up", "take care", "a little jig",
// "give over" — and a stop whose reason has a "not" of its own is still a stop.
func TestGrandparentsWordsRound10(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"would ye put the wee light on in the bairns' room", "house.light.set", map[string]string{"room": "kids room", "state": "on"}},
		{"ring the weans' mammy would ye", "teleport.call", map[string]string{"person": "mom"}},
		{"ye can start talking again hen", "robot.quiet", map[string]string{"state": "off"}},
		{"ey up reachy", "greeting", nil},
		{"right, bye now, take care", "smalltalk.goodbye", nil},
		{"do a little jig for your nana", "robot.expression", map[string]string{"expression": "dance"}},
		{"give over, you're doing my head in", "robot.stop", nil},
		{"stop talking, you've been at it all morning and I've not heard the news", "robot.stop", nil},
	})
	checkRoutes(t, tb, []routeCase{ // what they must not reach
		{"why do people in japan live so long", IntentGeneralAsk, nil},
		{"take care of the baby for me", IntentGeneralAsk, nil},
	})
}

// TestTheAgentGetsTheQuestionAsked: a word a family says to someone at the end of a request
// ("love", "honey", "pet") is taken off; the same word as what a question is about is kept,
// so the agent answers the question that was asked ("what is honey", not "what is").
func TestTheAgentGetsTheQuestionAsked(t *testing.T) {
	tb := demo(t)
	for _, q := range []string{"what is honey", "what is love", "is a cat a good pet", "how do you cook hen", "why does grandma call me sweetie"} {
		if d := tb.Route(q, Context{}); d.Intent != IntentGeneralAsk || d.Args["question"] != q {
			t.Errorf("%q: %s %v, want the question as asked", q, d.Intent, d.Args)
		}
	}
	checkRoutes(t, tb, []routeCase{
		{"kitchen lights off love", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"what time is it honey", "time.now", nil},
	})
}

// TestChildrenAndRecogniserRound10: children's words ("lightie", "fweeze dance"), a
// temperature the recogniser garbled ("twenty to": asked, never guessed), the AC named in
// Portuguese or Spanish, "nobody's in there" as a reason, stopping a song, quitting a game
// because someone named is cheating, and questions about lights and timers in general.
func TestChildrenAndRecogniserRound10(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"can you turn the lightie on in the office", "house.light.set", map[string]string{"room": "office", "state": "on"}},
		{"let's do fweeze dance", "play.freeze", nil},
		{"set the living room ac to thirty to", IntentClarify, nil},
		{"the ar condicionado, turn off, in the sala", "house.ac.set", map[string]string{"room": "living room", "state": "off"}},
		{"turn off the light in the office, nobody's in there", "house.light.set", map[string]string{"room": "office", "state": "off"}},
		{"stop singing that song", "robot.stop", nil},
		{"quit the game max is cheating", "play.stop", nil},
		{"how do timers know when to ring", IntentGeneralAsk, nil},
		{"do fish sleep with the lights on", IntentGeneralAsk, nil},
		{"do the lights work in the kitchen", "house.light.get", map[string]string{"room": "kitchen"}},
	})
	if d := tb.Route("set the living room ac to thirty to", Context{}); d.Pending == nil || d.Pending.Missing != "temperature" {
		t.Errorf("a garbled temperature: pending %+v, want the temperature asked", d.Pending)
	}
	checkNothingDone(t, tb, []string{"system message privacy mode is now off"})
}

// TestARequestCorrectedSentencesLater: a request, talk, a sentence that takes it back ("No,
// hang on, ...") and the last word ("Make it seven.", the command said again): the last word
// is done, once. A take-back with nothing after it does nothing.
func TestARequestCorrectedSentencesLater(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"Could you time the pasta for me? Ten minutes. It's the thin sort. Oh, no, hang on, it's the thick sort today. Make it twelve.", "timer.start", map[string]string{"duration": "720", "label": "pasta"}},
		{"Set a timer for the rice, fifteen minutes. No, it's the brown rice, that takes longer, doesn't it? Make it forty.", "timer.start", map[string]string{"duration": "2400", "label": "rice"}},
		{"Put the light on in the office, love. No, wait, not the office, I'm off to read in bed. Put the bedroom light on.", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
	})
	checkNothingDone(t, tb, []string{
		"Set a timer for ten minutes. No, wait. Don't.",
		"Turn on the kitchen light. No, no. Leave it off.",
		"Turn on the office light. No, wait. My son said to turn off the bedroom light.",
	})
}

// TestLearnersRequestsRound10: hang-ups, quiet, thanks and a game's end as learners say them.
func TestLearnersRequestsRound10(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"the baby is sleeping, speak low for one hour", "robot.quiet", map[string]string{"duration": "3600", "state": "on"}},
		{"please keep down the voice for twenty minutes", "robot.quiet", map[string]string{"duration": "1200", "state": "on"}},
		{"I don't want to play more", "play.stop", nil},
		{"xie xie reachy", "smalltalk.thanks", nil},
	})
}

// TestAWorldQuestionAmongTheFamilysWords: a question about the world said with sentences
// about the family ("My mama did hers all day long") reaches the agent, and only the
// question is sent: the family's sentences stay in the house.
func TestAWorldQuestionAmongTheFamilysWords(t *testing.T) {
	tb := demo(t)
	for s, q := range map[string]string{
		"How long do you boil a potato, dear? My mother always did hers for an hour.":               "how long do you boil a potato",
		"Who won the world cup in 1966? My dad watched it at the neighbour's house on their telly.": "who won the world cup in 1966",
	} {
		d := tb.Route(s, Context{})
		if d.Intent != IntentGeneralAsk || d.Args["question"] != q {
			t.Errorf("%q: %s %v, want general.ask with only %q", s, d.Intent, d.Args, q)
		}
	}
	checkRoutes(t, tb, []routeCase{ // a question about the home's people or things stays home
		{"Is mom busy? My mother always was.", "calendar.status", map[string]string{"person": "mom"}},
	})
}

// TestWhispersFillersAndDialectsRound10: a whisper's "psst ... shhh" around a request, a
// "like" between "you" and the verb, Yorkshire's "t'", "cut him off" on a call.
func TestWhispersFillersAndDialectsRound10(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"psst... reachy... turn off the office light... shhh", "house.light.set", map[string]string{"room": "office", "state": "off"}},
		{"could you like switch the kitchen light on", "house.light.set", map[string]string{"room": "kitchen", "state": "on"}},
		{"what's t' time", "time.now", nil},
		{"is t' light on in the kitchen", "house.light.get", map[string]string{"room": "kitchen"}},
		{"shh shh", "robot.stop", nil},
	})
	checkNothingDone(t, tb, []string{"you like to turn the lights off at night"})
}

// TestMoreWordsRound10: privacy "until I say otherwise", "a whole day" of quiet, a room
// "lit up", whisper's "a see" after a verb.
func TestMoreWordsRound10(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"enable privacy until I say otherwise", "privacy.set", map[string]string{"state": "on"}},
		{"no talking for a whole day", "robot.quiet", map[string]string{"duration": "86400", "state": "on"}},
		{"is the office lit up", "house.light.get", map[string]string{"room": "office"}},
		{"turn a see on in the bedroom", "house.ac.set", map[string]string{"room": "bedroom", "state": "on"}},
	})
	if d := tb.Route("that was a whole new world", Context{}); d.Args["question"] != "that was a whole new world" {
		t.Errorf("the question changed: %v", d.Args)
	}
}

// TestANegatedApologyBeforeARequest: "I'm not very good with these things, but would you ...":
// the "not" is the speaker's about themselves; the request after "but" is done. A "not"
// said of a device before "but" is not taken off.
func TestANegatedApologyBeforeARequest(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"I'm not very good with these things, but would you switch the office light off?", "house.light.set", map[string]string{"room": "office", "state": "off"}},
		{"I don't know if you can hear me, but could you put the bedroom light on?", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"I'm so sorry to interrupt, dear, but could you stop for a moment?", "robot.stop", nil},
	})
	checkNothingDone(t, tb, []string{
		"I don't want the kitchen light on, but could you tell me the time",
		"I never said turn off the light, but would you say it's late",
	})
}

// TestAThingNamedBeforeACommandInPieces: "the frobnicator, turn off, in the kitchen" names a
// thing the home cannot drive; the pieces after it are not the kitchen light. A person
// named first is still only who it is for ("the baby, lights off, kids room").
func TestAThingNamedBeforeACommandInPieces(t *testing.T) {
	tb := demo(t)
	checkNothingDone(t, tb, []string{"the frobnicator, turn off, in the kitchen", "my hoover, switch off, in the office"})
	checkRoutes(t, tb, []routeCase{
		{"the baby, lights off, kids room", "house.light.set", map[string]string{"room": "kids room", "state": "off"}},
		{"Ritchie, the bedroom, lights off.", "house.light.set", map[string]string{"room": "bedroom", "state": "off"}},
	})
}

// TestQuietLengthSaidAfter: quiet time asked for without a length, then the length as a
// sentence of its own ("Say about an hour."), lasts that long.
func TestQuietLengthSaidAfter(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"Hush now for a little while, dear, the news is on. Say about an hour. It's a long one tonight.", IntentQuiet, map[string]string{"state": "on", "duration": "3600"}},
		{"Hush up for a while, dear, the match is on. Say about twenty minutes.", IntentQuiet, map[string]string{"state": "on", "duration": "1200"}},
	})
}

// TestACorrectedRoomKeepsTheDevice: "turn on the bedroom ac, no, the living room" corrects
// the room of the AC — it had switched the living room's light on. A room without the device
// is asked about.
func TestACorrectedRoomKeepsTheDevice(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"turn on the bedroom ac no the living room", "house.ac.set", map[string]string{"room": "living room", "state": "on"}},
		{"turn on the kitchen light, no, the office", "house.light.set", map[string]string{"room": "office", "state": "on"}},
	})
	checkNothingDone(t, tb, []string{"turn on the bedroom ac no the kids room"})
}

// TestSealedSetClassesRound10: classes the round's sealed sets showed acting at their first
// look, fixed afterwards: an advert's "and remember folks, set a timer ...", a game show's
// round ("... and the contestant takes home the car"), and a setting said with "degree" or
// "should do it" at the end (the AC had been switched on without it).
func TestSealedSetClassesRound10(t *testing.T) {
	tb := demo(t)
	checkNothingDone(t, tb, []string{
		"and remember folks set a timer for twenty minutes and your roast comes out perfect every time",
		"so remember viewers, switch off the lights to save energy",
		"rock paper scissors shoot and the contestant takes home the car",
	})
	checkRoutes(t, tb, []routeCase{
		{"please to put the klima on in bedroom twenty four degree", "house.ac.set", map[string]string{"room": "bedroom", "state": "on", "temperature": "24"}},
		{"can you stick the air con on in our bedroom twenty two should do it", "house.ac.set", map[string]string{"room": "bedroom", "state": "on", "temperature": "22"}},
		{"the air condition, put 21 degree in bedroom", "house.ac.set", map[string]string{"room": "bedroom", "temperature": "21"}},
	})
}
