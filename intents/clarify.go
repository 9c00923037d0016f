package intents

import (
	"fmt"
	"slices"
	"strings"
)

// Clarifying questions: how the router words a question for a missing or unclear argument,
// and how the answer completes the pending intent.

// question words the clarifying prompt for a problem.
func (t *Table) question(spec ArgSpec, p problem) string {
	switch spec.Type {
	// A prompt never repeats what was heard unless it is a word of the home's own vocabulary:
	// an unrecognised phrase may be anything (a password read aloud, an injected instruction).
	case ArgRoom:
		rooms := t.roomsWith(spec.Device)
		lead := "Which room?"
		switch p.why {
		case "unknown":
			lead = "I don't know that room —"
		case "no_device":
			lead = fmt.Sprintf("The %s has no %s. Which room?", p.value, deviceWord(spec.Device)) // p.value is a known room
		}
		return fmt.Sprintf("%s I can do %s.", lead, spokenList(rooms, "or"))
	case ArgPerson:
		var names []string
		for _, p := range t.Home.People {
			names = append(names, p.Name)
		}
		if p.why == "unknown" {
			return fmt.Sprintf("I don't know that person — I can check %s.", spokenList(names, "or"))
		}
		return fmt.Sprintf("Who do you mean? I can check %s.", spokenList(names, "or"))
	case ArgDuration:
		if p.why == "out_of_range" {
			return "I can only set a timer from one second to 24 hours. How long should it be?"
		}
		if u := spokenUnit(p.value); u != "" {
			return "How many " + u + "?" // a number that was not heard is asked about, never guessed
		}
		return "How long should the timer be? You can say something like ten minutes."
	case ArgLabel:
		all := ""
		if spec.All {
			all = ", or all timers"
		}
		return fmt.Sprintf("Which timer? Say its name, like the %s timer%s.", t.Home.TimerLabels[0], all)
	case ArgTemperature:
		return fmt.Sprintf("What temperature? I can set the AC between %d and %d degrees.", t.Home.ACRange.Min, t.Home.ACRange.Max)
	case ArgState:
		return "On or off?"
	case ArgExpression:
		return fmt.Sprintf("I can %s.", spokenList(sortedKeys(t.Home.Expressions), "or"))
	}
	return "Could you say that again?"
}

func (t *Table) roomsWith(device string) []string {
	var out []string
	for _, r := range t.Home.Rooms {
		if device == "" || slices.Contains(r.Devices, device) {
			out = append(out, "the "+r.Name)
		}
	}
	return out
}

func deviceWord(d string) string {
	if d == "ac" {
		return "air conditioning"
	}
	return d
}

func spokenList(items []string, conj string) string {
	switch len(items) {
	case 0:
		return "nothing"
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conj + " " + items[len(items)-1]
}

// Complete answers a clarifying question: it fills the pending intent's missing argument
// from a short follow-up ("the kitchen", "bedroom please", "twenty two"). ok is false when
// the answer does not fill it; the caller then routes the answer as a new sentence.
func (t *Table) Complete(p Pending, answer string, ctx Context) (Decision, bool) {
	in, ok := t.byName[p.Intent]
	if !ok {
		return Decision{}, false
	}
	if p.Missing == MissingConfirm {
		return t.confirm(in, p, answer, ctx)
	}
	spec, ok := in.Arg(p.Missing)
	if !ok {
		return Decision{}, false
	}
	n := normalize(answer, t.vocab.wake)
	toks := n.tokens()
	for len(toks) > 0 && (toks[0] == "in" || toks[0] == "the" || toks[0] == "for" || toks[0] == "to" || toks[0] == "at" || toks[0] == "in the") {
		toks = toks[1:]
	}
	for len(toks) > 0 && (toks[len(toks)-1] == "degrees" || toks[len(toks)-1] == "one" || toks[len(toks)-1] == "1" && len(toks) > 1 && !isNumber(toks[len(toks)-2]) || toks[len(toks)-1] == "room" && len(toks) > 1 && t.isRoom(strings.Join(toks[:len(toks)-1], " "))) {
		toks = toks[:len(toks)-1]
	}
	value := strings.Join(toks, " ")
	if value == "" {
		return Decision{}, false
	}
	captured := map[string]string{}
	for k, v := range p.Args {
		captured[k] = v
	}
	if spec.Type == ArgDuration && p.Unit != "" && isNumber(value) {
		value += " " + p.Unit // "How many minutes?" "Eight."
	}
	captured[spec.Name] = value
	if spec.Type == ArgRoom {
		if ref, _ := t.vocab.resolveRoom(value); ref == roomUnknown || ref == roomNotARoom {
			return Decision{}, false
		}
	}
	b := t.bind(in, captured, ctx)
	if b.notApplicable {
		return Decision{}, false
	}
	for _, pr := range b.problems {
		if pr.arg == spec.Name {
			return Decision{}, false
		}
	}
	d := t.settle(in, b, nil, n)
	d.Doctrine = append([]string{fmt.Sprintf("answer to a clarifying question filled %s", spec.Name)}, d.Doctrine...)
	return d, true
}

func (t *Table) isRoom(s string) bool {
	ref, _ := t.vocab.resolveRoom(s)
	return ref == roomKnown
}

// MissingConfirm is the Pending.Missing of a question that asks whether to do what was
// heard ("Do you want me to turn on the kitchen light?"): a yes does it, anything else is
// routed as a new sentence.
const MissingConfirm = "confirm"

// confirm answers a MissingConfirm question: a plain yes ("yes", "yeah please", "ok do it")
// does the pending action with its arguments bound again, as if asked for in so many words.
func (t *Table) confirm(in *Intent, p Pending, answer string, ctx Context) (Decision, bool) {
	n := normalize(answer, t.vocab.wake)
	toks := words(strings.ToLower(answer)) // as said: normalisation drops a "yeah" or a "please"
	if len(toks) == 0 || len(toks) > 4 || t.vocab.lex["answer.yes"].at(toks, 0) == 0 {
		return Decision{}, false
	}
	for _, w := range toks[1:] {
		if w == "not" || w == "no" || w == "dont" || w == "don't" {
			return Decision{}, false // "yes no wait", "ok don't"
		}
	}
	captured := map[string]string{}
	for k, v := range p.Args {
		captured[k] = v
	}
	b := t.bind(in, captured, ctx)
	if b.notApplicable || len(b.problems) > 0 {
		return Decision{}, false
	}
	d := t.settle(in, b, nil, n)
	d.Doctrine = append([]string{"a yes to \"do you want me to\": " + in.Name + " is done"}, d.Doctrine...)
	return d, true
}
