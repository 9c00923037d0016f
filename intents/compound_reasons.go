package intents

// What may stand beside a request without making a second one: tags and afterthoughts
// ("..., thanks", "it's cold"), reasons that say where or why, a message for someone, the
// state of an appliance, a farewell. compound reads them to tell one request from two.

import (
	"maps"
	"slices"
	"strings"
)

// tagPhrases are said around a command without asking for anything: tags, vocatives,
// interjections and farewells ("there's a good lad", "be a dear", "whoa", "bye grandma").
var tagPhrases = [][]string{
	{"there", "is", "a", "good"}, {"that", "is", "a", "good"}, {"good", "lad"}, {"good", "boy"}, {"good", "girl"},
	{"good", "robot"}, {"be", "a", "dear"}, {"be", "a", "love"}, {"be", "a", "darling"}, {"do", "me", "a", "favour"},
	{"do", "me", "a", "favor"}, {"go", "on"}, {"come", "on"}, {"would", "you"}, {"will", "you"}, {"could", "you"},
	{"can", "you"}, {"if", "you", "do", "not", "mind"}, {"if", "you", "would"}, {"if", "you", "please"}, {"bye"},
	{"goodbye"}, {"bye", "bye"}, {"see", "you"}, {"see", "ya"}, {"cheerio"}, {"ta"}, {"love", "you"}, {"whoa"}, {"woah"},
	{"wow"}, {"oi"}, {"hey"}, {"oh"}, {"ooh"}, {"right", "then"}, {"now", "then"}, {"all", "right"}, {"quick"},
	{"there", "you", "go"}, {"that", "is", "it"}, {"thank", "you"}, {"mate"}, {"buddy"}, {"pal"}, {"love"}, {"dear"},
	{"darling"}, {"sweetie"}, {"honey"}, {"robot"}, {"my", "friend"}, {"old", "chap"}, {"sir"}, {"young", "man"},
	{"hold", "on"}, {"hang", "on"}, {"wait"}, {"one", "sec"}, {"one", "second"}, {"listen"}, {"look"}, {"right"},
	{"yeah"}, {"yes"}, {"no", "problem"}, {"ta", "very", "much"}, {"cheers", "mate"}, {"pls"}, {"plz"},
	{"night", "night"}, {"nighty", "night"}, {"goodnight"}, {"good", "night"}, {"sweet", "dreams"}, {"sleep", "well"},
	{"sleep", "tight"},
	// haste: "... and be quick about it", "hurry up", "chop chop"
	{"be", "quick", "about", "it"}, {"be", "quick"}, {"hurry", "up"}, {"hurry"}, {"make", "it", "quick"}, {"chop", "chop"},
	{"asap"}, {"right", "away"}, {"on", "the", "double"},
	// asking leave to speak: "excuse me, robot, ...", "sorry to bother you, ..."
	{"excuse", "me"}, {"pardon", "me"}, {"sorry"}, {"sorry", "to", "bother", "you"}, {"sorry", "to", "bug", "you"},
	{"sorry", "to", "interrupt"}, {"i", "am", "sorry"}, {"if", "i", "may"}, {"one", "thing"}, {"quick", "question"},
	// a learner's "that's all" after a stop or a hang-up: "stop the call, finish", "stop to talk, is enough"
	{"finish"}, {"is", "enough"}, {"it", "is", "enough"},
}

// tagStarts are the first words of tagPhrases.
var tagStarts = func() map[string]bool {
	out := map[string]bool{}
	for _, p := range tagPhrases {
		out[p[0]] = true
	}
	return out
}()

// reasonLeads open a reason given for a command: "because ...", "it's bedtime", "the baby's
// asleep", "I'm trying to hear the news".
var reasonLeads = map[string]bool{"because": true, "cause": true, "since": true, "it": true, "i": true, "we": true,
	"he": true, "she": true, "they": true, "the": true, "my": true, "our": true, "that": true, "this": true, "its": true,
	"everyone": true, "everybody": true, "baby": true, "kids": true, "you": true, "like": true,
	"somebody": true, "someone": true, "nobody": true, "there": true, "little": true}

// afterthought reports whether a clause is said around a command without asking for anything
// itself: a vocative or tag (tagPhrases, the wake name), or a reason — a statement that names
// no device, room, state, setting or action, and is neither a question, a report, a condition
// nor a negation. Such a clause never turns one command into a compound.
func (t *Table) afterthought(c Normalized) bool {
	toks := c.tokens()
	if len(toks) == 0 {
		return true
	}
	if only(toks, hushAside) && len(toks) <= 3 {
		return true // "turn off the kids room light... shhh": said in a whisper, beside the request
	}
	if reportedOrTakenBack(toks) && !reportedState(toks) && !slices.ContainsFunc(toks, func(w string) bool { return w == "bye" || w == "goodbye" || w == "goodbyes" || w == "goodnight" }) {
		return false // "..., she texted", "..., I'm joking": words reported or a request taken back ask something of their own
	}
	if !c.Negated && (reasonLeads[toks[0]] || possessiveKin(toks[0])) && t.sleeperReason(toks) {
		return true // "the little one is asleep", "grandpa's napping": someone asleep is a reason
	}
	tagStart := tagStarts[toks[0]]
	for _, p := range tagPhrases {
		if !tagStart { // looked up once: toks[0] is the same at every phrase
			break
		}
		if p[0] != toks[0] {
			continue
		}
		if hasPrefix(toks, p) && (len(toks) == len(p) || len(toks) <= len(p)+2 && (p[0] == "bye" || p[0] == "goodbye" || p[len(p)-1] == "good")) {
			return true // "bye grandma", "there's a good lad"
		}
		if (p[0] == "bye" || p[0] == "goodbye") && hasPrefix(toks, p) && len(toks) <= len(p)+4 && t.onlyOrPeople(toks[len(p):], farewellWords) {
			return true // "bye mom love you", "goodbye grandma see you soon"
		}
	}
	if len(toks) <= 2 && t.vocab.wake.isName(toks[len(toks)-1]) {
		return true
	}
	if (hasPrefix(toks, []string{"thank", "you", "for"}) || hasPrefix(toks, []string{"thanks", "for"})) && len(toks) <= 8 &&
		!slices.ContainsFunc(toks, func(w string) bool { return wordClasses[w]&(wcDevice|wcAction|wcOnVerb|wcOffVerb) != 0 }) {
		return true // "..., thank you for being so patient": thanks, asking nothing
	}
	if len(toks) <= 5 && toks[0] == "say" && len(toks) > 1 && (toks[1] == "bye" || toks[1] == "goodbye" || toks[1] == "good" || toks[1] == "night") {
		return true // "say bye to mum, ok end the call": a farewell, not words to repeat
	}
	if k := len(toks); k <= 4 && toks[k-1] == "here" && k >= 2 && (kinWords[toks[k-2]] || t.vocab.people[toks[k-2]] != "") ||
		k <= 4 && hasPrefix(toks, []string{"this", "is"}) && k >= 3 && (kinWords[toks[k-1]] || t.vocab.people[toks[k-1]] != "") {
		return true // "Grandpa here.", "this is mom": who speaks, not what is asked
	}
	if name := toks[len(toks)-1]; (len(toks) == 1 || len(toks) == 2 && (toks[0] == "hey" || toks[0] == "hi" || toks[0] == "oi" || toks[0] == "yo")) &&
		wordClasses[name] == 0 && !functionWords[name] && !questionWords[name] && !isImperativeVerb(name) && !gerunds[name] &&
		!isDigits(name) && !durationCore(name) && !t.mentionsRoom(toks[len(toks)-1:]) && t.vocab.labels[name] == "" && !finiteWords[name] &&
		!pastWords[name] && !futureWords[name] && !wishWords[name] && !notCommandStarts[name] && !timesOfDay[name] && !tagStarts[name] {
		return true // a name said to get attention: "Alexa, ...", "Sophie, ...", "hey mum, ..."
	}
	if len(toks) <= 3 && feltWords.any(toks) && // wordClasses[w]&wcWarmth != 0 || feelingWords[w]
		!slices.ContainsFunc(toks, func(w string) bool {
			return wordClasses[w]&(wcDevice|wcAction|wcOnVerb|wcOffVerb) != 0 || isDigits(w) || questionWords[w] || w == "not"
		}) && !t.mentionsRoom(toks) {
		return true // "lowkey freezing", "so dark": how it feels, said as the reason
	}
	if toks[0] == "is" && len(toks) >= 2 && len(toks) <= 5 && (toks[1] == "very" || toks[1] == "so" || toks[1] == "too" || wordClasses[toks[1]]&wcWarmth != 0 || toks[1] == "dark") {
		return true // a learner's "is very dark there": the subject left out, how it is said as the reason
	}
	if possessiveKin(toks[0]) && len(toks) > 1 && (strings.HasSuffix(toks[1], "ing") || finiteWords[toks[1]] || quietSleeper[toks[1]]) ||
		nounSubject(toks) {
		// "grandpa's having his nap", "mum's asleep", "lunch is ready", "dinner's ready"
		// "grandpa's having his nap", "mum's asleep": the 's folded into the name
	} else if !reasonLeads[toks[0]] && t.vocab.people[toks[0]] == "" && !kinWords[toks[0]] || questionWords[toks[0]] && toks[0] != "it" {
		return false // a reason opens with a subject: "it's bedtime", "mum's cooking"
	}
	// A clause split from a sentence carries the sentence's negation; a reason that opens with
	// its subject and says no "not" of its own ("don't talk until I say so, I'm studying")
	// is not negated itself.
	ownNegation := c.Negated && (contains(toks, "not") || contains(toks, "never") || !reasonLeads[toks[0]] && t.vocab.people[toks[0]] == "")
	if ownNegation && negatedStatement(toks) {
		ownNegation = false // "hang up, she's not even talking": a reason, said in the negative
	}
	if ownNegation && toks[0] != "because" || reported(toks) && !ownWishReason(toks) && !reportedState(toks) || conditional(toks) {
		return false
	}
	if reasonSubjects[toks[0]] && len(toks) > 3 && (desireVerbs[toks[1]] || mustVerbs[toks[1]]) && t.wishToReach(toks) {
		return false // "i need to speak to my dad, it's important": a wish to reach someone of the home asks for a call
	}
	if toks[0] == "you" && len(toks) > 1 && (toks[1] == "can" || toks[1] == "may" || toks[1] == "could") {
		return false // permission: "you can hang up now"
	}
	if blocked, _, ok := callerEffect(toks); ok && blocked {
		return false // "..., nobody can call in": what privacy mode does, asked for
	}
	if applianceState(toks) {
		return !t.mentionsRoom(toks) // "the window's open anyway", "the tv is on": how a thing the home cannot drive is
	}
	var clsBuf [32]wordClass
	cls, deviceIn := clsBuf[:0], false // each word's classes, looked up once
	for _, w := range toks {
		c := wordClasses[w]
		cls = append(cls, c)
		deviceIn = deviceIn || c&(wcDevice|wcHouseDevice) != 0
	}
	// "I'm watching TV", "we are using the oven": what someone is doing with a thing the home
	// cannot drive says why, and asks nothing of it.
	// A statement with its own subject and verb ("I must leave soon") says what its subject
	// does; "I want ..." and "I need ..." are wishes, which may ask for something.
	stated := len(toks) > 2 && reasonSubjects[toks[0]] && finiteWords[toks[1]] && !desireVerbs[toks[1]]
	doing := len(toks) > 3 && reasonSubjects[toks[0]] && (toks[1] == "am" || toks[1] == "are" || toks[1] == "is") &&
		strings.HasSuffix(toks[2], "ing") && !contains(toks, "not")
	for i, w := range toks {
		if doing && cls[i]&wcHouseDevice == 0 && deviceWords[w] == "other" && i > 2 {
			continue
		}
		if stated && !deviceIn && (i == 2 || i == 3 && reasonAdverbs[toks[2]]) && cls[i]&wcAction != 0 && !imperativeVerbs[w] {
			continue // "I must leave soon", "we have to get going": what the speaker does
		}
		if stated && !deviceIn && i > 2 && (toks[i-1] == "to" || objectLeads[toks[i-1]]) && cls[i]&(wcDevice|wcHouseDevice) == 0 &&
			!isDigits(w) && !durationCore(w) && w != "timer" && w != "timers" {
			continue // "i got emails to answer", "we have the kids to call": what the subject does
		}
		if stated && !deviceIn && i > 2 && (toks[i-1] == "it" || toks[i-1] == "them") && (w == "on" || w == "off") && pastWords[toks[1]] {
			continue // "somebody left it on all night": how it was left, not a request
		}
		if i > 0 && objectLeads[toks[i-1]] && cls[i]&(wcDevice|wcHouseDevice) == 0 && cls[i]&wcAction != 0 {
			continue // "I can't find the switch": a thing, not a verb
		}
		if i > 1 && toks[i-1] == "to" && !deviceIn && (toks[i-2] == "need" ||
			toks[i-2] == "needs" || toks[i-2] == "have" || toks[i-2] == "has" || toks[i-2] == "want" || toks[i-2] == "wants" || toks[i-2] == "got" || toks[i-2] == "going") {
			continue // "the kids need to get to bed", "I have to fill in a form": what someone must do, not a request
		}
		if cls[i]&(wcDevice|wcAction|wcOnVerb|wcOffVerb) != 0 || isDigits(w) || w == "timer" || w == "timers" ||
			imperativeVerbs[w] && !reasonWords[w] || durationCore(w) && !subjectAdjectives[w] {
			return false
		}
	}
	return !t.mentionsRoom(toks)
}

// hushAside: a whisper's "shh" and "psst" said around a request.
var hushAside = words2set("shh psst pst")

// desireVerbs after a subject ask for something: "I want the light on", "we need the AC".
var desireVerbs = words2set("want wants need needs would like love")

// reasonWords can open a command but say how things are in a reason: "it's too warm", "I'm
// done", "it's time for bed".
var reasonWords = map[string]bool{"warm": true, "cool": true, "heat": true, "be": true, "do": true, "time": true,
	"end": true, "count": true, "clear": true, "show": true,
	// the family frames' verbs are nouns in a reason: "I'm on the phone", "I'm on a call"
	"phone": true, "call": true, "ring": true, "play": true, "guess": true, "wake": true, "remind": true, "block": true,
	"dial": true, "facetime": true, "pretend": true, "unblock": true}

// mentionsRoom reports whether toks name a room of the home.
func (t *Table) mentionsRoom(toks []string) bool {
	for i, w := range toks {
		if !t.vocab.roomStarts[w] {
			continue
		}
		if _, ok := t.vocab.rooms[w]; ok {
			return true
		}
		for l := 2; l <= t.vocab.roomWords && i+l <= len(toks); l++ {
			if _, ok := roomOfWords(t.vocab.rooms, toks[i:i+l]); ok {
				return true
			}
		}
	}
	return false
}

// roomFromReason completes a house command that asks which room from the reason said with
// it: "it's freezing in here, switch the AC off", "I'm reading in the bedroom, light on".
// The reason must name one room (or "here"); the binding still checks the room has the
// device.
func (t *Table) roomFromReason(d Decision, reasons []string, ctx Context) (Decision, bool) {
	if d.Intent != IntentClarify || d.Pending == nil || d.Pending.Missing != "room" ||
		d.Pending.Intent != "house.light.set" && d.Pending.Intent != "house.ac.set" || len(reasons) == 0 {
		return Decision{}, false
	}
	room := ""
	for _, r := range reasons {
		toks := strings.Fields(r)
		found := t.roomsIn(toks)
		if contains(toks, "here") || hasPhrase(toks, []string{"this", "room"}) {
			found = append(found, "here")
		}
		for _, f := range found {
			if room != "" && room != f {
				return Decision{}, false // two places: ask
			}
			room = f
		}
	}
	if room == "" {
		// "the kids are asleep, switch their light off": the reason names whose light it is
		all := d.Normalized.tokens()
		for _, r := range reasons {
			all = append(strings.Fields(r), all...)
		}
		classes := make([]wordClass, len(all))
		for i, w := range all {
			classes[i] = wordClasses[w]
		}
		room = t.ownersRoom(all, classes)
	}
	if room == "" {
		return Decision{}, false
	}
	in := t.byName[d.Pending.Intent]
	if in == nil || in.Unavailable {
		return Decision{}, false
	}
	args := maps.Clone(d.Pending.Args)
	if args == nil {
		args = map[string]string{}
	}
	args["room"] = room
	out := t.settle(in, t.bind(in, args, ctx), frameRule(in), d.Normalized)
	out.Mentions = d.Mentions
	out.Doctrine = append([]string{"compound sentence: the room is the one the reason names (" + room + ")"}, d.Doctrine...)
	return out, true
}

// insideRoomName reports whether toks[i] is inside a room's name of three or more words
// ("mom and dads room"): no clause is split there. It is asked only where a split would be.
func (t *Table) insideRoomName(toks []string, i int) bool {
	for j := max(0, i-t.vocab.roomWords+2); j < i; j++ {
		if !t.vocab.roomStarts[toks[j]] {
			continue
		}
		for l := min(t.vocab.roomWords, len(toks)-j); l >= 3 && j+l-1 > i; l-- {
			if _, ok := roomOfWords(t.vocab.rooms, toks[j:j+l]); ok {
				return true
			}
		}
	}
	return false
}

// roomOfWords is rooms[strings.Join(toks, " ")], the key built on the stack (no string is
// allocated for a lookup).
func roomOfWords(rooms map[string]*Room, toks []string) (*Room, bool) {
	var buf [64]byte
	b := buf[:0]
	for i, w := range toks {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, w...)
	}
	r, ok := rooms[string(b)]
	return r, ok
}

// roomsIn lists the rooms of the home toks name, by their names.
func (t *Table) roomsIn(toks []string) []string {
	var out []string
	for i := 0; i < len(toks); i++ {
		if !t.vocab.roomStarts[toks[i]] {
			continue
		}
		for l := min(t.vocab.roomWords, len(toks)-i); l >= 1; l-- {
			if r, ok := roomOfWords(t.vocab.rooms, toks[i:i+l]); ok {
				out = append(out, r.Name)
				i += l - 1
				break
			}
		}
	}
	return out
}

// hasPhrase reports whether p occurs in toks.
func hasPhrase(toks, p []string) bool {
	for i := range toks {
		if hasPrefix(toks[i:], p) {
			return true
		}
	}
	return false
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// placeReason: a clause no intent reads that states how things are in a room ("it's like an
// oven in the bedroom", "I can't see a thing in the kids room"): a reason that may say where a
// command beside it is meant, never a request of its own.
func (t *Table) placeReason(c Normalized) bool {
	toks := c.tokens()
	if len(toks) < 3 || c.Question || c.Negated && toks[0] != "i" || !reasonLeads[toks[0]] || reported(toks) || conditional(toks) {
		return false
	}
	return len(t.roomsIn(toks)) == 1 || contains(toks, "here")
}

// possessiveKin: a kin word with the "'s" of "is" folded onto it ("grandpas", "mums").
func possessiveKin(w string) bool {
	return len(w) > 3 && w[len(w)-1] == 's' && (kinWords[w[:len(w)-1]] || parentWords[w[:len(w)-1]])
}

// parentWords name a parent in any home ("dad's napping", "mummy's cooking").
var parentWords = words2set("mom mum mommy mummy mam mama mamma dad daddy papa father mother")

// reasonPredicates follow a noun whose "'s" the transcript folded: "dinner's ready", "the
// film's starting".
var reasonPredicates = words2set("ready done over here coming starting started finished on asleep late early up back home " +
	"tired sleeping sick cold hot boring loud cooking scared afraid frightened freezing boiling awake ill poorly unwell " +
	"busy out away upset hungry bored")

// nounSubject: a clause that opens with a noun as its subject and says how things are
// ("lunch is ready", "dinner's ready", "the film's starting").
func nounSubject(toks []string) bool {
	if len(toks) < 2 || len(toks) > 6 {
		return false
	}
	k := 0
	if toks[0] == "the" || toks[0] == "my" || toks[0] == "our" || toks[0] == "your" {
		k = 1
		if len(toks) > 3 && subjectAdjectives[toks[1]] {
			k = 2 // "my little brother's asleep"
		}
	}
	// The subject may be a name of two or three words the home does not know ("auntie funmi
	// is shivering", "ada's scared of the dark").
	for j := k; j < k+3 && j+1 < len(toks); j++ {
		w, next := toks[j], toks[j+1]
		if functionWords[w] || isImperativeVerb(w) || questionWords[w] || isDigits(w) || j > k && wordClasses[w] != 0 {
			return false
		}
		if next == "is" || next == "are" || next == "was" || strings.HasSuffix(w, "s") && (reasonPredicates[next] || strings.HasSuffix(next, "ing")) {
			return true
		}
	}
	return false
}

// negatedStatement: a statement with a subject that says "not" after its verb ("she's not
// even talking", "I haven't seen him all day"), wanting nothing.
func negatedStatement(toks []string) bool {
	if len(toks) < 3 || anyOf(toks, wishWords) || anyOf(toks, unwillingWords) {
		return false
	}
	for i := 2; i+1 < len(toks); i++ { // "you've been going on for ages and I've not understood a word": a later statement's own "not"
		if toks[i+1] == "not" && (toks[i] == "have" || toks[i] == "am" || toks[i] == "do" || toks[i] == "did" || toks[i] == "was" || toks[i] == "can") &&
			ownSubjects[toks[i-1]] && toks[i-2] == "and" {
			return true
		}
	}
	if !reasonLeads[toks[0]] || toks[0] == "you" || toks[0] == "because" {
		return false
	}
	for i := 1; i+1 < len(toks); i++ {
		if toks[i+1] == "not" && (finiteWords[toks[i]] || toks[i] == "have" || toks[i] == "has" || toks[i] == "do" || toks[i] == "does" || toks[i] == "did") {
			return true
		}
		if toks[i] == "never" && i <= 2 {
			return true // "I've never met a robot like you"
		}
	}
	return false
}

// ownSubjects say a statement of their own after "and": "... and I've not understood a word".
var ownSubjects = words2set("i we he she they")

// unwillingWords make a negated statement take the request back ("I don't want to", "I
// didn't mean that"): never a reason.
var unwillingWords = words2set("want wanna need mean meant think sure ask asked say said agree")

// musicWords: music asked for with a game is part of it.
var musicWords = words2set("music song songs tune tunes beat")

// messageFor: a clause that says what to tell the one called ("tell him dinner's ready",
// "say I got an A", "ask her when she's home").
func (t *Table) messageFor(toks []string) bool {
	if len(toks) < 2 {
		return false
	}
	switch toks[0] {
	case "tell", "ask", "say", "let":
		return toks[1] == "him" || toks[1] == "her" || toks[1] == "them" || toks[0] == "say" || t.vocab.people[toks[1]] != "" || kinWords[toks[1]]
	}
	return false
}

// subjectAdjectives may stand before a reason's subject: "my little brother's asleep".
var subjectAdjectives = words2set("little big baby older younger new old")

// appliancePredicates say how an appliance is: "the window's open", "the tv is on".
var appliancePredicates = words2set("open opened closed shut on off broken running going")

// applianceState: a statement that an appliance the home cannot drive is in some state ("the
// window's open anyway", "the oven is on"): a reason, never a request.
func applianceState(toks []string) bool {
	if len(toks) < 2 || len(toks) > 6 {
		return false
	}
	k := 0
	if toks[0] == "the" || toks[0] == "my" || toks[0] == "our" || toks[0] == "a" {
		k = 1
	}
	if k+1 >= len(toks) {
		return false
	}
	w := toks[k]
	base := strings.TrimSuffix(w, "s")
	if deviceWords[w] != "other" && deviceWords[base] != "other" {
		return false
	}
	next := toks[k+1]
	if next == "is" || next == "are" || next == "was" {
		if k+2 >= len(toks) {
			return false
		}
		next = toks[k+2]
	} else if !strings.HasSuffix(w, "s") {
		return false
	}
	return appliancePredicates[next]
}

// farewellWords may follow a goodbye said to someone: "bye mom, love you, see you soon".
var farewellWords = words2set("love you miss see soon later tomorrow too lots xx take care sweetie darling honey")
