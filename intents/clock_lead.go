package intents

import "strings"

// A clock question said first, then something else without a pause: "could you tell me the
// time please I've left my glasses upstairs", "what day is today is it a school day". The
// question is whole at the sentence's start; what follows is a reason or an aside.

// clockQuestionLeads are whole clock questions a sentence may open with, and what each asks.
var clockQuestionLeads = func() map[string][][]string {
	out := map[string][][]string{}
	add := func(intent string, specs ...string) {
		for _, p := range expandPhrases(specs) {
			out[intent] = append(out[intent], p)
		}
	}
	add("time.now", "what time is it {now|right now|please|}", "what is the time {now|please|}",
		"{tell|give} me the time {please|}", "{could|can|would|will} you tell me the time {please|}",
		"{have|do} you {got|have} the time", "{have|do} you got the time")
	add("date.today", "what day is {it|today} {today|please|}", "what is the date {today|please|}",
		"what is todays date", "what date is it {today|}", "{tell|give} me the date {please|}",
		"{could|can|would|will} you tell me the date {please|}", "what day of the week is it {today|}")
	return out
}()

// clockRestOpeners may open what is said after a clock question: a statement of one's own
// ("I've left my glasses ..."), another small question ("is it a school day"). A place or a
// time ("in Tokyo", "tomorrow") asks another clock's question.
var clockRestOpeners = words2set("i im we my our it its is are am do does did the this that because cause cos as since so " +
	"oh dear love darling reachy")

// clockLead: toks open with a whole clock question and go on with an aside (see above).
func (t *Table) clockLead(n Normalized) (Decision, bool) {
	toks := n.tokens()
	if n.Negated || len(toks) < 4 {
		return Decision{}, false
	}
	for _, intent := range []string{"time.now", "date.today"} {
		in := t.byName[intent]
		if in == nil || in.Unavailable {
			continue
		}
		for _, lead := range clockQuestionLeads[intent] {
			if len(toks) <= len(lead) || !hasPrefix(toks, lead) {
				continue
			}
			rest := toks[len(lead):]
			if !clockRestOpeners[rest[0]] || conditional(rest) || reportedOrTakenBack(rest) || laterSaid(rest) {
				continue
			}
			d := t.decide(in, map[string]string{}, nil, n)
			d.Doctrine = append(d.Doctrine, "a clock question said first (\""+strings.Join(lead, " ")+"\"), then an aside: "+intent)
			return d, true
		}
	}
	return Decision{}, false
}
