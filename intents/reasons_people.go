package intents

import (
	"maps"
	"slices"
	"strings"
)

// Reasons that name people, said beside a request: someone's own wish ("grandpa wants to
// wave at the kids") or their words about how things are ("nana says it's freezing in
// there") are a reason; a wish to reach a parent ("I need to talk to mum, it's important")
// is a request; a call's "her" or "him" is the person its reason names.

// personFromReason completes a call that asks who from the reason said with it, when the
// call names its person with "her" or "him" and the reason names one person of the home: "I
// need to talk to mum, can you ring her", "I want to show dad my drawing, call him".
func (t *Table) personFromReason(d Decision, reasons []string, ctx Context) (Decision, bool) {
	if d.Intent != IntentClarify || d.Pending == nil || d.Pending.Missing != "person" || d.Pending.Intent != "teleport.call" ||
		len(reasons) == 0 || !contains(d.Normalized.tokens(), "her") && !contains(d.Normalized.tokens(), "him") {
		return Decision{}, false
	}
	person := ""
	for _, r := range reasons {
		for _, w := range strings.Fields(r) {
			if p := t.vocab.people[w]; p != "" {
				if person != "" && person != p {
					return Decision{}, false // two people: ask
				}
				person = p
			}
		}
	}
	in := t.byName[d.Pending.Intent]
	if person == "" || in == nil || in.Unavailable {
		return Decision{}, false
	}
	args := maps.Clone(d.Pending.Args)
	if args == nil {
		args = map[string]string{}
	}
	args["person"] = person
	out := t.settle(in, t.bind(in, args, ctx), frameRule(in), d.Normalized)
	out.Mentions = d.Mentions
	out.Doctrine = append([]string{"the person called is the one the reason names (" + person + ")"}, out.Doctrine...)
	return out, true
}

// callAgain: b asks for a call to "her" or "him" after a asked for a call to someone: the
// same call said again ("I need to talk to mum, can you ring her").
func callAgain(a, b Decision) bool {
	if a.Intent != "teleport.call" || b.Intent != IntentClarify || b.Pending == nil || b.Pending.Intent != "teleport.call" ||
		b.Pending.Missing != "person" {
		return false
	}
	toks := b.Normalized.tokens()
	return contains(toks, "her") || contains(toks, "him")
}

// reportedState: someone's words that say how things are ("nana says it's like the north pole
// in there", "mum said it's bedtime"), not what to do: said after a request, they are its
// reason.
func reportedState(toks []string) bool {
	for i, w := range toks {
		if w != "says" && w != "said" {
			continue
		}
		rest := toks[i+1:]
		if len(rest) > 0 && rest[0] == "that" {
			rest = rest[1:]
		}
		return i > 0 && len(rest) > 2 && (rest[0] == "its" || reasonSubjects[rest[0]] && finiteWords[rest[1]] || rest[0] == "the" && (rest[2] == "is" || rest[2] == "are")) &&
			!slices.ContainsFunc(rest, func(w string) bool {
				return wordClasses[w]&(wcAction|wcOnVerb|wcOffVerb|wcDevice|wcHouseDevice) != 0 || isImperativeVerb(w)
			})
	}
	return false
}

// ownWishReason: "grandpa wants to wave at the kids" — a wish of the subject's own ("wants
// to"), which is why, never a request passed on ("wants you to").
func ownWishReason(toks []string) bool {
	for i, w := range toks {
		if w == "wants" || w == "wanted" {
			return i > 0 && ownWishTo(toks, i) && !reasonSubjects[toks[0]] // "call mom she wants to talk to dad": whose wish is not plain
		}
	}
	return false
}

// wishToReach: toks name a person of the home and a way of reaching them ("speak to my dad",
// "see mommy", "call mum").
func (t *Table) wishToReach(toks []string) bool {
	lx := t.vocab.lex
	if _, ok := lx.find(toks, "call.reach"); !ok && !callVerbSaid(lx, toks) {
		return false
	}
	for _, w := range toks {
		if t.vocab.people[w] != "" {
			return true
		}
	}
	return false
}

// mustVerbs say the speaker must do something: "I gotta speak to mommy".
var mustVerbs = words2set("have got gotta must")

// callNamedBeside: one part asks to call "her" or "him" and every other part is a statement
// or wish that acts on nothing and names one person of the home ("I want to show mom my
// drawing, can you call her", "I miss daddy, can you ring him"): the call is to that person.
func (t *Table) callNamedBeside(decisions []Decision, ctx Context) (Decision, bool) {
	call := -1
	var said []string
	for i, d := range decisions {
		switch {
		case d.Intent == IntentClarify && d.Pending != nil && d.Pending.Intent == "teleport.call" && d.Pending.Missing == "person":
			if call >= 0 {
				return Decision{}, false
			}
			call = i
		case (d.Intent == IntentUnclear || d.Intent == IntentGeneralAsk) && !d.Normalized.Question && !d.Normalized.Negated:
			said = append(said, d.Normalized.Text)
		default:
			return Decision{}, false
		}
	}
	if call < 0 || len(said) == 0 {
		return Decision{}, false
	}
	return t.personFromReason(decisions[call], said, ctx)
}
