package intents

import (
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
		!peopleNouns[toks[0]] {
		return false // a reason opens with its subject
	}
	if blocked, _, ok := callerEffect(toks); ok && blocked {
		return false // "..., nobody can call in": what privacy mode does, asked for
	}
	if !personalSubjects[toks[0]] && !saysHowThingsAre(toks) {
		return false // "the video call with grandma": a thing named, nothing said of it
	}
	if (toks[0] == "that" || toks[0] == "which" || toks[0] == "who") && (toks[1] == "are" || toks[1] == "were") {
		return false // "... some celebrities that are capricorns": what the thing named is
	}
	if contains(toks, "not") || conditional(toks) || reported(toks) || reportedOrTakenBack(toks) || whWords[toks[1]] {
		return false // "..., I don't want it", "..., if mum says so", "..., she said": words that change the request
	}
	for i, w := range toks {
		cls := wordClasses[w]
		if cls&(wcDevice|wcHouseDevice) != 0 || isDigits(w) || durationCore(w) && slices.ContainsFunc(toks, isDigits) || w == "timer" || w == "timers" {
			return false
		}
		if cls&(wcOnVerb|wcOffVerb|wcAction) != 0 && (i == 0 || !objectLeads[toks[i-1]]) && !reasonWords[w] && i <= 2 {
			return false // "..., you turn it off": a request again
		}
	}
	return true
}

// reasonInterjections may open a reason: "oh my god you never stop", "honestly my head hurts".
var reasonInterjections = words2set("oh omg honestly seriously ugh man jeez cos cause because")

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
		if (reasonLeads[toks[i]] || reasonInterjections[toks[i]] || kinWords[toks[i]]) && toks[i] != "like" &&
			t.statedReason(Normalized{Text: strings.Join(toks[i:], " "), toks: toks[i:]}) {
			return toks[:i]
		}
	}
	return toks
}

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
