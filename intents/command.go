package intents

import "strings"

// The command rule, decided here and nowhere else: a sentence found by its mentions (a house
// write, a timer start or cancel, a hang-up) acts only when it is POSITIVELY a request to act
// now — an imperative ("turn off the kitchen light"), a polite request ("could you ...",
// "would you be so kind as to ..."), a wish put as a request ("I want the lights on", "I need
// the AC at 21"), a verbless command ("kitchen lights on, please", "lights out in the kids
// room"), or a permission ("you can hang up now"). Anything else — a statement, the past, the
// future, "no need to", a wish or a complaint, a report, a condition — is not a request, and
// commandForm says which, so the route can explain it.

// Sentence forms. Only FormImperative acts.
const (
	FormImperative  = "imperative"
	FormQuestion    = "question"
	FormIndirect    = "indirect"
	FormNegated     = "negated"
	FormReported    = "reported"
	FormCorrected   = "corrected"
	FormConditional = "conditional"
	FormPast        = "past"
	FormFuture      = "future"
	FormWish        = "wish"
	FormStatement   = "statement"
)

// formNeverActs words, for each form that does not act, why it did not.
var formNeverActs = map[string]string{
	FormQuestion:    "a question, not a request",
	FormIndirect:    "an indirect question, not a request",
	FormNegated:     "a negated command (\"don't\", \"no need to\")",
	FormReported:    "reported speech, not a request",
	FormCorrected:   "the speaker corrected themselves",
	FormConditional: "a condition (\"if ...\"), not a request to act now",
	FormPast:        "past tense, not a request",
	FormFuture:      "future tense, not a request to act now",
	FormWish:        "a wish or a complaint, not a request",
	FormStatement:   "a statement, not a request",
}

// commandForm says what kind of sentence toks is. It is an imperative only when a request
// to act now is positively recognised; every other sentence gets the form that explains
// why it is not one.
func commandForm(toks []string, n Normalized) string {
	switch {
	case n.Negated || noNeed(toks):
		return FormNegated
	case reported(toks):
		return FormReported
	case corrected(toks):
		return FormCorrected
	case conditional(toks):
		return FormConditional
	case laterSaid(toks):
		return FormFuture // "next time turn off the kitchen light", "call dad tomorrow": not now
	case indirect(toks):
		return FormIndirect
	case n.Question && !tagQuestion(toks, n):
		return FormQuestion
	case isRequest(toks, n):
		return FormImperative
	case len(toks) > 4 && isRequest(cutReason(toks), n) && len(cutReason(toks)) < len(toks):
		return FormImperative // "lights off everywhere, we're going out"
	}
	return notRequestForm(toks)
}

// questionTags end a request that the "?" made look like a question: "pop the light on,
// would you?".
var questionTags = [][]string{{"would", "you"}, {"will", "you"}, {"could", "you"}, {"can", "you"}, {"yeah"}, {"ok"},
	{"okay"}, {"right"}, {"alright"}, {"yes"}}

// tagQuestion: a request that is a question only by its "?" or its tag ("turn the light on,
// would you?"), or a polite request as children and texts write it ("can u turn the light on").
func tagQuestion(toks []string, n Normalized) bool {
	if len(toks) > 2 && (toks[0] == "can" || toks[0] == "could" || toks[0] == "would" || toks[0] == "will") &&
		(toks[1] == "u" || toks[1] == "ya" || toks[1] == "yer") && isImperativeVerb(toks[2]) {
		return true
	}
	// "Can I have the lounge light off?", "could we get the AC on?": asking to be given a
	// state is a request ("can I turn it off?" asks for permission, and is a question).
	if len(toks) > 3 && (toks[0] == "can" || toks[0] == "could" || toks[0] == "may") && (toks[1] == "i" || toks[1] == "we") &&
		(toks[2] == "have" || toks[2] == "get") {
		return true
	}
	// "would it be possible to have the bedroom AC on at 22", "could we get the lights off":
	// the polite lead is gone, and asking to have a state is a request.
	if haveState(toks, n) {
		return true
	}
	if deviceMayGo(toks) {
		return true // "can the kids room light go back on?": asked to let it go on
	}
	// "Is it possible to turn on the kitchen light?", "would it be possible to ...".
	for _, lead := range [][]string{{"is", "it", "possible", "to"}, {"would", "it", "be", "possible", "to"}} {
		if hasPrefix(toks, lead) && len(toks) > len(lead) && isImperativeVerb(toks[len(lead)]) {
			return true
		}
	}
	if len(toks) == 0 || questionWords[toks[0]] || doQuestion(toks) {
		return false
	}
	for _, tag := range questionTags {
		if len(toks) > len(tag) && hasSuffix(toks, tag) {
			return isRequest(toks[:len(toks)-len(tag)], n)
		}
	}
	return false
}

// requestLeads open a request without changing what is asked: "just", "go on", "be so kind
// as to", "do me a favour and", "you can" (permission: "you can hang up now").
var requestLeads = [][]string{
	{"be", "so", "kind", "as", "to"}, {"be", "kind", "enough", "to"}, {"be", "a", "dear", "and"}, {"be", "a", "love", "and"},
	{"do", "me", "a", "favour", "and"}, {"do", "me", "a", "favor", "and"}, {"do", "us", "a", "favour", "and"},
	{"do", "us", "a", "favor", "and"}, {"go", "on", "and"}, {"go", "on"}, {"come", "on"}, {"you", "can"}, {"you", "may"},
	{"you", "could"}, {"can", "u"}, {"could", "u"}, {"would", "u"}, {"can", "ya"}, {"could", "ya"}, {"would", "ya"}, {"will", "ya"}, {"can", "ye"}, {"could", "ye"}, {"will", "ye"},
	{"just"}, {"quickly"}, {"quick"}, {"kindly"}, {"now"}, {"right"}, {"hey"}, {"oi"}, {"whoa"}, {"woah"},
	{"okay"}, {"ok"}, {"alright"}, {"then"}, {"and"}, {"also"}, {"oh"}, {"so"}, {"mind"}, {"try", "and"}, {"try", "to"},
	{"thanks"}, {"thank", "you"}, {"cheers"}, // "thanks, now cancel the timer": thanks for what was done, then the request
	{"to"}, // "please to turn on light in kitchen": "please" is already off
	{"awfully"}, {"terribly"}, {"ever", "so"}, {"quite"}, {"possibly"}, {"perhaps"},
	// a statement that the talk is over, before what to do about it: "we're done, end the call"
	{"we", "are", "done"}, {"we", "are", "finished"}, {"i", "am", "done"}, {"i", "am", "finished"}, {"that", "is", "all"},
	{"that", "is", "it"},
}

// requestLeadStarts are the first words of requestLeads: most sentences start with none.
var requestLeadStarts = func() map[string]bool {
	out := map[string]bool{}
	for _, l := range requestLeads {
		out[l[0]] = true
	}
	return out
}()

// requestLeadsByFirst are requestLeads by their first word, each word's in their order.
var requestLeadsByFirst = func() map[string][][]string {
	out := map[string][][]string{}
	for _, l := range requestLeads {
		out[l[0]] = append(out[l[0]], l)
	}
	return out
}()

// stripRequestLeads takes requestLeads off the start of toks.
func stripRequestLeads(toks []string) []string {
	for changed := true; changed && len(toks) > 1; {
		changed = false
		for _, l := range requestLeadsByFirst[toks[0]] { // those that can match, in requestLeads' order
			if len(toks) > len(l) && hasPrefix(toks, l) {
				toks, changed = toks[len(l):], true
				break
			}
		}
	}
	return toks
}

// imperativeVerbs open a command: the house verbs (actionVerbs, onVerbs, offVerbs) and these.
var imperativeVerbs = map[string]bool{"chuck": true, "bung": true, "whack": true, "pop": true, "flick": true, "cancel": true, "hang": true, "disconnect": true,
	"end": true, "forget": true, "delete": true, "remove": true, "clear": true, "begin": true, "create": true, "add": true,
	"give": true, "show": true, "do": true, "mute": true, "silence": true, "stick": true, "count": true, "time": true,
	"lights": true, "light": true, "switch": true, "shush": true, "hush": true, "cool": true, "warm": true, "heat": true,
	"darken": true, "connect": true, "pretend": true, "ring": true, "phone": true, "dial": true, "call": true,
	"facetime": true, "play": true, "guess": true, "block": true, "unblock": true, "remind": true, "wake": true,
	"be": true}

// isImperativeVerb: a word that can open a command.
func isImperativeVerb(w string) bool {
	return imperativeVerbs[w] || wordClasses[w]&(wcAction|wcOnVerb|wcOffVerb) != 0
}

// gerunds of the verbs a polite request may use: "would you mind turning off the light".
var gerunds = map[string]bool{"turning": true, "switching": true, "putting": true, "setting": true, "shutting": true,
	"killing": true, "cutting": true, "starting": true, "stopping": true, "cancelling": true, "canceling": true,
	"making": true, "getting": true, "popping": true, "flicking": true, "hanging": true, "ending": true, "dimming": true}

// desireLeads ask for a state: "I want the lights on", "we need the ac at 21", "I would like
// the kitchen light off". "I want to know" is an indirect question (checked before).
var desireLeads = [][]string{{"i", "want"}, {"i", "need"}, {"we", "want"}, {"we", "need"}, {"i", "would", "like"},
	{"we", "would", "like"}, {"i", "would", "love"}, {"i", "will", "have"}, {"i", "will", "take"}}

// isRequest recognises a request to act now.
func isRequest(toks []string, n Normalized) bool {
	toks = stripRequestLeads(toks)
	if len(toks) == 0 {
		return false
	}
	w := toks[0]
	switch {
	case w == "light" || w == "lights":
		// "light up the kitchen" is a verb; "lights out", "lights on" a verbless command.
		return verbless(toks)
	case isImperativeVerb(w) && !(w == "do" && len(toks) > 1 && (toks[1] == "you" || toks[1] == "i" || toks[1] == "we")):
		return true
	case gerunds[w] && n.Polite:
		return true
	case w == "you" && len(toks) > 1 && isImperativeVerb(toks[1]) && !pastWords[toks[1]] && (n.Polite || len(toks) <= 6 && wordClasses[toks[1]]&(wcAction|wcOnVerb|wcOffVerb) != 0 &&
		!anyOf(toks, wordSet(pastWords)) && !anyOf(toks, wordSet(futureWords)) && !contains(toks, "when") && !contains(toks, "every") && !contains(toks, "if")):
		return true // "please you open the light of the office": a command as many learners say it
	case w == "let" && len(toks) > 2 && toks[1] == "us" && isImperativeVerb(toks[2]), // "let me turn it off": the speaker will
		w == "lets" && len(toks) > 1 && isImperativeVerb(toks[1]):
		return true
	case (w == "somebody" || w == "someone" || w == "anybody" || w == "anyone") && len(toks) > 2 && isImperativeVerb(toks[1]) &&
		!pastAlike[toks[1]] && !pastWords[toks[1]]:
		return true // "somebody get that kitchen light": said to whoever hears, the robot too ("somebody put it on" may tell what was done)
	case w == "ensure" || w == "make" && len(toks) > 1 && toks[1] == "sure":
		return true
	case haveState(toks, n):
		return true
	case deviceMayGo(toks):
		return true // "the bedroom light can go off now"
	}
	for _, l := range desireLeads {
		if hasPrefix(toks, l) && len(toks) > len(l) && toks[len(l)] != "to" || hasPrefix(toks, l) && len(toks) > len(l)+1 && toks[len(l)] == "to" && isImperativeVerb(toks[len(l)+1]) {
			return true
		}
	}
	if verbless(toks) && !isContraction(n.raw) {
		return true
	}
	if len(toks) > 3 && (w == "can" || w == "could" || w == "may") && (toks[1] == "i" || toks[1] == "we") && (toks[2] == "have" || toks[2] == "get") ||
		hasPrefix(toks, []string{"is", "it", "possible", "to"}) || hasPrefix(toks, []string{"would", "it", "be", "possible", "to"}) {
		return tagQuestion(toks, n) // the polite questions tagQuestion lets through
	}
	return embeddedRequest(toks)
}

// finiteWords make a sentence a statement about something rather than a verbless command:
// "the kitchen light IS on" reports; "kitchen light on" asks.
var finiteWords = map[string]bool{"is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "am": true,
	"has": true, "have": true, "had": true, "do": true, "does": true, "did": true, "will": true, "would": true, "shall": true,
	"should": true, "can": true, "could": true, "may": true, "might": true, "must": true, "cannot": true, "wish": true,
	"hope": true, "think": true, "need": true, "needs": true, "want": true, "wants": true, "like": true, "likes": true,
	"love": true, "hate": true, "went": true, "came": true, "got": true, "gotta": true,
	// a device verb with its subject's -s says what someone does: "my character turns off the lights"
	"turns": true, "switches": true, "puts": true, "shuts": true, "flips": true, "kills": true, "gets": true, "goes": true, "stays": true,
	"stayed": true, "looks": true, "feels": true, "seems": true, "said": true, "says": true, "told": true, "know": true,
	"forgot": true, "left": true, "turned": true, "switched": true, "killed": true, "powered": true, "activated": true,
	"deactivated": true, "keeps": true, "kept": true, "stay": true, "remain": true, "remains": true, "gonna": true}

// notCommandStarts open a sentence that is about something, not a verbless command.
var notCommandStarts = map[string]bool{"i": true, "you": true, "he": true, "she": true, "it": true, "we": true, "they": true,
	"there": true, "no": true, "not": true, "yesterday": true, "tomorrow": true, "earlier": true, "later": true, "last": true,
	"tonight": true, "someone": true, "somebody": true, "nobody": true, "everyone": true, "everybody": true, "if": true,
	"when": true, "once": true, "because": true, "since": true, "as": true, "maybe": true, "perhaps": true, "too": true,
	"so": true, "that": true, "this": true, "what": true, "why": true, "how": true, "who": true, "where": true,
	"thanks": true, "thank": true, "sorry": true, "great": true, "good": true, "nice": true, "ugh": true}

// verbless: a command without a verb — a device or place and what it should be, with no verb
// that would make it a statement ("kitchen lights on", "lights out in the kids room",
// "bedroom ac to 21", "a 10 minute timer").
func verbless(toks []string) bool {
	if len(toks) == 0 || notCommandStarts[toks[0]] {
		return false
	}
	if w := toks[0]; !(verblessStarts[w] || wordClasses[w]&(wcDevice|wcAll) != 0 || isDigits(w) || roomLike(w)) {
		return false // "thanks for turning off the lights" is not "lights off"
	}
	for i, w := range toks {
		if w == "still" || reportWords.has(w) { // finiteWords, gerunds, reportGerunds, pastWords, futureWords
			return false // "the kitchen light still on", "lights going off": a report
		}
		if i+1 < len(toks) && (w == "every" || w == "each" || w == "at" || w == "all" || w == "in") && timesOfDay[toks[i+1]] {
			return false // "kitchen light on every night", "lights off at night": a habit or a later time
		}
		if w == "me" || w == "us" || w == "how" || w == "what" || w == "why" || w == "when" ||
			w == "to" && i+1 < len(toks) && (isImperativeVerb(toks[i+1]) || gerunds[toks[i+1]]) {
			return false // "remember to turn off the light", "teach me how to ...": something else is asked
		}
	}
	return true
}

// reportWords are the words that make a verbless sentence a report (verbless): one lookup
// for the five lists.
var reportWords = unionOf(finiteWords, gerunds, reportGerunds, pastWords, futureWords)

// timesOfDay after "every", "each", "at", "all" or "in" make a verbless sentence a habit or a
// later time, not a command for now.
var timesOfDay = map[string]bool{"night": true, "day": true, "morning": true, "evening": true, "afternoon": true,
	"weekend": true, "week": true, "time": true, "night's": true, "nights": true, "mornings": true, "evenings": true}

// reportGerunds make a verbless sentence a report: "lights going off", "ac still running".
var reportGerunds = map[string]bool{"going": true, "coming": true, "staying": true, "being": true, "getting": true,
	"running": true, "burning": true, "working": true, "blowing": true, "flickering": true}

// verblessStarts may open a verbless command, with device words, "all" words, numbers and
// room words: "the kitchen light off", "a 10 minute timer", "both lights on".
var verblessStarts = map[string]bool{"the": true, "a": true, "an": true, "my": true, "our": true, "both": true,
	"timer": true, "pasta": true, "big": true, "main": true, "ceiling": true, "lamp": true, "bedside": true, "front": true,
	"back": true, "upstairs": true, "downstairs": true, "kids": true, "kid": true, "baby": true, "top": true, "night": true}

// roomLike: a word that may start a room's name. The command rule is the table's, but a
// verbless command's first word only has to look like a place: "kitchen lights on",
// "lounge lamp off". Any word that is not a function word or a known verb qualifies when it
// is followed by a device word — checked by the frame, which needs a device anyway.
func roomLike(w string) bool {
	return !functionWords[w] && !isImperativeVerb(w) && !gerunds[w] && !finiteWords[w] && !pastWords[w] &&
		!futureWords[w] && !wishWords[w] && w != "thanks" && w != "thank" && w != "sorry" && w != "great" && w != "good" &&
		w != "nice" && w != "well" && w != "oh" && w != "yes" && w != "yeah" && w != "ok" && w != "okay"
}

// isContraction: the transcript holds "X's" where it means "X is" ("the kitchen light's
// still on", "the thermostat's off"), which the normalizer folds into "lights" like a
// possessive. It is "is" when what follows is no noun: a state, an adverb, the end.
func isContraction(raw string) bool {
	for i := strings.Index(raw, "'s"); i >= 0; {
		rest := strings.TrimLeft(raw[i+2:], " ")
		next, _, _ := strings.Cut(rest, " ")
		next = strings.TrimRight(next, ".,!?;:")
		if rest == "" || strings.ContainsAny(raw[i+2:min(i+3, len(raw))], ".,!?;:") || contractedNext[next] {
			return true
		}
		j := strings.Index(raw[i+2:], "'s")
		if j < 0 {
			break
		}
		i += 2 + j
	}
	return false
}

// contractedNext follow "'s" when it is "is": "the light's on", "it's still off".
var contractedNext = map[string]bool{"on": true, "off": true, "out": true, "still": true, "not": true, "been": true,
	"got": true, "gone": true, "left": true, "broken": true, "working": true, "already": true, "too": true, "so": true,
	"really": true, "very": true, "back": true, "up": true, "down": true, "dark": true, "bright": true, "hot": true,
	"cold": true, "warm": true, "set": true, "switched": true, "turned": true, "always": true, "never": true, "at": true,
	"in": true, "done": true, "finished": true, "running": true, "going": true, "just": true, "now": true}

// embeddedRequest: a polite request after a reason, without punctuation between them ("it's
// too bright in here can you turn a light off").
func embeddedRequest(toks []string) bool {
	for i := 1; i+2 < len(toks); i++ {
		if (toks[i] == "can" || toks[i] == "could" || toks[i] == "would" || toks[i] == "will") && toks[i+1] == "you" && isImperativeVerb(toks[i+2]) {
			return true
		}
	}
	return false
}

// noNeed: "no need to turn on the light", "there's no need to ...", "don't bother".
func noNeed(toks []string) bool {
	for i, w := range toks {
		if w == "no" && i+1 < len(toks) && (toks[i+1] == "need" || toks[i+1] == "point" || toks[i+1] == "reason") {
			return true
		}
		if w == "bother" || w == "needless" {
			return true
		}
		if w == "not" || w == "never" {
			return true
		}
	}
	return false
}

// conditional: "if it gets dark, turn on the light", "when I get home switch on the ac".
func conditional(toks []string) bool {
	if len(toks) == 0 {
		return false
	}
	switch toks[0] {
	case "if", "when", "whenever", "once", "unless", "until", "till", "after", "before":
		return true
	case "in":
		return len(toks) > 1 && toks[1] == "case"
	case "as":
		return len(toks) > 1 && toks[1] == "soon"
	}
	return false
}

var pastWords = map[string]bool{"yesterday": true, "earlier": true, "ago": true, "last": true, "turned": true, "switched": true,
	"killed": true, "powered": true, "activated": true, "deactivated": true, "was": true, "were": true, "did": true, "had": true,
	"left": true, "forgot": true, "already": true, "went": true, "came": true, "started": true, "cancelled": true,
	"canceled": true, "stopped": true, "hung": true, "ended": true, "since": true,
	// Habits are told, not asked for: "kitchen light on every night", "always lights off".
	"always": true, "usually": true, "sometimes": true, "often": true, "normally": true}

var futureWords = map[string]bool{"will": true, "going": true, "gonna": true, "tomorrow": true, "later": true, "shall": true,
	"tonight": true, "soon": true}

var wishWords = map[string]bool{"wish": true, "hope": true, "too": true, "freezing": true, "boiling": true, "roasting": true,
	"baking": true, "dark": true, "bright": true, "cold": true, "hot": true, "warm": true, "chilly": true, "stuffy": true,
	"should": true, "ought": true, "would": true, "love": true, "hate": true, "miss": true}

// notRequestForm names what a sentence that is not a request is.
func notRequestForm(toks []string) string {
	for _, w := range toks {
		if pastWords[w] {
			return FormPast
		}
	}
	for _, w := range toks {
		if futureWords[w] {
			return FormFuture
		}
	}
	for _, w := range toks {
		if wishWords[w] {
			return FormWish
		}
	}
	return FormStatement
}

// unsupportedWords are modes and settings the home cannot set: a sentence that asks for one
// is not acted on, even with a state in it ("put the bedroom ac on fan mode" is not "on").
var unsupportedWords = map[string]bool{"mode": true, "modes": true, "fan": true, "brightness": true,
	"brighter": true, "brighten": true, "dim": true, "dimmer": true, "dimmed": true, "dimmest": true, "colour": true,
	"color": true, "colours": true, "colors": true, "red": true, "blue": true, "green": true, "yellow": true, "purple": true,
	"pink": true, "orange": true, "white": true, "violet": true, "percent": true, "level": true, "speed": true, "swing": true,
	"dry": true, "eco": true, "heat": true, "heating": true, "auto": true, "automatic": true, "turbo": true,
	"boost": true, "hue": true, "shade": true, "intensity": true, "strobe": true, "flash": true,
	"blink": true, "flicker": true, "disco": true, "max": true, "maximum": true, "minimum": true, "min": true,
	"low": true, "high": true, "medium": true, "half": true, "humidity": true, "dehumidify": true, "timer": true}

// reasonConjunctions open the reason given for a command.
var reasonConjunctions = map[string]bool{"because": true, "cause": true, "cos": true, "coz": true, "so": true,
	"since": true, "as": true}

// unsupportedSetting reports whether a house command asks for a mode or setting the home
// does not have: one of unsupportedWords, or a number for a light ("the lights to 50").
func unsupportedSetting(toks []string, dev string) bool {
	for _, w := range toks {
		if reasonConjunctions[w] {
			return false // "... because I'm going to sleep": the reason is not a setting
		}
		if unsupportedWords[w] || dev == "light" && isDigits(w) {
			return true
		}
	}
	return false
}

// The forms the command rule reads before it looks for a request.

var indirectLeads = [][]string{
	{"tell", "me", "if"}, {"tell", "me", "whether"}, {"let", "me", "know", "if"}, {"let", "me", "know", "whether"},
	{"check", "if"}, {"check", "whether"}, {"see", "if"}, {"see", "whether"}, {"find", "out", "if"}, {"find", "out", "whether"},
	{"tell", "me", "which"}, {"tell", "me", "how"}, {"tell", "me", "what"}, {"tell", "me", "where"}, {"i", "wonder"},
	{"i", "would", "like", "to", "know"}, {"i", "want", "to", "know"}, {"i", "need", "to", "know"}, {"any", "idea"},
	{"check", "on"}, {"check", "the"}, {"check"}, {"look", "if"}, {"look", "whether"}, {"show", "me"},
}

// indirectStarts are the first words of indirectLeads: most sentences start with none.
var indirectStarts = func() map[string]bool {
	out := map[string]bool{}
	for _, l := range indirectLeads {
		out[l[0]] = true
	}
	return out
}()

func indirect(toks []string) bool {
	if len(toks) == 0 || !indirectStarts[toks[0]] {
		return false
	}
	for _, l := range indirectLeads {
		if hasPrefix(toks, l) {
			return true
		}
	}
	return false
}

// reported speech: someone else's words are quoted, not a request ("mom said to turn off the
// lights", "she told me to switch on the ac").
func reported(toks []string) bool {
	for i, w := range toks {
		switch w {
		case "said", "says", "told", "tells", "asked", "asks", "wants", "wanted", "suggested", "suggests":
			if (w == "said" || w == "says") && i+1 < len(toks) && farewellSaid[toks[i+1]] {
				return false // "we've said our goodbyes": said, not reported
			}
			return i > 0 && toks[0] != "please"
		}
		if wordClasses[w]&(wcAction|wcOnVerb|wcOffVerb) != 0 {
			return false
		}
	}
	return false
}

// corrected: the speaker changed their mind mid-sentence ("the kitchen, no, I mean the
// bedroom light"): nothing is done on a guess.
func corrected(toks []string) bool {
	for i, w := range toks {
		switch {
		case w == "mean" && i > 0 && toks[i-1] == "i":
			return true
		case w == "actually" || w == "sorry" || w == "instead" || w == "rather" || w == "wait" && i > 0:
			return true
		case w == "no" && i > 0 && i+1 < len(toks) && toks[i-1] != "is" && toks[i-1] != "are" && toks[i-1] != "or": // "yes or no"
			return true
		}
	}
	return false
}

// farewellSaid after "said" is what was said, not a report of a request: "we've said goodbye".
var farewellSaid = words2set("goodbye goodbyes bye byes our good hello hi goodnight night")

// laterTimes put a request off to another time: "next time ...", "... tomorrow", "in the
// morning ...". (A length — "in ten minutes" — is a timer's, not one of these.)
var laterTimes = [][]string{{"next", "time"}, {"another", "time"}, {"some", "other", "time"}, {"in", "the", "morning"},
	{"tomorrow"}, {"next", "week"}, {"next", "weekend"}, {"later", "on"}, {"the", "day", "after"},
	{"on", "monday"}, {"on", "tuesday"}, {"on", "wednesday"}, {"on", "thursday"}, {"on", "friday"}, {"on", "saturday"}, {"on", "sunday"}}

// clockAsks ask for something at a clock time: their own frame says it cannot.
var clockAsks = words2set("alarm alarms remind reminder wake")

// laterSaid: toks put what they ask off to another time.
func laterSaid(toks []string) bool {
	if anyOf(toks, clockAsks) {
		return false // "set an alarm for six tomorrow": a clock time, which the timer frame answers
	}
	for i, w := range toks {
		switch w {
		case "next", "another", "some", "in", "tomorrow", "later", "the", "on":
			for _, p := range laterTimes {
				if p[0] == w && hasPrefix(toks[i:], p) {
					return true
				}
			}
		}
	}
	return false
}
