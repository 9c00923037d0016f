package intents

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Compound sentences: a transcript split into clauses at punctuation and joining words, each
// routed on its own, and the rules for when their intents can be answered together.

var clauseSeparators = map[string]bool{"and": true, "then": true, "also": true, "after": true, "plus": true}

// separatorShapes are the shapes of clauseSeparators: a word of another shape joins nothing.
var separatorShapes = func() (out wordShapes) {
	for w := range clauseSeparators {
		out.add(w)
	}
	return out
}()

// clauses splits a sentence at punctuation and at words that join commands.
// They are kept in the sentence's memo for that sentence: the timer frame and the compound
// rule split the same one. The slice is shared: never written to.
func (t *Table) clauses(n Normalized) []Normalized {
	if m := n.memo; m != nil && m.clausesOf != nil && sameSentence(m.clausesOf, &n) {
		return m.clauses
	}
	out := t.appendClauses(nil, n)
	if n.memo != nil {
		n.memo.clauses, n.memo.clausesOf = out, &n
	}
	return out
}

// appendClauses appends the clauses of n to out (a caller's buffer: nothing escapes).
func (t *Table) appendClauses(out []Normalized, n Normalized) []Normalized {
	normalized := t.partsOf(n)
	// The sentence's negation is every part's, unless it is only a statement's own ("hang up,
	// she's not even talking"): then the other parts keep theirs. A bare "don't" said as a
	// part of its own still negates the rest.
	negationElsewhere, ownNegation := false, normalized == nil
	if normalized == nil {
		normalized = []Normalized{n} // one part: the sentence is already normalized
	}
	for _, pn := range normalized {
		if len(normalized) > 1 {
			if pn.Negated && negatedStatement(pn.tokens()) {
				negationElsewhere = true
			}
			ownNegation = ownNegation || pn.Negated
		}
	}
	if !ownNegation {
		negationElsewhere = true // "switch it off if you don't mind, I left it on": the "not" was a courtesy's
	}
	for _, pn := range normalized {
		inherit := n.Negated && !(negationElsewhere && !pn.Negated)
		toks := pn.tokens()
		stated, verbAfter2, felt := t.statementOpening(toks)
		quoted := quotedOrTakenBack(toks) // no part is split off where words are reported or taken back
		start, politeNext := 0, false
		for i := 0; i <= len(toks); i++ {
			if i < len(toks) && i > start+1 && !quoted && (reasonOpens(toks, i) && t.mayAsk(toks[start:i]) ||
				start == 0 && t.commandOpens(toks, i, stated, verbAfter2, felt)) && !t.insideRoomName(toks, i) {
				// "lights out in the kids room they're finally asleep", "mum is asleep turn
				// her light off": a reason said without a pause is a part of its own, as if a
				// comma stood there.
				c := pn
				c.Text = strings.Join(toks[start:i], " ")
				c.toks = toks[start:i:i]
				c.Question = c.Question || n.Question
				c.Negated = c.Negated || inherit
				out = append(out, c)
				start = i
				if politeOpens(toks, i) {
					start, politeNext = i+2, true // "... could you turn their lamp off": a polite request
				}
				continue
			}
			if i < len(toks) && (!(separatorShapes.may(toks[i]) && clauseSeparators[toks[i]]) && !soCommand(toks, i) || t.insideRoomName(toks, i)) {
				continue // "mom and dad's room": a room's name, not two clauses
			}
			if i > start {
				c := pn
				if pn.toks != nil { // Text is its words joined (Normalized): the clause's are a run of them
					c.Text = joinedRun(pn.Text, toks, start, toks[start:i])
				} else {
					c.Text = strings.Join(toks[start:i], " ")
				}
				c.toks = toks[start:i:i]
				c.Question = c.Question || n.Question && !politeNext
				c.Polite = c.Polite || politeNext
				c.Negated = c.Negated || inherit
				out = append(out, c)
				politeNext = false
			}
			start = i + 1
		}
	}
	return out
}

// ignorableWords make up parts of a sentence that ask for nothing ("..., thanks", "okay, ...").
var ignorableWords = map[string]bool{"thanks": true, "thank": true, "you": true, "please": true, "okay": true, "ok": true,
	"alright": true, "right": true, "now": true, "cheers": true, "quickly": true, "quick": true, "yes": true, "yeah": true,
	"sure": true, "so": true, "well": true, "oh": true, "then": true, "also": true, "again": true, "very": true,
	"much": true, "a": true, "lot": true, "great": true, "cool": true}

// maxGreetingWords is the most words a greeting pattern matches ("good morning everyone how
// are you doing today"): a longer clause is not tried against them.
const maxGreetingWords = 8

// socialIntents ask for nothing: a greeting, thanks, good night, goodbye.
var socialIntents = []string{IntentGreeting, IntentThanks, IntentGoodNight, IntentGoodbye}

func (t *Table) isGreeting(c Normalized) bool {
	for _, name := range socialIntents {
		in := t.byName[name]
		if in == nil {
			continue
		}
		for i := range in.patterns {
			p := &in.patterns[i]
			// The gate (gate.go), then the prefilter: necessary conditions, cheapest first.
			if p.gate.admits(c.Text, strings.Count(c.Text, " ")) && p.filter.admits(c.Text) && p.re.MatchString(c.Text) {
				return true
			}
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
		if separatorShapes.may(w) && clauseSeparators[w] || w == "so" && soCommand(toks, i) || i > 1 && reasonOpens(toks, i) {
			return true
		}
	}
	if !strings.ContainsAny(strings.TrimRight(n.raw, ".!?\" "), ".!?;:,") {
		return false
	}
	meaningful := 0
	var buf [32]string // a piece's words, only read here
	for _, piece := range rawParts(n.raw) {
		for _, w := range appendTokens(buf[:0], joinSigns(piece), false) { // tokenize(piece)
			if !ignorableWords[w] && !leadFillers[w] && w != "hey" && w != "hi" && w != "hello" {
				meaningful++
				break
			}
		}
	}
	return meaningful > 1
}

// soCommand: toks[i] is a "so" between a reason and a command ("I'm making dinner so
// kitchen light on", "we're going out so turn off all the lights"): what follows opens as a
// command, and a statement with a subject comes before.
func soCommand(toks []string, i int) bool {
	if toks[i] != "so" || i < 2 || i+2 >= len(toks) || !reasonLeads[toks[0]] {
		return false
	}
	next := toks[i+1]
	return isImperativeVerb(next) && !finiteWords[next] && next != "i" || deviceWords[next] != "" || roomLike(next)
}

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
	default:
		return false
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
		// "the baby is asleep", "my show is on": a noun or two, then is / are
		for k := i + 2; k <= i+3 && k < len(toks); k++ {
			if toks[k] == "is" || toks[k] == "are" || toks[k] == "was" || toks[k] == "were" {
				return !functionWords[toks[k-1]]
			}
		}
	}
	return false
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
		if wordClasses[w]&wcWarmth != 0 || feelingWords[w] {
			felt = k
			break
		}
	}
	first, verb := toks[0], toks[1]
	switch {
	case slices.ContainsFunc(toks, func(w string) bool { return speechVerbs[w] }):
		return false, false, -1 // "she was shouting turn off the light": words said, not a command
	case first == "its":
		return true, false, felt
	case first == "the" || first == "my" || first == "our":
		return len(toks) > 3 && (toks[2] == "is" || toks[2] == "are" || len(toks) > 4 && (toks[3] == "is" || toks[3] == "are")), false, felt
	case reasonSubjects[first] || t.vocab.people[first] != "" || t.vocab.owners[first] != nil:
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
	polite := politeOpens(toks, i)
	if !polite && !commandVerb(toks[i]) || commandBlockers[toks[i-1]] || clauseLinks[toks[i-1]] {
		return false
	}
	if last := toks[i-1]; copulas[last] || t.vocab.people[last] != "" || kinWords[last] || t.vocab.owners[last] != nil ||
		!stativeEnd(last) && t.vocab.rooms[last] == nil {
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

// reportedOrTakenBack: toks report words said ("she texted", "is a lie", "was the message")
// or take a request back ("I'm joking"): never a reason beside a request.
func reportedOrTakenBack(toks []string) bool {
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

// quotedOrTakenBack: toks report words said (a speech verb, a quotation's noun) or take the
// request back.
func quotedOrTakenBack(toks []string) bool {
	for _, w := range toks {
		if speechVerbs[w] || quoteNouns[w] || takeBacks[w] {
			return true
		}
	}
	return false
}

// commandVerb: w can open a command said after a statement ("... turn her light off").
func commandVerb(w string) bool {
	return w != "set" && w != "left" && (wordClasses[w]&(wcAction|wcOnVerb|wcOffVerb) != 0 || w == "cancel" || w == "hang" || w == "mute")
}

// feelingWords say how a room feels, as a reason before a request: "boiling, can you ...".
var feelingWords = words2set("dark gloomy bright boiling roasting baking sweltering stuffy muggy humid sweating dim pitch")

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

func ignorable(text string) bool {
	for w := range strings.FieldsSeq(text) {
		if !ignorableWords[w] {
			return false
		}
	}
	return true
}

// compound handles sentences made of several clauses. Nothing is done on part of a
// sentence: if two clauses ask for something and any would act, the robot asks for one thing
// at a time. An afterthought around one command — a vocative ("Ritchie"), a tag ("there's a
// good lad", "thanks"), a farewell ("bye grandma"), a reason ("it's bedtime", "the baby's
// asleep") — or the command said twice ("stop, stop") leaves that one command: only two
// actions make a compound. If every clause asks for the same read, that read is the answer;
// anything else is a general question.
func (t *Table) compound(n Normalized, ctx Context) (Decision, bool) {
	if !mayBeCompound(n) && !t.commandAfterStatement(n) {
		return Decision{}, false
	}
	if toks := n.tokens(); !n.Negated && anyOf(toks, quietEndCues) && (anyOf(toks, stopTalk) || anyOf(toks, quietMute) || contains(toks, "quiet")) &&
		t.quietEndAmong(n) { // pure tests, the cheapest and rarest first
		return Decision{}, false // "go back to normal, you can talk": one request, quiet time's (quiet_frame.go)
	}
	if toks := n.tokens(); t.socialStart(toks) {
		if _, ok := t.socialFrame(n); ok {
			return Decision{}, false // "good night reachy, see you in the morning": small talk, whole (smalltalk.go)
		}
	}
	// Buffers on the stack for the clauses, the parts and their decisions (a handful each).
	var partBuf [6]Normalized
	var decisionBuf [3]Decision
	parts, greetings := partBuf[:0], []Normalized(nil)
	var afterthoughts []string
	for _, c := range t.clauses(n) {
		switch {
		case ignorable(c.Text):
		case t.afterthought(c):
			afterthoughts = append(afterthoughts, c.Text)
		case len(c.tokens()) <= maxGreetingWords && t.isGreeting(c):
			greetings = append(greetings, c) // "hello, ..." asks for nothing by itself
		case len(parts) > 0 && parts[len(parts)-1].Text == c.Text:
			afterthoughts = append(afterthoughts, c.Text) // "stop, stop": the same words twice are one request
		default:
			parts = append(parts, c)
		}
	}
	if len(parts) == 0 {
		parts, greetings = greetings, nil // "hello and good morning"
	}
	for _, g := range greetings { // "goodnight reachy, lights off in the bedroom": one request
		afterthoughts = append(afterthoughts, g.Text)
	}
	if len(parts) == 0 || len(parts) == 1 && len(afterthoughts) == 0 {
		return Decision{}, false
	}
	decisions := decisionBuf[:0]
	for i, c := range parts {
		d, ok := t.routeClause(c, ctx)
		if i > 0 && len(decisions) == 1 {
			if md, ok := t.together(decisions[0], d, c, ctx); ok {
				decisions[0] = md // "put the bedroom AC on and set it to 21", "it's dark in the kids room, turn the light on"
				continue
			}
		}
		if i > 0 && len(decisions) == 1 && t.wouldAct(decisions[0]) && decisions[0].Kind != KindRobot {
			// A write with another request after it (its words differ: a repetition was left
			// out above) is two requests. Only the robot's own intents are said twice in other
			// words ("that's enough, stop talking").
			return t.oneAtATime(n, decisions[0]), true
		}
		if !ok && len(parts) > 1 && t.placeReason(c) {
			afterthoughts = append(afterthoughts, c.Text) // "it's like an oven in the bedroom, put the AC on"
			continue
		}
		if !ok {
			if len(parts) == 1 {
				return Decision{}, false // one request, not a known one: the whole sentence is routed
			}
			d = Decision{Intent: IntentGeneralAsk, Normalized: c} // free text: a request of its own
		}
		if len(decisions) > 0 && sameRequest(decisions[len(decisions)-1], d) {
			continue // "stop, stop": the same request said twice is one
		}
		if len(decisions) > 0 && decisions[len(decisions)-1].Intent == "teleport.call" && t.messageFor(c.tokens()) {
			continue // "call dad, tell him dinner's ready": what to say on the call is the call's
		}
		if len(decisions) > 0 && strings.HasPrefix(decisions[len(decisions)-1].Intent, "play.") && anyOf(c.tokens(), musicWords) {
			continue // "freeze dance! put some music on": the game's music is the game
		}
		if len(decisions) > 0 {
			if q, ok := quieter(decisions[len(decisions)-1], d); ok {
				decisions[len(decisions)-1] = q // "stop, be quiet for an hour": one request for quiet time
				continue
			}
		}
		decisions = append(decisions, d)
		if len(decisions) > 1 && (t.wouldAct(d) || t.wouldAct(decisions[0])) {
			break // two requests, one of them an action: nothing more to learn
		}
	}
	if len(decisions) == 1 {
		d := decisions[0]
		if rd, ok := t.roomFromReason(d, afterthoughts, ctx); ok {
			d = rd // "it's freezing in here, switch the AC off": the reason says where
		}
		if d.Intent == "robot.stop" && sleeperIn(afterthoughts) {
			// "the baby's asleep, shush": the reason makes the quiet last.
			if q, ok := t.quietDecision(n, Mentions{Form: FormImperative}, map[string]string{"state": "on"}, "a stop word with a sleeper as the reason"); ok {
				d = q
			}
		}
		d.Normalized = n
		if len(afterthoughts) > 0 {
			d.Doctrine = append(d.Doctrine, "compound sentence: "+quoteList(afterthoughts)+" left out as afterthoughts (vocative, tag, reason): one request")
		} else {
			d.Doctrine = append(d.Doctrine, "compound sentence: every part asks for the same thing")
		}
		return d, true
	}
	for _, d := range decisions {
		if t.wouldAct(d) {
			return t.oneAtATime(n, d), true
		}
	}
	return Decision{}, false
}

// quoteList is fmt's %q of a list of strings (["a" "b"]), without fmt.
func quoteList(list []string) string {
	b := []byte{'['}
	for i, s := range list {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendQuote(b, s)
	}
	return string(append(b, ']'))
}

// oneAtATime answers a sentence of two requests, one of which (d) would act.
func (t *Table) oneAtATime(n Normalized, d Decision) Decision {
	out := t.decide(t.byName[IntentClarify], map[string]string{}, nil, n)
	out.Prompt = "Please ask me for one thing at a time."
	out.Doctrine = []string{"compound sentence: the part " + strconv.Quote(d.Normalized.Text) + " would act, and nothing is done on part of a sentence"}
	out.NotActed = "it asks for more than one thing"
	return out
}

// wouldAct: the decision acts, or asks a question whose answer completes an action.
func (t *Table) wouldAct(d Decision) bool {
	if d.Kind == KindWrite || d.Kind == KindRobot {
		return true
	}
	if d.Pending != nil {
		if pin, ok := t.byName[d.Pending.Intent]; ok && pin.Acts() {
			return true
		}
	}
	return false
}

// sameRequest: two clauses that ask for the same thing (intent and arguments).
func sameRequest(a, b Decision) bool {
	return a.Intent == b.Intent && maps.Equal(a.Args, b.Args) && a.Pending == nil && b.Pending == nil &&
		a.Intent != IntentGeneralAsk && a.Intent != IntentDeepAsk || a.Intent == IntentClarify && b.Intent == IntentClarify &&
		a.Pending != nil && b.Pending != nil && a.Pending.Intent == b.Pending.Intent && a.Pending.Missing == b.Pending.Missing &&
		maps.Equal(a.Pending.Args, b.Pending.Args)
}

// setOf is the house write a decision makes or asks about, and its arguments so far.
func setOf(d Decision) (intent string, args map[string]string, missing string) {
	switch {
	case d.Intent == "house.light.set" || d.Intent == "house.ac.set":
		return d.Intent, d.Args, ""
	case d.Intent == IntentClarify && d.Pending != nil && (d.Pending.Intent == "house.light.set" || d.Pending.Intent == "house.ac.set"):
		return d.Pending.Intent, d.Pending.Args, d.Pending.Missing
	}
	return "", nil, ""
}

// together joins two clauses that make one house request: the AC switched and set ("put the
// bedroom AC on and set it to 21", "AC on in the living room, 25 please"), or a command
// whose room a statement beside it names ("it's dark in the kids room, turn the light on").
// Nothing is joined that disagrees (two rooms, two states).
func (t *Table) together(a, b Decision, c Normalized, ctx Context) (Decision, bool) {
	ai, aargs, amiss := setOf(a)
	bi, bargs, bmiss := setOf(b)
	if ai == "" && bi == "" {
		return Decision{}, false
	}
	if ai == "" {
		// a statement, then the command: swap, so a is the command
		a, b = b, a
		ai, aargs, amiss, bi, bargs, bmiss = bi, bargs, bmiss, ai, aargs, amiss
	}
	merged := map[string]string{}
	for k, v := range aargs {
		merged[k] = v
	}
	put := func(k, v string) bool {
		if v == "" {
			return true
		}
		if old, ok := merged[k]; ok && old != v {
			return false
		}
		merged[k] = v
		return true
	}
	// A part that asks which room because the room it named cannot do it ("set the kitchen to
	// 21": no AC there) is not without a room: nothing is joined.
	if amiss != "" && t.mentionsRoom(a.Normalized.tokens()) || bmiss != "" && t.mentionsRoom(c.tokens()) {
		return Decision{}, false
	}
	switch {
	case bi == ai:
		for k, v := range bargs {
			if !put(k, v) {
				return Decision{}, false
			}
		}
		if amiss == "room" && bmiss == "room" && merged["room"] == "" {
			return Decision{}, false
		}
	case bi == "" && (b.Intent == "house.light.get" && ai == "house.light.set" || b.Intent == "house.ac.get" && ai == "house.ac.set"):
		// the room of a statement beside the command: only when the command names none
		if amiss != "room" || b.Mentions == nil || len(b.Mentions.Rooms)+btoi(b.Mentions.Here) != 1 || b.Mentions.Form == FormImperative {
			return Decision{}, false
		}
		if b.Mentions.Here {
			merged["room"] = "here" // "ugh so hot in here, AC on"
		} else {
			merged["room"] = b.Mentions.Rooms[0]
		}
	case bi == "" && amiss == "room" && b.Intent == IntentUnclear && b.Mentions != nil && len(b.Mentions.Rooms) == 1 &&
		b.Mentions.Form != FormImperative && !t.wouldAct(b):
		// "it's like an oven in the bedroom, put the AC on": a statement about a room the
		// command does not name
		merged["room"] = b.Mentions.Rooms[0]
	case bi == "" && ai == "house.ac.set" && clauseTemperature(c.tokens()) != "":
		if !put("temperature", clauseTemperature(c.tokens())) { // "AC on in the living room, 25 please"
			return Decision{}, false
		}
	default:
		return Decision{}, false
	}
	in := t.byName[ai]
	d := t.settle(in, t.bind(in, merged, ctx), frameRule(in), a.Normalized)
	d.Mentions = a.Mentions
	d.Doctrine = append([]string{"compound sentence: its parts make one request for " + ai}, d.Doctrine...)
	return d, true
}

// setWords may go with a bare temperature in a clause of its own: "set it to 21", "25 please".
var setWords = words2set("set it to at make put keep and then the temperature degrees thermostat ac")

// clauseTemperature is the number of a clause that says only a temperature ("set it to 21",
// "25"), or "".
func clauseTemperature(toks []string) string {
	num := ""
	for _, w := range toks {
		switch {
		case isDigits(w) && len(w) <= 3 && num == "":
			num = w
		case !setWords[w]:
			return ""
		}
	}
	return num
}
