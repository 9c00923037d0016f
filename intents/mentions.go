package intents

import (
	"strings"
)

// Mentions are what a sentence names, found by closed word lists rather than by whole-sentence
// patterns: devices with their synonyms, rooms (known, unknown, "here", "all"), states and
// the verbs that set them, temperatures, people, and the sentence's form. The frame router
// (frame.go) decides from them.
type Mentions struct {
	Device       string    `json:"device,omitempty"`       // light | ac | other (an appliance the home cannot drive)
	Rooms        []string  `json:"rooms,omitempty"`        // known rooms, by name
	Here         bool      `json:"here,omitempty"`         // "here", "in here", "this room"
	All          bool      `json:"all,omitempty"`          // "all", "every light", "the whole house", "everywhere"
	UnknownRoom  bool      `json:"unknown_room,omitempty"` // a place that is not a room of the home
	States       []string  `json:"states,omitempty"`       // on / off, in the order said
	Action       bool      `json:"action,omitempty"`       // a verb that acts on a device (turn, switch, set, activate ...)
	Temperature  string    `json:"temperature,omitempty"`  // whole degrees
	People       []string  `json:"people,omitempty"`       // known people, by name
	Calendar     bool      `json:"calendar,omitempty"`     // busy, free, available, meeting, schedule ...
	Warmth       bool      `json:"warmth,omitempty"`       // hot, warm, cold, temperature: a read of the climate
	Alternatives bool      `json:"alternatives,omitempty"` // "or": the speaker offers a choice, nothing to act on
	Exception    bool      `json:"exception,omitempty"`    // "except", "but", "apart from": a set the frame cannot name
	Deferred     bool      `json:"deferred,omitempty"`     // "in 5 minutes", "at 7", "when I get home", "tonight": not now
	Unexplained  int       `json:"unexplained,omitempty"`  // words no list explains (an imperative with many is not acted on)
	Form         string    `json:"form"`                   // FormImperative (the only one that acts) or why not: see command.go
	named        bool      // a light or AC word was said (not implied)
	lex          uint64    // the lexicon sets a phrase of which may start at one of the sentence's words
	seen         wordClass // the word classes of all the sentence's words: which frames may apply
	whole        bool      // the whole sentence, not one of its clauses: a remedy may be offered (frame.go)
}

// deferWords put an action at another time, which the router cannot do.
var deferWords = map[string]bool{"when": true, "later": true, "tonight": true, "tomorrow": true, "until": true, "till": true,
	"before": true, "soon": true, "oclock": true, "pm": true, "am": true, "midnight": true, "noon": true, "schedule": true,
	"once": true, "whenever": true, "sunset": true, "sunrise": true, "minutes": true, "hours": true, "seconds": true,
	"if": true, "unless": true} // "turn on the light if it gets dark": a condition the router cannot watch

// laterNouns after "at", "after" or "by" put an action at another time: "at bedtime".
var laterNouns = map[string]bool{"bedtime": true, "dinner": true, "lunch": true, "breakfast": true, "teatime": true,
	"night": true, "dawn": true, "dusk": true, "sunset": true, "sunrise": true, "nine": true, "lunchtime": true,
	"dinnertime": true, "supper": true}

// pastActions report what was done, not what is asked for.
var pastActions = map[string]bool{"turned": true, "switched": true, "shut": true, "left": true, "put": true, "killed": true,
	"powered": true, "activated": true, "deactivated": true, "set": true, "already": true}

// plainWords are words a house command may carry that no other list names.
var plainWords = map[string]bool{"the": true, "a": true, "an": true, "my": true, "our": true, "your": true, "sure": true,
	"want": true, "need": true, "like": true, "would": true, "rooms": true, "room": true, "over": true, "across": true,
	"throughout": true, "single": true, "area": true, "areas": true, "this": true, "that": true, "these": true, "those": true,
	"of": true, "please": true, "for": true, "me": true, "us": true, "now": true, "right": true, "just": true, "again": true,
	"degrees": true, "celsius": true, "to": true, "at": true, "in": true, "on": true, "off": true, "out": true, "up": true,
	"down": true, "is": true, "are": true, "be": true, "it": true, "them": true, "and": true, "whole": true, "let": true,
	"go": true, "make": true, "ensure": true, "there": true, "some": true, "can": true, "could": true, "you": true,
	"i": true, "we": true, "too": true, "here": true, "running": true, "working": true, "going": true, "lit": true,
	"burning": true, "blowing": true, "left": true, "currently": true, "set": true, "switched": true, "turned": true,
	"powered": true, "killed": true, "shut": true, "put": true, "cut": true, "being": true, "been": true, "getting": true, "also": true, "still": true, "everything": true, "both": true, "with": true, "by": true,
	"status": true, "state": true, "setting": true} // "office light status": what the device is at

// Device words. "temperature" and "thermostat" name the AC: it is the home's climate device.
var deviceWords = map[string]string{
	"light": "light", "lights": "light", "lamp": "light", "lamps": "light", "lighting": "light", "lightbulb": "light",
	"lightbulbs": "light", "bulb": "light", "bulbs": "light",
	"ac": "ac", "climate": "ac", "thermostat": "ac", "thermostats": "ac", "temperature": "ac", "temp": "ac",
	"clima": "ac", "klima": "ac", "climatiseur": "ac", "aircon": "ac", // a learner's or a Briton's word for the AC
	// Appliances and fixtures the home cannot drive: naming one with an action is still a
	// sentence about the house (answered locally), never a question for the agent.
	"tv": "other", "television": "other", "oven": "other", "fridge": "other", "freezer": "other", "heating": "other",
	"heater": "other", "radiator": "other", "fan": "other", "door": "other", "doors": "other", "window": "other",
	"windows": "other", "blinds": "other", "curtains": "other", "shutters": "other", "alarm": "other", "dishwasher": "other",
	"washer": "other", "dryer": "other", "kettle": "other", "microwave": "other", "stove": "other", "boiler": "other",
	"lock": "other", "sprinklers": "other", "telly": "other", "tele": "other", "vacuum": "other", "gate": "other", "music": "other",
	"radio": "other", "speaker": "other", "coffee": "other", "socket": "other", "plug": "other", "outlet": "other",
	"humidifier": "other", "dehumidifier": "other", "purifier": "other", "printer": "other", "projector": "other", "monitor": "other",
}

// fixtureWords describe a light, not a room: "the big light", "the ceiling lamp".
var fixtureWords = map[string]bool{"electric": true, "electrical": true, "big": true, "main": true, "ceiling": true, "overhead": true, "desk": true, "floor": true,
	"reading": true, "bedside": true, "table": true, "night": true, "side": true, "little": true, "small": true, "wee": true, "tiny": true,
	"house": true, "room": true, "string": true, "fairy": true, "led": true, "top": true, "wall": true, "all": true,
	"every": true, "each": true, "single": true, "the": true, "my": true, "our": true, "your": true, "these": true, "those": true}

// actionVerbs act on a device; offVerbs and onVerbs also say the state.
var actionVerbs = map[string]bool{"chuck": true, "bung": true, "whack": true, "turns": true, "switches": true, "bump": true, "crank": true, "nudge": true, "knock": true, "turn": true, "switch": true, "put": true, "power": true, "shut": true, "set": true,
	"flip": true, "make": true, "bring": true, "get": true, "leave": true, "keep": true, "start": true, "stop": true,
	"open": true, "close": true, "lock": true, "unlock": true, "arm": true, "disarm": true, "dim": true, "brighten": true,
	"raise": true, "lower": true, "increase": true, "decrease": true, "change": true, "adjust": true, "run": true, "hit": true}

var onVerbs = map[string]bool{"activate": true, "enable": true, "illuminate": true}
var offVerbs = map[string]bool{"deactivate": true, "disable": true, "kill": true, "cut": true, "extinguish": true, "darken": true}

var allWords = map[string]bool{"all": true, "every": true, "everywhere": true, "each": true, "house": true, "home": true,
	"apartment": true, "flat": true, "entire": true, "throughout": true, "everything": true, "any": true,
	"which": true, "many": true} // "which lights are on", "how many lights are on": the whole house

var calendarWords = map[string]bool{"working": true, "tied": true, "busy": true, "free": true, "available": true, "around": true, "away": true,
	"meeting": true, "meetings": true, "call": true, "schedule": true, "calendar": true, "agenda": true, "plans": true,
	"appointment": true, "appointments": true, "doing": true, "where": true, "interrupt": true, "disturb": true,
	"work": true, "office": true, "booked": true, "occupied": true, "back": true, "home": true, "out": true,
	// "is mum swamped", "has dad got a minute", "is she engaged", "can dad spare a sec"
	"swamped": true, "engaged": true, "minute": true, "spare": true, "sec": true, "snowed": true,
	"zoom": true, "teams": true, "gap": true, "slot": true} // "is dad in one of his zoom things", "has mom got a gap this afternoon"

var warmthWords = map[string]bool{"hot": true, "warm": true, "cold": true, "chilly": true, "cool": true, "temperature": true,
	"temp": true, "heat": true, "warmer": true, "cooler": true, "colder": true, "hotter": true, "freezing": true, "degrees": true,
	"sauna": true, "roasting": true, "sweltering": true, "stifling": true, "baltic": true, "nippy": true, "toasty": true} // "its like a sauna in here"

// roomPrepositions open a place: "in the garage", "at the first floor", "on the porch".
var roomPrepositions = map[string]bool{"in": true, "at": true, "inside": true}

// placeStop ends a place phrase after a preposition.
var placeStop = map[string]bool{"on": true, "off": true, "to": true, "and": true, "now": true, "right": true, "please": true,
	"at": true, "in": true, "for": true, "too": true, "as": true, "well": true, "again": true, "is": true, "are": true,
	"degrees": true, "or": true, "then": true, "still": true, "currently": true, "today": true, "tonight": true, "it": true,
	"them": true, "out": true, "up": true, "down": true}

// mentions reads a normalized sentence.
func (t *Table) mentions(n Normalized) Mentions { return t.mentionsOf(n, nil) }

// mentionsOf is mentions given the word-index entries of n's words, when they were looked up
// already (known[i] is t.vocab.words[n.tokens()[i]]: a clause's are a run of its sentence's);
// nil: they are looked up here.
func (t *Table) mentionsOf(n Normalized, known []wordInfo) Mentions {
	toks := cutReason(n.tokens())
	var m Mentions
	var usedBuf [32]bool
	used := usedBuf[:0] // tokens that are part of a room name
	if len(toks) <= len(usedBuf) {
		used = usedBuf[:len(toks)]
	} else {
		used = make([]bool, len(toks))
	}
	var clsBuf [32]wordClass
	var infoBuf [32]wordInfo
	classes := clsBuf[:0] // each token's word class, looked up once
	info := infoBuf[:0]   // and all mentions reads of it (word_index.go), in the same lookup
	for i, w := range toks {
		var wi wordInfo
		if known != nil {
			wi = known[i]
		} else {
			wi = t.vocab.words[w]
		}
		info = append(info, wi)
		classes = append(classes, wi.cls)
		m.seen |= wi.cls
		m.lex |= wi.lex
		if wi.flags&wiFrameWord != 0 { // a home's own expression words
			m.seen |= wcExpression
		}
	}
	for i, w := range n.tokens()[len(toks):] { // the reason cut off may hold what a frame reads
		if known != nil {
			m.lex |= known[len(toks)+i].lex
		} else {
			m.lex |= t.vocab.words[w].lex
		}
	}
	// Rooms, longest phrase first ("living room" before "room").
	for i := 0; i < len(toks); i++ {
		span := info[i].roomSpan // only the lookups that can find a room are made
		if span == 0 {
			continue
		}
		for l := min(t.vocab.roomWords, maxRoomWords, len(toks)-i); l >= 1; l-- {
			var r *Room
			ok := false
			if span&(1<<(l-1)) != 0 {
				phrase := toks[i]
				if l > 1 && n.toks != nil {
					phrase = joinedRun(n.Text, toks, i, toks[i:i+l]) // Text is its words joined (Normalized)
				} else if l > 1 {
					phrase = strings.Join(toks[i:i+l], " ")
				}
				r, ok = t.vocab.rooms[phrase]
			}
			switch {
			case ok || l == 1 || span&roomJoined == 0:
			case l == 2: // the words closed up ("bed room"): words hold no space
				r, ok = t.vocab.rooms[toks[i]+toks[i+1]]
			case l == 3:
				r, ok = t.vocab.rooms[toks[i]+toks[i+1]+toks[i+2]]
			}
			if ok && i > 0 && (toks[i-1] == "at" || toks[i-1] == "the" && i > 1 && toks[i-2] == "at") && t.anyPerson(toks) && !anyDevice(toks) {
				// "is mummy at the office today": where a person is, not the home's office
				m.Calendar = true
				i += l - 1
				break
			}
			if ok {
				if !contains(m.Rooms, r.Name) {
					m.Rooms = append(m.Rooms, r.Name)
				}
				for k := i; k < i+l; k++ {
					used[k] = true
				}
				i += l - 1
				break
			}
		}
	}
	if len(m.Rooms) == 0 {
		if r := t.ownersRoom(toks, classes); r != "" {
			m.Rooms = append(m.Rooms, r) // "the kids are asleep, switch their light off"
		}
	}
	if len(m.Rooms) == 0 && len(t.vocab.owners) > 0 {
		for i := 0; i+1 < len(toks); i++ {
			if r := t.vocab.owners[toks[i]]; r != nil && classes[i+1]&wcHouseDevice != 0 {
				m.Rooms = append(m.Rooms, r.Name) // "kids light on", "the twins light": the owners' room's light
				used[i] = true
				break
			}
		}
	}
	for i, w := range toks {
		if used[i] {
			continue
		}
		next := ""
		if i+1 < len(toks) {
			next = toks[i+1]
		}
		prev := ""
		if i > 0 {
			prev = toks[i-1]
		}
		cls := classes[i]
		switch {
		case w == "here" && i > 0 && (kinWords[prev] || t.vocab.personName(info[i-1]) != "") && (i == 1 || objectLeads[toks[i-2]] || toks[i-2] == "is"):
			// "grandpa here, could you ...", "it is mom here": who speaks, not a place
		case w == "here":
			m.Here = true
		case w == "this" && (next == "room" || next == "rooms"):
			m.Here = true
			used[i+1] = true
		case cls&wcAll != 0 && !(w == "home" && prev != "the" && prev != "my" && prev != "our" && prev != "entire" && prev != "whole"):
			m.All = true
		case w == "rooms" && (prev == "the" || prev == "all" || prev == "every"):
			m.All = true
		}
		if cls&wcDevice != 0 {
			d := deviceWords[w]
			if m.Device == "" || m.Device == "other" {
				m.Device = d
			}
			m.named = m.named || d == "light" || d == "ac"
			if w == "temperature" || w == "temp" {
				m.Warmth = true
			}
		}
		switch {
		case w == "on" && (next == "the" || next == "my" || next == "our") && i > 0 && classes[i-1]&(wcDevice|wcAction|wcOnVerb|wcOffVerb) == 0 && info[i-1].flags&wiGerund == 0 && prev != "pop":
			// "on the porch": a place, not a state
		case w == "on" && isDigits(next):
			// "put the ac on 22": a setting, not a state; "turn it on twenty three": both
			if contains(toks[:i], "turn") || contains(toks[:i], "switch") {
				m.States = appendState(m.States, "on")
			}
		case w == "on" || w == "up" && prev == "light":
			m.States = appendState(m.States, "on")
		case w == "off" && takenOff(toks, i):
			// "get the lights off the christmas tree": taken down from something, not switched off
		case w == "off" || w == "out" && (i > 0 && classes[i-1]&wcDevice != 0 || prev == "lights" || prev == "put" && lightAhead(toks, i)) || w == "down" && (prev == "power" || prev == "shut"):
			// ("put out the kitchen light": a grandparent's "off")
			m.States = appendState(m.States, "off")
		case cls&wcOnVerb != 0:
			m.States, m.Action = appendState(m.States, "on"), true
		case cls&wcOffVerb != 0:
			m.States, m.Action = appendState(m.States, "off"), true
		case cls&wcAction != 0 || info[i].flags&wiGerund != 0 || w == "pop" || w == "flick":
			m.Action = true
		}
		if w == "light" && (prev == "me" || prev == "us" || prev == "some" || prev == "more") && (contains(toks[:i], "give") ||
			contains(toks[:i], "have") || contains(toks[:i], "get")) {
			m.Action = true // "give me light in the kitchen", "can I have some light in here"
			m.States = appendState(m.States, "on")
		}
		if (w == "bright" || w == "dark" || w == "light" && prev == "it") && i >= 2 && (contains(toks[:i], "make") || contains(toks[:i], "get")) {
			// "make the kids room bright", "make my room dark": a room's lights on or off
			m.Action = true
			if m.Device == "" {
				m.Device, m.named = "light", true
			}
			if w != "dark" {
				m.States = appendState(m.States, "on")
			} else {
				m.States = appendState(m.States, "off")
			}
		}
		if w == "cool" && (next == "down" || next == "off") && i <= 2 {
			m.Action = true // "cool down the living room": the AC on
			m.States = appendState(m.States, "on")
		}
		if (w == "light" || w == "lights" && i+2 == len(toks)) && (next == "up" || i == 0 && contains(toks, "up")) { // "kitchen lights up"
			// "light up the kitchen", "light this room up": light is the verb
			m.Action = true
			m.States = appendState(m.States, "on")
		}
		if cls&wcCalendar != 0 || w == "up" && next == "to" {
			m.Calendar = true // "what's mum up to"
		}
		if cls&wcWarmth != 0 {
			m.Warmth = true
		}
		if p, ok := t.vocab.personName(info[i]), info[i].person != 0; ok && !contains(m.People, p) && !t.someoneElses(toks, i) {
			m.People = append(m.People, p)
		}
		if isDigits(w) && len(w) <= 3 && (prev == "to" || prev == "at" || prev == "on" || next == "degrees" || next == "degree" && i+2 == len(toks) || prev == "ac" || prev == "temperature" || prev == "thermostat" ||
			(prev == "put" || prev == "make" || prev == "keep") && contains(toks, "ac") ||
			prev == "it" && i >= 2 && (toks[i-2] == "make" || toks[i-2] == "keep" || toks[i-2] == "set" || toks[i-2] == "get" || toks[i-2] == "put" || toks[i-2] == "turn") || // "make it 22 in the lounge"
			trailingSetting(toks, i)) {
			m.Temperature = w
			if next == "to" && i+2 == len(toks) && w != "0" && w[len(w)-1] == '0' {
				m.Temperature = "x" // "set the ac to twenty to": "twenty two" or "twenty" — asked, never guessed
			}
		}
	}
	placed := len(m.Rooms) > 0 || m.Here
	switch {
	case m.Device != "":
	case contains(toks, "illuminate") || contains(toks, "brighten") || contains(toks, "dim"):
		m.Device = "light" // verbs only lights take
	case m.Temperature != "" && (placed || m.Warmth):
		m.Device = "ac" // "set the living room to 21 degrees", "cool the bedroom to 21"
	case (placed || contains(toks, "room")) && (contains(toks, "dark") || contains(toks, "gloomy") || contains(toks, "bright") || contains(toks, "pitch") || contains(toks, "lit") ||
		contains(toks, "cannot") && contains(toks, "see")):
		m.Device = "light" // "it's dark in here": the lights read it
	case m.Warmth && placed:
		m.Device = "ac" // "is it warm in the bedroom", "it's freezing in here": the climate device reads it
	case !placed && contains(toks, "everything") && len(m.States) > 0 && m.Action:
		m.Device = "other" // "switch everything off": which things is not said
	case placed && len(m.States) > 0 && t.unknownObject(toks, used, classes):
		m.Device = "other" // "turn off the stereo in the kitchen": a thing the home has no word for, not its lights
	case placed && len(m.States) > 0:
		m.Device = "light" // "switch the kitchen on": a room's lights, the device every room has
	}
	if (m.Device == "light" || m.Device == "ac") && len(m.States) == 0 {
		// "open the light", "close the light", "shut the lights", "stop the ac": how many
		// speakers of other Englishes say it.
		for _, w := range toks {
			switch w {
			case "open", "opening", "start":
				m.States = appendState(m.States, "on")
			case "close", "closing", "shut", "stop":
				m.States = appendState(m.States, "off")
			}
		}
	}
	var place []int
	m.UnknownRoom, place = t.unknownPlace(toks, used, classes)
	for _, i := range place {
		used[i] = true // the words of an unknown place are explained as one (and asked about)
	}
	for i, w := range toks {
		next := ""
		if i+1 < len(toks) {
			next = toks[i+1]
		}
		cls := classes[i]
		switch {
		case w == "except" || w == "but" || w == "besides" || w == "excluding" || w == "apart" && next == "from" || w == "other" && next == "than":
			m.Exception = true
		case w == "before" && reasonSubjects[next]:
			// "switch the AC on before we go up": now, ahead of what they will do
		case w == "tonight" && i > 0 && toks[i-1] == "for":
			// "set the bedroom to 18 for tonight": now, for the night ahead
		case cls&wcDefer != 0 || (w == "at" || w == "after" || w == "by") && laterNouns[next] ||
			(w == "in" || w == "at" || w == "after" || w == "for") && (isDigits(next) && !((w == "at" || w == "in") && next == m.Temperature && m.Device == "ac") &&
				!(i+2 < len(toks) && (toks[i+2] == "degrees" || toks[i+2] == "degree")) || // "put the ac in 24 degrees": a learner's setting
				(next == "a" || next == "an") && i+2 < len(toks) && durationCore(toks[i+2]) || next == "half"):
			m.Deferred = true
		}
		switch {
		case w == "or" || w == "either":
			m.Alternatives = true
		case used[i], cls&wcExplained != 0, isDigits(w), t.vocab.personName(info[i]) != "":
		default:
			m.Unexplained++
		}
	}
	// m.Form is left to the frames that need it (withForm): most sentences never ask.
	return m
}

// takenOff: toks[i], "off", says where a device is taken from ("get the lights off the tree",
// "take the lamp off the shelf", "got the office light off ebay"), not its state: a verb of
// taking before it and a place or a thing after it.
func takenOff(toks []string, i int) bool {
	if i+1 >= len(toks) {
		return false
	}
	switch toks[i+1] {
	case "please", "now", "again", "for", "in", "at", "too", "as", "and", "then", "right", "quick", "quickly", "asap":
		return false
	}
	for _, w := range toks[:i] {
		if w == "get" || w == "take" || w == "took" || w == "got" || w == "getting" || w == "taking" {
			return true
		}
	}
	return false
}

// objectLeads come before the thing a verb acts on: "turn off THE stereo", "MY speakers".
var objectLeads = map[string]bool{"the": true, "my": true, "our": true, "your": true, "this": true, "that": true,
	"these": true, "those": true, "a": true, "an": true}

// unknownObject: a word no list explains stands where the thing acted on stands (after
// "the", "my" ..., or just before "in", "on", "off"): the sentence names a device the home
// has no word for, so a room's lights are not what it means.
func (t *Table) unknownObject(toks []string, used []bool, classes []wordClass) bool {
	for i, w := range toks {
		if used[i] || classes[i]&wcExplained != 0 || isDigits(w) || t.vocab.people[w] != "" {
			continue
		}
		prev, next := "", ""
		if i > 0 {
			prev = toks[i-1]
		}
		if i+1 < len(toks) {
			next = toks[i+1]
		}
		if objectLeads[prev] || next == "in" || next == "on" || next == "off" {
			return true
		}
	}
	return false
}

// reasonAdverbs may stand between a reason's subject and its verb: "i literally cannot ...".
var reasonAdverbs = words2set("literally really just actually still honestly totally seriously so also")

// cutReason leaves out the reason given after a request, so its words are not read as
// places or settings: "turn off the bedroom light because I'm going to sleep", "turn on the
// lamp so I can read".
func cutReason(toks []string) []string {
	for i := 2; i+1 < len(toks); i++ {
		next := toks[i+1]
		if i < 3 && toks[i] != "i" && toks[i] != "we" {
			continue
		}
		switch toks[i] {
		case "because", "cause", "cos", "coz":
			return toks[:i]
		case "so", "as", "since", "while":
			if next == "i" || next == "we" || next == "it" || next == "the" || next == "he" || next == "she" ||
				next == "they" || next == "you" || next == "my" || next == "our" || next == "its" { // a subject
				return toks[:i]
			}
		case "i", "we":
			// "... in here i am trying to watch a movie": a reason said as a new sentence
			if reasonAdverbs[next] && i+2 < len(toks) {
				next = toks[i+2] // "i literally cannot find my charger"
			}
			if i >= 2 && (next == "am" || next == "are" || next == "have" || next == "need" || next == "want" || next == "cannot") {
				return toks[:i]
			}
		}
	}
	return toks
}

// climateWords name the AC or what it does, for trailingSetting.
var climateWords = map[string]bool{"ac": true, "thermostat": true, "temperature": true, "cool": true, "warm": true,
	"cooler": true, "warmer": true, "heat": true, "heating": true}

// trailingSetting: a two-digit number said last, after the AC and its room, is what it is set
// to ("ac on in here please twenty two", "cool the bedroom down like 20 maybe") — not a
// delay ("in 20") or a length ("for 20").
func trailingSetting(toks []string, i int) bool {
	if len(toks[i]) != 2 || i < 2 {
		return false
	}
	named := false // the AC named, or its effect asked for first ("warmer in the bedroom 26")
	for k, w := range toks[:i] {
		named = named || climateWords[w] && (k < 2 || w == "ac" || w == "thermostat" || w == "temperature")
	}
	if !named {
		return false
	}
	switch toks[i-1] {
	case "in", "for", "by", "after", "until", "till", "every", "at", "to", "about":
		return false
	}
	rest := toks[i+1:]
	return len(rest) == 0 || len(rest) == 1 && (rest[0] == "maybe" || rest[0] == "perhaps" || rest[0] == "ish" || rest[0] == "please" || rest[0] == "thanks") ||
		hasPrefix(rest, []string{"should", "do"}) || hasPrefix(rest, []string{"will", "do"}) || hasPrefix(rest, []string{"would", "do"}) // "twenty two should do it"
}

// withForm fills in the sentence's form (the command rule, command.go), once.
func (m *Mentions) withForm(n Normalized) {
	if m.Form == "" {
		m.Form = commandForm(n.tokens(), n)
	}
}

// ref is a copy of m for a decision. Taking &m of a parameter would move it to the heap on
// every call, also for the sentences that never report their mentions.
func (m Mentions) ref() *Mentions { return &m }

func appendState(s []string, st string) []string {
	if len(s) > 0 && s[len(s)-1] == st {
		return s
	}
	return append(s, st)
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// anyPerson: a person of the home is named.
func (t *Table) anyPerson(toks []string) bool {
	for _, w := range toks {
		if t.vocab.people[w] != "" {
			return true
		}
	}
	return false
}

// anyDevice: a device word is said.
func anyDevice(toks []string) bool {
	for _, w := range toks {
		if wordClasses[w]&wcDevice != 0 {
			return true
		}
	}
	return false
}

// lightAhead: a light is named within the four words after toks[i] ("put out the kitchen
// light").
func lightAhead(toks []string, i int) bool {
	for j := i + 1; j < len(toks) && j <= i+4; j++ {
		if deviceWords[toks[j]] == "light" {
			return true
		}
	}
	return false
}
