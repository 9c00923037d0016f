package intents

import (
	"strings"
	"testing"
)

// Classes of phrasing the round's development sets (written from the brief with a household
// of children, grandparents, learners and a busy family) showed the router missing, each
// proven on sentences written for the class — none of them a corpus row.

// TestAGlidedNameWakes: a small child says the robot's name with a w ("weachy", "wichie");
// words that only start with w are never the name.
func TestAGlidedNameWakes(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"weachy what time is it", "time.now", nil},
		{"wichie what day is it", "date.today", nil},
		{"weechy turn off the kitchen light", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
	})
	for _, s := range []string{"watch out", "which is the biggest planet", "windy weather today"} {
		if d := tb.Route(s, Context{}); d.Normalized.Wake {
			t.Errorf("%q: taken as the wake phrase", s)
		}
	}
}

// TestAQuestionWithoutItsVerb: "any lights on in the bedroom" asks; it never switches one on.
func TestAQuestionWithoutItsVerb(t *testing.T) {
	checkRoutes(t, demo(t), []routeCase{
		{"richie any lights on in the bedroom", "house.light.get", map[string]string{"room": "bedroom"}},
		{"any light still on in the office", "house.light.get", map[string]string{"room": "office"}},
		{"any ac on in the living room", "house.ac.get", map[string]string{"room": "living room"}},
	})
}

// TestASettingSaidLast: a two-digit number said last after the AC or what it does is its
// setting; a delay, a length, or a number in a statement never is.
func TestASettingSaidLast(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"ac on in here please twenty two", "house.ac.set", map[string]string{"room": "living room", "state": "on", "temperature": "22"}},
		{"bedroom ac twenty four please", "house.ac.set", map[string]string{"room": "bedroom", "temperature": "24"}},
		{"warmer in the bedroom twenty six", "house.ac.set", map[string]string{"room": "bedroom", "temperature": "26"}},
		{"can you cool the living room down, like 20 maybe", "house.ac.set", map[string]string{"room": "living room", "temperature": "20"}},
	})
	for _, s := range []string{"mom made the bedroom cooler, 21", "turn the bedroom ac off in 20", "dad set the living room ac to 19"} {
		if d := tb.Route(s, Context{}); d.Intent == "house.ac.set" && d.Args["temperature"] != "" && !strings.Contains(s, "to "+d.Args["temperature"]) {
			t.Errorf("%q: %s %v reads a setting that was not asked for", s, d.Intent, d.Args)
		}
		if d := tb.Route(s, Context{}); strings.HasPrefix(s, "mom") || strings.HasPrefix(s, "dad") {
			if actsOrWouldAct(tb, d) {
				t.Errorf("%q: %s %v acts", s, d.Intent, d.Args)
			}
		}
	}
}

// TestALabelSaidWithWhoseItIs: "a timer for Ada's bath" is the bath timer.
func TestALabelSaidWithWhoseItIs(t *testing.T) {
	checkRoutes(t, demo(t), []routeCase{
		{"give me a 10 minute timer for Ada's bath", "timer.start", map[string]string{"duration": "600", "label": "bath"}},
		{"set a timer for 5 minutes for the kids' bath", "timer.start", map[string]string{"duration": "300", "label": "bath"}},
		{"start a twenty minute timer for mum's rice", "timer.start", map[string]string{"duration": "1200", "label": "rice"}},
	})
}

// TestAReasonAboutSomeoneTheHomeDoesNotKnow: a reason after a request names a guest the home
// has never heard of ("Auntie Funmi is shivering", "Ada's scared of the dark") or folds the
// "is" onto a parent ("dad's napping"); the request is still one request.
func TestAReasonAboutSomeoneTheHomeDoesNotKnow(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"AC off in the bedroom, uncle Kofi is freezing", "house.ac.set", map[string]string{"room": "bedroom", "state": "off"}},
		{"could you put the office light on? Priya's scared of the dark.", "house.light.set", map[string]string{"room": "office", "state": "on"}},
		{"turn off the living room light, little Tomasz is asleep", "house.light.set", map[string]string{"room": "living room", "state": "off"}},
		{"psst turn off the kitchen light mum's napping", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"switch the bedroom ac off daddys sleeping", "house.ac.set", map[string]string{"room": "bedroom", "state": "off"}},
		{"set the living room AC to 20 dad said I could", "house.ac.set", map[string]string{"room": "living room", "temperature": "20"}},
		{"turn on the office light mum says it's ok", "house.light.set", map[string]string{"room": "office", "state": "on"}},
	})
	for _, s := range []string{
		"mum said I could turn the AC on",
		"turn off the light mom said",
		"uncle Kofi turned off the bedroom ac, he was freezing",
		"Priya's scared of the dark so don't turn the office light off",
	} {
		if d := tb.Route(s, Context{}); actsOrWouldAct(tb, d) {
			t.Errorf("%q: %s %v acts (why: %s)", s, d.Intent, d.Args, strings.Join(d.Doctrine, "; "))
		}
	}
}

// TestAskingAboutADeviceARoomDoesNotHave: the answer says which rooms have one; it asks
// nothing back (there is nothing to read there, and no setting to ask back), and a command to
// switch it there still asks which room.
func TestAskingAboutADeviceARoomDoesNotHave(t *testing.T) {
	tb := demo(t)
	if d := tb.Route("turn on the ac in the office", Context{}); d.Intent != IntentClarify || d.Pending == nil {
		t.Errorf("a command in a room without AC: %s %v, want a question which room", d.Intent, d.Args)
	}
	for _, s := range []string{"is the ac on in the office", "what's the kids room AC set to", "is the kitchen air con running",
		"set the kids room ac to 20"} {
		d := tb.Route(s, Context{})
		if d.Intent != IntentUnclear || d.Args["topic"] != "no_ac" {
			t.Errorf("%q: %s %v, want unclear no_ac (why: %s)", s, d.Intent, d.Args, strings.Join(d.Doctrine, "; "))
			continue
		}
		if p := tb.UnclearPrompt(d.Args["topic"]); !strings.Contains(p, "living room") || !strings.Contains(p, "bedroom") {
			t.Errorf("%q: says %q, want the rooms that have air conditioning", s, p)
		}
	}
}

// TestWhisperWritesOffAsOf: "privacy of", "quiet mode of" are whisper's "off".
func TestWhisperWritesOffAsOf(t *testing.T) {
	checkRoutes(t, demo(t), []routeCase{
		{"privacy mode of", "privacy.set", map[string]string{"state": "off"}},
		{"reachy privacy of please", "privacy.set", map[string]string{"state": "off"}},
	})
}

// TestAKindOfRoomIsNotThisHomesRoom: a question about rooms, lights or temperatures in
// general ("the ideal bedroom temperature", "a baby's bedroom", "for a house", "is light a
// wave") goes to the agent; the home's own room, named as the home's, stays home.
func TestAKindOfRoomIsNotThisHomesRoom(t *testing.T) {
	tb := demo(t)
	for _, s := range []string{
		"what's the ideal kitchen temperature for cooking",
		"what temperature ought a nursery to be kept at",
		"how warm should a baby's bedroom be",
		"is 18 degrees too cold for a house",
		"is bad to leave the air con on the whole night",
		"when did people first have electric lights in houses",
		"how do light bulbs work",
		"how fast is light",
		"translate 'turn off the light' into French",
	} {
		if d := tb.Route(s, Context{}); d.Intent != IntentGeneralAsk && d.Intent != IntentDeepAsk {
			t.Errorf("%q: %s %v, want the agent (why: %s)", s, d.Intent, d.Args, strings.Join(d.Doctrine, "; "))
		}
	}
	checkRoutes(t, tb, []routeCase{
		{"what's the temperature in the bedroom", "house.ac.get", map[string]string{"room": "bedroom"}},
		{"is the light on in the kitchen", "house.light.get", map[string]string{"room": "kitchen"}},
		{"is it bad to leave the kitchen light on", "house.light.get", nil},
	})
}

// TestWarmerOrCoolerAsksTheTemperature: "make it cooler in here", "turn the bedroom AC up a
// bit" name no number: the temperature is asked for, never guessed, and the answer sets it.
func TestWarmerOrCoolerAsksTheTemperature(t *testing.T) {
	tb := demo(t)
	for said, room := range map[string]string{
		"make it cooler in here would you":      "living room",
		"turn the AC up a bit in the bedroom":   "bedroom",
		"can you make the bedroom a bit warmer": "bedroom",
	} {
		d := tb.Route(said, Context{})
		if d.Intent != IntentClarify || d.Pending == nil || d.Pending.Missing != "temperature" || d.Pending.Args["room"] != room {
			t.Errorf("%q: %s %+v, want the temperature asked for the %s AC (why: %s)", said, d.Intent, d.Pending, room, strings.Join(d.Doctrine, "; "))
			continue
		}
		got, ok := tb.Complete(*d.Pending, "twenty one", Context{})
		if !ok || got.Intent != "house.ac.set" || got.Args["temperature"] != "21" || got.Args["room"] != room {
			t.Errorf("%q then \"twenty one\": %v %s %v", said, ok, got.Intent, got.Args)
		}
	}
	checkRoutes(t, tb, []routeCase{
		{"make the bedroom cooler, like 20 degrees", "house.ac.set", map[string]string{"room": "bedroom", "temperature": "20"}},
	})
}

// TestTheDarkSaidWithARemedy: how dark (or bright) a room is, said with a request to do
// something about it, asks for its light on (off); said alone, asked, denied or reported, it
// acts on nothing.
func TestTheDarkSaidWithARemedy(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"it's so dark in the office, sort it out please", "house.light.set", map[string]string{"room": "office", "state": "on"}},
		{"the bedroom is pitch black can you do something about it", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"no more dark in the kitchen", "house.light.set", map[string]string{"room": "kitchen", "state": "on"}},
		{"way too bright in the living room, fix it", "house.light.set", map[string]string{"room": "living room", "state": "off"}},
	})
	for _, s := range []string{
		"it's dark in the kitchen",
		"is it dark in the office, do something",
		"it's not dark in the bedroom, do something else",
		"mum said it's dark in the kitchen, sort it out",
		"if it gets dark in the office, fix it",
	} {
		if d := tb.Route(s, Context{}); actsOrWouldAct(tb, d) {
			t.Errorf("%q: %s %v acts (why: %s)", s, d.Intent, d.Args, strings.Join(d.Doctrine, "; "))
		}
	}
}

// TestThePastOfSomeoneIsNotTheTime: "what I did at this time" asks about a past, not the
// time now; "what time did you say it was" still asks it.
func TestThePastOfSomeoneIsNotTheTime(t *testing.T) {
	tb := demo(t)
	for _, s := range []string{"what i did at this time", "what time did we leave yesterday", "what time did she get home"} {
		if d := tb.Route(s, Context{}); d.Intent == "time.now" {
			t.Errorf("%q: time.now (why: %s)", s, strings.Join(d.Doctrine, "; "))
		}
	}
	checkRoutes(t, tb, []routeCase{{"what time did you say it was", "time.now", nil}})
}

// TestNobodyCallingIsSaidOf: "nobody called in today", "nobody rings through anyway" say what
// happened or what is — never privacy mode; "nobody is to ring through tonight" asks for it.
func TestNobodyCallingIsSaidOf(t *testing.T) {
	tb := demo(t)
	for _, s := range []string{"nobody called in today", "nobody can call in anyway", "nobody rings through anyway",
		"no one ever calls us", "nobody has rung all week", "nobody tried to video call"} {
		if d := tb.Route(s, Context{}); actsOrWouldAct(tb, d) {
			t.Errorf("%q: %s %v acts (why: %s)", s, d.Intent, d.Args, strings.Join(d.Doctrine, "; "))
		}
	}
	checkRoutes(t, tb, []routeCase{
		{"nobody is to ring through till after supper", "privacy.set", map[string]string{"state": "on"}},
		{"no one call the robot tonight", "privacy.set", map[string]string{"state": "on"}},
	})
}

// TestThingsTheRobotCannotDoAreAnsweredHome: a text to send, the radio, music, "speak up"
// are requests about this home the robot cannot do — answered here (unclear), never sent to
// the agent; said as past or asked how, they are not requests.
func TestThingsTheRobotCannotDoAreAnsweredHome(t *testing.T) {
	tb := demo(t)
	for _, s := range []string{"text the neighbour that the parcel came", "could you put the radio on please",
		"speak up dear", "play some music", "send a message to my sister"} {
		if d := tb.Route(s, Context{}); d.Intent != IntentUnclear {
			t.Errorf("%q: %s %v, want unclear (why: %s)", s, d.Intent, d.Args, strings.Join(d.Doctrine, "; "))
		}
	}
	for _, s := range []string{"how do I send a text from my phone", "who invented the radio"} {
		if d := tb.Route(s, Context{}); d.Intent != IntentGeneralAsk {
			t.Errorf("%q: %s, want the agent", s, d.Intent)
		}
	}
	checkRoutes(t, tb, []routeCase{
		{"have a proper think, why is the sky blue", "general.ask.deep", nil},
		{"put your thinking cap on: what is the biggest prime under 100", "general.ask.deep", nil},
	})
}

// TestALearnersHouseWords: "do the lights off" (a child's or a learner's turn), "the room of
// the children", "the air of the bedroom" (the AC) — and "do the lights ..." as a question
// stays one.
func TestALearnersHouseWords(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"do the lights off in the office please", "house.light.set", map[string]string{"room": "office", "state": "off"}},
		{"do the bedroom light on", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"switch off the light in the room of the children", "house.light.set", map[string]string{"room": "kids room", "state": "off"}},
		{"is the light on in the bedroom of mom", "house.light.get", map[string]string{"room": "bedroom"}},
		{"put the air in the bedroom to 20", "house.ac.set", map[string]string{"room": "bedroom", "temperature": "20"}},
	})
	for s, want := range map[string]string{
		"do the lights go off at night": "house.light.get",
		"do the kids have school today": IntentGeneralAsk,
	} {
		if d := tb.Route(s, Context{}); d.Intent != want {
			t.Errorf("%q: %s %v, want %s (why: %s)", s, d.Intent, d.Args, want, strings.Join(d.Doctrine, "; "))
		}
	}
}

// TestACorrectionSaidWithIt: a command said again with "it" for its object ("turn on the
// kitchen light, actually no, turn it off") takes the first saying's object.
func TestACorrectionSaidWithIt(t *testing.T) {
	checkRoutes(t, demo(t), []routeCase{
		{"turn on the kitchen light actually no turn it off", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"turn the bedroom ac off, no wait, turn it on", "house.ac.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"switch off the office lamp sorry switch it on", "house.light.set", map[string]string{"room": "office", "state": "on"}},
	})
}

// TestWhatADeviceDoesIsNotAPlace: "the AC blasting in here", "the AC even on", "sitting in
// the dark" say how, not where; a place the home lacks is still asked about.
func TestWhatADeviceDoesIsNotAPlace(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"is the ac blasting in the bedroom or is it just me", "house.ac.get", map[string]string{"room": "bedroom"}},
		{"is the kitchen light even on", "house.light.get", map[string]string{"room": "kitchen"}},
		{"is the office light still on or is mum sitting in the dark", "house.light.get", map[string]string{"room": "office"}},
	})
	for _, s := range []string{"turn on the light upstairs", "switch off the lights first floor"} {
		if d := tb.Route(s, Context{}); d.Intent != IntentClarify {
			t.Errorf("%q: %s %v, want a question which room", s, d.Intent, d.Args)
		}
	}
}

// TestSomeoneElsesParentIsNotThisHomes: "call sophie's mum", "is my friend's dad free" name
// someone the home does not know — asked about, never this home's mum or dad; "the kids'
// mum" is this home's.
func TestSomeoneElsesParentIsNotThisHomes(t *testing.T) {
	tb := demo(t)
	for _, s := range []string{"call sophie's mum", "ring jack's dad please", "call my friend's mom", "is oliver's dad busy"} {
		d := tb.Route(s, Context{})
		if actsOrWouldAct(tb, d) && d.Intent != IntentClarify || d.Args["person"] != "" {
			t.Errorf("%q: %s %v, want who asked about (why: %s)", s, d.Intent, d.Args, strings.Join(d.Doctrine, "; "))
		}
	}
	checkRoutes(t, tb, []routeCase{
		{"call the kids' mum", "teleport.call", map[string]string{"person": "mom"}},
		{"when's dad free today", "calendar.status", map[string]string{"person": "dad"}},
		{"is the twins' dad busy", "calendar.status", map[string]string{"person": "dad"}},
	})
}

// TestANumberWrittenDigitByDigit: whisper writes "twenty" as "2 0" and "twenty four" as "2 4":
// closed up where it cannot be a range; "two three minutes" (two or three) is not.
func TestANumberWrittenDigitByDigit(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"set a timer for 3 0 minutes", "timer.start", map[string]string{"duration": "1800"}},
		{"bedroom ac to two two degrees", "house.ac.set", map[string]string{"room": "bedroom", "temperature": "22"}},
		{"turn the living room ac to 1 9", "house.ac.set", map[string]string{"room": "living room", "temperature": "19"}},
	})
	if d := tb.Route("set a timer for two three minutes", Context{}); d.Intent == "timer.start" && d.Args["duration"] == "1380" {
		t.Errorf("two or three minutes read as 23")
	}
}

// TestAGrandparentsSpanish: a sentence in Spanish (foreign.yaml) is read word by word into
// English and routed as read; negated, it acts on nothing; English with a stray Spanish word
// is left as said.
func TestAGrandparentsSpanish(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"apaga la luz del dormitorio por favor", "house.light.set", map[string]string{"room": "bedroom", "state": "off"}},
		{"enciende el aire de la sala", "house.ac.set", map[string]string{"room": "living room", "state": "on"}},
		{"qué hora es", "time.now", nil},
		{"llama a papá", "teleport.call", map[string]string{"person": "dad"}},
		{"llama a una ambulancia", "help.emergency", nil},
		{"pon un temporizador de diez minutos para el arroz", "timer.start", map[string]string{"duration": "600", "label": "rice"}},
		{"gracias", "smalltalk.thanks", nil},
	})
	for _, s := range []string{"no apagues la luz de la cocina", "mamá dijo apaga la luz"} {
		if d := tb.Route(s, Context{}); actsOrWouldAct(tb, d) {
			t.Errorf("%q: %s %v acts (why: %s)", s, d.Intent, d.Args, strings.Join(d.Doctrine, "; "))
		}
	}
	if d := tb.Route("what does la cocina mean", Context{}); d.Intent != IntentGeneralAsk {
		t.Errorf("a question about a Spanish word: %s, want the agent", d.Intent)
	}
}

// TestOtherEnglishesAndAHushedName: the name said between hushes ("shh richie shh"), an Irish
// household's words ("mammy", "the guards"), an "even" that weighs nothing.
func TestOtherEnglishesAndAHushedName(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"shh reachy shh", "robot.stop", nil},
		{"hush richie hush", "robot.stop", nil},
		{"ring mammy on the video", "teleport.call", map[string]string{"person": "mom"}},
		{"is mam busy", "calendar.status", map[string]string{"person": "mom"}},
		{"ring the guards quick", "help.emergency", nil},
		{"what day is it even", "date.today", nil},
		{"what can you even do", "help", nil},
	})
	if d := tb.Route("is 7 even", Context{}); d.Intent != IntentGeneralAsk {
		t.Errorf("is 7 even: %s, want the agent", d.Intent)
	}
}

// TestAHangUpSaidRoughly: "kill the call" hangs up; "kill the lights" is the lights.
func TestAHangUpSaidRoughly(t *testing.T) {
	checkRoutes(t, demo(t), []routeCase{
		{"kill the call", "session.end", nil},
		{"kill the video call now", "session.end", nil},
		{"kill the kitchen lights", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
	})
}

// TestSplitNameAndGameNicknames: whisper splits the name ("reach he, ..."); children name the
// games their own way ("the hidey game", "the freezy dancey", "the copy game", "statue dance").
func TestSplitNameAndGameNicknames(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"reach he what time is it", "time.now", nil},
		{"can we do the hidey game", "play.invite", nil},
		{"let's play the hidey game", "play.hide", nil},
		{"let's do the freezy dancey", "play.freeze", nil},
		{"play the copy game", "play.simon", nil},
		{"let's play the statue game", "play.freeze", nil},
	})
	if d := tb.Route("reach me the salt", Context{}); d.Normalized.Wake {
		t.Errorf("reach me the salt woke the robot")
	}
}

// TestNumbersAndWordsWhisperRunsTogetherOrSplits: "isthe kitchen light on" asks (it never
// switches the light on), "turnoff the kitchenlight" acts; "twenty too" is 22 and "one point
// five hours" 1.5 hours — never 20, never 5 hours.
func TestNumbersAndWordsWhisperRunsTogetherOrSplits(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"isthe office light on", "house.light.get", map[string]string{"room": "office"}},
		{"turnoff the bedroomlight", "house.light.set", map[string]string{"room": "bedroom", "state": "off"}},
		{"settimer for 5 minutes", "timer.start", map[string]string{"duration": "300"}},
		{"ismom busy", "calendar.status", map[string]string{"person": "mom"}},
		{"hangup", "session.end", nil},
		{"set the living room ac to twenty too", "house.ac.set", map[string]string{"room": "living room", "temperature": "22"}},
		{"set the bedroom ac to twenty won", "house.ac.set", map[string]string{"room": "bedroom", "temperature": "21"}},
		{"timer for two point five hours", "timer.start", map[string]string{"duration": "9000"}},
		{"timer for 1 point 5 minutes", "timer.start", map[string]string{"duration": "90"}},
	})
	if d := tb.Route("the setup is fine", Context{}); actsOrWouldAct(tb, d) {
		t.Errorf("the setup is fine: %s acts", d.Intent)
	}
}
