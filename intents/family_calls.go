package intents

import (
	"slices"
	"strings"
)

// The family frame for reaching someone: a call back to a person of the home
// (family_frames.go says how the frames decide; an emergency is family_emergency.go's).

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
	{"could", "i"}, {"could", "we"}, {"may", "i"}, {"let", "me"}, {"let", "us"},
	{"i", "have", "to"}, {"i", "got", "to"}, {"i", "gotta"}, {"i", "must"}, {"we", "have", "to"}, {"we", "gotta"}, // "I gotta speak to mommy"
	{"i", "want"}, {"we", "want"}, {"i", "need"}} // a learner's "i want talk with my mother"

// emergencyNumbers said alone ("911 now!") ask for help.
var (
	emergencyNumbers = words2set("911 999 112 000")
	emergencyNow     = words2set("now quick quickly please help hurry right away")
)

// callFrame: a verb that reaches someone (call.verbs, call.reach) and a person — of the home,
// or a relative the home does not list (asked about). A strong verb ("call", "ring", "video
// call") asks as a command; a weak one ("get", "see", "talk to") only with a wish to reach
// them ("I want to see mommy") or the means ("get mum on the video").
// nobodyBefore: the words before a call verb name nobody as its subject ("nobody call mom",
// "no one ring dad now").
func nobodyBefore(lead []string) bool {
	for i, w := range lead {
		if w == "nobody" || w == "noone" || w == "no" && i+1 < len(lead) && (lead[i+1] == "one" || lead[i+1] == "1" || lead[i+1] == "body") {
			return true
		}
	}
	return false
}

func (t *Table) callFrame(n Normalized, toks []string, m Mentions, ctx Context) (Decision, bool) {
	lx := t.vocab.lex
	strong, okStrong := t.findSaid(m.lex, toks, "call.verbs")
	if okStrong && strong.phrase == "video" && strong.at > 0 && (objectLeads[toks[strong.at-1]] || toks[strong.at-1] == "on") {
		okStrong = false // "come on the video": the video is a thing, not the verb
	}
	weak, okWeak := t.findSaid(m.lex, toks, "call.reach")
	if !okStrong && !okWeak {
		return Decision{}, false
	}
	at := len(toks) // the first call word
	if okStrong {
		at = strong.at
	}
	if okWeak && weak.at < at {
		at = weak.at
	}
	if nobodyBefore(toks[:at]) {
		return Decision{}, false // "nobody call mom, she's in a meeting": an order about what nobody may do
	}
	if d, ok := t.callBack(n, toks, m); ok {
		return d, true
	}
	if d, ok := t.callGive(n, toks, m); ok {
		return d, true
	}
	person, who := "", -1
	for i, w := range toks {
		if p := t.vocab.people[w]; p != "" && t.someoneElses(toks, i) {
			if person == "" && who < 0 {
				person, who = toks[i-1]+" "+w, i // "call sophies mum": someone else's mum, asked about
			}
		} else if p != "" {
			if i > 0 && who == 0 && toks[0] != "call" {
				person, who = "", -1 // "mommy, I'm scared, call daddy": the first was said to get attention
			}
			if person != "" && person != p {
				return Decision{}, false // two people: not one call
			}
			person, who = p, i
		} else if kinWords[w] && person == "" && who < 0 && !(w == "miss" && i > 0 && missSubjects[toks[i-1]]) { // "I miss dad": a verb, not Miss
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
	if !okStrong || okWeak && weak.at < strong.at && weak.at < who && weak.phrase != "make" { // "make it so I can call mum": the call is the verb
		verb = weak
	}
	if verb.at > 0 && objectLeads[toks[verb.at-1]] || anyOf(toks[:verb.at], hangVerbs) {
		return Decision{}, false // "end the call with auntie": the call is a thing, not a verb
	}
	if verb.at > who {
		if d, ok := t.missedCall(n, toks, m, who, verb); ok {
			return d, true // "I miss dad, can we call him"
		}
		return Decision{}, false // "mom called", "dad, call me": the person is not the one reached
	}
	used := make([]bool, len(toks))
	used[who] = true
	if who > 0 && (personOwners[toks[who-1]] || childOwners[toks[who-1]]) {
		used[who-1] = true // "get their mom on the video", "the children's mum": whose mom is the home's
	}
	if at := t.whereTheyAre(toks, who); at > 0 {
		for i := at; i < len(toks); i++ {
			used[i] = true // "call my uncle in lagos": where the one called is, not more words
		}
	}
	unexplained := t.unexplainedBy(toks, used, []string{"call.verbs", "call.reach", "call.fill"}, familyFill)
	lead := stripRequestLeads(toks)
	wish := false
	for _, l := range desireToReach {
		if hasPrefix(lead, l) && len(lead) > len(l) && (lx["call.verbs"].at(lead, len(l)) > 0 || lx["call.reach"].at(lead, len(l)) > 0) {
			wish = true
		}
		// after a reason: "I miss dad, can we call him"
		if p := verb.at - len(l); p > 1 && hasPrefix(toks[p:], l) && !anyOf(toks[:p], pastWords) && !anyOf(toks[:p], relayVerbs) &&
			!conditional(toks[:p]) && !anyOf(toks[:p], modalWords) {
			wish = true
		}
	}
	means := contains(toks, "video") || contains(toks, "phone") || contains(toks, "line") || contains(toks, "screen") ||
		anyOf(toks, callMeans)
	reasonFirst := verb.at > 0 && commandForm(toks[verb.at:], n) == FormImperative && !anyOf(toks[:verb.at], pastWords) &&
		!anyOf(toks[:verb.at], relayVerbs) && !anyOf(toks[:verb.at], modalWords) && !n.Negated && !n.Question
	if reasonFirst {
		tail := make([]bool, len(toks)-verb.at)
		copy(tail, used[verb.at:])
		unexplained = t.unexplainedBy(toks[verb.at:], tail, []string{"call.verbs", "call.reach", "call.fill"}, familyFill)
	}
	if verb.set == "call.reach" && (fetchedFor(toks, verb, who) || strings.Contains(verb.phrase, " through")) {
		means = true // "get dad for me", "reach mum for us", "get me dad", "put me through to mum": the person reached
	}
	if verb.set == "call.reach" && !wish && !means || unexplained > 1 {
		return Decision{}, false
	}
	if callWhen(toks, verb.at) {
		return Decision{}, false // "call dad when he wakes up": a call for later, not now
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
	for j := 0; j <= 2 && j < len(rest); j++ {
		// "call my teacher", "ring the babysitter", "ring my piano teacher": someone the home
		// does not list, asked about (one word may say which)
		l := t.vocab.lex["people.roles"].at(rest, j)
		if l == 0 || j > 0 && !personOwners[rest[0]] && rest[0] != "the" || !only(rest[j+l:], familyFill) || commandForm(toks, n) != FormImperative {
			continue
		}
		return t.familyDecision("teleport.call", map[string]string{"person": strings.Join(rest[j:j+l], " ")}, n, m, FormImperative,
			"a call ("+hitWords(verb)+") to someone the home does not list (people.roles)")
	}
	name := rest[0]
	if explained(name) || familyFill[name] || t.vocab.lex["call.fill"].at(rest, 0) > 0 || t.vocab.lex["emergency.services"].at(rest, 0) > 0 {
		return Decision{}, false
	}
	for i := 1; i < len(rest); i++ {
		if l := t.vocab.lex["call.fill"].at(rest, i); l > 1 {
			i += l - 1 // "call sarah next door": the whole phrase
		} else if !familyFill[rest[i]] && l == 0 {
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
	if d, ok := t.personCallsBack(n, toks, m); ok {
		return d, true
	}
	lead := stripRequestLeads(toks)
	if len(lead) < 4 || lx["call.ask"].at(lead, 0) == 0 {
		return Decision{}, false
	}
	i := lx["call.ask"].at(lead, 0)
	if lead[i] == "my" || lead[i] == "our" {
		i++
	}
	bare := lead[0] == "make" || lead[0] == "have" || lead[0] == "let" // "make mommy call us": no "to"
	if bare && i+1 < len(lead) && lx["call.verbs"].at(lead, i+1) > 0 {
		lead = append(append(append([]string(nil), lead[:i+1]...), "to"), lead[i+1:]...)
	}
	if i+2 >= len(lead) || lead[i+1] != "to" {
		return Decision{}, false
	}
	person := t.vocab.people[lead[i]]
	if person == "" && kinWords[lead[i]] {
		person = lead[i]
	}
	l := lx["call.verbs"].at(lead, i+2)
	if person == "" || l == 0 || i+2+l > len(lead) || i+2+l < len(lead) && lx["call.back"].at(lead, i+2+l) == 0 { // "ask mum to call" ends there
		return Decision{}, false
	}
	if callWhen(lead, i+2) && !freeWhen(lead) {
		return Decision{}, false // "tell daddy to call me when he lands": the call waits for that; "... when she's free" asks now
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

// personOwners may stand before a person of the home: "my mum", "their dad", "your nana".
var personOwners = words2set("my our their his her your")

// wantPerson: "i want daddy", "I need my mummy", "want mommy now" — a child asking for a
// person of the home, nothing else: a call to them. "I want daddy to come home", "I don't
// want mum" and "does mommy want tea" are not.
func (t *Table) wantPerson(n Normalized, toks []string, m Mentions) (Decision, bool) {
	if len(toks) < 2 || len(toks) > 9 || n.Negated || n.Question || len(m.People) != 1 {
		return Decision{}, false
	}
	i := 0
	if toks[0] == "i" || toks[0] == "we" {
		i = 1
	}
	if toks[i] != "want" && toks[i] != "need" && toks[i] != "wanna" {
		return Decision{}, false
	}
	i++
	if i < len(toks) && personOwners[toks[i]] {
		i++
	}
	if i >= len(toks) || t.vocab.people[toks[i]] == "" || !t.wantPersonRest(toks[i+1:]) {
		return Decision{}, false
	}
	return t.familyDecision("teleport.call", map[string]string{"person": t.vocab.people[toks[i]]}, n, m, FormImperative,
		"a person of the home asked for (\""+strings.Join(toks, " ")+"\")")
}

// wantPersonFill may follow the person a child asks for: "i want mommy now please".
var wantPersonFill = words2set("now please right here back")

// wantPersonRest: what follows the person asked for is fill ("now please") or the screen
// they are to be seen on ("i want mommy on the robot tv"): nothing else.
func (t *Table) wantPersonRest(rest []string) bool {
	if len(rest) > 3 && !anyOf(rest, callMeans) && !contains(rest, "video") && !contains(rest, "screen") {
		return false
	}
	for i := 0; i < len(rest); {
		if wantPersonFill[rest[i]] {
			i++
		} else if l := t.vocab.lex["call.fill"].at(rest, i); l > 1 && rest[i] == "on" {
			i += l
		} else {
			return false
		}
	}
	return true
}

// callMeans are more of the screens a call is seen on: "get daddy on the tv".
var callMeans = words2set("tv telly telephone tablet computer ipad")

// personCallsBack: "can dad call in", "could mum ring us back", "can grandma call me, I want
// to show her my drawing" — asking whether a person of the home may call this robot is
// asking for them to be rung. The call must come back here (call.back: in, us, me, home,
// back); anything said after it must be a reason. "can dad call in sick", "did mum call us"
// and "dad can call us later" ring nobody.
func (t *Table) personCallsBack(n Normalized, toks []string, m Mentions) (Decision, bool) {
	lx := t.vocab.lex
	if len(toks) < 4 || toks[0] != "can" && toks[0] != "could" || n.Negated {
		return Decision{}, false
	}
	i := 1
	if personOwners[toks[i]] {
		i++
	}
	person := t.vocab.people[toks[i]]
	if person == "" && kinWords[toks[i]] && toks[i] != "miss" {
		person = toks[i] // "can grandma call in": a relative the home does not list, asked about
	}
	if person == "" {
		return Decision{}, false
	}
	l := lx["call.verbs"].at(toks, i+1)
	if l == 0 {
		return Decision{}, false
	}
	j := i + 1 + l
	b := lx["call.back"].at(toks, j)
	if b == 0 && (j >= len(toks) || toks[j] != "in") {
		return Decision{}, false
	}
	if b == 0 {
		b = 1
	}
	rest := toks[j+b:]
	for len(rest) > 0 && rest[0] != "i" && rest[0] != "we" {
		if familyFill[rest[0]] || callBackWhen[rest[0]] {
			rest = rest[1:] // "now", "please", "for me", "tonight"
		} else if f := lx["call.fill"].at(rest, 0); f > 0 {
			rest = rest[f:] // "on video", "on the tablet"
		} else {
			break
		}
	}
	if len(rest) > 0 && (len(rest) < 2 || !reasonLeads[rest[0]] || !t.afterthought(Normalized{Text: strings.Join(rest, " "), toks: rest}) && !wantsToShow(rest)) {
		return Decision{}, false
	}
	return t.familyDecision("teleport.call", map[string]string{"person": person}, n, m, FormImperative,
		"a person of the home asked to call back (call.verbs "+strings.Join(toks[i+1:i+1+l], " ")+")")
}

// wantsToShow: the reason a child gives for a call — "i want to show him my drawing", "i
// want to tell her something", "we miss him".
func wantsToShow(toks []string) bool {
	return len(toks) >= 3 && (toks[0] == "i" || toks[0] == "we") &&
		(hasPrefix(toks[1:], []string{"want", "to"}) || toks[1] == "wanna" || toks[1] == "miss") && !anyOf(toks, hangVerbs)
}

// missedCall: the person is named in a reason and called by a pronoun after it — "I miss
// dad, can we call him", "we miss grandma so much, could you ring her", "I miss mom, can she
// call me?". Only "miss": "dad is busy, call him" names who to call in no reason of longing.
func (t *Table) missedCall(n Normalized, toks []string, m Mentions, who int, verb lexHit) (Decision, bool) {
	if n.Negated || who < 2 || toks[who-1] != "miss" && !(personOwners[toks[who-1]] && who >= 3 && toks[who-2] == "miss") {
		return Decision{}, false
	}
	at := who - 1
	if toks[at] != "miss" {
		at--
	}
	// the longing opens the sentence: "I miss dad, ..." ("the teacher said I miss dad ..." reports it)
	if !(at == 1 && (toks[0] == "i" || toks[0] == "we")) && !(at == 2 && (toks[1] == "really" || toks[1] == "so") && (toks[0] == "i" || toks[0] == "we")) {
		return Decision{}, false
	}
	rest := toks[verb.at:]
	obj := len(rest) > verb.n && (rest[verb.n] == "him" || rest[verb.n] == "her" || rest[verb.n] == "them")
	subj := verb.at > 0 && (toks[verb.at-1] == "he" || toks[verb.at-1] == "she") && (len(rest) > verb.n &&
		t.vocab.lex["call.back"].at(rest, verb.n) > 0 || len(rest) == verb.n) // "I miss mommy can she call"
	if !obj && !subj {
		return Decision{}, false
	}
	ask := toks[who+1 : verb.at]
	for len(ask) > 0 && (ask[0] == "so" || ask[0] == "much" || ask[0] == "a" || ask[0] == "lot" || ask[0] == "loads") {
		ask = ask[1:]
	}
	if subj {
		ask = ask[:len(ask)-1] // "can she": the one asked to call is the one missed
	}
	// what asks: nothing ("call him"), or a request's lead ("can we", "could you", "please")
	for _, w := range ask {
		if !callAskLeads[w] {
			return Decision{}, false
		}
	}
	return t.familyDecision("teleport.call", map[string]string{"person": t.vocab.people[toks[who]]}, n, m, FormImperative,
		"a call to the person missed (\"miss "+toks[who]+"\", call.verbs "+verb.phrase+")")
}

// callAskLeads may stand between the reason and the call: "can we", "could you", "please".
var callAskLeads = words2set("can could would will we you please let us just maybe")

// missSubjects before "miss" make it the verb: "I miss dad", "we really miss grandma".
var missSubjects = words2set("i we really so still do")

// childOwners say whose a person of the home is in a child's or a guest's words: "the
// children's mum", "the kids' dad".
var childOwners = words2set("childrens kids childs babys boys girls twins")

// whereTheyAre: the sentence ends with where the one called is ("in lagos", "at the office",
// "over in spain") — one or two words after "in" / "at", no time ("in five minutes", "at
// lunch" are when) and no room of this home. It returns where that starts, or 0.
func (t *Table) whereTheyAre(toks []string, who int) int {
	for i := who + 1; i < len(toks)-1; i++ {
		if toks[i] != "in" && toks[i] != "at" {
			continue
		}
		place := toks[i+1:]
		if place[0] == "the" {
			place = place[1:]
		}
		if len(place) == 0 || len(place) > 2 || anyOf(place, callTimeWords) || slices.ContainsFunc(place, isDigits) || t.mentionsRoom(place) {
			return 0
		}
		if i > who+1 && toks[i-1] == "over" {
			i--
		}
		return i
	}
	return 0
}

// callTimeWords make "in ..." / "at ..." a when, not a where: "call dad in a bit".
var callTimeWords = words2set("a an minute minutes min mins hour hours second seconds sec secs bit while moment mo " +
	"morning afternoon evening night tonight noon midnight lunch lunchtime dinner dinnertime breakfast supper teatime " +
	"half quarter day days week weeks time once one two three four five six seven eight nine ten twenty thirty o clock")

// callBackWhen may follow a call back asked for: "could mum ring us back tonight".
var callBackWhen = words2set("tonight today later soon after")

// fetchedFor: "get", "reach" or "contact" opens the request and the person follows, with only
// who it is for after ("get dad for me", "get me mum"): the person is to be reached.
func fetchedFor(toks []string, verb lexHit, who int) bool {
	if verb.phrase != "get" && verb.phrase != "reach" && verb.phrase != "contact" {
		return false
	}
	next := verb.at + 1
	if next < len(toks) && (toks[next] == "me" || toks[next] == "us") {
		next++
	}
	return who == next && only(toks[who+1:], fetchedForFill)
}

var fetchedForFill = words2set("for me us please now right quick quickly")

// callWhen: after the call's verb, "when" or "once" opens the event the call waits for, with
// its own subject ("call dad when he wakes up", "... once mum is home"). A person asked to
// call back when free ("ask mum to call us when she's free") is asked now (callBack).
func callWhen(toks []string, verbAt int) bool {
	for i := verbAt + 1; i+2 < len(toks); i++ {
		if (toks[i] == "when" || toks[i] == "once") && (reasonSubjects[toks[i+1]] || kinWords[toks[i+1]]) &&
			!(toks[i+1] == "you" || toks[i+1] == "it") {
			return true
		}
	}
	return false
}

// freeWhen: the "when" a call back waits for is the person's own time ("when she's free",
// "when he gets a minute", "when he can"): asking now is what is wanted.
func freeWhen(toks []string) bool {
	return anyOf(toks, wordSet{"free": true, "available": true, "can": true, "minute": true, "moment": true, "chance": true, "time": true, "sec": true, "second": true})
}
