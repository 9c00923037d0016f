package intents

import (
	"slices"
	"strings"
)

// The family frames: emergencies, calls back, privacy mode and games are decided like house
// commands — by what the sentence mentions (words of the lexicons, lexicon.yaml), the people
// of the home, and its form (command.go) — never by one pattern per whole sentence. Each
// frame names the lexicon words that decided in the decision's doctrine, so `reachyctl
// route` shows them. A frame that does not fit returns false and the next one reads the
// sentence; only a request (the command rule) makes any of them act.

// familyFill are words any family sentence may carry without changing what it asks.
var familyFill = words2set("a an the it that this is are me us you your i we please now right just so okay ok " +
	"can could would will do tell let know kindly quick quickly again reachy jeeves love mate dear buddy darling " +
	"sweetie honey pal sir madam hey oh well and then for to with my our some bit little time")

// maxFamilyUnexplained is how many words a family command may carry that no list explains.
const maxFamilyUnexplained = 2

// familyFrame tries the family frames in order: an emergency first (it must never be read
// as a call back), then a call back, privacy mode, a game.
func (t *Table) familyFrame(n Normalized, m Mentions, ctx Context) (Decision, bool) {
	toks := n.tokens()
	if len(toks) == 0 || len(toks) > 24 {
		return Decision{}, false
	}
	g := t.vocab.lexGate
	playing := m.seen&wcPlay != 0 // "I don't want to play any more": playing, with no game named
	if m.lex&(g.remind|g.emergency|g.secrets|g.call|g.privacy|g.quiet|g.game) == 0 && !playing {
		return Decision{}, false // no key word of any family's lexicon: most sentences
	}
	if m.lex&g.remind != 0 {
		if d, ok := t.reminderFrame(n, toks, m); ok {
			return d, true
		}
	}
	if m.lex&g.emergency != 0 {
		if d, ok := t.emergencyFrame(n, toks, m); ok {
			return d, true
		}
	}
	if m.lex&g.secrets == 0 {
	} else if hit, ok := t.vocab.lex.find(toks, "house.secrets"); ok && (n.Question || indirect(toks) || hasPrefix(toks, []string{"tell", "me"})) {
		d := t.unclear(n, "secret", "a secret of the home asked for ("+hitWords(hit)+")")
		d.Mentions = m.ref()
		return d, true
	}
	if m.named {
		return Decision{}, false // a light or the AC: the house frame's
	}
	if m.lex&g.call != 0 {
		if d, ok := t.callFrame(n, toks, m, ctx); ok {
			return d, true
		}
	}
	if m.lex&g.privacy != 0 {
		if d, ok := t.privacyFrame(n, toks, m); ok {
			return d, true
		}
	}
	if m.lex&g.quiet != 0 {
		if d, ok := t.quietWords(n, toks, m); ok {
			return d, true
		}
	}
	if m.lex&g.game == 0 && !playing {
		return Decision{}, false
	}
	return t.gameFrame(n, toks, m)
}

// reminderFrame: "remind me in half an hour to take the laundry out", "ring me in forty five
// seconds", "give me five minutes on the clock for the bath" — a reminder or a wake-up IN a
// length of time is a timer (its task is not kept; a label the home knows is). At a clock
// time ("wake me up at 7 am") it is not: that is said plainly, never guessed.
func (t *Table) reminderFrame(n Normalized, toks []string, m Mentions) (Decision, bool) {
	lx := t.vocab.lex
	lead := stripRequestLeads(toks)
	remind := lx["timer.remind"].at(lead, 0) > 0
	clock, okClock := lx.find(toks, "timer.clock")
	if !remind && !okClock {
		return Decision{}, false
	}
	if n.Negated || n.Question || noNeed(toks) || len(toks) > 16 {
		return Decision{}, false
	}
	view := strings.Fields(n.durations())
	duration := ""
	for i, w := range view {
		if strings.HasPrefix(w, "~") && (okClock || i > 0 && (view[i-1] == "in" || view[i-1] == "after" || view[i-1] == "when")) {
			if _, outcome := parseDuration(w[1:]); outcome == durationOK {
				duration = w[1:]
			}
			break
		}
	}
	in := t.byName["timer.start"]
	if in == nil || in.Unavailable {
		return Decision{}, false
	}
	if duration == "" {
		if _, ok := lx.find(toks, "timer.clocktime"); remind && ok || remind && contains(toks, "at") && slices.ContainsFunc(toks, isDigits) {
			d := t.unclear(n, "timer", "a reminder at a clock time: timers here run for a length of time")
			d.Mentions = m.ref()
			d.NotActed = "a clock time, not a length"
			return d, true
		}
		return Decision{}, false
	}
	if !remind {
		if f := commandForm(toks, n); f != FormImperative {
			return Decision{}, false // "the countdown was ten minutes": a length told, not asked for
		}
	}
	args := map[string]string{"duration": duration}
	for _, w := range toks {
		if l := t.vocab.labels[w]; l != "" {
			args["label"] = l
			break
		}
	}
	why := "a reminder in a length of time"
	if okClock {
		why = "a length on the clock (" + hitWords(clock) + ")"
	}
	return t.familyDecision("timer.start", args, n, m, FormImperative, why)
}

// quietWords: words that ask for quiet (quiet.verbs: "keep it down", "stay silent") with a
// length ("for half an hour") ask for quiet time, whatever reason goes with them ("I'm on a
// work call, stay silent for 20 minutes"). Without a length the stop frame reads them.
func (t *Table) quietWords(n Normalized, toks []string, m Mentions) (Decision, bool) {
	lx := t.vocab.lex
	hit, ok := lx.find(toks, "quiet.verbs")
	if !ok {
		return Decision{}, false
	}
	view := strings.Fields(n.durations())
	duration := ""
	for i, w := range view {
		if strings.HasPrefix(w, "~") && i > 0 && (view[i-1] == "for" || view[i-1] == "next") {
			if only(strings.Split(w[1:], "_"), quietMoments) {
				return Decision{}, false // "be quiet for a second": the moment only (robot.stop)
			}
			duration = w[1:]
			break
		}
	}
	if duration == "" {
		return Decision{}, false
	}
	used := make([]bool, len(view))
	for i, w := range view {
		used[i] = strings.HasPrefix(w, "~") || w == "next" || w == "the"
	}
	if t.unexplainedBy(view, used, []string{"quiet.verbs", "stop.reasons"}, familyFill, stopFill, frameFill) > maxFamilyUnexplained && !mayBeCompound(n) {
		return Decision{}, false
	}
	form := t.requestForm(n, toks, func(ct []string) bool { return lx.has(ct, "quiet.verbs") })
	if form != FormImperative {
		return Decision{}, false
	}
	return t.familyDecision(IntentQuiet, map[string]string{"state": "on", "duration": duration}, n, m, form, "quiet that lasts ("+hitWords(hit)+")")
}

// familyDecision is a frame's decision with its explanation.
func (t *Table) familyDecision(name string, args map[string]string, n Normalized, m Mentions, form, why string) (Decision, bool) {
	in := t.byName[name]
	if in == nil || in.Unavailable {
		return Decision{}, false
	}
	d := t.settle(in, t.bind(in, args, Context{}), &Rule{Intent: name, Index: -1, Pattern: "family frame (intents/family_frames.go)", Where: in.where}, n)
	m.Form = form
	d.Mentions = m.ref()
	d.Doctrine = append([]string{"frame: " + why + ", form " + form + ": " + name}, d.Doctrine...)
	return d, true
}

// requestForm is the form of a family sentence across its clauses: a request in one clause
// that names the family, with statements around it ("privacy please, I'm getting changed",
// "call the police, someone's in the garden"), is a request; a clause that is negated,
// reported, conditional, past or future is not.
func (t *Table) requestForm(n Normalized, toks []string, names func([]string) bool, mask ...string) string {
	var named func([]string) bool // a clause that is only the thing's name asks for it
	if len(mask) > 0 {
		named = func(ct []string) bool {
			for _, s := range mask {
				if t.vocab.lex.has(ct, s) {
					return true
				}
			}
			return false
		}
	}
	whole := opened(commandForm(t.masked(toks, mask), n), toks, names)
	if whole == FormImperative || !mayBeCompound(n) {
		return whole
	}
	request := false
	for _, c := range t.pieces(n) {
		ct := c.tokens()
		f := opened(commandForm(t.masked(ct, mask), c), ct, names)
		if !names(ct) && f != FormConditional && f != FormReported {
			continue // a reason said around the request: "I don't want anyone to see me, block the calls"
		}
		switch f {
		case FormImperative:
			request = request || names(ct)
		case FormStatement, FormWish, FormQuestion:
			if named != nil && named(ct) && len(ct) <= 4 && !c.Question && !anyOf(ct, finiteSet) {
				request = true // "hide and seek, you count": the name said as a request
			}
		default:
			return f
		}
	}
	if request {
		return FormImperative
	}
	return whole
}

// pieces are the parts of a sentence between punctuation, each normalized on its own (its
// own negation: "I don't want anyone to see me, block the calls" blocks them).
func (t *Table) pieces(n Normalized) []Normalized {
	raw := strings.FieldsFunc(n.raw, func(r rune) bool { return strings.ContainsRune(".!?;:,", r) })
	if len(raw) < 2 {
		return []Normalized{n} // "and" inside a name ("hide and seek") parts nothing
	}
	out := make([]Normalized, 0, len(raw))
	for _, p := range raw {
		if pn := normalize(p, t.vocab.wake); len(pn.tokens()) > 0 {
			out = append(out, pn)
		}
	}
	return out
}

// masked replaces the phrases of the named sets by one neutral word, so a name's own words
// do not decide the form ("simon says" is a game, not reported speech).
func (t *Table) masked(toks []string, sets []string) []string {
	if len(sets) == 0 {
		return toks
	}
	used := make([]bool, len(toks))
	hits := t.vocab.lex.cover(toks, used, sets...)
	if len(hits) == 0 {
		return toks
	}
	out := make([]string, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		if !used[i] {
			out = append(out, toks[i])
			continue
		}
		for _, h := range hits {
			if h.at == i {
				out = append(out, "game")
				i += h.n - 1
				break
			}
		}
	}
	return out
}

// opened: a statement that opens with the family's own words ("stay silent for 20
// minutes", "keep it down") is a command in the family's verbs the command rule's lists do
// not hold.
func opened(form string, toks []string, names func([]string) bool) string {
	if form != FormStatement {
		return form
	}
	lead := stripRequestLeads(toks)
	if len(lead) == 0 || notCommandStarts[lead[0]] || !names(lead[:1+min(3, len(lead)-1)]) {
		return form
	}
	for _, w := range lead[1:] {
		if finiteWords[w] || pastWords[w] || futureWords[w] {
			return form // "privacy is important": a statement about it
		}
	}
	return FormImperative
}

// unexplainedBy counts the words of toks that none of the lexicon sets, the word sets, the
// home's people or kin words explain.
func (t *Table) unexplainedBy(toks []string, used []bool, sets []string, words ...wordSet) int {
	t.vocab.lex.cover(toks, used, sets...)
	count := 0
	for i, w := range toks {
		if used[i] || t.vocab.people[w] != "" || kinWords[w] || isDigits(w) {
			continue
		}
		ok := false
		for _, s := range words {
			if s[w] {
				ok = true
				break
			}
		}
		if !ok {
			count++
		}
	}
	return count
}

// emergencyFrame: a service the robot cannot call ("police", "an ambulance", "999") with a
// verb that asks for it, or with what happened ("call an ambulance, grandpa fell", "there's a
// fire, ring 999"), or a cry for help with what happened. The answer (help.emergency) never
// acts: it says to use a phone.
func (t *Table) emergencyFrame(n Normalized, toks []string, m Mentions) (Decision, bool) {
	lx := t.vocab.lex
	if len(toks) >= 2 && only(toks, wordSet{"help": true, "me": true, "us": true, "somebody": true, "someone": true, "please": true}) &&
		strings.Count(" "+strings.Join(toks, " ")+" ", " help ") >= 2 {
		// "help help help", "help me help me": a cry for help, not a question about the robot
		return t.familyDecision(IntentEmergency, map[string]string{}, n, m, FormImperative, "a cry for help repeated")
	}
	svc, okSvc := lx.find(toks, "emergency.services")
	event, okEvent := lx.find(toks, "emergency.events")
	if !okSvc && !okEvent {
		return Decision{}, false
	}
	verb, okVerb := lx.find(toks, "emergency.verbs")
	if okVerb && okSvc && verb.at == svc.at {
		okVerb = false // "help" alone is a service word or a verb, not both
		for i := range toks {
			if i != svc.at {
				if l := lx["emergency.verbs"].at(toks, i); l > 0 && (i+l <= svc.at || i >= svc.at+svc.n) {
					verb, okVerb = lexHit{set: "emergency.verbs", phrase: strings.Join(toks[i:i+l], " "), at: i, n: l}, true
					break
				}
			}
		}
	}
	if okSvc && svc.phrase == "help" && okVerb && !callForHelp[verb.phrase] {
		okVerb = false // "I need help using you" asks for help, not for the emergency services
	}
	helpCry := contains(toks, "help") && okEvent
	real := okSvc && svc.phrase != "help" && (okVerb || okEvent) || okSvc && svc.phrase == "help" && okVerb && verb.phrase != "help" || helpCry
	if !real || n.Negated || noNeed(toks) {
		return Decision{}, false
	}
	switch commandForm(toks, n) {
	case FormPast, FormReported, FormConditional, FormFuture:
		if !okEvent || okSvc && !okVerb {
			return Decision{}, false // "dad called the police", "if there's a fire call 999"
		}
	}
	if len(toks) > 1 && adviceLeads[toks[0]] && (toks[1] == "i" || toks[1] == "we") && !okEvent {
		return Decision{}, false // "should we call an ambulance": asks for advice
	}
	if hasPrefix(toks, []string{"how"}) || hasPrefix(toks, []string{"what"}) && !okEvent {
		return Decision{}, false // "what number do you dial for the police": a question about the world
	}
	return t.familyDecision(IntentEmergency, map[string]string{}, n, m, commandForm(toks, n), "an emergency ("+hitWords(svc, verb, event)+")")
}

// finiteSet is finiteWords as a word set.
var finiteSet = wordSet(finiteWords)

// modalWords before a call verb make it something other than a request: "we could call dad".
var modalWords = words2set("could would should can will might may must shall want wants need needs wanna gonna going did do does have has had let lets to")

// callForHelp are the verbs that, with "help", summon someone: "call for help", "get help".
var callForHelp = map[string]bool{"call": true, "ring": true, "phone": true, "dial": true, "get": true, "send for": true,
	"send": true, "fetch": true, "call for": true, "ring for": true, "phone for": true}

// desireToReach opens "I want to see mommy", "I need to talk to mom", "can I speak to dad".
var desireToReach = [][]string{{"i", "want", "to"}, {"i", "wanna"}, {"we", "want", "to"}, {"we", "wanna"}, {"i", "need", "to"},
	{"we", "need", "to"}, {"i", "would", "like", "to"}, {"we", "would", "like", "to"}, {"i", "miss"}, {"can", "i"}, {"can", "we"},
	{"could", "i"}, {"could", "we"}, {"may", "i"}, {"let", "me"}, {"let", "us"}}

// callFrame: a verb that reaches someone (call.verbs, call.reach) and a person — of the home,
// or a relative the home does not list (asked about). A strong verb ("call", "ring", "video
// call") asks as a command; a weak one ("get", "see", "talk to") only with a wish to reach
// them ("I want to see mommy") or the means ("get mum on the video").
func (t *Table) callFrame(n Normalized, toks []string, m Mentions, ctx Context) (Decision, bool) {
	lx := t.vocab.lex
	strong, okStrong := lx.find(toks, "call.verbs")
	weak, okWeak := lx.find(toks, "call.reach")
	if !okStrong && !okWeak {
		return Decision{}, false
	}
	if d, ok := t.callBack(n, toks, m); ok {
		return d, true
	}
	if d, ok := t.callGive(n, toks, m); ok {
		return d, true
	}
	person, who := "", -1
	for i, w := range toks {
		if p := t.vocab.people[w]; p != "" {
			if i > 0 && who == 0 && toks[0] != "call" {
				person, who = "", -1 // "mommy, I'm scared, call daddy": the first was said to get attention
			}
			if person != "" && person != p {
				return Decision{}, false // two people: not one call
			}
			person, who = p, i
		} else if kinWords[w] && person == "" && who < 0 {
			person, who = w, i // a relative the home does not list: asked about
			if i > 0 && (toks[i-1] == "my" || toks[i-1] == "our") {
				person = toks[i-1] + " " + w
			}
		}
	}
	if who < 0 {
		return t.callUnknown(n, toks, m, strong, okStrong)
	}
	verb := strong
	if !okStrong || okWeak && weak.at < strong.at && weak.at < who {
		verb = weak
	}
	if verb.at > 0 && objectLeads[toks[verb.at-1]] || anyOf(toks[:verb.at], hangVerbs) {
		return Decision{}, false // "end the call with auntie": the call is a thing, not a verb
	}
	if verb.at > who {
		return Decision{}, false // "mom called", "dad, call me": the person is not the one reached
	}
	used := make([]bool, len(toks))
	used[who] = true
	if who > 0 && (toks[who-1] == "my" || toks[who-1] == "our") {
		used[who-1] = true
	}
	unexplained := t.unexplainedBy(toks, used, []string{"call.verbs", "call.reach", "call.fill"}, familyFill)
	lead := stripRequestLeads(toks)
	wish := false
	for _, l := range desireToReach {
		if hasPrefix(lead, l) && len(lead) > len(l) && (lx["call.verbs"].at(lead, len(l)) > 0 || lx["call.reach"].at(lead, len(l)) > 0) {
			wish = true
		}
	}
	means := contains(toks, "video") || contains(toks, "phone") || contains(toks, "line") || contains(toks, "screen")
	reasonFirst := verb.at > 0 && commandForm(toks[verb.at:], n) == FormImperative && !anyOf(toks[:verb.at], pastWords) &&
		!anyOf(toks[:verb.at], relayVerbs) && !anyOf(toks[:verb.at], modalWords) && !n.Negated && !n.Question
	if reasonFirst {
		tail := make([]bool, len(toks)-verb.at)
		copy(tail, used[verb.at:])
		unexplained = t.unexplainedBy(toks[verb.at:], tail, []string{"call.verbs", "call.reach", "call.fill"}, familyFill)
	}
	if verb.set == "call.reach" && !wish && !means || unexplained > 1 {
		return Decision{}, false
	}
	form := t.requestForm(n, toks, func(ct []string) bool { return lx.has(ct, "call.verbs") || lx.has(ct, "call.reach") })
	if form == FormStatement && reasonFirst {
		form = FormImperative // "mommy i'm scared call daddy": the reason first, without a comma
	}
	switch {
	case wish && !n.Negated:
		form = FormImperative // "I want to talk to dad": a wish put as a request
	case form != FormImperative && toks[0] == "you" && verb.set == "call.verbs" && verb.at == 1 && unexplained == 0 && !n.Negated && !n.Question:
		form = FormImperative // "you make call to papa now": a command as many learners say it
	}
	if form != FormImperative {
		if form == FormQuestion || form == FormIndirect {
			return Decision{}, false // "can I call dad" reads the calendar (calendar.status)
		}
		return Decision{}, false
	}
	return t.familyDecision("teleport.call", map[string]string{"person": person}, n, m, form, "a call ("+hitWords(verb)+") to a person")
}

// callUnknown: "call sarah", "ring bob please" — a call verb and one word that names nobody
// the home knows: asked about ("I don't know that person"), never guessed and never sent on.
func (t *Table) callUnknown(n Normalized, toks []string, m Mentions, verb lexHit, ok bool) (Decision, bool) {
	lead := stripRequestLeads(toks)
	if ok && len(lead) == verb.n && verb.at == len(toks)-verb.n && !n.Question && !n.Negated {
		// "call": who is asked, never guessed
		return t.familyDecision("teleport.call", map[string]string{}, n, m, FormImperative, "a call ("+hitWords(verb)+") to no one named")
	}
	if !ok || len(lead) < 2 || len(lead) > 4 || t.vocab.lex["call.verbs"].at(lead, 0) != verb.n {
		return Decision{}, false
	}
	rest := lead[verb.n:]
	name := rest[0]
	if explained(name) || familyFill[name] || t.vocab.lex["call.fill"].at(rest, 0) > 0 || t.vocab.lex["emergency.services"].at(rest, 0) > 0 {
		return Decision{}, false
	}
	for i := 1; i < len(rest); i++ {
		if !familyFill[rest[i]] && t.vocab.lex["call.fill"].at(rest, i) == 0 {
			return Decision{}, false
		}
	}
	if commandForm(toks, n) != FormImperative {
		return Decision{}, false
	}
	return t.familyDecision("teleport.call", map[string]string{"person": name}, n, m, FormImperative, "a call ("+hitWords(verb)+") to someone the home does not list")
}

// callGive: "give mum a ring", "give my dad a call" — a call given to a person.
func (t *Table) callGive(n Normalized, toks []string, m Mentions) (Decision, bool) {
	lead := stripRequestLeads(toks)
	if len(lead) < 4 || lead[0] != "give" {
		return Decision{}, false
	}
	i := 1
	if lead[i] == "my" || lead[i] == "our" {
		i++
	}
	person := t.vocab.people[lead[i]]
	if person == "" && kinWords[lead[i]] {
		person = lead[i]
	}
	l := t.vocab.lex["call.give"].at(lead, i+1)
	if person == "" || l == 0 || i+1+l < len(lead) && !only(lead[i+1+l:], familyFill) || n.Negated || n.Question {
		return Decision{}, false
	}
	return t.familyDecision("teleport.call", map[string]string{"person": person}, n, m, FormImperative, "a call given to a person (call.give "+strings.Join(lead[i+1:i+1+l], " ")+")")
}

// callBack: "ask mum to call us", "tell dad to ring home", "get mommy to call home" — a
// person of the home asked to call back, as a request.
func (t *Table) callBack(n Normalized, toks []string, m Mentions) (Decision, bool) {
	lx := t.vocab.lex
	lead := stripRequestLeads(toks)
	if len(lead) < 4 || lx["call.ask"].at(lead, 0) == 0 {
		return Decision{}, false
	}
	i := lx["call.ask"].at(lead, 0)
	if lead[i] == "my" || lead[i] == "our" {
		i++
	}
	if i+2 >= len(lead) || lead[i+1] != "to" {
		return Decision{}, false
	}
	person := t.vocab.people[lead[i]]
	if person == "" && kinWords[lead[i]] {
		person = lead[i]
	}
	l := lx["call.verbs"].at(lead, i+2)
	if person == "" || l == 0 || i+2+l >= len(lead) || lx["call.back"].at(lead, i+2+l) == 0 {
		return Decision{}, false
	}
	form := commandForm(toks, n)
	if form == FormStatement && !n.Question {
		form = FormImperative // "ask mum to call us": it opens with the verb that asks
	}
	if form != FormImperative {
		return Decision{}, false
	}
	return t.familyDecision("teleport.call", map[string]string{"person": person}, n, m, form, "a person asked to call back (call.ask "+lead[0]+", call.verbs "+lead[i+2]+")")
}

// privacyFrame: privacy mode named, or the calls it keeps out with a verb that blocks or
// allows them ("block the video calls for now"). The state is the last state word said; a
// name alone ("privacy please") turns it on.
func (t *Table) privacyFrame(n Normalized, toks []string, m Mentions) (Decision, bool) {
	lx := t.vocab.lex
	name, okName := lx.find(toks, "privacy.names")
	calls, okCalls := lx.find(toks, "privacy.calls")
	if !okName && !okCalls {
		return Decision{}, false
	}
	used := make([]bool, len(toks))
	negated := n.Negated || noNeed(toks)
	state := ""
	var stateHit lexHit
	if okName {
		for _, h := range lx.cover(toks, used, "privacy.names", "privacy.calls", "privacy.off", "privacy.on") {
			switch h.set {
			case "privacy.on":
				state, stateHit = "on", h
			case "privacy.off":
				state, stateHit = "off", h
			}
		}
	} else {
		// The calls it keeps out: a verb that blocks them turns it on, one that allows them
		// off; "don't let anyone call" blocks.
		for _, h := range lx.cover(toks, used, "privacy.calls", "privacy.block", "privacy.allow") {
			switch h.set {
			case "privacy.block":
				state, stateHit = "on", h
			case "privacy.allow":
				state, stateHit = "off", h
				if negated {
					state, negated = "on", false
				}
			}
		}
		if state == "" {
			return Decision{}, false // "the calls were fun" is not privacy mode
		}
		name = calls
	}
	if state == "" {
		state = "on"
	}
	unexplained := 0
	for i, w := range toks[:len(cutReason(toks))] { // "no calls please, I am in the bath": the reason is not counted
		if !used[i] && !familyFill[w] && !isDigits(w) && w != "mode" && w != "for" && w != "while" && w != "minutes" {
			unexplained++
		}
	}
	form := t.requestForm(n, toks, func(ct []string) bool { return lx.has(ct, "privacy.names") || lx.has(ct, "privacy.calls") })
	if form == FormNegated && !negated || form == FormStatement && (!okName && stateHit.at == 0 || okName && name.at == 0 && !anyOf(toks, finiteSet)) {
		form = FormImperative // "don't let anyone video call", "no more video calls today"
	}
	if form != FormImperative {
		lead := stripRequestLeads(toks)
		if (hasPrefix(lead, []string{"i", "need"}) || hasPrefix(lead, []string{"i", "want"}) || hasPrefix(lead, []string{"we", "need"})) && !n.Negated {
			form = FormImperative // "I need some privacy"
		}
	}
	if form != FormImperative || unexplained > maxFamilyUnexplained && !mayBeCompound(n) {
		return Decision{}, false
	}
	return t.familyDecision("privacy.set", map[string]string{"state": state}, n, m, form, "privacy mode ("+hitWords(name, stateHit)+")")
}

var gameSets = []string{"game.rps", "game.animal", "game.simon", "game.freeze", "game.hide"}

var gameIntents = map[string]string{"game.rps": "play.rps", "game.animal": "play.animal", "game.simon": "play.simon",
	"game.freeze": "play.freeze", "game.hide": "play.hide"}

// gameFrame: a game named (its lexicon) or a game at all ("let's play a game"), and what is
// asked — to start it (a request, or its name said as one), to stop ("I don't want to play
// any more"), or about it (a question: play.invite says how to start one).
func (t *Table) gameFrame(n Normalized, toks []string, m Mentions) (Decision, bool) {
	lx := t.vocab.lex
	used := make([]bool, len(toks))
	hits := lx.cover(toks, used, append([]string{"game.any"}, gameSets...)...)
	game, named := lexHit{}, false
	for _, h := range hits {
		if h.set == "game.any" {
			if !named {
				game = h
			}
			continue
		}
		if named && h.set != game.set {
			return Decision{}, false // two games named: ask for one at a time elsewhere
		}
		game, named = h, true
	}
	if game.n == 0 && wantsTo(toks, lx, "game.start") && !n.Negated && len(toks) <= 5 && (contains(toks, "play") || contains(toks, "playing")) {
		return t.familyDecision("play.invite", map[string]string{}, n, m, FormImperative, "playing, with no game named") // "I want to play"
	}
	if game.n == 0 {
		// "I don't want to play any more", "I'm done playing": playing, and an end to it.
		if (contains(toks, "play") || contains(toks, "playing")) && lx.has(toks, "game.stop") && len(toks) <= 10 &&
			(n.Negated || contains(toks, "done") || contains(toks, "finished") || contains(toks, "bored")) && !n.Question {
			stop, _ := lx.find(toks, "game.stop")
			return t.familyDecision("play.stop", map[string]string{}, n, m, FormImperative, "an end to playing ("+hitWords(stop)+")")
		}
		return Decision{}, false
	}
	stopHits := lx.cover(toks, used, "game.stop")
	startHits := lx.cover(toks, used, "game.start")
	unexplained := 0
	for i, w := range toks {
		if !used[i] && !familyFill[w] && !isDigits(w) && w != "want" && w != "not" && w != "of" && w != "am" && w != "let" {
			unexplained++
		}
	}
	form := t.requestForm(n, toks, func(ct []string) bool {
		return lx.has(ct, "game.start") || lx.has(ct, "game.any") || anyGame(lx, ct)
	}, gameSets...)
	if unexplained > 1 && !(unexplained <= 3 && (form == FormQuestion || form == FormReported) && named) {
		return Decision{}, false // "simon says touch your nose": a move of the game, not a request to start it
	}
	if form != FormImperative && !n.Negated && wantsTo(toks, lx, "game.start") {
		form = FormImperative // "I want to play rock paper scissors with you", "let's play simon says"
	}
	switch {
	case len(stopHits) > 0 && (form == FormImperative || n.Negated || form == FormStatement):
		// "stop the game", "I don't want to play any more", "I'm done playing", "game over"
		return t.familyDecision("play.stop", map[string]string{}, n, m, form, "ending a game ("+hitWords(append([]lexHit{game}, stopHits...)...)+")")
	case (n.Negated || noNeed(toks)) && named:
		return t.familyDecision("play.invite", map[string]string{}, n, m, FormNegated, "a game not asked for ("+hitWords(game)+")")
	case n.Negated || noNeed(toks):
		return Decision{}, false
	case form == FormQuestion || form == FormIndirect || form == FormReported && named:
		// "mi hija wants play the simon game": someone else's wish is answered with how to start
		return t.familyDecision("play.invite", map[string]string{}, n, m, form, "a question or a wish about a game ("+hitWords(game)+")")
	case form != FormImperative && !(named && len(startHits) > 0 && form == FormStatement && (startHits[0].at == 0 || game.at == 0) && !anyOf(toks, finiteSet)):
		return Decision{}, false // "I played rock paper scissors yesterday"
	case !named && len(startHits) == 0:
		return Decision{}, false // "we won the game, celebrate with me"
	case !named:
		return t.familyDecision("play.invite", map[string]string{}, n, m, FormImperative, "a game without its name ("+hitWords(game)+")")
	}
	return t.familyDecision(gameIntents[game.set], map[string]string{}, n, m, FormImperative, "a game ("+hitWords(append([]lexHit{game}, startHits...)...)+")")
}

// wantLeads put a request as a wish or an invitation: "I want to play", "let's play".
var wantLeads = [][]string{{"i", "want", "to"}, {"we", "want", "to"}, {"i", "wanna"}, {"we", "wanna"}, {"wanna"},
	{"i", "would", "like", "to"}, {"we", "would", "like", "to"}, {"let", "us"}, {"lets"}, {"come", "on", "let", "us"},
	{"i", "need", "to"}, {"we", "need", "to"}}

// wantsTo: the sentence opens with a wish or an invitation followed by a word of the set.
func wantsTo(toks []string, lx lexicon, set string) bool {
	lead := stripRequestLeads(toks)
	for _, l := range wantLeads {
		if hasPrefix(lead, l) && len(lead) > len(l) && lx[set].at(lead, len(l)) > 0 {
			return true
		}
	}
	return false
}

func anyGame(lx lexicon, toks []string) bool {
	for _, s := range gameSets {
		if lx.has(toks, s) {
			return true
		}
	}
	return false
}

// beneficiaryLeads come before a person who is spoken of, not asked about: "a present FOR
// my dad", "how do you SAY mom in Spanish", "a story ABOUT grandma", "what should I GET my
// mom", "a mom kangaroo".
var beneficiaryLeads = words2set("for to say said about called like word get buy give make a an")

// aboutWorld: a question about the world that merely mentions a person or a device of the
// home goes to the agent (docs/intents.md, "Mentions are not references"). It names a world
// word ("mean", "in Spanish", "birthday present", "save money") or opens like a question
// about the world ("is it bad to", "what does", "how do you say"); a person counts as
// mentioned only when spoken of ("a present for my dad", "my dad says ..., is that true"),
// never as the subject asked about ("is dad busy", "what does mom have today"); no room of
// the home is named. A command is never a question about the world ("turn the lights off to
// save energy").
func (t *Table) aboutWorld(n Normalized, m Mentions) (lexHit, bool) {
	toks := n.tokens()
	if len(toks) < 2 || m.lex&t.vocab.lexGate.world == 0 && toks[0] != "why" {
		return lexHit{}, false
	}
	lx := t.vocab.lex
	word, okWord := lx.find(toks, "world.words")
	lead := lx["world.leads"].at(toks, 0)
	why := toks[0] == "why" && len(m.People) > 0 && m.Device == ""
	switch {
	case why:
		word = lexHit{set: "world.leads", phrase: "why", n: 1}
	case lead > 0:
		if !okWord {
			word = lexHit{set: "world.leads", phrase: strings.Join(toks[:lead], " "), n: lead}
		}
	case !okWord || !n.Question && !strings.HasPrefix(word.phrase, "is "):
		return lexHit{}, false
	}
	words := strings.Fields(word.phrase)
	language := anyOf(words, wordSet{"say": true, "spell": true, "mean": true, "means": true, "meaning": true, "translate": true, "word": true})
	if (len(m.Rooms) > 0 || m.Here) && !language {
		return lexHit{}, false // "how do you spell kitchen" names a room as a word, "is it bad to leave the kitchen light on" this home's
	}
	for i, w := range toks {
		if t.vocab.people[w] == "" && !kinWords[w] {
			continue
		}
		j := i - 1
		if j >= 0 && (toks[j] == "my" || toks[j] == "our" || toks[j] == "the" || toks[j] == "her" || toks[j] == "his") {
			j--
		}
		spokenOf := j >= 0 && beneficiaryLeads[toks[j]] || i+1 < len(toks) && relayVerbs[toks[i+1]] || why
		if !spokenOf {
			return lexHit{}, false // the person is who the sentence is about
		}
	}
	return word, true
}

// faultReport: a statement that reports a fault in a device ("the bulb in the study keeps
// flickering", "the bedroom AC is making a weird rattling noise") — about this home, answered
// here; nothing is read or done.
func (t *Table) faultReport(toks []string) (lexHit, bool) {
	return t.vocab.lex.find(toks, "house.faults")
}

// farewellAfter: a statement that ends in a goodbye, good night or thanks ("I'm off to
// school, bye"): the farewell is the answer, said locally.
func (t *Table) farewellAfter(n Normalized) (string, lexHit, bool) {
	toks := n.tokens()
	if n.Question || len(toks) < 1 {
		return "", lexHit{}, false
	}
	if l := t.vocab.lex["farewell.thanks"].at(toks, 0); l > 0 && (l == len(toks) || commandForm(toks[l:], n) != FormImperative) && !n.Polite && !n.Negated {
		return IntentThanks, lexHit{set: "farewell.thanks", phrase: strings.Join(toks[:l], " "), n: l}, true // "thank you very much for the help, you're the best"
	}
	for _, f := range []struct{ set, intent string }{{"farewell.bye", IntentGoodbye}, {"farewell.night", IntentGoodNight}, {"farewell.thanks", IntentThanks}} {
		for k := 1; k <= 3 && k <= len(toks); k++ {
			i := len(toks) - k
			if l := t.vocab.lex[f.set].at(toks, i); l == k {
				return f.intent, lexHit{set: f.set, phrase: strings.Join(toks[i:], " "), at: i, n: l}, true
			}
		}
	}
	return "", lexHit{}, false
}
