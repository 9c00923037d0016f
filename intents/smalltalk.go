package intents

import (
	"slices"
	"strings"
)

// Small talk in a family's words: a greeting, thanks, good night or goodbye said with what
// people say around it — a vocative ("hiya robot"), pleasantries ("nice to meet you", "how
// are you doing"), who is speaking ("I'm Tom's aunt"), the reason for leaving ("ok bye,
// gotta go to school") — is answered locally, never sent to the agent. The words are data
// (lexicon.yaml: social.greeting, social.fill, social.leaving and the farewell sets). A part
// that asks for anything else (a question, a command) makes the sentence something else.

// socialOrder: good night outranks goodbye, goodbye outranks thanks, thanks a greeting
// ("good night reachy, see you in the morning" is good night; "thanks, bye" goodbye).
var socialOrder = []struct{ set, intent string }{
	{"farewell.night", IntentGoodNight}, {"farewell.bye", IntentGoodbye}, {"farewell.thanks", IntentThanks},
	{"social.greeting", IntentGreeting},
}

var socialSets = []string{"farewell.night", "farewell.bye", "farewell.thanks", "social.greeting", "social.fill", "social.leaving", "social.bed"}

// socialFrame decides small talk said with pleasantries around it. It returns false for a
// sentence with anything else in it.
func (t *Table) socialFrame(n Normalized) (Decision, bool) {
	toks := n.tokens()
	if len(toks) > 0 && len(toks) <= 3 && toks[0] == "night" && only(toks[1:], farewellVocatives, shortNightFill) && !n.Question {
		// "night", "night all": good night said short, as the whole sentence ("I work at night" is none)
		if in := t.byName[IntentGoodNight]; in != nil && !in.Unavailable {
			d := t.decide(in, map[string]string{}, nil, n)
			d.Doctrine = append(d.Doctrine, "good night said short (\"night\"), the whole sentence: "+IntentGoodNight)
			return d, true
		}
	}
	if len(toks) == 0 || len(toks) > 16 || n.Negated || !t.socialStart(toks) {
		return Decision{}, false
	}
	acts := map[string]bool{}
	var said []lexHit
	leaving := false // said in any part: "bye, off to bed"
	for _, c := range t.pieces(n) {
		ct := c.tokens()
		used := make([]bool, len(ct))
		hits := t.vocab.lex.cover(ct, used, socialSets...)
		social := false
		for _, h := range hits {
			switch {
			case h.set == "social.bed" && leaving && h.at+h.n == len(ct) && !c.Question:
				acts["farewell.night"] = true // "I'm off to bed": leaving, and where to
				said = append(said, h)
				social = true
			case h.set == "social.bed":
				return Decision{}, false // "the kids went to bed" says nothing to the robot
			case h.set == "social.leaving":
				leaving = true
			case h.set == "social.fill":
			case h.set == "farewell.bye" && h.at == 0:
				leaving = true // "that's me away, off to bed"
				acts[h.set] = true
				said = append(said, h)
				social = true
			case h.at != 0 && !t.saidBefore(ct, used, h.at) && (h.set == "social.greeting" || h.at+h.n != len(ct)):
				return Decision{}, false // a greeting opens what it greets; "is dad free this afternoon" greets nobody
			default:
				acts[h.set] = true
				said = append(said, h)
				social = true
			}
		}
		rest := make([]string, 0, len(ct))
		for i, w := range ct {
			if !used[i] && !frameFill[w] && !t.vocab.wake.isName(w) {
				rest = append(rest, w)
			}
		}
		switch {
		case len(rest) == 0:
		case hangUp(ct):
			return Decision{}, false // "ok bye dad, you can end the call now": the goodbye ends a call
		case c.Question || asksAfterSmallTalk(ct, used):
			return Decision{}, false // "hello, what's the capital of France?", "hello good morning is mom busy": a question of its own
		case t.introduces(ct):
			// "I'm Linda from next door", "this is grandma": who is speaking
		case social && len(rest) <= 4 && t.afterthought(Normalized{Text: strings.Join(rest, " "), toks: rest}):
		case len(hits) > 0 && hits[0].set == "social.leaving" && len(rest) <= 4:
			// "gotta go to school", "off to the shops": where the speaker is going
		default:
			return Decision{}, false
		}
	}
	for _, o := range socialOrder {
		if !acts[o.set] {
			continue
		}
		in := t.byName[o.intent]
		if in == nil || in.Unavailable {
			return Decision{}, false
		}
		d := t.decide(in, map[string]string{}, nil, n)
		d.Doctrine = append(d.Doctrine, "small talk with what is said around it ("+hitWords(said...)+"): "+o.intent)
		return d, true
	}
	return Decision{}, false
}

// socialStart: the sentence opens or ends with a word of small talk (one lookup each).
func (t *Table) socialStart(toks []string) bool {
	last := toks[len(toks)-1]
	for _, ps := range t.vocab.socialStarts { // the sets of socialSets[:4], looked up at load
		if ps != nil && (ps.at(toks, 0) > 0 || lastWordOf(ps, last)) {
			return true
		}
		for k := 2; ps != nil && k <= 4 && k < len(toks); k++ {
			if ps.at(toks, len(toks)-k) == k { // "that's me away to my bed": a phrase said last
				return true
			}
		}
	}
	bed := t.vocab.lex["social.bed"]
	for k := 1; k <= 3 && k < len(toks); k++ {
		if bed.at(toks, len(toks)-k) == k { // "I'm off to bed": leaving, said before it
			return true
		}
	}
	return false
}

// lastWordOf: a one-word phrase of the set is w ("..., bye", "..., thanks").
func lastWordOf(ps *phraseSet, w string) bool {
	if !ps.may(w) {
		return false // no phrase starts with a word of its shape: no lookup
	}
	for _, p := range ps.byFirst[w] {
		if len(p) == 1 {
			return true
		}
	}
	return false
}

// introduces: "I'm Linda from next door", "my name is Sam", "this is grandma", "it's me,
// Tom's aunt": the speaker says who they are.
func (t *Table) introduces(toks []string) bool {
	switch {
	case hasPrefix(toks, []string{"i", "am"}) && len(toks) <= 7 && !anyOf(toks[2:], finiteSet) && !slicesHasImperative(toks[2:]),
		hasPrefix(toks, []string{"my", "name", "is"}) && len(toks) <= 6,
		hasPrefix(toks, []string{"this", "is"}) && len(toks) <= 5,
		hasPrefix(toks, []string{"it", "is", "me"}) && len(toks) <= 6:
		return true
	}
	return false
}

func slicesHasImperative(toks []string) bool {
	for _, w := range toks {
		if wordClasses[w]&(wcAction|wcOnVerb|wcOffVerb) != 0 || isImperativeVerb(w) {
			return true
		}
	}
	return false
}

// shortNightFill may follow a good night said short: "night then", "night love".
var shortNightFill = words2set("then now love dear mate buddy")

// likeAside: toks end in "like ..." saying what an expression is to look like ("act sleepy like
// you're going to bed", "look sad like a lost puppy"); the request before it is returned.
func likeAside(toks []string) ([]string, bool) {
	i := slices.Index(toks, "like")
	if i < 2 || len(toks)-i-1 < 1 || len(toks)-i-1 > 6 {
		return nil, false
	}
	return toks[:i], true
}

// helpAside: what may follow a question about what the robot is for — a vocative ("young
// man") and an aside that opens with besides, apart from, except, while ... ("what can you
// help me with while the kids are asleep", "what is it you do, besides stand there").
func helpAside(rest []string) bool {
	for i, w := range rest {
		switch {
		case helpFill[w] || frameFill[w] || helpVocative[w] || helpWhen[w]:
		case helpAsideLeads[w] && i+1 < len(rest) && len(rest)-i <= 8:
			return true
		default:
			return false
		}
	}
	return len(rest) > 0 && only(rest, helpFill, frameFill, helpVocative, helpWhen) // "what can you help me with today"
}

var (
	helpVocative   = words2set("young man lady sir madam son lad lass boy girl robot")
	helpWhen       = words2set("today then around here these days anyway tonight evening morning afternoon")
	helpAsideLeads = words2set("besides apart except other while")
)

// expressionThenReason splits toks into an expression asked for and a reason said after it without a
// comma ("do a happy dance I passed my test", "make a happy face because it's my birthday"):
// the reason opens with its own subject or "because" and names nothing of the house.
func (t *Table) expressionThenReason(toks []string, n Normalized) ([]string, bool) {
	for i := 1; i+2 <= len(toks); i++ {
		if !reasonAfterLeads[toks[i]] {
			continue
		}
		head, tail := toks[:i], toks[i:]
		if !t.expressionAsked(head, n) {
			continue
		}
		if because[tail[0]] || t.afterthought(Normalized{Text: strings.Join(tail, " "), toks: tail}) {
			return head, true
		}
	}
	return nil, false
}

var (
	reasonAfterLeads = words2set("i we my our it its because cos cause the grandma grandpa mum mom dad today")
	because          = words2set("because cos cause")
)

// saidBefore: every word before at is small talk, filler or the robot's name ("hello there
// reachy, good morning"): a greeting after a greeting still opens what it greets.
func (t *Table) saidBefore(ct []string, used []bool, at int) bool {
	for i := 0; i < at; i++ {
		if !used[i] && !frameFill[ct[i]] && !t.vocab.wake.isName(ct[i]) {
			return false
		}
	}
	return true
}

// asksAfterSmallTalk: the first word after the small talk opens a question ("hello good
// morning, is mom busy today").
func asksAfterSmallTalk(ct []string, used []bool) bool {
	for i, w := range ct {
		if !used[i] {
			return questionWords[w] || finiteWords[w]
		}
	}
	return false
}
