package intents

import (
	"strings"
	"testing"
)

// actsOrWouldAct reports whether a decision acts, or asks a question whose answer would
// complete into an action.
func actsOrWouldAct(tb *Table, d Decision) bool {
	if d.Kind == KindWrite || d.Kind == KindRobot {
		return true
	}
	if d.Intent == IntentClarify && d.Pending != nil && d.Pending.Missing != MissingConfirm { // an offer asked first acts on nothing
		if pin, ok := tb.Lookup(d.Pending.Intent); ok && pin.Acts() {
			return true
		}
	}
	return false
}

// TestOnlyACommandActs is the command rule's property: sentences that speak of a house
// action without asking for it now — statements, the past, the future, "no need to", "don't
// bother", wishes and complaints, reports, conditionals, modes the home does not have —
// generated over every room (and alias), device word and state, never write.
func TestOnlyACommandActs(t *testing.T) {
	tb := demo(t)
	devices := []string{"light", "lights", "lamp", "big light", "ac", "A/C", "air con", "air conditioning", "thermostat"}
	states := []string{"on", "off"}
	templates := []string{
		// Statements of fact.
		"It's 30 degrees in the {room}.", "the {room} is 22 degrees", "The {room} {device} is {state}.",
		"the {device} in the {room} is {state} again", "The {room} {device} seems to be {state}.",
		"the {room} {device} has been {state} all day", "the {room} {device} {state} is how I like it",
		// Past tense.
		"Yesterday you turned {state} the {room} {device}.", "You switched the {room} {device} {state} this morning.",
		"I turned the {room} {device} {state} an hour ago.", "we left the {room} {device} {state} last night",
		"somebody put the {room} {device} {state}", "the kids switched {state} the {device} in the {room} earlier",
		"last time you turned the {room} {device} {state} it broke", "did you already turn {state} the {room} {device}",
		// Future.
		"I'll turn the {room} {device} {state} later.", "I'm going to switch {state} the {room} {device}.",
		"we will put the {room} {device} {state} tomorrow", "tomorrow I'm turning the {room} {device} {state}",
		"dad is gonna turn {state} the {room} {device}",
		// No need, don't bother, don't.
		"No need to turn {state} the {room} {device}.", "There's no need to switch the {room} {device} {state}.",
		"Don't bother turning {state} the {room} {device}.", "don't bother with the {room} {device}, it's {state}",
		"Don't turn {state} the {room} {device}!", "no need for the {room} {device} to be {state}",
		"never switch the {room} {device} {state}", "you don't have to turn the {room} {device} {state}",
		// Wishes and complaints.
		"I wish the {room} {device} was {state}.", "I wish you'd turn {state} the {room} {device}",
		"it's freezing in the {room}", "it's boiling in the {room}, the {device} is {state}",
		"I hope the {room} {device} is {state}", "the {room} {device} should be {state}",
		"it would be nice if the {room} {device} was {state}", "I hate it when the {room} {device} is {state}",
		"ugh, the {room} {device} is {state} again", "The {room} {device}'s still {state}.",
		"Thanks for turning {state} the {room} {device}.", "great, now the {room} {device} is {state}",
		"the {room} {device} going {state} by itself", "lovely, the {room} {device}'s {state}",
		"{room} {device} {state} yesterday", "{room} {device} {state} last night, again", "{room} {device} {state} tomorrow",
		"no {device} {state} in the {room}", "daddy says {room} {device} {state}", "{room} {device} {state}?",
		"why don't you turn the {room} {device} {state}", "how about turning the {room} {device} {state}?",
		"{room} {device} {state} since this morning", "{room} {device} {state} every night, usually",
		"always {device} {state} in the {room}", "we always turn the {room} {device} {state}",
		"let me turn the {room} {device} {state}", "remember to turn {state} the {room} {device}",
		"teach me how to switch the {room} {device} {state}", "{room} {device} {state} at bedtime",
		"I'm turning the {room} {device} {state} now", "I just switched the {room} {device} {state}",
		"my sister wants the {room} {device} {state}", "grandma likes the {room} {device} {state}",
		"I think the {room} {device} is {state}", "don't forget to turn the {room} {device} {state}",
		// Reports.
		"Mum said to turn {state} the {room} {device}.", "my brother told me to switch the {room} {device} {state}",
		"dad says you should turn {state} the {room} {device}", "grandma asked if the {room} {device} was {state}",
		"the teacher said turn the {room} {device} {state}",
		// Conditionals.
		"If it gets dark, turn {state} the {room} {device}.", "when I get home switch the {room} {device} {state}",
		"if the baby wakes up turn {state} the {device} in the {room}", "once dinner is ready put the {room} {device} {state}",
		"unless I say so don't turn the {room} {device} {state}", "turn {state} the {room} {device} if it gets cold",
		"as soon as I leave turn the {room} {device} {state}",
		// Modes and settings the home does not have.
		"Put the {room} {device} on fan mode.", "turn the {room} {device} on to fifty percent",
		"switch the {room} {device} on in blue", "set the {room} {device} brightness to 40",
		"put the {room} {device} on high", "turn {state} the {room} {device} and make it dimmer",
		"set the {room} {device} to eco mode", "turn the {room} {device} on low",
	}
	var rooms []string
	for _, r := range tb.Home.Rooms {
		rooms = append(rooms, r.Name)
		rooms = append(rooms, r.Aliases...)
	}
	n := 0
	for _, tpl := range templates {
		for _, room := range rooms {
			for _, dev := range devices {
				for _, st := range states {
					s := strings.NewReplacer("{room}", room, "{device}", dev, "{state}", st).Replace(tpl)
					d := tb.Route(s, Context{})
					n++
					if actsOrWouldAct(tb, d) {
						t.Errorf("%q routed to %s %v (doctrine: %s)", s, d.Intent, d.Args, strings.Join(d.Doctrine, "; "))
					}
				}
			}
		}
	}
	if n < 5000 {
		t.Fatalf("only %d sentences checked", n)
	}
}

// TestOnlyACommandStartsOrCancelsATimer: the same forms over every timer phrase never start
// or cancel a timer, and never hang up.
func TestOnlyACommandStartsOrCancelsATimer(t *testing.T) {
	tb := demo(t)
	durations := []string{"ten minutes", "an hour and a quarter", "90 seconds", "half an hour", "1 hour 20", "seven minutes"}
	labels := append([]string{""}, tb.Home.TimerLabels...)
	templates := []string{
		"I set a {label}timer for {duration} yesterday", "you started a {label}timer for {duration}",
		"No need to set a {label}timer for {duration}.", "Don't bother with a {label}timer for {duration}.",
		"don't bother cancelling the {label}timer", "There's no need to cancel the {label}timer.",
		"mum said to set a {label}timer for {duration}", "dad told me to cancel the {label}timer",
		"if the water boils set a {label}timer for {duration}", "when the oven is hot, start a {label}timer for {duration}",
		"I wish I'd set a {label}timer for {duration}", "I'll set a {label}timer for {duration} later",
		"I'm going to cancel the {label}timer", "the {label}timer was for {duration}", "the {label}timer is set for {duration}",
		"you cancelled the {label}timer", "we never set a {label}timer for {duration}", "Did the {label}timer go off yet?",
		"the {label}timer went off {duration} ago", "a {label}timer for {duration} would have been nice",
		"my friend hung up on me", "grandma said hang up", "don't hang up", "no need to hang up yet",
		"you hung up on grandma yesterday", "if she stops talking, hang up",
	}
	n := 0
	for _, tpl := range templates {
		for _, l := range labels {
			if l != "" {
				l += " "
			}
			for _, dur := range durations {
				s := strings.NewReplacer("{label}", l, "{duration}", dur).Replace(tpl)
				d := tb.Route(s, Context{})
				n++
				if actsOrWouldAct(tb, d) {
					t.Errorf("%q routed to %s %v (doctrine: %s)", s, d.Intent, d.Args, strings.Join(d.Doctrine, "; "))
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d sentences checked", n)
	}
}

// TestParaphrases holds the router to sentences written the way families talk, in the
// style of the held-out sets (paraphrases, other Englishes, children's speech, tags and
// reasons around a command), for every built-in intent: 100%.
func TestParaphrases(t *testing.T) {
	tb := demo(t)
	cases := loadCases(t, "testdata/paraphrases.txt")
	if len(cases) < 100 {
		t.Fatalf("only %d sentences read", len(cases))
	}
	for _, c := range cases {
		if d, diff := tb.CheckCase(c, Context{}); diff != "" {
			t.Errorf("paraphrases.txt:%d %q: %s (doctrine: %s)", c.Line, c.Sentence, diff, strings.Join(d.Doctrine, "; "))
		}
	}
}
