package intents

import (
	"fmt"
	"strconv"
)

// The frame router: the built-in house and calendar intents are not enumerated sentence by
// sentence. The sentence's mentions (mentions.go) fill a frame — device, room, state,
// temperature, person — and its form decides, in one place, what may happen: an imperative
// acts, anything else (a question, an indirect question, a negation, reported speech, a
// statement, a self-correction) reads or asks. Intents from a home's config stay
// pattern-based.

// IntentUnclear is a sentence about this home that resolves to no intent: it is answered
// locally and never sent to the agent.
const IntentUnclear = "unclear"

// unclearTopics are what an unclear sentence may be about (the closed values of its topic).
var unclearTopics = []string{"light", "ac", "device", "room", "person", "timer", "secret", "no_light", "no_ac"}

// houseFrame decides a sentence that names a light or the AC.
func (t *Table) houseFrame(n Normalized, m Mentions, ctx Context) (Decision, bool) {
	dev := m.Device
	if dev != "light" && dev != "ac" {
		return Decision{}, false
	}
	setName, getName := "house.light.set", "house.light.get" // constants: no string built per sentence
	if dev == "ac" {
		setName, getName = "house.ac.set", "house.ac.get"
	}
	set, get := t.byName[setName], t.byName[getName]
	if set == nil || get == nil {
		return Decision{}, false
	}
	m.withForm(n)
	trace := "frame: device " + dev + ", form " + m.Form
	if m.Form == FormImperative && !m.Deferred && unsupportedSetting(n.tokens(), dev) { // "in 5 minutes" is a time, not a setting (below)
		d := t.unclear(n, dev, trace+": a mode or setting this home does not have")
		d.Mentions = m.ref()
		d.NotActed = "a mode or setting this home does not have"
		return d, true
	}
	if deviceCount(n.tokens()) {
		// "how many lights are there in this house": what the home has, not how it is
		d := t.unclear(n, dev, trace+": a count of the home's devices, not their state")
		d.Mentions = m.ref()
		return d, true
	}
	captured := map[string]string{}
	switch room, many := frameRoom(m); {
	case many:
		d := t.oneThing(n, "it names more than one place")
		d.Mentions = m.ref()
		return d, true
	case room != "":
		captured["room"] = room
	}
	if generalKnowledge(n, m) {
		return Decision{}, false
	}
	if state := t.lightRemedy(n, m, dev); state != "" {
		// "it's pitch black in the office, can you get the light", "too dark in the kitchen,
		// sort it out would you": the dark said, and something asked to be done about it
		m.States, m.Form = []string{state}, FormImperative
		m.Unexplained = min(m.Unexplained, maxUnexplained)
		trace += ", the dark said and a remedy asked for"
	}
	acting := m.Form == FormImperative
	if acting && len(m.States) == 1 && leaveAsItIs(n.tokens()) {
		// "leave the light on in the kids room, she's scared": keep it as it is — nothing to
		// switch; its state is said back
		captured["state"] = m.States[0]
		d := t.fallTo(set, t.bind(set, captured, ctx), frameRule(set), n, ctx, "asked to leave it as it is: nothing to change")
		d.Mentions = m.ref()
		d.Doctrine = append([]string{trace}, d.Doctrine...)
		return d, true
	}
	if m.Form == FormCorrected {
		// A self-correction is never guessed at: ask which room, keeping what is certain.
		if len(m.States) == 1 {
			captured["state"] = m.States[0]
		}
		delete(captured, "room")
		b := t.bind(set, captured, ctx)
		d := t.settle(set, b, frameRule(set), n)
		d.Mentions = m.ref()
		d.Doctrine = append([]string{trace + ": the speaker corrected themselves, so ask"}, d.Doctrine...)
		return d, true
	}
	if !acting && (m.Form != FormQuestion || n.tokens()[0] == "why") { // "why is the lounge aircon dripping"
		if hit, ok := t.faultReport(n.tokens()); ok {
			d := t.unclear(n, "device", trace+": a fault reported ("+hitWords(hit)+")")
			d.Mentions = m.ref()
			return d, true
		}
	}
	if !acting && (len(m.States) == 1 || m.Temperature != "" && dev == "ac") {
		// A write was spoken of, but not asked for: the doctrine sends it to the read.
		if len(m.States) == 1 {
			captured["state"] = m.States[0]
		}
		if dev == "ac" && m.Temperature != "" {
			captured["temperature"] = m.Temperature
		}
		d := t.fallTo(set, t.bind(set, captured, ctx), frameRule(set), n, ctx, formNeverActs[m.Form])
		d.Mentions = m.ref()
		d.Doctrine = append([]string{trace}, d.Doctrine...)
		return d, true
	}
	if !acting && m.whole && (m.Form == FormStatement || m.Form == FormWish) && !n.Negated && len(m.States) == 0 && m.Temperature == "" {
		if d, ok := t.offerRemedy(n, m, dev, set, captured, ctx, trace); ok {
			return d, true // "it's pitch black in the office": "Do you want me to turn on the office light?"
		}
	}
	if !acting {
		b := t.bind(get, captured, ctx)
		d := t.settle(get, b, frameRule(get), n)
		d.Mentions = m.ref()
		d.Doctrine = append([]string{fmt.Sprintf("%s: only an imperative acts, so %s reads", trace, m.Form)}, d.Doctrine...)
		return d, true
	}
	if acting && (m.Exception || m.Deferred) {
		why := "it excepts part of a set"
		if m.Deferred {
			why = "it asks for later, and only now can be done"
		}
		d := t.unclear(n, dev, trace+": "+why)
		if m.Deferred {
			what := "the lights"
			if dev == "ac" {
				what = "the air conditioning"
			}
			d.Prompt = "I can only switch " + what + " right now, not later — ask me again when you want it, or I can set a timer to remind you."
		}
		d.Mentions = m.ref()
		d.NotActed = why
		return d, true
	}
	if m.Alternatives {
		d := t.oneThing(n, "it offers a choice (\"or\")")
		d.Mentions = m.ref()
		return d, true
	}
	if m.Unexplained > maxUnexplained {
		d := t.unclear(n, dev, fmt.Sprintf("%s: %d words are not house words, so nothing is done on a guess", trace, m.Unexplained))
		d.Mentions = m.ref()
		d.NotActed = "it says more than a house command"
		return d, true
	}
	if len(m.States) > 1 {
		d := t.oneThing(n, "it says both on and off")
		d.Mentions = m.ref()
		return d, true
	}
	if len(m.States) == 1 {
		captured["state"] = m.States[0]
	}
	if dev == "ac" && m.Temperature != "" {
		captured["temperature"] = m.Temperature
	}
	if captured["state"] == "" && captured["temperature"] == "" {
		if state, temp := madeTo(n.tokens(), dev); state != "" || temp != "" {
			// "make the bedroom cooler", "make the air cold", "make light for the kids room":
			// what the device does is asked for by its effect
			if state != "" {
				captured["state"] = state
			}
			if temp != "" {
				captured["temperature"] = temp
			}
		}
	}
	if captured["state"] == "" && captured["temperature"] == "" {
		if toks := stripRequestLeads(n.tokens()); len(toks) > 1 && toggleVerbs[toks[0]] && toks[1] != "to" && !anyOf(toks, settingWords) {
			// "flip the kitchen light", "switch the bedroom AC": on or off is not said, and
			// the router never guesses it from the device's state: ask.
			b := t.bind(set, captured, ctx)
			d := t.settle(set, b, frameRule(set), n)
			if d.Intent == set.Name { // the AC's state is optional (a set point may stand alone): ask all the same
				d = t.askOnOrOff(set, b, n)
			}
			d.Mentions = m.ref()
			d.NotActed = "on or off was not said"
			d.Doctrine = append([]string{trace + ": switched without saying on or off"}, d.Doctrine...)
			return d, true
		}
		if m.Action && dev == "ac" && anyOf(n.tokens(), acLevelWords) {
			// "make it cooler in here", "turn the bedroom AC up a bit": a change of setting
			// with no number — the number is asked for, never guessed
			if b := t.bind(set, captured, ctx); onlyRoomMissing(b.problems) && !b.notApplicable {
				// "crank the AC up": the number is asked first, then the room
				d := t.decide(t.byName[IntentClarify], map[string]string{}, frameRule(set), n)
				d.Pending = &Pending{Intent: set.Name, Args: b.args, Missing: "temperature"}
				spec, _ := set.Arg("temperature")
				d.Prompt = t.question(spec, problem{arg: "temperature", why: "missing"})
				d.Mentions = m.ref()
				d.NotActed = "the temperature was not said"
				d.Doctrine = append([]string{trace + ": warmer or cooler without a number: ask the temperature"}, d.Doctrine...)
				return d, true
			}
		}
		if m.Action {
			// "dim the lights", "turn up the ac": an action this home cannot do.
			d := t.unclear(n, dev, trace+": an action without a state the home can set")
			d.Mentions = m.ref()
			d.NotActed = "a mode or setting this home does not have"
			return d, true
		}
		if m.whole && !n.Negated {
			if d, ok := t.offerRemedy(n, m, dev, set, captured, ctx, trace); ok {
				return d, true // "way too bright in the bedroom": no verb, a discomfort
			}
		}
		if n.Polite && !n.Question && !n.Negated && m.Unexplained == 0 && len(n.tokens()) <= 4 && !anyOf(n.tokens(), settingWords) &&
			!contains(n.tokens(), "status") && !contains(n.tokens(), "state") {
			// "kitchen lights please": the device asked for, on or off not said: ask
			d := t.askOnOrOff(set, t.bind(set, captured, ctx), n)
			d.Mentions = m.ref()
			d.NotActed = "on or off was not said"
			d.Doctrine = append([]string{trace + ": a device asked for without on or off"}, d.Doctrine...)
			return d, true
		}
		b := t.bind(get, captured, ctx)
		d := t.settle(get, b, frameRule(get), n)
		d.Mentions = m.ref()
		d.Doctrine = append([]string{trace + ": nothing to set, so read"}, d.Doctrine...)
		return d, true
	}
	// The form was decided by the command rule (command.go): this is a request to act now.
	b := t.bind(set, captured, ctx)
	d := t.settle(set, b, frameRule(set), n)
	d.Mentions = m.ref()
	d.Doctrine = append([]string{trace + ": " + setName}, d.Doctrine...)
	return d, true
}

// maxUnexplained is how many words an imperative may carry that no list explains ("across",
// "bring", "apartment" ...) before it is not acted on: tolerance for how people talk, without
// acting on a sentence that says something else as well.
const maxUnexplained = 2

// generalLeads open questions about the world rather than about this home.
var generalLeads = [][]string{{"how", "does"}, {"how", "do"}, {"how", "is", "a"}, {"how", "are"}, {"what", "is", "a"},
	{"what", "is", "an"}, {"what", "are"}, {"why", "do"}, {"why", "does"}, {"why", "are"}, {"explain"}, {"who", "invented"},
	{"when", "was"}, {"when", "were"}, {"tell", "me", "about"}, {"what", "does"}, {"how", "much", "does"}, {"how", "many", "watts"},
	{"how", "long", "does"}, {"is", "it", "bad"}, {"is", "it", "safe"}, {"are", "lights"}, {"should", "you"}}

// generalLeadsByFirst are generalLeads by their first words.
var generalLeadsByFirst = phrasesByFirst(generalLeads)

// generalKnowledge: a question that mentions a device but names no place, state or setting
// of this home ("how does an air conditioner work?") is a general question.
func generalKnowledge(n Normalized, m Mentions) bool {
	if weatherTemperature(n, m) {
		return true
	}
	if len(m.Rooms) > 0 || m.Here || m.Temperature != "" || len(m.People) > 0 {
		return false
	}
	toks := n.tokens()
	if n.Question && m.Device == "other" && indefiniteDevice(toks) {
		return true // "can an oven catch fire if you leave it on": any oven, not one of this home's
	}
	if len(m.States) > 0 {
		return false
	}
	for _, w := range toks {
		if w == "outside" || w == "outdoors" || w == "weather" || w == "forecast" {
			return true // "what is the temperature outside": the weather, not the house
		}
	}
	if len(toks) > 0 {
		for _, l := range generalLeadsByFirst[toks[0]] { // generalLeads: those opening so
			if hasPrefix(toks, l) {
				return true
			}
		}
	}
	// "a light year", "an ac", "the speed of light": a device spoken of in general.
	for i, w := range toks {
		if i > 0 && (toks[i-1] == "a" || toks[i-1] == "an" || toks[i-1] == "of") && deviceWords[w] != "" {
			return true
		}
	}
	return false
}

// weatherTemperature: "what is the current temperature", "will it be over 90 degrees
// tomorrow" — a temperature with no room, no "in here", no AC or thermostat named and nothing
// to set is the weather's, not the house's.
func weatherTemperature(n Normalized, m Mentions) bool {
	if m.Device != "ac" || len(m.Rooms) > 0 || m.Here || m.Action || len(m.States) > 0 {
		return false
	}
	for _, w := range n.tokens() {
		if w == "ac" || w == "thermostat" || w == "inside" || w == "house" || w == "home" || w == "indoors" {
			return false
		}
	}
	return true
}

// frameRule names the frame router as the rule, with the intent's entry in its table file.
func frameRule(in *Intent) *Rule { return in.frameRule }

// frameRoom picks the room argument: a named room, else an unknown place (asked about),
// else "here", else "all". many is true when the sentence names two places.
func frameRoom(m Mentions) (room string, many bool) {
	switch {
	case len(m.Rooms) > 1, len(m.Rooms) == 1 && m.UnknownRoom:
		return "", true
	case len(m.Rooms) == 1:
		return m.Rooms[0], false
	case m.UnknownRoom:
		return unknownPlaceValue, false
	case m.Here:
		return "here", false
	case m.All:
		return "all", false
	}
	return "", false
}

// unknownPlaceValue stands for a place the home does not have. It is never spoken.
const unknownPlaceValue = "an unknown place"

// calendarFrame: a person of the home with a calendar word ("is dad free this afternoon",
// "what's mum up to") is a coarse calendar read, whatever the form.
func (t *Table) calendarFrame(n Normalized, m Mentions, ctx Context) (Decision, bool) {
	in := t.byName["calendar.status"]
	if in == nil || len(m.People) != 1 || !m.Calendar || m.Device == "light" || m.Device == "ac" {
		return Decision{}, false
	}
	b := t.bind(in, map[string]string{"person": m.People[0]}, ctx)
	d := t.settle(in, b, frameRule(in), n)
	d.Mentions = m.ref()
	d.Doctrine = append([]string{"frame: a person of the home and a calendar word: calendar.status"}, d.Doctrine...)
	return d, true
}

// aboutHome reports whether a sentence is about this home: it names a room or a person of
// the home, or a device with a state or an action on it. Such a sentence never goes to the
// agent. General knowledge that only mentions a device ("how does an air conditioner work")
// is not about the home.
func aboutHome(n Normalized, m Mentions) (string, bool) {
	switch {
	case generalKnowledge(n, m):
		return "", false
	case m.Device == "other" && (len(m.States) > 0 || m.Action):
		return "device", true
	case len(m.Rooms) > 0:
		return "room", true
	case len(m.People) > 0:
		return "person", true
	case m.Device != "" && (len(m.States) > 0 || m.Action || m.Temperature != ""):
		if m.Device == "other" {
			return "device", true
		}
		return m.Device, true
	}
	return "", false
}

// unclear answers a sentence about the home that resolved to no intent. The prompt uses only
// the table's own examples, never the sentence's words.
func (t *Table) unclear(n Normalized, topic, why string) Decision {
	in := t.byName[IntentUnclear]
	d := t.decide(in, map[string]string{"topic": topic}, nil, n)
	d.Prompt = t.UnclearPrompt(topic)
	d.Doctrine = append(d.Doctrine, why+": a sentence about this home is answered here, never sent to the agent")
	return d
}

// UnclearPrompt is what the robot says for an unclear sentence about the given topic
// (light, ac, device, room, person).
func (t *Table) UnclearPrompt(topic string) string {
	example := func(intent string) string {
		if in, ok := t.byName[intent]; ok && !in.Unavailable && len(in.Examples) > 0 {
			return in.Examples[0]
		}
		return ""
	}
	var lead, ex string
	switch topic {
	case "light":
		lead, ex = "I didn't catch which light", example("house.light.set")
	case "ac":
		lead, ex = "I didn't catch what to do with the air conditioning", example("house.ac.set")
	case "person":
		lead, ex = "I didn't catch that", example("calendar.status")
	case "timer":
		lead, ex = "I can only time a length, not a clock time", example("timer.start")
	case "secret":
		return "That's not something I can tell you."
	case "no_ac", "no_light":
		// asked about a device in a room that has none: which rooms have one
		device := topic[len("no_"):]
		rooms := t.roomsWith(device)
		verb := "have"
		if len(rooms) == 1 {
			verb = "has"
		}
		return fmt.Sprintf("That room has no %s — only %s %s it.", deviceWord(device), spokenList(rooms, "and"), verb)
	case "device":
		lead = "I can't do that here"
		var can []string
		if !t.byName["house.light.set"].Unavailable {
			can = append(can, "the lights")
		}
		if in := t.byName["house.ac.set"]; in != nil && !in.Unavailable {
			can = append(can, "the air conditioning")
		}
		if len(can) > 0 {
			return lead + " — I can switch " + spokenList(can, "and") + "."
		}
		return lead + "."
	default:
		lead, ex = "I didn't catch what to do", example("house.light.set")
	}
	if ex == "" {
		ex = example("house.light.set")
	}
	return fmt.Sprintf("%s — you can say '%s'.", lead, ex)
}

// oneThing is the answer to a sentence that asks for several things, or names several places
// for one: nothing is done on part of it.
func (t *Table) oneThing(n Normalized, why string) Decision {
	d := t.decide(t.byName[IntentClarify], map[string]string{}, nil, n)
	d.Prompt = "Please ask me for one thing at a time."
	d.Doctrine = []string{why + ": nothing is done on part of a sentence"}
	return d
}

// coolWords ask the AC for its effect; effectVerbs ask for an effect.
var (
	coolWords   = words2set("cold colder cooler cool chilly fresher")
	effectVerbs = words2set("make get keep")
)

// madeTo reads a request for a device's effect with what to set: "make it cooler, like 21"
// (21 degrees), "make light for the kids room" (the light on). "Make the bedroom cooler"
// names no value: it stays unclear.
func madeTo(toks []string, dev string) (state, temp string) {
	lead := stripRequestLeads(toks)
	if len(lead) < 2 || !effectVerbs[lead[0]] && !(lead[0] == "you" && effectVerbs[lead[1]]) {
		return "", ""
	}
	switch dev {
	case "ac":
		if !anyOf(toks, coolWords) {
			return "", ""
		}
		for _, w := range toks {
			if isDigits(w) {
				if v, err := strconv.Atoi(w); err == nil && v >= 16 && v <= 30 {
					return "", w
				}
				return "", ""
			}
		}
		// "make the living room cooler" with no number is a change this home cannot make
		// (it sets a state or a temperature): answered locally, as the golden corpus holds
		return "", ""
	case "light":
		v := lead[1:]
		if lead[0] == "you" {
			v = lead[2:] // "you make light in the kitchen": a learner's imperative
		}
		if len(v) > 0 && v[0] == "light" || len(v) > 1 && (v[0] == "some" || v[0] == "more") && v[1] == "light" {
			return "on", "" // "make light for the kids room", "make some light in here"
		}
	}
	return "", ""
}

// acLevelWords ask the AC for more or less: the temperature is then asked for.
var acLevelWords = words2set("warmer cooler colder hotter up down higher lower increase decrease raise crank bump nudge")

// toggleVerbs switch a device without a setting: said without "on" or "off", they leave
// the state to ask about ("flip the kitchen light").
var toggleVerbs = words2set("turn switch flip toggle flick power")

// settingWords ask for a mode or a level this home cannot set ("turn up the AC", "dim
// the lights"): never a state to ask about.
var settingWords = words2set("up down dim dimmer brighten brighter higher lower increase decrease raise bump crank nudge " +
	"colour color blue red green warm mode fan speed volume setting settings level")

// indefiniteDevice: every device word is said with "a" or "an" ("can an oven catch fire",
// "a big old fridge"): a thing in general.
func indefiniteDevice(toks []string) bool {
	seen := false
	for i, w := range toks {
		if deviceWords[w] == "" {
			continue
		}
		j := i - 1
		for j >= 0 && j >= i-2 && (fixtureWords[toks[j]] || toks[j] == "old" || toks[j] == "new") && toks[j] != "the" && toks[j] != "my" && toks[j] != "our" && toks[j] != "your" {
			j--
		}
		if j < 0 || toks[j] != "a" && toks[j] != "an" {
			return false
		}
		seen = true
	}
	return seen
}

// deviceCount: "how many lights are there", "how many ACs do we have" — a question about
// how many devices the home has, which no intent answers; "how many lights are on" reads.
func deviceCount(toks []string) bool {
	if len(toks) < 4 || toks[0] != "how" || toks[1] != "many" || contains(toks, "on") || contains(toks, "off") {
		return false
	}
	return contains(toks, "there") || contains(toks, "have") || contains(toks, "got") || contains(toks, "has")
}

// askOnOrOff asks whether to switch set's device on or off, keeping what the binding has.
func (t *Table) askOnOrOff(set *Intent, b binding, n Normalized) Decision {
	d := t.decide(t.byName[IntentClarify], map[string]string{}, frameRule(set), n)
	d.Pending = &Pending{Intent: set.Name, Args: b.args, Missing: "state"}
	d.Prompt = "On or off?"
	return d
}

// leaveAsItIs: a request opens with "leave" ("leave the light on", "please just leave the
// bedroom AC off"): the device is to stay as it is, which asks for no switch.
func leaveAsItIs(toks []string) bool {
	lead := stripRequestLeads(toks)
	if len(lead) > 0 && lead[0] == "just" {
		lead = lead[1:]
	}
	return len(lead) > 2 && lead[0] == "leave"
}
