package intents

import (
	"slices"
	"strings"
)

// Where a sentence about the world ends and one about this home begins ("mentions are not
// references", docs/intents.md), faults reported and farewells after a statement.

// my dad", "how do you SAY mom in Spanish", "a story ABOUT grandma", "what should I GET my
// mom", "a mom kangaroo".
var beneficiaryLeads = words2set("for to say said about called like word get buy give make a an tell ask convince surprise thank cheer teach")

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
	word, okWord := t.findSaid(m.lex, toks, "world.words")
	lead := 0
	if m.lex&t.vocab.lexIx.bit["world.leads"] != 0 { // a lead's key word is said
		lead = lx["world.leads"].at(toks, 0)
	}
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
	language := anyOf(words, wordSet{"say": true, "spell": true, "mean": true, "means": true, "meaning": true, "translate": true, "word": true,
		"rhymes": true, "difference": true, "call": true, "called": true}) ||
		toks[0] == "if" && contains(words, "win") // "what rhymes with mom", "if dad and the hoover had a race who would win": people as words or a make-believe
	// "tell me a story about turning on the bedroom light": a story, a poem, a song or a
	// joke is made up; what it is about is never read or done
	creative := lead > 0 && anyOf(toks[:lead], wordSet{"story": true, "poem": true, "song": true, "joke": true, "sing": true, "write": true}) &&
		!mayBeCompound(n) // "tell me a joke and turn off the kitchen light" is two requests
	if (len(m.Rooms) > 0 && t.homeRoomNamed(toks) || m.Here) && !language && !creative {
		return lexHit{}, false // "how do you spell kitchen" names a room as a word, "is it bad to leave the kitchen light on" this home's
	}
	// Advice asked about the world names the home's people as its subject matter ("how do I
	// get my dad to stop snoring"); asked about their time, it stays home.
	g := t.vocab.lexGate
	adviceLead := lead > 0 && lx["world.advice"].at(toks, 0) > 0
	robotOwn := adviceLead && (m.lex&(g.game|g.privacy|g.quiet) != 0 || callVerbSaid(lx, toks) || anyOf(toks, timerNouns) ||
		robotNamed(toks) || contains(toks, "you") || contains(toks, "your"))
	advice := adviceLead && !robotOwn && !m.Calendar && !anyOf(toks, personTimeWords) && m.Device == ""
	if robotOwn && !okWord {
		return lexHit{}, false // "how do I start the animal game": how to use this robot, its own frames answer
	}
	seenPerson := false
	for i, w := range toks {
		if t.vocab.people[w] == "" && !kinWords[w] || advice || language {
			continue // (a person in words to translate or spell is quoted: "translate 'call my dad'")
		}
		j := i - 1
		if j >= 0 && (toks[j] == "my" || toks[j] == "our" || toks[j] == "the" || toks[j] == "her" || toks[j] == "his") {
			j--
		}
		spokenOf := j >= 0 && (beneficiaryLeads[toks[j]] || toks[j] == "and" && seenPerson) || i+1 < len(toks) && relayVerbs[toks[i+1]] || why
		seenPerson = true // "a mom and dad": the second as the first
		if !spokenOf {
			return lexHit{}, false // the person is who the sentence is about
		}
	}
	return word, true
}

// homeRoomNamed: a room of the home is named as this home's, not as a kind of room: "the
// ideal bedroom temperature", "a bedroom", "a baby's bedroom" name rooms in general.
func (t *Table) homeRoomNamed(toks []string) bool {
	for i := 0; i < len(toks); i++ {
		if !t.vocab.roomStarts[toks[i]] {
			continue
		}
		for l := min(t.vocab.roomWords, len(toks)-i); l >= 1; l-- {
			if _, ok := t.vocab.rooms[strings.Join(toks[i:i+l], " ")]; !ok {
				continue
			}
			if !genericRoomAt(toks, i) {
				return true
			}
			i += l - 1
			break
		}
	}
	return false
}

// genericRoomAt: the room phrase at toks[i] names a kind of room ("a bedroom", "the ideal
// bedroom temperature", "a baby's bedroom").
func genericRoomAt(toks []string, i int) bool {
	if i == 0 {
		return false
	}
	prev := toks[i-1]
	if genericLeads[prev] {
		return true
	}
	if i >= 4 && prev == "the" && toks[i-2] == "in" && strings.HasSuffix(toks[i-3], "ing") && toks[i-4] == "for" {
		return true // "the best temperature for sleeping in the bedroom": sleeping in any bedroom
	}
	// "a babys bedroom": someone's, after "a" — no one of this home
	return i >= 2 && strings.HasSuffix(prev, "s") && (toks[i-2] == "a" || toks[i-2] == "an")
}

// genericLeads before a room make it a kind of room, not one of this home's.
var genericLeads = words2set("a an ideal perfect typical average normal recommended every any most")

// callVerbSaid: a call verb is said as a verb ("how do I ring dad"), not as a thing
// someone has ("how do I tell my dad I broke his phone").
func callVerbSaid(lx lexicon, toks []string) bool {
	h, ok := lx.find(toks, "call.verbs")
	if !ok {
		return false
	}
	if h.at > 0 {
		switch toks[h.at-1] {
		case "his", "her", "my", "your", "their", "our", "a", "an", "the", "mobile", "new", "old", "broken":
			return lx.has(toks[h.at+h.n:], "call.verbs") // the noun; another call verb may still follow
		}
	}
	return true
}

// applianceTimer: the timer spoken of is an appliance's ("a timer on a microwave", "the
// timer on my phone", "the timer of a washing machine"); "the oven timer" is the robot's
// timer for the oven.
func applianceTimer(toks []string) bool {
	for i, w := range toks {
		if w != "timer" && w != "timers" || i+2 >= len(toks) || toks[i+1] != "on" && toks[i+1] != "of" {
			continue
		}
		for k := i + 2; k < len(toks) && k <= i+4; k++ {
			if deviceWords[toks[k]] == "other" || applianceNouns[toks[k]] {
				return true
			}
		}
	}
	return false
}

// applianceNouns name things with timers of their own that deviceWords does not list.
var applianceNouns = words2set("machine cooker phone watch microwave oven washer dryer dishwasher stove")

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
	if intent, hit, ok := t.farewellFirst(n); ok {
		return intent, hit, true
	}
	if k := len(toks); k > 2 && farewellVocatives[toks[k-1]] {
		toks = toks[:k-1] // "right I'm off to work, good night everyone"
	}
	for _, f := range farewellSets {
		for k := 1; k <= 3 && k <= len(toks); k++ {
			i := len(toks) - k
			if l := t.vocab.lex[f.set].at(toks, i); l == k {
				return f.intent, lexHit{set: f.set, phrase: strings.Join(toks[i:], " "), at: i, n: l}, true
			}
		}
	}
	return "", lexHit{}, false
}

// farewellSets are the lexicon sets of a farewell and the small talk each answers.
var farewellSets = []struct{ set, intent string }{{"farewell.bye", IntentGoodbye}, {"farewell.night", IntentGoodNight}, {"farewell.thanks", IntentThanks}}

// farewellVocatives may follow a farewell: "good night everyone", "bye guys".
var farewellVocatives = words2set("everyone everybody all guys folks robot yall")

// farewellFirst: a statement that opens with thanks or a goodbye and asks for nothing after it
// ("thank you for the light", "goodbye robot we have to go home now"): the farewell is the
// answer, before any frame reads the things it names.
func (t *Table) farewellFirst(n Normalized) (string, lexHit, bool) {
	toks := n.tokens()
	if n.Question || n.Polite || n.Negated || len(toks) < 1 {
		return "", lexHit{}, false
	}
	for _, f := range farewellSets {
		l := t.vocab.lex[f.set].at(toks, 0)
		if l == 0 {
			continue
		}
		rest := toks[l:]
		if len(rest) > 0 && (farewellVocatives[rest[0]] || t.vocab.wake.isName(rest[0])) {
			rest = rest[1:] // "goodbye robot, ..."
		}
		if len(rest) == 0 || f.intent == IntentThanks && !slices.ContainsFunc(rest, thanksThenAsks) &&
			(rest[0] == "for" || commandForm(rest, n) != FormImperative) ||
			f.intent != IntentThanks && notCommand(rest, n) {
			return f.intent, lexHit{set: f.set, phrase: strings.Join(toks[:l], " "), n: l}, true
		}
	}
	return "", lexHit{}, false
}

// thanksThenAsks: a word after "thanks for ..." that asks for something more ("thanks for
// the help now turn off the light"); "thank you for turning on the light" thanks for it.
func thanksThenAsks(w string) bool {
	switch w {
	case "turn", "switch", "put", "set", "start", "stop", "cancel", "call", "play", "hang", "end", "finish", "now", "please", "can", "could":
		return true
	}
	return false
}

// notCommand: words said after a goodbye are a statement, not a request ("we have to go home
// now"): they open with a subject and ask for nothing.
func notCommand(rest []string, n Normalized) bool {
	return len(rest) > 1 && reasonLeads[rest[0]] && rest[0] != "you" && commandForm(rest, n) != FormImperative
}

// personTimeWords ask about someone's time: such a question is about the home's people.
var personTimeWords = words2set("busy free available meeting meetings calendar schedule doing where home back")
