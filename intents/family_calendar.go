package intents

import (
	"slices"
	"strings"
)

// The calendar asked in a family's words: "does my mother have anything on this morning",
// "are mom and dad both busy", "is anyone free to drive me to practice", "is the babysitter
// free tonight". The calendar frame (frame.go) reads one person of the home with a calendar
// word; what it misses is read here, from the lexicons (calendar.asks, people.roles) and the
// question's shape — a question about someone's time, never a request. One person of the
// home is their calendar read; two people, "anyone", or someone the home does not list is
// asked about ("Who do you mean?"), never sent to the agent and never guessed.

// calendarLeads open a question about someone's time.
var calendarLeads = words2set("is are does do has have will was am")

// anyoneWords ask about nobody in particular.
var anyoneWords = words2set("anyone anybody someone somebody everyone everybody")

// calendarFill may stand in a question about someone's time: times, "both", "still".
var calendarFill = words2set("my our the both all still today tonight tomorrow now later this morning afternoon evening " +
	"night at moment right and or either of them got any")

// takenWords ask whether someone's time is taken, as "home" or "around" do not.
var takenWords = words2set("free busy available booked tied occupied swamped engaged working")

// calendarIndirect may open an indirect question about someone's time: "would you happen to know
// whether ...", "can you check if ...", "I wonder if ...".
var calendarIndirect = words2set("happen to know tell me check see find out wonder i you can could would do please")

// indirectCalendar turns "(would you happen to know) whether my son is occupied" into the
// question "is my son occupied".
func indirectCalendar(toks []string) ([]string, bool) {
	k := slices.IndexFunc(toks, func(w string) bool { return w == "whether" || w == "if" })
	if k < 1 || !only(toks[:k], calendarIndirect) || k+3 >= len(toks) {
		return nil, false
	}
	rest := toks[k+1:]
	j := slices.IndexFunc(rest, func(w string) bool { return w == "is" || w == "are" || w == "has" })
	if j < 1 || j > 4 {
		return nil, false
	}
	return append(append([]string{rest[j]}, rest[:j]...), rest[j+1:]...), true
}

// calendarAsk decides a question about someone's time the calendar frame misses.
func (t *Table) calendarAsk(n Normalized, toks []string, m Mentions, ctx Context) (Decision, bool) {
	in := t.byName["calendar.status"]
	if in == nil || in.Unavailable || n.Negated || len(toks) < 3 || len(toks) > 14 || m.named {
		return Decision{}, false
	}
	if q, ok := calendarReshaped(toks); ok {
		toks, n.Question = q, true // "abeg is your oga free", "my husband, he is still in the meeting?"
	}
	if q, ok := indirectCalendar(toks); ok {
		toks = q // "would you happen to know whether my son is occupied": "is my son occupied"
	} else if !n.Question || len(toks) > 12 {
		return Decision{}, false
	}
	if !calendarLeads[toks[0]] {
		return Decision{}, false
	}
	lx := t.vocab.lex
	ask, okAsk := lx.find(toks, "calendar.asks")
	if !m.Calendar && !okAsk {
		return Decision{}, false
	}
	// who is asked about: the words between the lead and the calendar word
	end := len(toks)
	for i := 1; i < len(toks); i++ {
		if calendarWords[toks[i]] || okAsk && i == ask.at {
			end = i
			break
		}
	}
	if end == len(toks) || end < 2 {
		return Decision{}, false
	}
	subject := toks[1:end]
	var people, unknown []string
	anyone := false
	for i := 0; i < len(subject); i++ {
		w := subject[i]
		switch {
		case t.vocab.people[w] != "" && t.someoneElses(subject, i):
			unknown = append(unknown, subject[i-1]+" "+w) // "is sophies mum busy": someone else's mum
		case t.vocab.people[w] != "":
			people = append(people, t.vocab.people[w])
		case anyoneWords[w]:
			anyone = true
		case w == "every" && i+1 < len(subject) && (subject[i+1] == "1" || subject[i+1] == "one" || subject[i+1] == "body"):
			anyone, i = true, i+1 // "is every one free tonight"
		case kinWords[w]:
			unknown = append(unknown, w)
			if hasPrefix(subject[i+1:], []string{"in", "law"}) {
				unknown[len(unknown)-1] = w + " in law" // "my son-in-law"
				i += 2
			}
		case w == "i" || w == "me":
			anyone = true // "am I free at four": whose calendar is asked (the robot does not know who speaks)
		case lx["people.roles"].at(subject, i) > 0:
			l := lx["people.roles"].at(subject, i)
			unknown = append(unknown, strings.Join(subject[i:i+l], " "))
			i += l - 1
		case calendarFill[w] || w == "they" || w == "he" || w == "she":
		case i+1 < len(subject) && t.vocab.people[subject[i+1]] != "" && t.someoneElses(subject, i+1):
			// "sophies" of "is sophies mum busy": whose the person is
		case i > 0 && (personOwners[subject[i-1]] || subject[i-1] == "the") && i+1 < len(subject) && lx["people.roles"].at(subject, i+1) > 0:
			// "my piano teacher": a word that says which
		default:
			return Decision{}, false // "is the shop busy": no one of the home asked about
		}
	}
	// after the calendar word: times, and a short reason ("to drive me to practice")
	rest := toks[end+1:]
	if okAsk {
		rest = toks[ask.at+ask.n:]
	}
	extra := 0
	for _, w := range rest {
		if !calendarFill[w] && !calendarWords[w] && !familyFill[w] {
			extra++
		}
	}
	if extra > 4 {
		return Decision{}, false
	}
	why := "a question about someone's time"
	if okAsk {
		why += " (" + hitWords(ask) + ")"
	}
	args := map[string]string{}
	switch {
	case len(people) == 1 && len(unknown) == 0 && !anyone:
		args["person"] = people[0]
	case anyone && !okAsk && !takenWords[toks[end]]:
		return Decision{}, false // "is anyone home", "is anybody around": no one's time asked about
	case len(people) > 1 || anyone:
		why += ": no one person of the home named (two, anyone, or the speaker): who is asked"
	case len(unknown) == 1 && len(people) == 0:
		args["person"] = unknown[0] // someone the home does not list: asked about, never echoed
	default:
		return Decision{}, false
	}
	d := t.settle(in, t.bind(in, args, ctx), frameRule(in), n)
	d.Mentions = m.ref()
	d.Doctrine = append([]string{"frame: " + why + ": calendar.status"}, d.Doctrine...)
	return d, true
}

// calendarParticles may open a question about someone's time before its lead: "abeg is your
// oga free now", "so is dad busy".
var calendarParticles = words2set("abeg biko oya so oh ehn ah hey um uh well")

// askLeads open a question put before a question about someone's time: "can I go in or is
// dad on a call".
var askLeads = words2set("can could should may shall")

// calendarReshaped reads a question about someone's time said in another shape as its plain
// form: a particle before the lead ("abeg is your oga free"), the person said first and taken
// up by a pronoun ("my husband, he is still in the meeting?"), or the question as the last of
// two asked together when the first asks leave ("can I go into the office or is dad on a
// call"; "is mom busy or is dad free" is not read this way: its first question is about someone's time).
func calendarReshaped(toks []string) ([]string, bool) {
	switch {
	case len(toks) > 3 && calendarParticles[toks[0]] && calendarLeads[toks[1]]:
		return toks[1:], true
	case len(toks) > 4 && (toks[0] == "my" || toks[0] == "our" || toks[0] == "your"):
		for j := 2; j < 5 && j+1 < len(toks); j++ {
			if (toks[j] == "he" || toks[j] == "she" || toks[j] == "they") && calendarLeads[toks[j+1]] {
				return append(append([]string{toks[j+1]}, toks[:j]...), toks[j+2:]...), true
			}
		}
	}
	if k := slices.Index(toks, "or"); k > 1 && k+3 < len(toks) && calendarLeads[toks[k+1]] && askLeads[toks[0]] {
		return toks[k+1:], true
	}
	return nil, false
}
