package intents

import "strings"

// Where a transcript without commas parts: a reason said straight after a request ("lights
// off in the kids room they're asleep"), a command said straight after a statement ("I'm cold
// put the AC on"), and the words that keep a sentence whole — words reported, named or taken
// back ("she texted", "the example is ...", "just kidding"). appendClauses (compound.go)
// splits where these say.

// reasonSubjects open a statement said after a request without a pause; a finite verb
// (finiteWords) follows them ("they are", "i have", "we need"), except "its", which is one.
var reasonSubjects = words2set("i we they he she it its")

// clauseLinks come before a subject that belongs to the sentence's own clause: "tell me
// when it is ready", "turn it off if i am out", "I think it is on". No reason opens after one.
var clauseLinks = words2set("when if that what how why where who whom whose which whether because cause cos since as so " +
	"until till before after while once unless than and or but think know knew guess hope say said says tell told mean " +
	"sure bet believe suppose wonder remember forget see notice feel wish reckon like whenever wherever " +
	"you would could should will can may might must shall do does did") // "I wish you'd we're done ...": an unfinished wish

// objectLinks come before "it", "its" or a noun that is their object, never a new subject:
// "set the oven to its highest", "turn it on for it is ...".
var objectLinks = words2set("to for of in at with by from about into onto")

// reasonOpens: toks[i] opens a reason said after a request without a pause — a subject and
// its verb ("... they are finally asleep", "... i have an exam", "... its blinding me"), or
// a noun subject with "is"/"are" ("... the baby is asleep"). The words before must not link
// the subject into their own clause ("tell me when it is ready").
func reasonOpens(toks []string, i int) bool {
	if i < 2 || i+1 >= len(toks) {
		return false
	}
	w, next := toks[i], toks[i+1]
	switch w { // most words open no reason: one string switch, before any lookup
	case "i", "we", "they", "he", "she", "it", "its", "the", "my", "our":
	case "there":
		// "... there is a monster under the bed": what is there says why
		return !clauseLinks[toks[i-1]] && !objectLinks[toks[i-1]] && (next == "is" || next == "are") && i+2 < len(toks) && !placeStop[toks[i+2]]
	case "somebody", "someone", "nobody", "everyone", "everybody", "mom", "mum", "mommy", "mummy", "mam", "mama", "ma",
		"dad", "daddy", "papa", "pa", "nana", "nan", "gran", "granny", "grandma", "grandpa", "grandad":
		// "... somebody left it on all night", "... dad wants to see the kids": someone's own
		// doing or wish; never their words ("... dad said"), never a wish of the robot's doing
		if clauseLinks[toks[i-1]] || objectLinks[toks[i-1]] || (speechVerbs[next] || relayVerbs[next] && !ownWishTo(toks, i+1)) && !reportedState(toks[i:]) {
			return false // "... dad said" is his words; "... nana says it's freezing in there" how things are
		}
		return finiteWords[next]
	default:
		if w[len(w)-1] != 's' || !possessiveKin(w) {
			return false
		}
		// "... the bedroom light dads napping": a kin word with the "'s" of "is" folded on
		return strings.HasSuffix(next, "ing") || reasonPredicates[next]
	}
	if clauseLinks[toks[i-1]] {
		return false
	}
	if (w == "it" || w == "its" || w == "the" || w == "my" || w == "our") && objectLinks[toks[i-1]] {
		return false
	}
	switch {
	case w == "its":
		return !finiteWords[next] || next == "like" || next == "been" || next == "got" // "its freezing", "its like a sauna"; not "its is"
	case reasonSubjects[w]:
		if reasonAdverbs[next] && i+2 < len(toks) {
			next = toks[i+2] // "i really need to sleep"
		}
		return finiteWords[next] && next != "like" && next != "think" && next != "know" && next != "hope" && next != "wish"
	case w == "the" || w == "my" || w == "our":
		// "the baby is asleep", "my show is on": a noun or two, then is / are; "the kids
		// need to sleep": a noun and a verb of wanting or having
		for k := i + 2; k <= i+3 && k < len(toks); k++ {
			if toks[k] == "is" || toks[k] == "are" || toks[k] == "was" || toks[k] == "were" {
				return !functionWords[toks[k-1]]
			}
			if reasonVerbs[toks[k]] && ownWishTo(toks, k) {
				return !functionWords[toks[k-1]]
			}
		}
	}
	return false
}

// reasonVerbs after a noun open a reason when a "to" of their own follows ("the kids need
// to sleep", "the twins have to get up early").
var reasonVerbs = words2set("need needs want wants have has")

// ownWishTo: the verb at i is followed by "to" — the wish is the subject's own ("dad wants
// to see us"), not a request passed on ("dad wants you to ...").
func ownWishTo(toks []string, i int) bool {
	return i+1 < len(toks) && toks[i+1] == "to"
}

// mayAsk: toks hold a word some request is made of (a device, an action, a frame's or a
// lexicon's word, a number): only then can a reason said after them be split off — a
// general question keeps its words together, as it was said.
func (t *Table) mayAsk(toks []string) bool {
	for _, w := range toks {
		wi := t.vocab.words[w]
		if wi.lex != 0 || wi.cls&(wcAction|wcOnVerb|wcOffVerb|wcDevice|wcBuiltinFrame|wcTimerFrame|wcPlay|wcCalendar) != 0 || isDigits(w) {
			return true
		}
	}
	return false
}

// commandBlockers before a verb make it part of the statement, not a new command: "going to
// turn", "you turn", "can switch", "the call", "not put".
var commandBlockers = words2set("to you i we they he she it can could will would should shall must may might not never " +
	"do does did dont and or lets let gonna wanna a an the my your our his her their this that these those just")

// statementOpening reports how toks open, for commandOpens: stated — a statement with its
// own subject and verb ("mum is asleep", "i am cold", "its dark", "the baby is sleeping"),
// after which a command may follow (verbAfter2: not before its fourth word); felt — the
// position of a word of how it feels among the first four ("lowkey freezing"), after which a
// polite request may follow, or -1. Worked out once per sentence, not once per word.
func (t *Table) statementOpening(toks []string) (stated, verbAfter2 bool, felt int) {
	felt = -1
	if len(toks) < 3 {
		return false, false, felt
	}
	for k, w := range toks[:min(4, len(toks))] {
		if feltWords.has(w) { // wordClasses[w]&wcWarmth != 0 || feelingWords[w]
			felt = k
			break
		}
	}
	first, verb := toks[0], toks[1]
	switch {
	case speechWordsOnly.any(toks) && !hasPhrase(toks, []string{"simon", "says"}):
		return false, false, -1 // "she was shouting turn off the light": words said, not a command (the game's name says nothing)
	case first == "its":
		return true, false, felt
	case first == "the" || first == "my" || first == "our":
		return len(toks) > 3 && (toks[2] == "is" || toks[2] == "are" || len(toks) > 4 && (toks[3] == "is" || toks[3] == "are")), false, felt
	case reasonSubjects[first] || t.vocab.people[first] != "" || t.vocab.owners[first] != nil || kinWords[first] && (verb == "is" || verb == "are"):
		// "grandma is napping be quiet": a kin word of any home as the subject, with its "is"
		if reasonAdverbs[verb] {
			verb = toks[2]
		}
		stated = presentVerbs[verb]
		return stated, stated, felt // a subject's statement: the command comes after its third word
	}
	return false, false, felt
}

// presentVerbs may follow the subject of a statement said before a command: how things are
// now ("mum is asleep", "I have a headache", "we are going out"). A past ("she was ...") or a
// wish ("I want ...") is not such a statement.
var presentVerbs = words2set("is are am has have do does can cannot must should keeps stays looks feels seems gets goes")

// speechWordsOnly are speechVerbs with their shapes (statementOpening).
var speechWordsOnly = unionOf(speechVerbs)

// speechVerbs report words said: what follows them is quoted, never a command said now
// ("she was shouting turn off the light", "mom is always saying turn off the lights").
var speechVerbs = words2set("say says saying said tell tells telling told ask asks asking asked shout shouts shouting " +
	"shouted yell yells yelling yelled scream screams screaming screamed whisper whispers whispering whispered " +
	"sing sings singing sang text texts texting texted repeat repeats repeating repeated complain complains " +
	"complained complaining joked called named titled goes went")

// commandOpens: toks[i] opens a command said straight after a statement with its own subject
// ("mum is asleep turn her light off", "i am cold put the AC on", "we are going out switch
// off all the lights"), opening as statementOpening said. The statement opens with its
// subject and verb; a wish ("I want", "I need") is a request of its own and is left to the
// request rules.
func (t *Table) commandOpens(toks []string, i int, stated, verbAfter2 bool, felt int) bool {
	if i < 2 || i+1 >= len(toks) || !stated && (felt < 0 || felt >= i) {
		return false
	}
	polite := politeOpens(toks, i) || toks[i] == "you" && felt >= 0 && felt < i && commandVerb(toks[i+1]) || // a learner's "too hot like fire you open the air con"
		toks[i] == "you" && stated && (toks[i+1] == "can" || toks[i+1] == "may") && i+2 < len(toks) && commandVerb(toks[i+2]) // "the eggs are done you can cancel that timer": leave given
	if !polite && !commandVerb(toks[i]) || commandBlockers[toks[i-1]] || clauseLinks[toks[i-1]] {
		return false
	}
	if !polite && felt >= 0 && felt <= 1 && i <= 5 && !copulas[toks[i-1]] && t.vocab.people[toks[i-1]] == "" && !kinWords[toks[i-1]] {
		return true // "too bright in here turn it off", "so hot put the ac on": how it feels, then the command
	}
	if last := toks[i-1]; copulas[last] || t.vocab.people[last] != "" || kinWords[last] || t.vocab.owners[last] != nil ||
		!stativeEnd(last) && t.vocab.rooms[last] == nil && !(polite && toks[i] == "you") { // ("too hot like fire you open ...": how it feels, then the learner's request)
		// "the example is cancel the timer": the command is what the statement says;
		// "I'm bored dad start a timer", "it's late jack turn ...": said to someone else
		return false
	}
	if countCopulas(toks[:i]) > 1 || countCopulas(toks[i:]) > 0 {
		// "the first rule is mum is asleep turn ...", "I'm cold put the AC on is all I hear":
		// a sentence about the words, not a command
		return false
	}
	if polite && felt >= 0 && felt < i && i <= 4 {
		return true // "lowkey freezing can u put the bedroom ac on 25", "so dark could you ..."
	}
	return stated && (!verbAfter2 || i > 2)
}

// copulas join a subject to what it is.
var copulas = words2set("is are am was were")

func countCopulas(toks []string) int {
	n := 0
	for _, w := range toks {
		if copulas[w] {
			n++
		}
	}
	return n
}

// stativeEnd: w may end a statement said before a command — how someone or something is
// ("asleep", "cold", "reading", "back", "done"), not a name said to get someone's attention
// ("I'm bored dad ...", "it's late jack ...").
func stativeEnd(w string) bool {
	return statives[w] || feelingWords[w] || wordClasses[w]&(wcWarmth|wcExplained) != 0 && !functionWords[w] ||
		len(w) > 4 && (strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ed")) || isDigits(w)
}

// statives say how someone or something is, at the end of a statement before a command.
var statives = words2set("asleep awake bored tired late early back home out done ready finished busy sick ill hungry " +
	"thirsty scared afraid upset sad happy cross grumpy noisy loud quiet dark bright cold hot warm freezing boiling " +
	"roasting here there now again already today tonight outside inside bed work school away gone over up")

// speechVerbs and quoteNouns report words said, and takeBacks take a request back: where
// one is, nothing said is split into a reason and a request ("she texted", "is a lie",
// "the example is ...", "just kidding").
var quoteNouns = words2set("example phrase answer command lyric lyrics lesson advice instructions instruction rule " +
	"title line sentence excuse lie message quote saying slogan password motto")

var takeBacks = words2set("kidding joking jk jking")

// reportVerbs say that words were said, by someone (a past or a third person): a reason
// that holds one reports ("..., she texted", "..., mum always says").
var reportVerbs = words2set("said says told tells texted texts shouted shouts yelled yells screamed screams whispered " +
	"whispers complained complains asked asks wrote writes sang sings repeated repeats joked messaged")

// reportVerbsOnly are reportVerbs with their shapes (notARequestToMe).
var reportVerbsOnly = unionOf(reportVerbs)

// reportedOrTakenBack: toks report words said ("she texted", "is a lie", "was the message")
// or take a request back ("I'm joking"): never a reason beside a request.
func reportedOrTakenBack(toks []string) bool {
	if !reportedWords.any(toks) || !anyOf(toks, reportVerbs) && !anyOf(toks, takeBacks) && !(anyOf(toks, quoteNouns) && anyOf(toks, copulas)) {
		return false // each test below needs a report verb, a take-back, or a copula and a quotation's noun
	}
	for i, w := range toks {
		if reportVerbs[w] && !(i > 0 && toks[i-1] == "simon") || takeBacks[w] { // "simon says" is a game
			return true
		}
		if copulas[w] && (i+1 < len(toks) && quoteNouns[toks[i+1]] || i+2 < len(toks) && quoteNouns[toks[i+2]] ||
			i+3 < len(toks) && quoteNouns[toks[i+3]]) {
			return true // "is a lie", "was her excuse", "is a line from the film"
		}
	}
	return false
}

// reportedWords: reportedOrTakenBack needs one of them (a report verb, a take-back or a
// quotation's noun) before it reads further.
var reportedWords = unionOf(reportVerbs, takeBacks, quoteNouns)

// quotedOrTakenBack: toks report words said (a speech verb, a quotation's noun) or take the
// request back.
func quotedOrTakenBack(toks []string) bool {
	if !quotedWords.any(toks) { // a word in any of them: most sentences have none
		return false
	}
	for i, w := range toks {
		if speechVerbs[w] && !(i > 0 && toks[i-1] == "simon") || takeBacks[w] || quoteNouns[w] && !(i > 0 && toks[i-1] == "to") {
			return true // after "to" a quotation's noun is a verb: "I've got emails to answer"; "simon says" is a game
		}
	}
	return false
}

// quotedWords are the words quotedOrTakenBack looks for.
var quotedWords = unionOf(speechVerbs, quoteNouns, takeBacks)

// commandVerb: w can open a command said after a statement ("... turn her light off").
func commandVerb(w string) bool {
	return w != "set" && w != "left" && (wordClasses[w]&(wcAction|wcOnVerb|wcOffVerb) != 0 || w == "cancel" || w == "hang" || w == "mute" ||
		quietOpeners[w])
}

// quietOpeners open a request for quiet, a game or privacy said straight after a statement:
// "the baby is asleep be quiet for an hour", "I'm on a call stay quiet for twenty minutes",
// "we are bored let's play simon says", "I'm getting changed privacy mode please".
var quietOpeners = words2set("be stay keep shh shush hush lets let privacy give pipe zip hold")

// feelingWords say how a room feels, as a reason before a request: "boiling, can you ...".
var feelingWords = words2set("dark gloomy bright boiling roasting baking sweltering stuffy muggy humid sweating dim pitch sauna blinding")

// feltWords are the words of warmth (wcWarmth) and feelingWords: statementOpening's one
// lookup for both.
var feltWords = unionOf(feelingWords, func() wordSet {
	out := wordSet{}
	for w, c := range wordClasses {
		if c&wcWarmth != 0 {
			out[w] = true
		}
	}
	return out
}())

// politeOpens: toks[i] opens a polite request to act ("could you turn ...", "can u put ...").
func politeOpens(toks []string, i int) bool {
	return (toks[i] == "can" || toks[i] == "could" || toks[i] == "would" || toks[i] == "will") && i+2 < len(toks) &&
		(toks[i+1] == "you" || toks[i+1] == "u") && wordClasses[toks[i+2]]&(wcAction|wcOnVerb|wcOffVerb) != 0
}

// commandAfterStatement: a command opens somewhere after the sentence's first words, said
// straight after a statement (commandOpens).
func (t *Table) commandAfterStatement(n Normalized) bool {
	toks := n.tokens()
	stated, verbAfter2, felt := t.statementOpening(toks)
	if !stated && felt < 0 || quotedOrTakenBack(toks) {
		return false
	}
	for i := 2; i < len(toks); i++ {
		if t.commandOpens(toks, i, stated, verbAfter2, felt) {
			return true
		}
	}
	return false
}

// mayBeCompound is a cheap test before splitting: a joining word, or more than one part
// between punctuation that asks for something ("Hey Jeeves, turn on the light, please." has
// one).
func mayBeCompound(n Normalized) bool {
	toks := n.tokens()
	for i, w := range toks {
		if separatorShapes.may(w) && clauseSeparators[w] && !joinsInsidePhrase(toks, i) || w == "so" && soCommand(toks, i) || i > 1 && reasonOpens(toks, i) {
			return true
		}
	}
	if !strings.ContainsAny(strings.TrimRight(n.raw, ".!?\" "), ".!?;:,") {
		return false
	}
	meaningful := 0
	var buf [32]string // a piece's words, only read here
	var pieces [8]string
	for _, piece := range appendRawParts(pieces[:0], n.raw) {
		for _, w := range appendTokens(buf[:0], joinSigns(piece), false) { // tokenize(piece)
			if !ignorableWords[w] && !leadFillers[w] && w != "hey" && w != "hi" && w != "hello" {
				meaningful++
				break
			}
		}
	}
	return meaningful > 1
}

// joinsInsidePhrase: the joining word toks[i] is inside a number or a range, not between
// two requests: "2 thousand and 17", "2 plus 2", "between 6 and 9 am", "between today and the
// 21st", "the return after 5 years".
func joinsInsidePhrase(toks []string, i int) bool {
	if i == 0 || i+1 >= len(toks) {
		return false
	}
	switch toks[i] {
	case "and", "plus":
		if numeric(toks[i-1]) && numeric(toks[i+1]) {
			return true
		}
		if toks[i] == "and" {
			for j := i - 1; j >= 0 && j >= i-4; j-- {
				if toks[j] == "between" {
					return true
				}
				if clauseSeparators[toks[j]] {
					break
				}
			}
		}
	case "after":
		return isDigits(toks[i+1]) || numberWords[toks[i+1]]
	}
	return false
}

// numeric: a number said in digits or in a number word ("2", "thousand", "hundred").
func numeric(w string) bool {
	return isDigits(w) || numberWords[w] || w == "hundred" || w == "thousand" || w == "million"
}

// soCommand: toks[i] is a "so" between a reason and a command ("I'm making dinner so
// kitchen light on", "we're going out so turn off all the lights"): what follows opens as a
// command, and a statement with a subject comes before.
func soCommand(toks []string, i int) bool {
	if toks[i] != "so" || i < 2 || i+2 >= len(toks) || !reasonLeads[toks[0]] && !kinWords[toks[0]] && !possessiveKin(toks[0]) {
		return false
	}
	next := toks[i+1]
	return isImperativeVerb(next) && !finiteWords[next] && next != "i" || deviceWords[next] != "" || roomLike(next) ||
		next == "stay" || next == "keep" // "grandpa's napping so stay silent for half an hour"
}
