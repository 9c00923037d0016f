package intents

import "strings"

// A question about the world said among sentences about the family: "How long do you cook
// collard greens, honey? My mama did hers all day long." Read whole, the family's words keep
// it home (unclear); the question alone is the agent's, and only the question is sent — the
// sentences about the family stay in the house.

// worldQuestionAmongAsides returns the decision for the one question of transcript that
// reaches the agent when every other sentence only says how things are; ok is false
// otherwise.
func (t *Table) worldQuestionAmongAsides(transcript string, ctx Context) (Decision, bool) {
	sentences := splitSentences(transcript)
	if len(sentences) < 2 || len(sentences) > maxSentences {
		return Decision{}, false
	}
	var question Decision
	found := false
	for _, s := range sentences {
		d := t.routeSentence(s, ctx)
		n := d.Normalized
		asked := strings.HasSuffix(strings.TrimSpace(s), "?")
		switch {
		case n.Text == "" || isSocial(d.Intent):
		case d.Intent == IntentGeneralAsk && asked && !found && !anyOf(n.tokens(), personPronouns):
			question, found = d, true
		case (d.Intent == IntentGeneralAsk || d.Intent == IntentUnclear) && !asked && !n.Question && !t.notAnAside(n):
			// a statement no intent reads, or one about the family: an aside
		default:
			return Decision{}, false // another question, a request, or a sentence about the home's things
		}
	}
	if !found {
		return Decision{}, false
	}
	question.Doctrine = append(question.Doctrine, "a question about the world among sentences that only say how things are: the question alone is sent")
	return question, true
}

// personPronouns in the question may mean someone the other sentences name ("How old is she?
// My mom was born in 1960."): then it is not a question about the world alone.
var personPronouns = words2set("he she him her his hers they them their")

// notAnAside: a statement that asks or takes back something ("don't laugh at me now" asks
// nothing of the home; "tell me more" does).
func (t *Table) notAnAside(n Normalized) bool {
	toks := n.tokens()
	return len(toks) == 0 || isImperativeVerb(toks[0]) && !reasonLeads[toks[0]]
}
