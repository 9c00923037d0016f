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
	var buf [8]Normalized // most sentences have a handful: worked out on the stack, kept at their size
	out := slices.Clone(t.appendClauses(buf[:0], n))
	if n.memo != nil {
		kept := n // on the heap only when kept
		n.memo.clauses, n.memo.clausesOf = out, &kept
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
	// In a sentence said without a pause, the "not" said inside it is its part's own: a part
	// split off beside it without one is not negated ("I don't want anyone calling in put
	// privacy on"). A negation the sentence opens with is every part's.
	said := len(normalized) == 1 && anyOf(n.tokens(), partNegations) && !negationLed(n)
	for _, pn := range normalized {
		inherit := n.Negated && !(negationElsewhere && !pn.Negated)
		toks := pn.tokens()
		stated, verbAfter2, felt := t.statementOpening(toks)
		quoted := quotedOrTakenBack(toks) && !reportedState(toks) // no part is split off where words are reported or taken back (how things are, reported, may be)
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
				c.Question = c.Question || n.Question && !c.Polite && !politeOpens(c.toks, 0)
				c.Negated = (c.Negated || inherit) && (!said || anyOf(c.toks, partNegations))
				out = append(out, c)
				start = i
				if politeOpens(toks, i) {
					start, politeNext = i+2, true // "... could you turn their lamp off": a polite request
				}
				continue
			}
			if i < len(toks) && (!(separatorShapes.may(toks[i]) && clauseSeparators[toks[i]]) && !soCommand(toks, i) || t.insideRoomName(toks, i) || joinsInsidePhrase(toks, i)) {
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
				c.Question = c.Question || n.Question && !politeNext && !c.Polite && !politeOpens(c.toks, 0) // "it's hot, can you turn the AC on?" asks it done
				c.Polite = c.Polite || politeNext
				c.Negated = (c.Negated || inherit) && (!said || anyOf(c.toks, partNegations))
				out = append(out, c)
				politeNext = false
			}
			start = i + 1
		}
	}
	return out
}

// switchStates said in a part make it a request to switch ("..., the bedroom ones on"), never a reason.
var switchStates = words2set("on off")

// ignorableWords make up parts of a sentence that ask for nothing ("..., thanks", "okay, ...").
var ignorableWords = map[string]bool{"thanks": true, "thank": true, "you": true, "please": true, "okay": true, "ok": true,
	"alright": true, "right": true, "now": true, "cheers": true, "quickly": true, "quick": true, "yes": true, "yeah": true,
	"sure": true, "so": true, "well": true, "oh": true, "then": true, "also": true, "again": true, "very": true,
	"much": true, "a": true, "lot": true, "great": true, "cool": true,
	"would": true, "will": true, "could": true, "ya": true, // "..., would ya": a request's tag
	"robot": true} // "excuse me robot, ...": the robot called

// maxGreetingWords is the most words a greeting pattern matches ("good morning everyone how
// are you doing today"): a longer clause is not tried against them.
const maxGreetingWords = 8

// socialIntents ask for nothing: a greeting, thanks, good night, goodbye.
var socialIntents = []string{IntentGreeting, IntentThanks, IntentGoodNight, IntentGoodbye}

func (t *Table) isGreeting(c Normalized) bool {
	spaces := strings.Count(c.Text, " ")
	var pairs pairSet // the text's byte pairs, collected when a gate first admits it
	havePairs := false
	for _, name := range socialIntents {
		in := t.byName[name]
		if in == nil {
			continue
		}
		for i := range in.patterns {
			p := &in.patterns[i]
			// The gate (gate.go), then the prefilter: necessary conditions, cheapest first.
			if !p.gate.admits(c.Text, spaces) {
				continue
			}
			if !havePairs {
				pairs, havePairs = pairsOf(c.Text), true
			}
			if p.filter.admitsPairs(c.Text, &pairs) && p.re.MatchString(c.Text) {
				return true
			}
		}
	}
	return false
}

func ignorable(text string) bool {
	if text == "do 1 thing" || text == "do one thing" {
		return true // Indian English's "please": "do one thing, off all the lights"
	}
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
//
// lex is the sentence's mentions' lexicon bits: small talk is read only with a key word of
// its sets (lexGate.social); info, its words' word-index entries (nil: not looked up), which
// a clause whose words are a run of the sentence's reads.
func (t *Table) compound(n Normalized, ctx Context, lex uint64, info []wordInfo) (Decision, bool) {
	if !mayBeCompound(n) && !t.commandAfterStatement(n) {
		return Decision{}, false
	}
	if toks := n.tokens(); !n.Negated && anyOf(toks, quietEndCues) && (anyOf(toks, stopTalk) || anyOf(toks, quietMute) || contains(toks, "quiet")) &&
		t.quietEndAmong(n) { // pure tests, the cheapest and rarest first
		return Decision{}, false // "go back to normal, you can talk": one request, quiet time's (quiet_frame.go)
	}
	if toks := n.tokens(); lex&t.vocab.lexGate.social != 0 && t.socialStart(toks) {
		if _, ok := t.socialFrame(n); ok {
			return Decision{}, false // "good night reachy, see you in the morning": small talk, whole (smalltalk.go)
		}
	}
	// Buffers on the stack for the clauses, the parts and their decisions (a handful each).
	var partBuf [6]Normalized
	var decisionBuf [3]Decision
	parts, greetings := partBuf[:0], []Normalized(nil)
	var afterthoughts []string
	thingNamed := false // a part that only names a thing ("the frobnicator, turn off, in the kitchen")
	for _, c := range t.clauses(n) {
		switch {
		case ignorable(c.Text):
		case t.afterthought(c):
			afterthoughts = append(afterthoughts, c.Text)
			thingNamed = thingNamed || bareThing(c.tokens()) && !t.mentionsRoom(c.tokens())
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
	if d, ok := t.fragmentsJoined(parts, ctx); ok && !thingNamed {
		d.Normalized = n
		return d, true // "Ritchie, the bedroom, lights off.", "the kitchen light. off. now."
	}
	decisions := decisionBuf[:0]
	for i, c := range parts {
		d, ok := t.routeClause(c, ctx, runInfo(info, n.toks, c.toks))
		if i > 0 && len(decisions) == 1 {
			if md, ok := t.together(decisions[0], d, c, ctx); ok {
				decisions[0] = md // "put the bedroom AC on and set it to 21", "it's dark in the kids room, turn the light on"
				continue
			}
		}
		if ok && i > 0 && len(decisions) == 1 && sameRequest(decisions[0], d) {
			continue // "I don't want anybody calling in, put privacy mode on": the same request said twice is one
		}
		if !ok && i > 0 && len(decisions) == 1 && t.wouldAct(decisions[0]) && (statesSomething(c.tokens()) && !anyOf(c.tokens(), switchStates) &&
			(t.placeReason(c) || t.statedReason(c)) || intentAsked(decisions[0]) == "timer.start" && writtenSource(c.tokens())) {
			afterthoughts = append(afterthoughts, c.Text) // "switch it off, the baby monitor is going": a reason said after a write, not a second request
			continue
		}
		if i > 0 && len(decisions) == 1 && t.wouldAct(decisions[0]) && decisions[0].Kind != KindRobot {
			// A write with another request after it (its words differ: a repetition was left
			// out above) is two requests. Only the robot's own intents are said twice in other
			// words ("that's enough, stop talking").
			return t.oneAtATime(n, decisions[0]), true
		}
		if !ok && len(parts) > 1 && (t.placeReason(c) || t.statedReason(c)) {
			afterthoughts = append(afterthoughts, c.Text) // "it's like an oven in the bedroom, put the AC on"
			continue
		}
		if !ok {
			if len(parts) == 1 {
				return Decision{}, false // one request, not a known one: the whole sentence is routed
			}
			d = Decision{Intent: IntentGeneralAsk, Normalized: c} // free text: a request of its own
		}
		if len(decisions) > 0 && (sameRequest(decisions[len(decisions)-1], d) || callAgain(decisions[len(decisions)-1], d)) {
			continue // "stop, stop", "I need to talk to mum, can you ring her": the same request said twice is one
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
		if d.Intent == IntentGeneralAsk && d.Rule == nil && d.Mentions == nil {
			return Decision{}, false // free text beside reasons: the sentence is read whole
		}
		if gameStart(d.Intent) && (gameResultSaid(n.tokens()) || simonSaidTwice(n.tokens())) {
			return Decision{}, false // "rock paper scissors shoot! ha I won": played already, read whole
		}
		if rd, ok := t.roomFromReason(d, afterthoughts, ctx); ok {
			d = rd // "it's freezing in here, switch the AC off": the reason says where
		} else if pd, ok := t.personFromReason(d, afterthoughts, ctx); ok {
			d = pd // "I need to talk to mum, can you ring her": the reason says who
		} else if ld, ok := t.labelFromReason(d, afterthoughts); ok {
			d = ld // "I'm putting the rice on, can you time twenty minutes for it": the reason says which timer
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
	if d, ok := t.callNamedBeside(decisions, ctx); ok {
		d.Normalized = n
		return d, true // "I want to show mom my drawing, can you call her"
	}
	if d, ok := stopAmongFreeText(decisions); ok && !d.Normalized.Negated && !conditional(n.tokens()) {
		d.Normalized = n
		d.Doctrine = append(d.Doctrine, "compound sentence: a stop beside words no intent reads: the stop is done")
		return d, true // "tama na po, stop": stopping is the one request that must always work
	}
	for _, d := range decisions {
		if t.wouldAct(d) {
			return t.oneAtATime(n, d), true
		}
	}
	if d, ok := t.clockAmongAsides(decisions); ok {
		d.Normalized = n
		return d, true // "am I late? what time is it", "what's the date, I have to write it on the note"
	}
	return Decision{}, false
}

// bareThing: toks only name a thing — a determiner and a word or two, no verb ("the
// frobnicator"): a command said in pieces around it may be meant for that thing.
func bareThing(toks []string) bool {
	return len(toks) >= 2 && len(toks) <= 3 && (toks[0] == "the" || toks[0] == "my" || toks[0] == "that" || toks[0] == "this") &&
		!slices.ContainsFunc(toks[1:], func(w string) bool {
			return finiteWords[w] || pastWords[w] || statePredicates[w] || kinWords[w] || parentWords[w] || peopleNouns[w] || homeGroups[w] ||
				wordClasses[w]&(wcHouseDevice|wcDevice) != 0 && deviceWords[w] != "other"
		})
}

// stopAmongFreeText: one part asks the robot to stop and every other part is words no intent
// reads, or a statement kept from acting; that stop.
func stopAmongFreeText(decisions []Decision) (Decision, bool) {
	stop := -1
	for i, d := range decisions {
		switch {
		case d.Intent == "robot.stop" && stop < 0:
			stop = i
		case d.Intent == IntentGeneralAsk && d.Rule == nil && d.Mentions == nil:
		case d.NotActed != "" && d.Pending == nil && !Acting(d): // "stop, I didn't ask about the lights, just stop": a read kept from acting
		default:
			return Decision{}, false
		}
	}
	if stop < 0 {
		return Decision{}, false
	}
	return decisions[stop], true
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
	if d, ok := t.pronounSwitch(a, b, c, ctx); ok {
		return d, true // "it's dark in the kitchen, can you turn it on?"
	}
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
	if amiss == "room" && t.mentionsRoom(a.Normalized.tokens()) || bmiss == "room" && t.mentionsRoom(c.tokens()) {
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
var setWords = words2set("set it to at make put keep and then the temperature degrees thermostat ac like about around maybe perhaps please")

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

// partNegations say a part's own "not": a part split off beside one without it is not negated.
var partNegations = words2set("not never dont")

// negationLed: the sentence as heard opens with its negation ("don't turn it off, ..."),
// which is every part's.
func negationLed(n Normalized) bool {
	toks := strings.Fields(n.Clean)
	for len(toks) > 1 && (toks[0] == "please" || toks[0] == "wait" || toks[0] == "oh" || leadFillers[toks[0]]) {
		toks = toks[1:]
	}
	return len(toks) > 0 && (partNegations[toks[0]] || toks[0] == "no" || hasPrefix(toks, []string{"do", "not"}) ||
		hasPrefix(toks, []string{"you", "should", "not"}))
}
