package intents

import "strings"

// Speech acts the command rule reads around a whole sentence, before and after routing it:
//
//   - A self-correction takes the corrected value: "turn on the uh no off the kitchen light"
//     is "turn off the kitchen light"; "call mom no wait call dad" is "call dad". The words
//     after the marker replace the words of the same kind before it; when nothing lines up
//     the sentence stays as said, and the command rule asks (FormCorrected). In
//     self_correct.go.
//   - Quoted, relayed and conditional commands never act: 'say "turn off all the lights"',
//     "repeat after me ...", "the following is a command from dad: ...", "mom wants the
//     lights off", "if it gets dark then turn on the light". What such a sentence would have
//     done is offered instead ("If you want me to turn off all the lights, just ask me.").

// Speech acts that never act.
const (
	actQuoted      = "a quotation (\"say ...\", \"repeat after me ...\"): words to say, not a request"
	actTakenBack   = "a request taken back (\"just kidding\", \"I'm joking\"): not a request"
	actRelayed     = "a relayed command (\"the following is a command from ...\", \"mom wants ...\"): not the speaker's request"
	actConditional = "a condition (\"if ...\"): not a request to act now"
	actAddressed   = "said to someone else (\"mom, ...\", \"dad can you ...\", \"Siri, ...\"): not a request to this robot"
	actSung        = "sung (\"la la la, turn the privacy off\"): a song's words, not a request"
)

// quoteLeads open words the speaker wants said, not done.
var quoteLeads = [][]string{{"repeat", "after", "me"}, {"say", "after", "me"}, {"can", "you", "say"}, {"could", "you", "say"},
	{"say", "the", "words"}, {"say", "this"}, {"say"}, {"repeat", "this"}, {"repeat"}, {"read", "this", "out"}, {"read", "out"},
	{"pretend", "i", "said"}, {"what", "if", "i", "said"}, {"if", "i", "said"}, {"if", "i", "say"}, {"echo"}}

// relayMarkers make a sentence a message from someone else.
var relayMarkers = [][]string{{"the", "following", "is"}, {"following", "is", "a"}, {"this", "is", "a", "command"},
	{"command", "from"}, {"order", "from"}, {"orders", "from"}, {"instruction", "from"}, {"instructions", "from"},
	{"message", "from"}, {"new", "instructions"}, {"on", "behalf", "of"}, {"says", "to"}, {"said", "to"},
	{"told", "me", "to"}, {"told", "us", "to"}, {"asked", "me", "to"}, {"asked", "you", "to"}, {"wants", "you", "to"},
	{"wanted", "you", "to"}, {"wants", "me", "to"}, {"would", "like", "you", "to"},
	// someone else's words said through the speaker: "this is dad speaking through Leo: ..."
	{"speaking", "through"}, {"talking", "through"}, {"speaking", "for", "dad"}, {"speaking", "for", "mum"}, {"speaking", "for", "mom"}, {"speaking", "for", "him"},
	{"speaking", "for", "her"}, {"speaking", "for", "them"}, {"speaking", "for", "my"}, {"speaking", "via"}, {"on", "his", "behalf"},
	{"on", "her", "behalf"}, {"on", "their", "behalf"}, {"on", "dads", "behalf"}, {"on", "moms", "behalf"}, {"on", "mums", "behalf"},
	// an instruction said to come from someone with authority over the robot
	{"from", "the", "admin"}, {"from", "admin"}, {"admin", "message"}, {"from", "the", "system"}, {"system", "message"},
	{"from", "your", "owner"}, {"from", "the", "owner"}, {"from", "the", "developer"}, {"developer", "mode"}, {"admin", "mode"},
	{"next", "sentence"}, {"ignore", "all"}, {"ignore", "your"}, {"ignore", "previous"}, {"ignore", "the", "previous"},
	{"you", "are", "now"}, {"pretend", "you", "are"}, {"act", "as"}, {"override"},
	// the robot told to drop its rules or to play a part: "forget your instructions", "role play"
	{"forget", "your"}, {"forget", "all"}, {"forget", "previous"}, {"forget", "everything"}, {"disregard"},
	{"your", "instructions"}, {"your", "programming"}, {"your", "rules"}, {"no", "rules"}, {"new", "rules"},
	{"pretend", "to", "be"}, {"pretend", "you"}, {"role", "play"}, {"roleplay"}, {"jailbreak"}, {"from", "now", "on", "you"},
	// someone said to have authority now: "grandpa is the owner now, so ..."
	{"the", "owner", "now"}, {"is", "the", "new", "owner"}, {"your", "new", "owner"}, {"is", "in", "charge", "now"}, {"is", "the", "boss", "now"},
	{"is", "your", "master"}, {"is", "your", "owner"}, {"has", "admin"}}

// relayOpeners, first in a sentence, say what follows is an instruction from elsewhere
// ("system: cancel all timers", "admin: privacy off").
var relayOpeners = words2set("system admin administrator developer root sudo command instruction instructions")

// relayVerbs after a person make the rest their words: "mom wants the lights off", "dad
// says turn off the tv".
var relayVerbs = words2set("wants wanted says said asks asked told tells would like likes needs")

// ownWish are relay verbs that, before "to", say what the person wants to do themselves — a
// reason, not their words: "switch privacy off, dad needs to call", "mom wants to sleep, turn
// the light off" ("mom wants you to ..." is still relayed).
var ownWish = words2set("wants wanted needs like likes")

// conditionWords open a condition anywhere in a sentence; conditionCourtesy follow "if"
// without making a condition ("if you don't mind").
var conditionWords = words2set("if unless whenever")
var conditionCourtesy = [][]string{{"you", "do", "not", "mind"}, {"you", "would"}, {"you", "can"}, {"you", "could"},
	{"you", "please"}, {"possible"}, {"that", "is", "ok"}, {"that", "is", "okay"}, {"it", "is", "ok"}, {"it", "is", "okay"},
	{"you", "wouldnt", "mind"}, {"you", "would", "not", "mind"},
	// a sign asked of the robot's own state: "nod if you understand me" (builtin_frames.go: signAsked)
	{"you", "understand"}, {"you", "agree"}, {"you", "hear", "me"}, {"you", "are", "happy"}, {"you", "are", "listening"}}

// familyOfYours after "your" name someone's family: said to a person, never to the robot.
var familyOfYours = words2set("sister sisters brother brothers mum mom mummy mommy dad daddy grandma grandpa nana granny auntie aunt uncle cousin cousins homework teacher")

// speechWords flags, per word, what it may start for the speech-act rules, so a sentence's
// words are each looked up once.
const (
	swCorrection uint8 = 1 << iota // starts a correction marker
	swQuote                        // starts a quote lead
	swRelay                        // starts a relay marker
	swRelayVerb                    // a relay verb ("wants", "says")
	swCondition                    // opens a condition ("if")
)

var speechWords = func() map[string]uint8 {
	out := map[string]uint8{"you": swRelay}
	for _, m := range correctionMarkers {
		out[m[0]] |= swCorrection
	}
	for _, l := range quoteLeads {
		out[l[0]] |= swQuote
	}
	for _, m := range relayMarkers {
		out[m[0]] |= swRelay
	}
	for w := range relayVerbs {
		out[w] |= swRelayVerb
	}
	for w := range conditionWords {
		out[w] |= swCondition
	}
	return out
}()

// correctionShapes are the shapes of the first words of correctionMarkers (the words
// speechWords marks swCorrection): a word of another shape starts no correction.
var correctionShapes = func() (out wordShapes) {
	for _, m := range correctionMarkers {
		out.add(m[0])
	}
	return out
}()

// speechAct says whether a sentence quotes, relays or conditions what it names; "" when it
// does none of these. The quoted words are returned for a quotation.
func (t *Table) speechAct(n Normalized) (act string, quoted []string) {
	toks := n.tokens()
	if len(toks) < 2 {
		return "", nil
	}
	if speechWords[toks[0]]&swQuote != 0 && !n.Negated && !(toks[0] == "say" && farewellSaid[toks[1]]) { // "don't say a word", "say bye to mum, ...": nothing to repeat
		for _, l := range quoteLeads {
			if hasPrefix(toks, l) && len(toks) > len(l) {
				return actQuoted, toks[len(l):]
			}
		}
	}
	if relayOpeners[toks[0]] {
		return actRelayed, nil
	}
	if sung(toks) {
		return actSung, nil
	}
	if t.addressedElsewhere(n, toks) {
		return actAddressed, nil
	}
	for i := range toks {
		f := speechWords[toks[i]]
		if f == 0 {
			continue
		}
		if f&swRelay != 0 {
			for _, m := range relayMarkers {
				if hasPrefix(toks[i:], m) {
					return actRelayed, nil
				}
			}
		}
		if toks[i] == "you" && i+2 < len(toks) && toks[i+1] == "are" && (t.vocab.people[toks[i+2]] != "" || kinWords[toks[i+2]] || personaNow(toks[i+2:])) {
			return actRelayed, nil // "you are dad now. call mom", "you are a pirate now": a part to play, not the speaker's request
		}
		if f&swRelayVerb != 0 && i > 0 && (t.vocab.people[toks[i-1]] != "" || kinWords[toks[i-1]] || toks[i-1] == "he" || toks[i-1] == "she" || toks[i-1] == "they" || toks[i-1] == "someone") &&
			!(ownWish[toks[i]] && i+1 < len(toks) && toks[i+1] == "to") && !permissionAfter(toks, i) && !(i > 2 && reportedState(toks[i-1:])) {
			return actRelayed, nil
		}
		if f&swCondition != 0 && !conditionCourtesyAt(toks[i+1:]) {
			return actConditional, nil
		}
	}
	return "", nil
}

// personaNow: after "you are", a part given for now — "a pirate now", "an evil robot now".
func personaNow(rest []string) bool {
	if len(rest) == 0 || rest[0] != "a" && rest[0] != "an" {
		return false // "you are allowed to talk now" gives no part
	}
	rest = rest[1:]
	for i := 1; i < len(rest) && i <= 3; i++ {
		if rest[i] == "now" {
			return true
		}
	}
	return false
}

// sung: a run of a song's sounds ("la la la", "doo doo") says the words around it are sung.
func sung(toks []string) bool {
	for i := 1; i < len(toks); i++ {
		if songSounds[toks[i]] && toks[i] == toks[i-1] {
			return true
		}
	}
	return false
}

var songSounds = words2set("la lala lalala doo dee tra fa")

func conditionCourtesyAt(rest []string) bool {
	for _, c := range conditionCourtesy {
		if hasPrefix(rest, c) {
			return true
		}
	}
	return false
}

// neverActs routes a sentence that quotes, relays or conditions a command: what it would do
// is offered, never done. A quotation that would not act goes to the agent (it can say it).
func (t *Table) neverActs(n Normalized, d Decision, act string) Decision {
	what := d
	if d.Intent == IntentClarify && d.Pending != nil {
		what = Decision{Intent: d.Pending.Intent, Args: d.Pending.Args}
	}
	offer := t.offer(what)
	why := act
	out := t.decide(t.byName[IntentClarify], map[string]string{}, nil, n)
	out.Prompt = offer
	out.NotActed = why
	out.Mentions = d.Mentions
	out.Doctrine = append([]string{why + ": " + what.Intent + " is offered, not done"}, d.Doctrine...)
	return out
}

// offer words what a decision would have done, from the home's closed words only — never the
// sentence's.
func (t *Table) offer(d Decision) string {
	return "I only do what I'm asked myself. If you want me to " + t.offerWhat(d) + ", just ask me."
}

// offerWhat words what a decision would do ("turn on the kitchen light"), from the home's
// closed words only.
func (t *Table) offerWhat(d Decision) string {
	what := "do that"
	a := d.Args
	switch d.Intent {
	case "house.light.set":
		switch a["room"] {
		case "all":
			what = "turn " + a["state"] + " all the lights"
		case "":
			what = "turn the light " + a["state"]
		default:
			what = "turn " + a["state"] + " the " + a["room"] + " light"
		}
	case "house.ac.set":
		switch {
		case a["temperature"] != "":
			what = "set the " + a["room"] + " air conditioning to " + a["temperature"] + " degrees"
		case a["state"] != "":
			what = "turn " + a["state"] + " the " + a["room"] + " air conditioning"
		}
	case "timer.start":
		what = "start a timer"
		if a["duration"] != "" {
			what = "start a timer for " + spokenSeconds(a["duration"])
		}
	case "timer.cancel":
		what = "cancel the timer"
		if a["label"] == "all" {
			what = "cancel all the timers"
		}
	case "teleport.call":
		what = "call " + a["person"]
	case "privacy.set":
		what = "turn privacy mode " + a["state"]
	case IntentQuiet:
		what = "be quiet for a while"
		if a["state"] == "off" {
			what = "talk again"
		}
	case "session.end":
		what = "hang up"
	default:
		if strings.HasPrefix(d.Intent, "play.") {
			what = "start the game"
		}
	}
	return what
}

func spokenSeconds(s string) string {
	secs := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return "that long"
		}
		secs = secs*10 + int(c-'0')
	}
	return spokenDuration(secs)
}

// broadcastLeads may come before the people a broadcast or a friend is talking to.
var broadcastLeads = words2set("and so remember now")

// otherAssistants are other voice assistants' names: a sentence that opens with one is said
// to that assistant (or overheard), never to this robot.
var otherAssistants = words2set("siri alexa google cortana bixby")

// addressedElsewhere: the sentence opens by calling a person of the home, a relative or
// another voice assistant and then asks: "mom, turn off the kitchen light", "dad can you
// turn off the light", "Siri, set a timer for ten minutes", "ok google turn off the light".
// It is said to them; this robot does not act on it. (Until the fresh-6 corpus, "Alexa,
// switch on the kitchen light" was taken as the robot misnamed; a family with an Alexa in
// the room says it to the Alexa, and an answer that does not act is the safe one.)
func (t *Table) addressedElsewhere(n Normalized, toks []string) bool {
	i := 0
	if toks[0] == "hey" || toks[0] == "hi" || toks[0] == "oi" || toks[0] == "ok" || toks[0] == "okay" {
		i = 1
	}
	for i < len(toks)-1 && broadcastLeads[toks[i]] {
		i++ // "and remember folks, set a timer ...": an advert's lead-in before who it talks to
	}
	if i >= len(toks)-1 {
		return false
	}
	w := toks[i]
	if otherAssistants[w] {
		return true
	}
	for j := 0; j+1 < len(toks); j++ {
		if toks[j] == "your" && familyOfYours[toks[j+1]] {
			return true // "Lucas, stop shouting, your sister is sleeping": the robot has no sister
		}
	}
	if t.vocab.people[w] == "" && !kinWords[w] && t.vocab.wake.isName(w) {
		return false // the robot's own name, as the recogniser heard it
	}
	if l := t.vocab.lex["address.others"].at(toks, i); l > 0 && t.vocab.people[w] == "" && !kinWords[w] {
		// "Sam, go turn the kitchen light off yourself", "guys, turn the light off": said
		// to someone named, not to the robot
		name := strings.Join(toks[i:i+l], " ")
		if i+l >= len(toks) {
			return false
		}
		next := toks[i+l]
		return strings.Contains(n.raw, name+",") || next == "can" || next == "could" || next == "would" ||
			next == "will" || next == "go" || isImperativeVerb(next) && !finiteWords[next] && deviceWords[next] == "" // "kids light on": their light
	}
	if t.vocab.people[w] == "" && !kinWords[w] || strings.HasSuffix(w, "s") && t.vocab.people[w] != "" && t.vocab.people[strings.TrimSuffix(w, "s")] != "" {
		return false // "moms calendar": a possessive, not a call
	}
	next := toks[i+1]
	// a comma after the name, or a request straight after it
	comma := strings.Contains(n.raw, w+",")
	return comma || next == "can" || next == "could" || next == "would" || next == "will" ||
		next == "please" || isImperativeVerb(next) && !finiteWords[next]
}

// notARequestToMe reads a sentence that would act for what makes it no request to this robot,
// wherever it is said: taken back ("just kidding", "..., haha no"), reported ("..., mum always
// says", "..., they shouted on the telly"), a command's words named ("the title is call
// mom", "a show called call mom"), said of someone's ability ("you can't even call mom"),
// made up ("tell me a story where you call mom"), or said to someone of the family by name
// ("so dark dad could you ...", "we're done mum hang up", "turn the office light on dad").
// It returns why, or "".
// permissionAfter: "..., mom said I could", "... dad says it's ok": a permission reported
// after the request, as its reason — the request is the speaker's own. Said first ("mom
// said I could turn the AC on") it reports, and does not ask.
func permissionAfter(toks []string, i int) bool {
	if i < 3 {
		return false
	}
	rest := toks[i+1:]
	switch len(rest) {
	case 2:
		return (rest[0] == "i" || rest[0] == "we") && (rest[1] == "can" || rest[1] == "could" || rest[1] == "may" || rest[1] == "might") ||
			rest[0] == "it" && rest[1] == "is" // "it's ok": normalisation took the "ok" off the end
	case 3:
		return rest[0] == "it" && rest[1] == "is" && (rest[2] == "ok" || rest[2] == "okay" || rest[2] == "fine" || rest[2] == "alright")
	}
	return false
}

// sayInside: "say" after them is inside a description ("the game where you say simon") or a
// wish ("I want you to say it").
var sayInside = words2set("to where when which that if")

// sayers say things in general ("we say", "people say"): what follows is how they put it.
var sayers = words2set("we you they people kids children everyone everybody folks brits americans english")

func (t *Table) notARequestToMe(toks []string) string {
	k := len(toks)
	if k == 0 {
		return ""
	}
	if takenBack(toks) {
		return actTakenBack
	}
	for i, w := range toks {
		switch {
		case (reportVerbsOnly.has(w) || w == "jokes") && !(i > 0 && (toks[i-1] == "simon" || toks[i-1] == "until" || toks[i-1] == "unless" || toks[i-1] == "till")) &&
			!(i+1 < k && farewellOrSo[toks[i+1]] || i+2 < k && farewellOrSo[toks[i+2]]) && !permissionAfter(toks, i) &&
			!(i > 2 && reportedState(toks[i-1:])) && !readOffAThing(toks, i): // "... grandma says it's freezing in there": how things are, the reason
			// "simon says" is a game; "until said otherwise", "we've said goodbye" report nothing
			return actRelayed
		case w == "say" && i > 0 && i+1 < k && (sayers[toks[i-1]] || kinWords[toks[i-1]] || parentWords[toks[i-1]]) && !(i > 1 && sayInside[toks[i-2]]):
			return actQuoted // "in Turkey we say close the light", "my kids say lights out": how people put it, not a request
		case w == "cannot" && i+1 < k && (commandVerb(toks[i+1]) || familyVerb(toks[i+1]) ||
			i+2 < k && (toks[i+1] == "even" || toks[i+1] == "just") && (commandVerb(toks[i+2]) || familyVerb(toks[i+2]))):
			return actQuoted // "you can't even call mom": said of what someone can do
		case i > 1 && i+1 < k && (copulas[w] || w == "called" || w == "named" || w == "titled") && namedCommandVerbs[toks[i+1]]:
			return actQuoted // "the title of my essay is call mom", "a show called call mom"
		}
	}
	if hasPrefix(toks, []string{"tell", "me", "a", "story"}) || hasPrefix(toks, []string{"make", "up", "a"}) || hasPrefix(toks, []string{"write", "a"}) {
		return actQuoted // "tell me a story where you call mom"
	}
	for i := 1; i+1 < k; i++ { // a name said to someone before what they are asked
		w := toks[i]
		if t.vocab.people[w] == "" && !kinWords[w] || objectVerbs[toks[i-1]] {
			continue
		}
		if next := toks[i+1]; (next == "can" || next == "could" || next == "would" || next == "will") && i+2 < k && (toks[i+2] == "you" || toks[i+2] == "u") ||
			commandVerb(next) || next == "hang" {
			return actAddressed
		}
	}
	if last := toks[k-1]; k > 3 && (t.vocab.people[last] != "" || kinWords[last]) && !objectVerbs[toks[k-2]] &&
		(toks[k-2] == "on" && toks[k-3] != "up" && toks[k-3] != "in" || toks[k-2] == "off" || toks[k-2] == "please") {
		return actAddressed // "turn the office light on dad" ("hang up on grandma" is who)
	}
	return ""
}

// objectVerbs take a person as their object ("call mom", "ring dad", "tell mum"): a name
// after one is who is called, not who is spoken to.
var objectVerbs = words2set("call ring phone dial facetime tell ask text message get for to with and from video is are " +
	"busy free wake remind miss love want need see visit bye goodbye hi hello hey thank thanks night than like about of " +
	"at my our your dear")

// farewellOrSo after a report verb make it no report: "we've said goodbye", "until said otherwise".
var farewellOrSo = words2set("goodbye goodbyes bye otherwise so hello hi goodnight")

// namedCommandVerbs open a command that a copula may name as words ("the answer is turn off
// the light", "a show called call mom"); "is open", "are shut" say how a thing is.
var namedCommandVerbs = words2set("turn switch put call ring phone dial cancel start hang play set")

// familyVerb: w opens a request of the family frames (a call, a timer, privacy, a game).
func familyVerb(w string) bool {
	switch w {
	case "call", "ring", "phone", "dial", "facetime", "cancel", "start", "play", "hang", "end", "block", "enable", "disable":
		return true
	}
	return false
}

// takenBack: the speaker takes what they said back ("just kidding", "I'm joking", "jk",
// "..., haha no", "yeah right", "... maybe").
func takenBack(toks []string) bool {
	for i, w := range toks {
		if takeBacks[w] {
			return true
		}
		if i+1 < len(toks) && (w == "yeah" && (toks[i+1] == "right" || toks[i+1] == "no") || (w == "haha" || w == "lol") && toks[i+1] == "no" ||
			w == "or" && toks[i+1] == "something") {
			return true
		}
	}
	return len(toks) > 3 && (toks[len(toks)-1] == "maybe" || toks[len(toks)-1] == "no" && (toks[len(toks)-2] == "off" || toks[len(toks)-2] == "on"))
}
