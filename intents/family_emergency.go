package intents

import (
	"slices"
	"strings"
)

// The family frame for an emergency the robot cannot call for (family_frames.go says how the
// frames decide). It never acts: the answer says to use a phone.

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
	if self, ok := t.findSaid(m.lex, toks, "emergency.self"); ok && self.at <= 2 && !n.Question && !n.Negated {
		return t.familyDecision(IntentEmergency, map[string]string{}, n, m, FormStatement, "the speaker is hurt ("+hitWords(self)+")")
	}
	svc, okSvc := t.findSaid(m.lex, toks, "emergency.services")
	if okSvc && svc.phrase == "help" && svc.at+1 < len(toks) {
		if other, ok := lx.find(toks[svc.at+1:], "emergency.services"); ok && other.phrase != "help" {
			other.at += svc.at + 1
			svc = other // "I need help, call an ambulance": the service named is the one called
		}
	}
	event, okEvent := t.findSaid(m.lex, toks, "emergency.events")
	if !okSvc && !okEvent {
		return Decision{}, false
	}
	if okSvc && emergencyNumbers[svc.phrase] && !n.Negated && !n.Question && only(toks, emergencyNumbers, emergencyNow) {
		return t.familyDecision(IntentEmergency, map[string]string{}, n, m, FormImperative, "an emergency number said alone ("+hitWords(svc)+")") // "nine one one now"
	}
	if okEvent && !okSvc && !n.Negated {
		// "there's smoke coming from the kitchen what do I do": what happened, then a cry
		// for what to do — never "what do I do if there's a fire" (a question about the world)
		// "grandpa fell asleep", "they fell in love": no fall
		asleep := event.at+event.n < len(toks) && (toks[event.at+event.n] == "asleep" || toks[event.at+event.n] == "in" && (event.phrase == "fell" || event.phrase == "fall" || event.phrase == "fallen"))
		if ask, ok := lx.find(toks, "emergency.asks"); ok && ask.at > event.at && !asleep && !conditional(toks) && !reported(toks[:ask.at]) {
			return t.familyDecision(IntentEmergency, map[string]string{}, n, m, FormStatement, "an emergency ("+hitWords(event, ask)+")")
		}
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
	if okSvc && svc.phrase == "help" && !okEvent && len(m.People) > 0 && callVerbSaid(lx, toks) {
		return Decision{}, false // "call dad, I need help with my homework": a person of the home is called
	}
	if okSvc && svc.phrase == "help" && okVerb && !callForHelp[verb.phrase] {
		okVerb = false // "I need help using you" asks for help, not for the emergency services
	}
	helpCry := contains(toks, "help") && okEvent
	real := okSvc && svc.phrase != "help" && (okVerb || okEvent) || okSvc && svc.phrase == "help" && okVerb && verb.phrase != "help" || helpCry
	negated := (n.Negated || noNeed(toks)) && !eventsOwnNot(n, toks, event, okEvent) // "the baby's not breathing, call for help"
	if !real || negated {
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

// eventsOwnNot: the sentence's only "not" is the emergency's own ("not breathing"), and it
// does not open with a negation: nothing is taken back.
func eventsOwnNot(n Normalized, toks []string, event lexHit, ok bool) bool {
	if !ok || negationLed(n) || !slices.Contains(strings.Fields(event.phrase), "not") {
		return false
	}
	nots := 0
	for _, w := range toks {
		if w == "not" || w == "never" || w == "dont" {
			nots++
		}
	}
	return nots == 1
}
