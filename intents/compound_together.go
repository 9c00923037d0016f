package intents

import (
	"slices"
	"strings"
)

// Parts of one breath read together: a command said in pieces, the time asked among asides,
// a game already being played. compound reads its parts with these before it asks for one
// thing at a time.

// clockAmongAsides: one part asks the time or the date and every other part is free text
// said around it — a short aside ("am I late?") or a stated reason ("I have to write it on
// the sick note"): the time or the date is what was asked.
func (t *Table) clockAmongAsides(decisions []Decision) (Decision, bool) {
	var clock *Decision
	for i := range decisions {
		d := &decisions[i]
		switch {
		case d.Intent == "time.now" || d.Intent == "date.today":
			if clock != nil {
				return Decision{}, false
			}
			clock = d
		case d.Intent == IntentGeneralAsk && d.Rule == nil && d.Mentions == nil &&
			(len(d.Normalized.tokens()) <= 5 || t.statedReason(d.Normalized)):
		default:
			return Decision{}, false
		}
	}
	if clock == nil {
		return Decision{}, false
	}
	d := *clock
	d.Doctrine = append(d.Doctrine, "compound sentence: the "+strings.TrimSuffix(strings.TrimSuffix(d.Intent, ".now"), ".today")+" asked, with words said around it")
	return d, true
}

// fragmentsJoined: a house command said in pieces ("the bedroom, lights off", "air
// conditioning. living room. on.", "open the air condition, 24 degree, bedroom"): every part
// a fragment of at most three words (the first, with the verb, six) with no verb of its own
// (but the first's), no question and no negation. The pieces are read as one command; only a
// light or AC command is taken.
func (t *Table) fragmentsJoined(parts []Normalized, ctx Context) (Decision, bool) {
	if len(parts) < 2 || len(parts) > 5 {
		return Decision{}, false
	}
	var joined []string
	var kept []Normalized
	for k, c := range parts {
		toks := c.tokens()
		if len(toks) > 2 && personalSubjects[toks[0]] && finiteWords[toks[1]] && !c.Negated && !c.Question {
			continue // "..., I have a call in two minutes": the reason, not a piece of the command
		}
		kept = append(kept, c)
		if k > 0 && len(parts[0].tokens()) > 3 && (len(t.roomsIn(toks)) == 0 || slices.ContainsFunc(toks, isDigits)) {
			return Decision{}, false // after a whole request, only the room it lacks is a piece of it ("turn on the light, kitchen")
		}
		if len(toks) == 0 || len(toks) > 3 && !(k == 0 && len(toks) <= 6) || c.Negated || c.Question && !(len(toks) <= 2) {
			return Decision{}, false
		}
		for _, w := range toks {
			if finiteWords[w] || questionWords[w] || w == "not" || k > 0 && isImperativeVerb(w) && w != "off" && w != "on" && wordClasses[w]&(wcDevice|wcHouseDevice) == 0 {
				return Decision{}, false
			}
		}
		joined = append(joined, toks...)
	}
	if len(kept) < 2 {
		return Decision{}, false
	}
	c := kept[0]
	c.toks = joined
	c.Text = strings.Join(joined, " ")
	c.Question = false
	d, ok := t.routeClause(c, ctx, nil)
	if !ok || !strings.HasPrefix(d.Intent, "house.") {
		return Decision{}, false
	}
	d.Doctrine = append(d.Doctrine, "compound sentence: a command said in pieces ("+quoteList(partTexts(parts))+"), read as one")
	return d, true
}

func partTexts(parts []Normalized) []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.Text
	}
	return out
}

// gameStart: the intent starts one of the games.
func gameStart(intent string) bool {
	return strings.HasPrefix(intent, "play.") && intent != "play.invite" && intent != "play.stop"
}

// simonSaidTwice: "simon says, hands on your head! simon says, jump!": the game's moves
// called out, a game already being played.
func simonSaidTwice(toks []string) bool {
	n := 0
	for i := 0; i+1 < len(toks); i++ {
		if toks[i] == "simon" && toks[i+1] == "says" {
			n++
		}
	}
	return n >= 2
}

// pronounSwitch: a statement or question about a device in a room, then "turn it on", "switch
// them off" — the device and the room are the first part's ("it's dark in the kitchen, can
// you turn it on?", "the bedroom's freezing, switch it off please"). a is the first part's
// decision (a read, or a remedy offered), b the pronoun part's (it named no device), c its
// words.
func (t *Table) pronounSwitch(a, b Decision, c Normalized, ctx Context) (Decision, bool) {
	if b.Intent != "" && understood(b) || c.Negated || c.Question {
		return Decision{}, false
	}
	state, ok := pronounState(stripRequestLeads(c.tokens()))
	if !ok {
		return Decision{}, false
	}
	if at := a.Normalized.tokens(); len(at) > 0 && (t.vocab.people[at[0]] != "" || kinWords[at[0]] || at[len(at)-1] == "go" || at[len(at)-1] == "come") {
		return Decision{}, false // "dad dad the kitchen light is still on go and turn it off": said to someone else
	}
	set, room := "", ""
	switch {
	case remedyOffered(a) && (a.Pending.Intent == "house.light.set" || a.Pending.Intent == "house.ac.set"):
		set, room = a.Pending.Intent, a.Pending.Args["room"]
	case a.Intent == "house.light.get" || a.Intent == "house.ac.get":
		set, room = "house.light.set", a.Args["room"]
		if a.Intent == "house.ac.get" {
			set = "house.ac.set"
		}
	}
	in := t.byName[set]
	if in == nil || in.Unavailable || room == "" || a.Mentions == nil || len(a.Mentions.Rooms)+btoi(a.Mentions.Here) != 1 {
		return Decision{}, false // the room must be said ("the AC, turn it off, the living room one" says it later)
	}
	d := t.settle(in, t.bind(in, map[string]string{"room": room, "state": state}, ctx), frameRule(in), c)
	d.Doctrine = append(d.Doctrine, "\""+c.Text+"\" switches what the part before it spoke of")
	return d, true
}

// pronounState reads "turn it on", "switch them off", "put it on", "turn off that one": a
// switch of something named before, and the state asked for.
func pronounState(toks []string) (string, bool) {
	if len(toks) < 3 || len(toks) > 5 || !pronounVerbs[toks[0]] {
		return "", false
	}
	state := ""
	pronoun := false
	for _, w := range toks[1:] {
		switch {
		case w == "on" || w == "off":
			if state != "" {
				return "", false
			}
			state = w
		case w == "it" || w == "them" || w == "that" || w == "those" || w == "one":
			pronoun = true
		case w == "please" || w == "now" || w == "back" || w == "for" || w == "me" || w == "us":
		default:
			return "", false
		}
	}
	return state, state != "" && pronoun
}

// pronounVerbs switch something named before: "turn it on".
var pronounVerbs = words2set("turn switch put flick flip turning switching putting")
