package intents

import "strings"

// Quiet that lasts to an event the speaker names ("keep it down till the guests leave",
// "don't speak during dinner", "not a peep from you for an hour"): quiet's own words with
// what makes them last, at most the longest quiet time, a length said with them kept.

// quietSpans are the words that make quiet last to an event the speaker names: "keep it down
// till the guests leave", "stay quiet during the film", "be silent while I'm on the phone".
var quietSpans = words2set("until till during while whilst")

// banNouns after "not a" ban the robot's noise: "not a peep from you".
var banNouns = words2set("peep sound squeak word")

// quietUntil: quiet's own words (quiet.verbs) with what makes them last to an event ("until
// the morning", "during dinner", "while grandpa has his nap", "all evening") ask for quiet
// time until it is ended, at most the longest. Only words the lists explain may go before the
// span, and the sentence must be a request.
func (t *Table) quietUntil(n Normalized, toks []string, m Mentions, hit lexHit) (Decision, bool) {
	view := n.durationWords()
	for i := hit.at + hit.n; i < len(view); i++ {
		if lengthClause(view, i) {
			return Decision{}, false // "..., it's like 45 minutes": the length is read with the request's words
		}
	}
	at := -1
	for i := hit.at + hit.n; i < len(toks); i++ {
		if quietSpans[toks[i]] {
			at = i
			break
		}
	}
	switch {
	case at >= 0 && at+1 < len(toks) && len(toks)-at-1 <= maxUntilWords:
	case hasSuffix(toks, []string{"all", "evening"}) || hasSuffix(toks, []string{"all", "night"}) || hasSuffix(toks, []string{"all", "day"}):
		at = len(toks) - 2
	default:
		return Decision{}, false
	}
	used := make([]bool, at)
	for k := hit.at; k < hit.at+hit.n && k < at; k++ {
		used[k] = true // the quiet words themselves ("speak" of "don't speak")
	}
	if t.unexplainedBy(toks[:at], used, []string{"quiet.verbs", "stop.reasons"}, familyFill, stopFill, frameFill) > 0 {
		return Decision{}, false
	}
	lx := t.vocab.lex
	form := t.requestForm(n, toks[:at], func(ct []string) bool { return lx.has(ct, "quiet.verbs") })
	if form == FormStatement && hit.at == 0 && toks[0] == "no" && !n.Negated {
		form = FormImperative // "no talking during the film": a ban said without a verb
	}
	if form == FormNegated && hit.at == 0 && (strings.HasPrefix(hit.phrase, "do not ") || n.Negated && stopTalk[hit.phrase]) && !conditional(toks) && !reported(toks) {
		form = FormImperative // "don't speak during dinner": the ban is the request
	}
	if form != FormImperative || conditional(toks) || reported(toks) {
		return Decision{}, false
	}
	args := map[string]string{"state": "on"}
	for i, w := range view {
		// "go quiet for twenty minutes while I'm on this call", "don't speak during my meeting
		// for the next twenty minutes": the length said wins, before or after the span
		if phrase, ok := strings.CutPrefix(w, "~"); ok && !only(strings.Split(phrase, "_"), quietMoments) &&
			(i > 0 && (view[i-1] == "for" || view[i-1] == "next") || !anyOf(view[:i], quietSpans)) {
			if _, o := parseDuration(phrase); o == durationOK {
				args["duration"] = phrase
				break
			}
		}
	}
	return t.familyDecision(IntentQuiet, args, n, m, form, "quiet that lasts ("+hitWords(hit)+", "+toks[at]+" ...)")
}
