package intents

// A discomfort said of a room and its remedy: the dark or the glare, the heat or the cold,
// read as a light or the AC to switch — done when a remedy is asked for ("too dark in the
// kitchen, sort it out"), offered when it is only said ("it's pitch black in the office":
// "Do you want me to turn on the office light?"); and the number asked first when the AC is
// asked for more or less without one.

// lightRemedy: a sentence that says how dark (or how bright) a room is and asks for
// something to be done about it ("house.remedy": sort it out, do something, get the light, no
// more) asks for its light on (off) — never a question, a negation, a report or a condition.
func (t *Table) lightRemedy(n Normalized, m Mentions, dev string) string {
	if dev != "light" || len(m.States) > 0 {
		return ""
	}
	switch m.Form {
	case FormImperative, FormWish, FormStatement, "":
	default:
		return ""
	}
	toks := n.tokens()
	lx := t.vocab.lex
	if !lx.has(toks, "house.remedy") {
		return ""
	}
	switch {
	case lx.has(toks, "house.dark"):
		return "on"
	case lx.has(toks, "house.bright"):
		return "off"
	}
	return ""
}

// remedyState is what a discomfort said of a room asks of its device: the dark a light on,
// the glare a light off, the heat the AC on, the cold the AC off ("" when nothing is felt).
func (t *Table) remedyState(toks []string, dev string) string {
	lx := t.vocab.lex
	switch {
	case dev == "light" && (lx.has(toks, "house.dark") || contains(toks, "dark") || contains(toks, "pitch")):
		return "on"
	case dev == "light" && lx.has(toks, "house.bright"):
		return "off"
	case dev == "ac" && anyOf(toks, feltHot):
		return "on"
	case dev == "ac" && anyOf(toks, feltCold):
		return "off"
	}
	return ""
}

var feltHot = words2set("hot boiling roasting sauna sweltering stifling toasty warm stuffy baking")

var feltCold = words2set("cold freezing chilly baltic nippy icy frozen")

// offerRemedy: a discomfort stated about a room ("it's pitch black in the office", "it's like
// a sauna in here") asks for nothing, so nothing is done; the robot offers the remedy, and a
// plain yes does it (Pending.Missing "confirm"). The room must have the device.
func (t *Table) offerRemedy(n Normalized, m Mentions, dev string, set *Intent, captured map[string]string, ctx Context, trace string) (Decision, bool) {
	toks := n.tokens()
	if toks[0] == "why" || toks[0] == "was" || toks[0] == "were" || anyOf(toks, pastWords) {
		return Decision{}, false // "why is it so dark in the office", "it was freezing last night"
	}
	state := t.remedyState(toks, dev)
	if state == "" {
		return Decision{}, false
	}
	args := map[string]string{"state": state}
	for k, v := range captured {
		args[k] = v
	}
	b := t.bind(set, args, ctx)
	if len(b.problems) > 0 || b.notApplicable {
		return Decision{}, false
	}
	what := Decision{Intent: set.Name, Args: b.args}
	d := t.decide(t.byName[IntentClarify], map[string]string{}, frameRule(set), n)
	d.Prompt = "Do you want me to " + t.offerWhat(what) + "?"
	d.Pending = &Pending{Intent: set.Name, Args: b.args, Missing: MissingConfirm}
	d.Mentions = m.ref()
	d.NotActed = "a discomfort stated, not a request: the remedy is offered"
	d.Doctrine = append([]string{trace + ": how the room feels is said, so the remedy is offered, not done"}, d.Doctrine...)
	return d, true
}

// onlyRoomMissing: nothing is wrong with a binding but, perhaps, an unsaid room (asked
// for after the question at hand).
func onlyRoomMissing(ps []problem) bool {
	for _, p := range ps {
		if p.arg != "room" || p.why != "missing" {
			return false
		}
	}
	return true
}
