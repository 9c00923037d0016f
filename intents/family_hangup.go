package intents

import (
	"slices"
	"strings"
)

// personOff: a child ends a call by turning the person off — "turn mommy off", "byeee
// mommy love you reachy turn mommy off", "switch off grandpa now": the call ends
// (session.end). Before it may stand only a farewell and the words said with one (hangLeads,
// the people of the home, the robot's name); "mommy turned the tv off", "don't turn daddy
// off", "turn mommy's light off" end nothing.
func (t *Table) personOff(n Normalized, toks []string, m Mentions) (Decision, bool) {
	if n.Negated || n.Question || m.named || len(toks) < 3 || len(toks) > 14 {
		return Decision{}, false
	}
	for i := 0; i+2 < len(toks); i++ {
		if toks[i] != "turn" && toks[i] != "switch" && toks[i] != "shut" {
			continue
		}
		tail := toks[i+1:]
		if tail[0] == "off" {
			tail = tail[1:] // "switch off grandpa"
		} else if len(tail) < 2 || tail[1] != "off" && !(len(tail) > 2 && tail[2] == "off" && personOwners[tail[0]]) {
			return Decision{}, false
		}
		if len(tail) > 0 && personOwners[tail[0]] {
			tail = tail[1:]
		}
		if len(tail) == 0 || t.vocab.people[tail[0]] == "" && !kinWords[tail[0]] {
			return Decision{}, false
		}
		if !only(tail[1:], wordSet{"off": true, "now": true, "please": true}) {
			return Decision{}, false
		}
		farewell := i == 0
		for _, w := range toks[:i] {
			switch {
			case strings.HasPrefix(w, "bye") || hangFarewell[w] || nightFarewell[w]:
				farewell = true
			case hangLeads[w] || t.vocab.people[w] != "" || kinWords[w] || t.vocab.wake.isName(w) || familyFill[w]:
			default:
				return Decision{}, false
			}
		}
		if !farewell {
			return Decision{}, false // "mommy turn daddy off": said to someone
		}
		return t.familyDecision("session.end", map[string]string{}, n, m, FormImperative, "a person turned off: the call ends")
	}
	return Decision{}, false
}

// nightFarewell say goodbye at bedtime: "night night mommy, turn mommy off".
var nightFarewell = words2set("night nighty nite goodnight")

// hangUp: "hang up", or a verb that ends something with a call word ("end the call").
func hangUp(toks []string) bool {
	for i, w := range toks {
		if w == "hang" && i+1 < len(toks) && (toks[i+1] == "up" || i+2 < len(toks) && toks[i+1] == "it" && toks[i+2] == "up") {
			return true // "hang up", "hang it up"
		}
		if (w == "ring" || w == "sign") && i+1 < len(toks) && toks[i+1] == "off" {
			return true // "you may ring off now", "sign off"
		}
	}
	return anyOf(toks, hangVerbs) && anyOf(toks, hangNouns) || len(toks) <= 3 && contains(toks, "disconnect") || doneWithCall(toks)
}

// doneWithCall: "we're done with the call", "I'm finished with the video call": said to the
// robot during a call, an end to it.
func doneWithCall(toks []string) bool {
	for i := 0; i+3 < len(toks); i++ {
		if (toks[i] == "done" || toks[i] == "finished") && toks[i+1] == "with" && (toks[i+2] == "the" || toks[i+2] == "this") &&
			hangNouns[toks[i+3]] && (i > 0 && toks[i-1] == "all" ||
			i >= 2 && (toks[i-2] == "we" && toks[i-1] == "are" || toks[i-2] == "i" && toks[i-1] == "am")) {
			return true
		}
	}
	return false
}

// hangLeads may be said before "hang up" without a comma: a farewell ("bye dad, you can end
// the call now"), "that's enough", "we're done here".
var hangLeads = words2set("bye goodbye byebye ok okay alright right so well that thats is it enough we are were have " +
	"done here finished over now then thanks thank you cheers all good love see later talk soon for today our " +
	"chat chatting talking with the conversation dear love sweetheart darling tonight")

// hangFarewell are the hangLeads that say goodbye: only after one may a person be named
// ("bye dad, end the call"); "dad, end the call" is said to dad.
var hangFarewell = words2set("bye goodbye byebye thanks thank cheers love see later")

// hangUpAfter: a request to end the call said after a farewell or "we're done" without a
// comma ("ok bye dad you can end the call now", "that's enough hang up on him", "we're done
// here close the call"). The request is read on its own; the words before it may only be
// hangLeads and, after a farewell, the people of the home.
func (t *Table) hangUpAfter(toks []string, n Normalized) bool {
	if len(toks) > 12 {
		return false
	}
	farewell, person, noun := false, false, false
	for i := 1; i+1 < len(toks); i++ {
		w := toks[i-1]
		switch {
		case hangFarewell[w]:
			farewell = true
		case (hangNouns[w] || w == "calls") && slices.Contains(toks[:i-1], "enough"):
			noun = true // "that's enough video for today, end it": the call named before
		case t.vocab.people[w] != "" || kinWords[w]:
			person = true
		case t.vocab.wake.isName(w): // "bye daddy richie you can hang up now"
		case w == "will" && i >= 2 && toks[i-2] == "that", w == "be" && i >= 3 && toks[i-2] == "will" && toks[i-3] == "that":
			// "that will be all": "mom will hang up" says what someone else will do
		case !hangLeads[w]:
			return false
		}
		tail := toks[i:]
		endIt := noun && len(tail) <= 3 && hangVerbs[tail[0]] && only(tail[1:], wordSet{"it": true, "now": true, "then": true})
		if person && !farewell || !hangUp(tail) && !endIt || !t.onlyOrPeople(tail, hangFill, frameFill) {
			continue
		}
		if commandForm(tail, Normalized{Text: strings.Join(tail, " "), toks: tail, Polite: n.Polite}) == FormImperative {
			return true
		}
	}
	return false
}
