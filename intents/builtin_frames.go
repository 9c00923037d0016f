package intents

import (
	"slices"
	"strings"
)

// Frames for the built-in intents that are not about the house: stop, expressions, time,
// date, help, hang-up and the three timer intents. Their whole-sentence patterns in
// builtin.yaml run first (they are cheap and exact); a sentence they miss is decided here
// from its mentions — the words that name the intent, words that may go with them, and
// nothing else — and its form (command.go): "Be quiet for a second.", "Got the time,
// Reachy?", "Forget the homework timer.", "The cookies need nine minutes, start a timer."

// Words that go with any built-in frame: articles, pronouns, politeness, time fillers.
var frameFill = words2set("a an the it that this is are me us you your i we please now right just so okay ok " +
	"can could would will do does tell give let know say kindly quick quickly again reachy jeeves love mate dear " +
	"buddy darling sweetie honey pal")

var (
	stopCore = words2set("stop quiet quieter hush shush shh silence silent mute muted unmute enough shut zip sleep " +
		"pipe wheesht whisht wheesh unmuted")
	stopTalk = words2set("talk talking speak speaking respond responding reply replying answer chat chatting " +
		"say saying noise noises sound sounds yapping babbling rambling")
	stopFill = words2set("there for second sec seconds moment minute minutes bit while audio speaker speakers " +
		"volume responses response all be already up set go to touch button from settings yourself voice everything " +
		"down more no one little until till said otherwise anything anymore any longer mode on off get make whoa my music around about " +
		"trying hear news asleep baby sleeping hour next time wait hold dancing moving singing nodding that " +
		"word words peep another single like about around roughly maybe quite move head arms song songs tune humming this")
	timeCore = words2set("time times clock hour oclock")
	timeFill = words2set("what whats current exact currently got have know check clock watch hour at on present looking " +
		"moment precise like to want need asking show read out late how oclock o please by exactly excuse sorry " +
		"roughly about approximately there still yet already which remind did was be wetin much many")
	dateCore = words2set("date day month year weekday today todays monday tuesday wednesday thursday friday " +
		"saturday sunday")
	dateFill = words2set("what whats current which of week we in have check on todays today date day month year " +
		"for is it the calendar exactly excuse sorry or remind be wetin")
	helpCore = words2set("do help capable able skills abilities features commands good can")
	helpFill = words2set("what kind kinds sort sorts type types of things stuff else are able to capable help " +
		"with how skills abilities features commands good at all for exactly really actually list other " +
		"should use ask anything tricks")
	exprFill = words2set("pretend act like show give do let see go on come bit of for with some moves move quick big bust then " +
		"one 1 try little face look be act make pull your best thing head all")
	hangFill = words2set("call phone up hang end stop finish close drop cut off terminate disconnect leave quit ring sign " +
		"video session line conversation chat teleport our my go ahead and on them her him we done all then " +
		"bye goodbye want need to with are am finished this the")
	hangNouns = words2set("call phone line session conversation chat teleport video")
	hangVerbs = words2set("end stop finish close drop cut terminate leave quit disconnect kill")
)

// builtinFrame decides stop, time, date, help, expressions and hang-up from a sentence's
// words and form, for a sentence no pattern matched.
func (t *Table) builtinFrame(n Normalized, m Mentions) (Decision, bool) {
	if m.named {
		return Decision{}, false // a light or the AC: the house frame's
	}
	if d, ok := t.choreFrame(n, m); ok {
		return d, true // "make me a sandwich", "clean my room": asked of this home, answered here
	}
	// Small talk needs a key word of its sets (m.lex), or a short "night" (smalltalk.go).
	if toks := n.tokens(); m.lex&t.vocab.lexGate.social != 0 || len(toks) > 0 && toks[0] == "night" {
		if d, ok := t.socialFrame(n); ok {
			d.Mentions = m.ref()
			return d, true // "hiya robot", "ok bye, gotta go to school" (smalltalk.go)
		}
	}
	toks := n.tokens()
	if len(toks) == 0 || len(toks) > 14 {
		return Decision{}, false
	}
	if why, ok := t.stopOtherwise(n, toks, m); ok {
		if in := t.byName["robot.stop"]; in != nil && !in.Unavailable {
			d := t.decide(in, map[string]string{}, &Rule{Intent: in.Name, Index: -1, Pattern: "built-in frame (intents/quiet_frame.go)", Where: in.where}, n)
			d.Mentions = m.ref()
			d.Doctrine = append(d.Doctrine, "frame: "+why+": robot.stop")
			return d, true
		}
	}
	if m.lex&t.vocab.lexGate.help != 0 && (n.Question || !n.Negated) {
		// "what are you for", "what's your purpose": what the robot is for, the whole sentence
		ht := toks
		if anyOf(ht, helpEmphasis) { // "what are you even for"
			ht = slices.DeleteFunc(slices.Clone(ht), func(w string) bool { return helpEmphasis[w] })
		}
		if hasPrefix(ht, []string{"tell", "me"}) && len(ht) > 3 {
			ht = ht[2:] // "tell me what you are useful for"
		}
		if l := t.vocab.lex["help.asks"].at(ht, 0); l > 0 && (only(ht[l:], helpFill, frameFill) || helpAside(ht[l:])) {
			if in := t.byName["help"]; in != nil && !in.Unavailable {
				d := t.decide(in, map[string]string{}, &Rule{Intent: "help", Index: -1, Pattern: "built-in frame (intents/builtin_frames.go)", Where: in.where}, n)
				d.Mentions = m.ref()
				d.Doctrine = append(d.Doctrine, "frame: a question about what the robot is for (help.asks \""+strings.Join(ht[:l], " ")+"\"): help")
				return d, true
			}
		}
	}
	if m.seen&wcBuiltinFrame == 0 {
		if !n.Question || !hasPrefix(toks, []string{"is", "it"}) {
			return Decision{}, false
		}
		return t.clockQuestion(toks, n, func(name, why string, args map[string]string) (Decision, bool) {
			in := t.byName[name]
			if in == nil || in.Unavailable {
				return Decision{}, false
			}
			d := t.decide(in, args, &Rule{Intent: name, Index: -1, Pattern: "built-in frame (intents/builtin_frames.go)", Where: in.where}, n)
			d.Mentions = m.ref()
			d.Doctrine = append(d.Doctrine, "frame: "+why+": "+name)
			return d, true
		})
	}
	// The words decide which frame may apply (cheap); the form (the command rule) is read
	// only for a sentence whose words fit one.
	form := func() string {
		m.withForm(n)
		return m.Form
	}
	decide := func(name, why string, args map[string]string) (Decision, bool) {
		in := t.byName[name]
		if in == nil || in.Unavailable {
			return Decision{}, false
		}
		d := t.decide(in, args, &Rule{Intent: name, Index: -1, Pattern: "built-in frame (intents/builtin_frames.go)", Where: in.where}, n)
		d.Mentions = m.ref()
		d.Doctrine = append(d.Doctrine, "frame: "+why+", form "+m.Form+": "+name)
		return d, true
	}
	asks := func() bool {
		f := form()
		return f == FormQuestion || f == FormIndirect || f == FormImperative || f == FormStatement
	}
	if m.seen&(wcStopCore|wcStopTalk|wcSound) != 0 { // "turn off the speakers" too
		if args, why, ok := t.quietFrame(toks, n, form); ok {
			if d, ok := t.quietDecision(n, m, args, why); ok {
				return d, true
			}
		}
	}
	if d, ok := t.clockQuestion(toks, n, decide); ok {
		return d, true
	}
	// "what time is it I need to start the pasta": the reason said after, without a comma
	asked := toks
	if questionWords[toks[0]] {
		asked = cutReason(toks)
		if len(asked) == len(toks) && m.seen&(wcDateCore|wcTimeCore) != 0 {
			// "what is the date today please I must write a cheque": a reason cutReason's
			// leads miss, said after the question without a comma
			for i := 2; i+3 <= len(toks); i++ {
				h, r := toks[:i], toks[i:]
				if r[0] != "i" && r[0] != "we" && r[0] != "my" && r[0] != "our" {
					continue // the reason opens with the speaker: "I must ...", "my bus ..."
				}
				if (anyOf(h, dateCore) && only(h, dateFill, frameFill, dateCore) || anyOf(h, timeCore) && only(h, timeFill, frameFill, timeCore)) &&
					t.afterthought(Normalized{Text: strings.Join(r, " "), toks: r}) {
					asked = h
					break
				}
			}
		}
	}
	switch {
	case m.seen&(wcStopCore|wcStopTalk) != 0 && t.stopWords(t.stopLead(toks), n, func() string {
		if st := t.stopLead(toks); len(st) != len(toks) {
			if len(st) < len(toks)-1 && t.stopForSomeone(toks, len(st)) {
				// "shh dad's on a call": the stop's own form, the reason read apart
				return commandForm(st, Normalized{Text: strings.Join(st, " "), toks: st, Polite: n.Polite, Negated: n.Negated})
			}
			return commandForm(st, n) // "no no no stop", "be quiet, I'm on the phone with grandma"
		}
		return form()
	}):
		return decide("robot.stop", "words that ask for quiet", map[string]string{})
	case m.seen&wcDateCore != 0 && only(asked, dateFill, frameFill, dateCore) && !(len(toks) <= 2 && toks[0] == "day") &&
		!hasPrefix(toks, []string{"do", "i", "have"}) && asks():
		return decide("date.today", "a date word and nothing else", map[string]string{})
	case m.seen&wcTimeCore != 0 && only(partOfDayAfter(asked), timeFill, frameFill, timeCore) && !didByOthers(toks) && asks():
		return decide("time.now", "a time word and nothing else", map[string]string{})
	case m.seen&wcHelpCore != 0 && (contains(toks, "you") || contains(toks, "your") || robotNamed(toks)) && only(toks, helpFill, frameFill, helpUse) &&
		(helpForm(toks, n, form) == FormQuestion || form() == FormIndirect || hasPrefix(toks, []string{"i", "need", "help"})):
		if m.Form == "" || m.Form == FormCorrected {
			m.Form = FormQuestion // "what are you actually able to do": its emphasis corrects nothing
		}
		return decide("help", "a question about what the robot can do", map[string]string{})
	case m.seen&wcHangCore != 0 && hangUp(toks) && t.onlyOrPeople(toks, hangFill, frameFill) && (form() == FormImperative || doneWithCall(toks) && !n.Negated && !n.Question):
		return decide("session.end", "words that end a call", map[string]string{})
	case m.seen&wcHangCore != 0 && !n.Negated && t.hangUpAfter(toks, n):
		m.Form = FormImperative
		return decide("session.end", "words that end a call, after a farewell or \"we're done\"", map[string]string{})
	}
	if m.seen&wcExpression == 0 || m.seen&wcStopCore != 0 {
		return Decision{}, false
	}
	if e, ok := t.expressionIn(toks); ok && !anyGame(t.vocab.lex, toks) { // "freeze dance" is a game
		if head, ok := signAsked(toks); ok && t.expressionAsked(head, n) {
			m.Form = FormImperative // "nod if you understand me": the expression is the answer asked for
			return decide("robot.expression", "an expression asked as a sign (\"if you ...\")", map[string]string{"expression": e})
		}
		if showMe(toks) && !n.Negated {
			m.Form = FormImperative // "show me how you look when you're sleepy", "how do you make a sad face, show me"
			return decide("robot.expression", "an expression asked to be shown (\"show me\")", map[string]string{"expression": e})
		}
		if head, ok := likeAside(toks); ok && !n.Negated && t.expressionAsked(head, n) {
			m.Form = FormImperative // "act sleepy like dad after lunch": how to show it, said after it
			return decide("robot.expression", "an expression with what it is like (\"like ...\")", map[string]string{"expression": e})
		}
		rest := 0
		for i, w := range toks {
			if audience(toks, i) {
				continue // "for our guests", "show grandma your happy face": who it is for
			}
			if !exprFill[w] && !frameFill[w] && t.vocab.expressions[w] == "" {
				rest++
			}
		}
		if f := form(); rest <= 1 && (f == FormImperative || rest == 0 && hasPrefix(toks, []string{"do", "the"}) || f == FormIndirect && (toks[0] == "show" || toks[0] == "let") ||
			hasPrefix(toks, []string{"let", "me", "see"}) || hasPrefix(toks, []string{"let", "us", "see"})) {
			if rest == 0 && hasPrefix(toks, []string{"do", "the"}) {
				m.Form = FormImperative // "do the curious face thing": a request, not "do the ...?"
			}
			return decide("robot.expression", "an expression the robot has", map[string]string{"expression": e})
		}
		if rest > 1 && !n.Negated && (!n.Question || hasPrefix(toks, []string{"do", "the"})) {
			if _, ok := t.expressionThenReason(toks, n); ok {
				m.Form = FormImperative // "do a happy dance I passed my test": the reason after, without a comma
				return decide("robot.expression", "an expression the robot has, before a reason", map[string]string{"expression": e})
			}
		}
		if rest >= 1 && !n.Negated {
			// "we won the match celebrate with me", "we won celebrate": the reason first, without a comma
			if tail, ok := t.reasonBefore(toks, func(tail []string) bool { return t.expressionAsked(tail, n) }); ok {
				m.Form = FormImperative
				e, _ := t.expressionIn(tail)
				return decide("robot.expression", "an expression the robot has, after a reason", map[string]string{"expression": e})
			}
		}
	}
	return Decision{}, false
}

// signAskWords may follow "if you" when an expression is asked as a sign: "nod if you understand
// me", "smile if you're happy", "dance if you can hear me".
var signAskWords = words2set("you can understand hear me us agree are happy like it get see listening there awake " +
	"do ok okay alright still with")

// signAsked: toks end in "if you ..." asking for a sign of the robot's own state; the request
// before it is returned.
func signAsked(toks []string) ([]string, bool) {
	i := slices.Index(toks, "if")
	if i < 1 || i+2 > len(toks) || toks[i+1] != "you" || len(toks)-i-1 > 5 || !only(toks[i+1:], signAskWords) {
		return nil, false
	}
	return toks[:i], true
}

// helpForm is the form of a question about the robot with its emphasis taken off: "what are
// you actually able to do" asks, it corrects nothing.
func helpForm(toks []string, n Normalized, form func() string) string {
	if !anyOf(toks, helpEmphasis) {
		return form()
	}
	out := make([]string, 0, len(toks))
	for _, w := range toks {
		if !helpEmphasis[w] {
			out = append(out, w)
		}
	}
	return commandForm(out, n)
}

var helpEmphasis = words2set("actually really exactly even")

// expressionAsked: toks ask for one of the robot's expressions and little else ("celebrate
// with me", "do a happy dance").
func (t *Table) expressionAsked(toks []string, n Normalized) bool {
	if _, ok := t.expressionIn(toks); !ok || len(toks) == 0 {
		return false
	}
	rest := 0
	for i, w := range toks {
		if !audience(toks, i) && !exprFill[w] && !frameFill[w] && t.vocab.expressions[w] == "" {
			rest++
		}
	}
	f := commandForm(toks, Normalized{Text: strings.Join(toks, " "), toks: toks, Polite: n.Polite})
	// "celebrate with me": the expression's own word opens the request
	return rest == 0 && (f == FormImperative || f == FormStatement && t.vocab.expressions[toks[0]] != "" || hasPrefix(toks, []string{"do", "the"}))
}

// reasonBefore splits toks into a reason said first without a comma and the request after it
// ("we won the match celebrate with me"): the first split whose head is an afterthought
// (compound_reasons.go) and whose rest ok accepts.
func (t *Table) reasonBefore(toks []string, ok func([]string) bool) ([]string, bool) {
	if len(toks) < 3 || !reasonLeads[toks[0]] && t.vocab.people[toks[0]] == "" && !kinWords[toks[0]] {
		return nil, false
	}
	for i := 2; i < len(toks); i++ {
		head := toks[:i]
		if anyOf(head, notNews) || functionWords[head[i-1]] || objectLeads[head[i-1]] {
			continue // "I would like to know about jane's party": the rest is what it is about
		}
		if ok(toks[i:]) && t.afterthought(Normalized{Text: strings.Join(head, " "), toks: head}) {
			return toks[i:], true
		}
	}
	return nil, false
}

// notNews are words of a wish or a question: a head that holds one is no reason said before a
// request ("I'd like to know about ...").
var notNews = words2set("about know like want wonder tell ask what how why which")

// timerFrameWords can make the timer frame apply.
var timerFrameWords = []string{"timer", "timers", "countdown", "time", "longer", "left", "remaining", "give", "cancel", "stop", "scrap"}

// frameWordsOf holds the first words of a home's own expressions that wordClasses does not
// know: with the built-in expressions only (most homes) it is empty, and the frames are
// gated by the word classes mentions looks up anyway.
func frameWordsOf(v vocab) map[string]bool {
	out := map[string]bool{}
	for w := range v.expressions {
		if first, _, _ := strings.Cut(w, " "); wordClasses[first]&wcExpression == 0 {
			out[first] = true
		}
	}
	return out
}

// stopWords: a sentence that asks for quiet ("be quiet for a second", "stop right there",
// "don't talk", "no talking", "mute the speaker", "go to sleep").
func (t *Table) stopWords(toks []string, n Normalized, form func() string) bool {
	switch {
	case contains(toks, "unmute") || contains(toks, "unmuted"):
		return false // "be unmuted": quiet time ended (quietEnd), never a stop
	case anyOf(toks, stopCore):
		if !only(toks, stopCore, stopTalk, stopFill, frameFill) {
			return false
		}
		if f := form(); f != FormImperative && !((f == FormStatement || f == FormPast) && contains(toks, "enough")) { // "enough already!"
			return false
		}
		if contains(toks, "sleep") && !hasPrefix(stripRequestLeads(toks), []string{"go", "to", "sleep"}) {
			return false
		}
		if contains(toks, "shut") && !contains(toks, "up") && !contains(toks, "off") && !contains(toks, "it") {
			return false
		}
	case anyOf(toks, stopTalk) && (n.Negated || toks[0] == "no"):
		// "don't talk", "please do not respond", "no talking"
	default:
		return false
	}
	return only(toks, stopCore, stopTalk, stopFill, frameFill)
}

// expressionIn finds one of the robot's expressions in toks (a word or a phrase).
func (t *Table) expressionIn(toks []string) (string, bool) {
	for i, w := range toks {
		if e, ok := t.vocab.expressions[w]; ok {
			return e, true
		}
		if !t.vocab.exprStarts[w] {
			continue // most words start no expression phrase: no string is built for them
		}
		for l := min(3, len(toks)-i); l >= 2; l-- {
			if e, ok := t.vocab.expressions[strings.Join(toks[i:i+l], " ")]; ok {
				return e, true
			}
		}
	}
	return "", false
}

// onlyOrPeople is only, where a person of the home may also be named ("hang up on mum").
func (t *Table) onlyOrPeople(toks []string, sets ...wordSet) bool {
	for _, w := range toks {
		if t.vocab.people[w] == "" && !kinWords[w] && !only([]string{w}, sets...) {
			return false
		}
	}
	return true
}

var (
	timerNouns  = words2set("timer timers countdown")
	timerCancel = words2set("cancel delete remove clear kill dismiss abort forget scrap ditch nevermind stop end off rid")
	timerStart  = words2set("set start make create add put begin get give need needs want run pop stick count time")
	timerStatus = words2set("how long left remaining status check yet still go gone went done finished ring rang rung " +
		"until till before ready longer much")
	timerFill = words2set("the a an my our for of on up going me us please now i we you can could would will it that they got earlier " +
		"this there any all both every what which with called named about time is are was did does has have and then " +
		"more another new quick just turn switch to by in pause paused resume extend snooze reset restart change move " +
		"rename repeat")
)

// stopLead takes off the "no"s before a stop word ("no no no stop"): the stop must always work.
func (t *Table) stopLead(toks []string) []string {
	if cut := t.cutStatedReason(toks); len(cut) < len(toks) && anyOf(cut, stopCore) && only(cut, stopCore, stopTalk, stopFill, frameFill) &&
		!(len(cut) == 1 && hushWord(cut[0]) && !t.vocab.lex.has(toks[1:], "stop.reasons")) { // "shh, the dog is down there" hushes someone else
		toks = cut // "stop moving you scare the baby", "shut up oh my god you never stop": the reason said after
	}
	for i := 1; i+1 < len(toks); i++ { // "be quiet i'm on the phone": the reason said after
		if (toks[i] == "i" || toks[i] == "we" || toks[i] == "you" || toks[i] == "it" || toks[i] == "that" || toks[i] == "this") && (toks[i+1] == "am" || toks[i+1] == "are" ||
			toks[i+1] == "is" || toks[i+1] == "have" || toks[i+1] == "need" || toks[i+1] == "want" || toks[i+1] == "cannot") && anyOf(toks[:i], stopCore) {
			toks = toks[:i]
			break
		}
		if t.stopForSomeone(toks, i) {
			toks = toks[:i] // "shh dad's on a call": someone of the home busy is the reason
			break
		}
	}
	i := 0
	for i < len(toks)-1 && (toks[i] == "no" || toks[i] == "oh" || toks[i] == "wait" || toks[i] == "whoa" || toks[i] == "hey" || toks[i] == "ok" || toks[i] == "okay") {
		i++
	}
	if i > 0 && stopCore[toks[i]] {
		return toks[i:]
	}
	return toks
}

// audience: toks[i] is in a short "for ..." at the end of an expression request ("do a dance
// for our guests", "for my birthday") or names who is shown ("show grandma your happy
// face"): who or what it is for, not what is asked.
func audience(toks []string, i int) bool {
	for j := i; j >= 0 && j >= i-4; j-- {
		if toks[j] == "for" && len(toks)-j <= 5 && j > 0 {
			return true
		}
		if toks[j] == "with" && len(toks)-j <= 5 && j > 1 && playmates[toks[len(toks)-1]] {
			return true // "... with the birthday kids": who plays
		}
	}
	if len(toks) > 3 && toks[0] == "show" && i > 0 {
		for j := i + 1; j < len(toks) && j <= i+3; j++ {
			if toks[j] == "your" {
				return true
			}
		}
	}
	return false
}

// playmates close "with ..." naming who plays along: "with the birthday kids".
var playmates = words2set("kids children friends guests cousins everyone everybody us them boys girls twins grandma grandpa nana granny auntie uncle")

// helpUse are the words of asking how the robot is used: "how does this thing work", "how
// does one work you", "I need help using you", "what can I ask it to do".
var helpUse = words2set("work works working use using operate 1 one this thing robot it need")

// robotNamed: the robot spoken of as "this thing", "this robot", or "it" in "what can I ask it".
func robotNamed(toks []string) bool {
	return hasPhrase(toks, []string{"this", "thing"}) || hasPhrase(toks, []string{"this", "robot"}) ||
		hasPhrase(toks, []string{"ask", "it"})
}

// choreFrame: a chore asked of the robot that it cannot do (house.chores: "make me a
// sandwich", "clean my room", "walk the dog") is a request about this home — answered
// locally as unclear, never sent to the agent. Only a request: "mom made me a sandwich" and
// "how do I clean my room" are not.
func (t *Table) choreFrame(n Normalized, m Mentions) (Decision, bool) {
	toks := n.tokens()
	lead := stripRequestLeads(toks)
	if len(lead) < 2 || n.Question && !n.Polite || n.Negated || t.vocab.lex["house.chores"].at(lead, 0) == 0 {
		return Decision{}, false
	}
	switch commandForm(toks, n) {
	case FormReported, FormConditional, FormNegated, FormQuestion, FormCorrected, FormIndirect:
		return Decision{}, false // the chore's own verb opens the rest: "text mr fraser that the parcel came"
	}
	d := t.unclear(n, "device", "a chore this robot cannot do")
	d.Mentions = m.ref()
	d.NotActed = "a chore this robot cannot do"
	return d, true
}

// showMe: the sentence opens with "show me" (or "show us", "let me see"), or ends with it and
// at most two words: what is to be shown is the expression it names.
func showMe(toks []string) bool {
	lead := stripRequestLeads(toks)
	for _, p := range [][]string{{"show", "me"}, {"show", "us"}, {"let", "me", "see"}, {"let", "us", "see"}} {
		if hasPrefix(lead, p) || hasSuffix(toks, p) {
			return true
		}
		for i := 1; i+len(p) < len(toks); i++ {
			if hasPrefix(toks[i:], p) && len(toks)-i-len(p) <= 2 {
				return true // "you look sleepy, show me sleepy": the request last
			}
		}
	}
	return false
}
