package intents

import (
	"maps"
	"slices"
	"strings"
)

// A reason stated beside a request in words no intent reads: "switch the light off, my head
// hurts", "may I have the light on in the kids room, I'm reading to the little one". compound
// reads it as the request's reason instead of a second request.

// statedReason: a part no intent reads that says how things are — it opens with a subject
// (a pronoun, "my ...", "the ...", someone of the home), names no device, no number or
// length, and is neither a question, a negation, a condition, a report nor a request taken
// back. The request beside it is the sentence's only one.
func (t *Table) statedReason(c Normalized) bool {
	toks := c.tokens()
	for len(toks) > 2 && (reasonInterjections[toks[0]] || toks[0] == "my" && toks[1] == "god") {
		if toks[0] == "my" {
			toks = toks[1:] // "oh my god you never stop"
		}
		toks = toks[1:]
	}
	if len(toks) < 2 || len(toks) > 14 || c.Question {
		return false
	}
	if !reasonLeads[toks[0]] && !kinWords[toks[0]] && t.vocab.people[toks[0]] == "" && !possessiveKin(toks[0]) && !possessiveOpeners[toks[0]] &&
		!peopleNouns[toks[0]] && !contractedSubjects[toks[0]] && !namedSubject(toks) {
		return false // a reason opens with its subject
	}
	if blocked, _, ok := callerEffect(toks); ok && blocked {
		return false // "..., nobody can call in": what privacy mode does, asked for
	}
	if !personalSubjects[toks[0]] && !contractedSubjects[toks[0]] && !saysHowThingsAre(toks) {
		return false // "the video call with grandma": a thing named, nothing said of it
	}
	if (toks[0] == "that" || toks[0] == "which" || toks[0] == "who") && (toks[1] == "are" || toks[1] == "were") {
		return false // "... some celebrities that are capricorns": what the thing named is
	}
	if anyOf(toks, takesOver) || hasPhrase(toks, []string{"do", "it"}) || hasPhrase(toks, []string{"did", "it"}) {
		return false // "..., I'll do it myself", "..., jake did it already", "..., he's gonna tell you later": not a reason, a request taken over
	}
	if contains(toks, "not") || conditional(toks) || (reported(toks) || reportedOrTakenBack(toks)) && !(writtenSource(toks) && slices.ContainsFunc(toks, durationCore)) || whWords[toks[1]] {
		return false // "..., I don't want it", "..., if mum says so", "..., she said": words that change the request
	}
	stating := statesSomething(toks)
	number := false // a number said ("the little one" says none)
	for i, w := range toks {
		number = number || isDigits(w) && !pronounOne(toks, i)
	}
	for i, w := range toks {
		cls := wordClasses[w]
		if cls&wcHouseDevice != 0 || cls&wcDevice != 0 && !stating || number && durationCore(w) || w == "timer" || w == "timers" {
			return false // a light or the AC named, a thing named with nothing said of it, a number or a length
		}
		if cls&(wcOnVerb|wcOffVerb|wcAction) != 0 && (i == 0 || !objectLeads[toks[i-1]]) && !reasonWords[w] && i <= 2 {
			return false // "..., you turn it off": a request again
		}
	}
	return true
}

// reasonInterjections may open a reason: "oh my god you never stop", "honestly my head hurts".
var reasonInterjections = words2set("oh omg honestly seriously ugh man jeez cos cause because only")

// cutStatedReason takes a stated reason off the end of a short request ("stop moving you
// scare the baby", "pipe down a second the phone's ringing"): the request's words are
// returned. It cuts where a reason's subject opens and the rest is statedReason.
func (t *Table) cutStatedReason(toks []string) []string {
	for i := 1; i+1 < len(toks); i++ {
		prev := toks[i-1]
		if prev == "but" || prev == "if" || prev == "when" || prev == "unless" || prev == "that" || prev == "once" || prev == "until" ||
			prev == "till" || prev == "whenever" || prev == "before" || prev == "after" || objectLinks[prev] {
			continue // "..., but I'm too tired", "tell me when it is ready": not a reason of its own
		}
		if possessiveOpeners[toks[i]] || toks[i] == "my" || toks[i] == "our" || toks[i] == "the" {
			if isImperativeVerb(prev) || finiteWords[prev] || prev == "quit" {
				continue // "i quit my piano lessons": the verb's object, not a new subject
			}
		}
		if (reasonLeads[toks[i]] || reasonInterjections[toks[i]] || kinWords[toks[i]] || t.nameOpens(toks, i)) && toks[i] != "like" &&
			t.statedReason(Normalized{Text: strings.Join(toks[i:], " "), toks: toks[i:]}) {
			return toks[:i]
		}
	}
	return toks
}

// contractedSubjects are a subject and its verb run together by a transcript that dropped
// the apostrophe: "theyre meant to be dressed", "ill hang it out", "shes asleep".
var contractedSubjects = words2set("theyre hes shes thats theres ive weve youve theyve nobodys somebodys everybodys everyones someones")

// takesOver: words that make a clause after a request take it over or put it off rather
// than give its reason.
var takesOver = words2set("myself ourselves yourself later tell telling told")

// namedSubject: a clause that opens with a word the router has no class for and then a
// verb — a name the home did not give it ("harold cannot settle", "biscuit has been sick").
func namedSubject(toks []string) bool {
	return len(toks) >= 3 && wordClasses[toks[0]] == 0 && !isDigits(toks[0]) && !isImperativeVerb(toks[0]) &&
		!strings.HasSuffix(toks[0], "ly") && finiteWords[toks[1]] // not "totally forgot about it"
}

// nameOpens: a name the home did not give opens a statement at toks[i] ("be quiet lily is
// telling a story"): a word no list holds, or a child's name (address.others), then a verb.
func (t *Table) nameOpens(toks []string, i int) bool {
	return namedSubject(toks[i:]) && (!t.sound.known[toks[i]] || t.vocab.lex.has(toks[i:i+1], "address.others"))
}

// statesSomething: a verb said of the subject within its first words — "it is like an oven
// up there", "the baby monitor is going", "my oven runs hot": a thing named in such a
// clause is what the reason is about, not a device asked for.
func statesSomething(toks []string) bool {
	if len(toks) > 1 && contractedSubjects[toks[0]] {
		return true // "ill hang it out": the verb is in the subject
	}
	for i := 1; i < len(toks) && i <= 3; i++ {
		w := toks[i]
		if finiteWords[w] || pastWords[w] || i >= 2 && len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && wordClasses[w]&wcHouseDevice == 0 && w != "ones" {
			return true
		}
	}
	return false
}

// pronounOne: toks[i] is "one" said of a person or thing ("my small one", "I'm thinking of
// one"), normalized to "1"; "of one hour" is a length.
func pronounOne(toks []string, i int) bool {
	return toks[i] == "1" && i > 0 && (oneAsPronounAfter[toks[i-1]] || toks[i-1] == "of" && (i+1 == len(toks) || !durationCore(toks[i+1])))
}

// oneAsPronounAfter: "one" after these words is a person or a thing, not a number ("the
// little one", "my small one", "the other one").
var oneAsPronounAfter = words2set("little small big young younger youngest older oldest eldest baby wee new other last first")

// writtenSource: words read off a thing, not said by a person ("it says on the packet", "the
// machine says", "the recipe said"): a request beside them is the speaker's own.
func writtenSource(toks []string) bool {
	switch {
	case len(toks) >= 3 && toks[0] == "it" && (toks[1] == "says" || toks[1] == "said") && (toks[2] == "on" || toks[2] == "in" || toks[2] == "here"):
		return true
	case len(toks) >= 3 && (toks[0] == "the" || toks[0] == "this" || toks[0] == "that") && sourceNouns[toks[1]] && (toks[2] == "says" || toks[2] == "said" || toks[2] == "say"):
		return true
	}
	return false
}

// readOffAThing: toks[i] is "says" or "said" of a thing written on ("..., the packet says",
// "..., it says on the box"): the request before it is still the speaker's.
func readOffAThing(toks []string, i int) bool {
	if i == 0 || toks[i] != "says" && toks[i] != "said" && toks[i] != "say" || !slices.ContainsFunc(toks, func(w string) bool { return durationUnits[w] != 0 }) {
		return false // only a length read off a packet: "start a timer for twelve minutes, the packet says"
	}
	return sourceNouns[toks[i-1]] || toks[i-1] == "it" && i+1 < len(toks) && (toks[i+1] == "on" || toks[i+1] == "in")
}

var sourceNouns = words2set("packet box recipe instructions label machine bag tin jar sachet")

// personalSubjects are subjects whose next word is their verb: "you scare the baby".
var personalSubjects = words2set("i we you they he she it its")

// saysHowThingsAre: after a noun subject, a verb said of it — "is", "has", a past, an -ing
// or an -s form ("my head hurts", "the phone's ringing", "the baby monitor is going").
func saysHowThingsAre(toks []string) bool {
	for i := 1; i < len(toks); i++ {
		w := toks[i]
		if finiteWords[w] || pastWords[w] || statePredicates[w] || len(w) > 4 && (strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ed")) ||
			i >= 2 && len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			return true
		}
	}
	return false
}

// possessiveOpeners open a reason about someone's thing: "her fever's gone", "his bus is late".
var possessiveOpeners = words2set("her his their your")

// statePredicates say how a thing is after a subject whose "is" was folded away: "her fever's
// gone", "the film's over".
var statePredicates = words2set("gone over done back home asleep awake ready better finished broken here away out")

// reasonCut is n without a reason or purpose said after its request ("start simon says, the
// baby is asleep", "turn privacy on so they can't see me", "... then I'll hang it out"): the
// request alone, for a frame to read. A "not" said only in the reason leaves the request
// unnegated; a negation the sentence opens with stays.
func (t *Table) reasonCut(n Normalized) (Normalized, bool) {
	toks := n.tokens()
	if len(toks) < 4 || n.Question || questionWords[toks[0]] {
		return n, false
	}
	cut := t.cutStatedReason(toks)
	if len(cut) == len(toks) {
		cut = cutReason(thenClause(toks))
	}
	if len(cut) == len(toks) || len(cut) < 2 {
		return n, false
	}
	if last := cut[len(cut)-1]; last == "but" || last == "and" || last == "or" || last == "if" || last == "unless" || last == "when" || last == "that" {
		return n, false // "let's play hide and seek but I'm too tired": the rest takes it back
	}
	c := n
	c.toks, c.Text = cut, strings.Join(cut, " ")
	if n.Negated && !negationLed(n) && !anyOf(cut, partNegations) {
		c.Negated = false // "..., so they don't see me": the reason's "not"
	}
	return c, true
}

// peopleNouns open a reason about people of any home: "children must sleep", "the guests are
// here".
var peopleNouns = words2set("children boys girls twins guests visitors neighbours neighbors people everyone everybody grandad granddad")

// whWords after a subject ask something of their own: "..., you know what I mean".
var whWords = words2set("what how why when where who which whether")

// labelFromReason: a timer asked for "for it" whose reason names one of the home's timers
// ("I'm putting the rice on. Can you give me twenty minutes on a timer for it?") is that
// timer's.
func (t *Table) labelFromReason(d Decision, reasons []string) (Decision, bool) {
	toks := d.Normalized.tokens()
	if d.Intent != "timer.start" || d.Args["label"] != "" || len(reasons) == 0 ||
		!hasPhrase(toks, []string{"for", "it"}) && !hasPhrase(toks, []string{"for", "that"}) && !hasPhrase(toks, []string{"for", "them"}) {
		return Decision{}, false
	}
	label := ""
	for _, r := range reasons {
		for w := range strings.FieldsSeq(r) {
			if slices.Contains(t.Home.TimerLabels, w) {
				if label != "" && label != w {
					return Decision{}, false // two timers named: the timer stays unnamed
				}
				label = w
			}
		}
	}
	if label == "" {
		return Decision{}, false
	}
	out := d
	out.Args = maps.Clone(d.Args)
	out.Args["label"] = label
	out.Doctrine = append([]string{"the timer asked for \"for it\" is the one the reason names (" + label + ")"}, d.Doctrine...)
	return out, true
}
