package intents

// The spoken forms courtesy takes off around a request or folds into its words: hedges
// ("I guess", "like"), greetings and slang vocatives before a request, game names as
// children spell them, contractions typed without apostrophes, apologies, learners'
// requests.

import (
	"strings"
)

// hedgeSubjects say "like" as a verb before it: "I like 20 degrees", "looks like 5 minutes".
var hedgeSubjects = words2set("i we you they he she would d really also do does did not look looks looked seem seems " +
	"feel feels felt sound sounds something anything more just")

// dropNumberHedges takes a hedge "like" off before a number or a length ("quiet for like
// half an hour", "make it like 24 degrees"): it says the number is rough, not what is asked.
func dropNumberHedges(toks []string) ([]string, bool) {
	at := -1
	for i := 1; i+1 < len(toks); i++ {
		if toks[i] != "like" || hedgeSubjects[toks[i-1]] {
			continue
		}
		next := toks[i+1]
		if isNumber(next) || next == "half" || next == "a" && i+2 < len(toks) && durationCore(toks[i+2]) ||
			next == "an" && i+2 < len(toks) && durationCore(toks[i+2]) || durationCore(next) && next != "while" && next != "bit" {
			at = i
			break
		}
	}
	if at < 0 {
		return toks, false
	}
	out := append(append(make([]string, 0, len(toks)-1), toks[:at]...), toks[at+1:]...)
	return out, true
}

// slangVocatives open a sentence to get attention and mean nothing else.
var slangVocatives = words2set("bro bruh dude yo oi mate buddy robot")

// greetingLeads open a sentence with a greeting; greetingOpeners are their first words.
var greetingLeads = [][]string{{"hello", "there"}, {"hi", "there"}, {"hey", "there"}, {"good", "morning"}, {"good", "afternoon"},
	{"good", "evening"}, {"hello"}, {"hi"}, {"hiya"}, {"howdy"}, {"hallo"}, {"heya"}}

var greetingOpeners = words2set("hello hi hey good hiya howdy hallo heya")

// asksAfterGreeting: what follows a greeting asks something: a question word, or a verb
// that opens a question or a request ("hello, what time is it", "hi, is dad busy").
func asksAfterGreeting(rest []string) bool {
	switch rest[0] {
	case "what", "when", "where", "who", "which", "how", "is", "are", "can", "could", "would", "will", "do", "does", "did":
		return !hasPrefix(rest, []string{"how", "are", "you"}) && !hasPrefix(rest, []string{"how", "is", "it", "going"}) &&
			!hasPrefix(rest, []string{"what", "is", "up"}) && !hasPrefix(rest, []string{"how", "do", "you", "do"}) &&
			!hasPrefix(rest, []string{"can", "you", "hear"}) && !hasPrefix(rest, []string{"are", "you", "there"}) &&
			!hasPrefix(rest, []string{"is", "this"}) && !hasPrefix(rest, []string{"are", "you", "on"}) &&
			!hasPrefix(rest, []string{"are", "you", "awake"}) && !hasPrefix(rest, []string{"is", "anyone"}) &&
			!hasPrefix(rest, []string{"is", "anybody"})
	}
	return false
}

// foldGameNames puts back the games' names as a recogniser or a child spells them: "rock
// paper sissors", "simon sez", "hide and seak", "stone paper scissors", "frieze dance". A word is folded only
// next to the words of its name, by its spelling key (spellKey), so no other word changes.
func foldGameNames(toks []string) ([]string, bool) {
	var out []string
	set := func(i int, w string) {
		if out == nil {
			out = append([]string(nil), toks...)
		}
		out[i] = w
	}
	for i := 1; i < len(toks); i++ {
		w, prev := toks[i], toks[i-1]
		switch {
		case (prev == "paper" || prev == "rock") && w != "scissors" && w != "scissor" && len(w) > 4 && spellKey(w) == "srs":
			set(i, "scissors") // "sissors", "sizzors", "scisors"
		case prev == "paper" && w == "scissors" && i > 1 && toks[i-2] == "stone":
			set(i-2, "rock") // "stone paper scissors"
		case w != "says" && len(w) >= 3 && len(w) <= 4 && w[0] == 's' && (w[len(w)-1] == 'z' || w[len(w)-1] == 's') && spellKey(w) == "s" &&
			spellKey(prev) == "smn":
			set(i-1, "simon") // "simon sez", "symon says", "saimon sayz"
			set(i, "says")
		case prev != "simon" && w == "says" && spellKey(prev) == "smn":
			set(i-1, "simon")
		case (w == "dance" || w == "dancing") && prev != "freeze" && prev != "fries" && len(prev) >= 5 && spellKey(prev) == "frs":
			set(i-1, "freeze") // "frieze dance", "freese dance"
		case w != "seek" && i > 1 && toks[i-2] == "hide" && (prev == "and" || prev == "n" || prev == "go") && (spellKey(w) == "sk" || w == "sick"):
			set(i, "seek") // "hide and seak", "hide and sick"
		}
	}
	return out, out != nil
}

// spellKey is a word's consonants as heard: c before e, i or y and z sound as s, ck and k as
// k, doubled letters once, vowels (and y) left out after the first letter.
func spellKey(w string) string {
	b := make([]byte, 0, len(w))
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c == 'z':
			c = 's'
		case c == 'c' && i+1 < len(w) && (w[i+1] == 'e' || w[i+1] == 'i' || w[i+1] == 'y'):
			c = 's'
		case c == 'c' && i+1 < len(w) && w[i+1] == 'k':
			continue
		case c == 'c' || c == 'q':
			c = 'k'
		case c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y':
			continue
		}
		if len(b) > 0 && b[len(b)-1] == c {
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

// bareContractions are contractions written without their apostrophe that are no other
// word ("im", "doesnt"); "ill", "id", "lets", "hes", "were" are words and stay.
var bareContractions = map[string][]string{
	"im": {"i", "am"}, "ive": {"i", "have"}, "youre": {"you", "are"}, "theyre": {"they", "are"}, "doesnt": {"does", "not"},
	"didnt": {"did", "not"}, "isnt": {"is", "not"}, "arent": {"are", "not"}, "wasnt": {"was", "not"}, "werent": {"were", "not"},
	"shouldnt": {"should", "not"}, "wouldnt": {"would", "not"}, "couldnt": {"could", "not"}, "hasnt": {"has", "not"},
	"havent": {"have", "not"}, "thats": {"that", "is"}, "theres": {"there", "is"}, "hows": {"how", "is"}, "whos": {"who", "is"},
	"wheres": {"where", "is"}, "itll": {"it", "will"}, "youll": {"you", "will"}, "theyll": {"they", "will"}, "weve": {"we", "have"},
	"youve": {"you", "have"}, "theyve": {"they", "have"}, "shes": {"she", "is"}, "wont": {"will", "not"}, "aint": {"is", "not"},
}

// expandBareContractions expands bareContractions; negated reports a "not" it added.
func expandBareContractions(toks []string) (out []string, negated, ok bool) {
	for i, w := range toks {
		e, found := bareContractions[w]
		if !found {
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(toks)+4), toks[:i]...)
		}
		out = append(out, e...)
		negated = negated || e[1] == "not"
		for _, w2 := range toks[i+1:] {
			if e2, ok := bareContractions[w2]; ok {
				out = append(out, e2...)
				negated = negated || e2[1] == "not"
			} else {
				out = append(out, w2)
			}
		}
		return out, negated, true
	}
	return toks, false, false
}

// interjections open a question without meaning anything: "wait, is it six already?".
var interjections = words2set("wait quick quickly oh ooh hmm hm hey right ah uh erm")

// rawAfter cuts the words lead off the start of the sentence as heard, punctuation kept,
// when each is found there in order; otherwise the words kept (rest) stand for it.
func rawAfter(raw string, lead, rest []string) string {
	at := 0
	for _, w := range lead {
		i := strings.Index(raw[at:], w)
		if i < 0 {
			return strings.Join(rest, " ")
		}
		at += i + len(w)
	}
	return strings.TrimLeft(raw[at:], " ,.!?;:")
}

// Which of courtesy's word rewrites a word may start.
const (
	cfContraction uint8 = 1 << iota
	cfGame
	cfHedge
	cfPlease
	cfActually
)

var courtesyFlags = func() map[string]uint8 {
	out := map[string]uint8{"paper": cfGame, "rock": cfGame, "hide": cfGame, "says": cfGame, "stone": cfGame, "dance": cfGame, "dancing": cfGame, "like": cfHedge,
		"actually": cfActually}
	for w := range bareContractions {
		out[w] |= cfContraction
	}
	for _, w := range []string{"pls", "plz", "plse", "pleez", "pleeze", "puhlease"} {
		out[w] |= cfPlease
	}
	return out
}()

// apologyLeads ask leave to speak before a request or a question.
var apologyLeads = expandPhrases([]string{
	"sorry to {bother|bug|trouble|disturb} you", "sorry to interrupt", "sorry for interrupting",
	"{excuse|pardon} me", "i am sorry to {bother|bug|trouble|disturb} you",
})

var apologyStarts = words2set("sorry excuse pardon i")

// politeOpen takes a request's polite lead ("can you", "could you please") off words that
// followed something else said first, as normalizing does at a sentence's start.
func politeOpen(n *Normalized, rest []string) []string {
	for _, p := range politeLeads {
		if len(rest) > len(p) && hasPrefix(rest, p) {
			n.Polite, n.Question = true, false
			return rest[len(p):]
		}
	}
	return rest
}

// hedgeLeads open a request with how sure the speaker is; hedgeTails close one.
var (
	hedgeLeads = expandPhrases([]string{"i {guess|think|suppose|reckon}", "{maybe|perhaps}", "{kind|sort} of", "um i guess"})
	hedgeTails = expandPhrases([]string{"i {guess|think|suppose|reckon|believe}", "or something", "or whatever"})
	// hedgeStates follow a hedging "actually": "is the AC actually on".
	hedgeStates = words2set("on off working running busy free open closed set")
)

// dropHedgeWords takes the hedges off: a lead before a verb or a device ("I guess turn the
// light off", "maybe switch ..."), a tail ("..., I guess"), "(like) actually" before a state
// ("is the kitchen light like actually on"). A hedge before anything else ("I think the
// light is on") is the sentence's own and stays.
func dropHedgeWords(toks []string, actually bool) ([]string, bool) {
	out, changed := toks, false
	if !hedgeStarts[toks[0]] && !hedgeTailEnds[toks[len(toks)-1]] && !actually {
		return toks, false // most sentences: two lookups
	}
	if hedgeStarts[toks[0]] {
		for _, h := range hedgeLeads {
			if len(out) > len(h)+1 && hasPrefix(out, h) {
				next := out[len(h)]
				if isImperativeVerb(next) && !finiteWords[next] || deviceWords[next] != "" {
					out, changed = out[len(h):], true
				}
				break
			}
		}
	}
	for _, h := range hedgeTails {
		if !hedgeTailEnds[out[len(out)-1]] {
			break
		}
		if len(out) > len(h)+1 && hasSuffix(out, h) {
			out, changed = out[:len(out)-len(h)], true
			break
		}
	}
	for i := 1; actually && i+1 < len(out); i++ {
		if out[i] == "actually" && hedgeStates[out[i+1]] {
			j := i
			if out[i-1] == "like" {
				j = i - 1
			}
			out = append(append(make([]string, 0, len(out)), out[:j]...), out[i+1:]...)
			changed = true
			break
		}
	}
	return out, changed
}

var hedgeStarts = words2set("i maybe perhaps kind sort um")

// hedgeTailEnds are the last words of hedgeTails.
var hedgeTailEnds = words2set("guess think suppose reckon believe something whatever")

// learnerVerbs follow "you" in a learner's request: "you turn off the light", "you be quiet".
var learnerVerbs = words2set("turn switch put make stop be call play set start open close give show cancel ring phone dance nod")

// learnerGuards make "you <verb>" a habit, a condition or a story, not a request.
var learnerGuards = words2set("when whenever if unless every always usually often sometimes never after before while because " +
	"yesterday already again each everyday")

// learnerRequest reads a learner's request: "you <verb> ..." is the imperative, "we play ..."
// is "let us play ...". Only a short sentence with no question, no negation and nothing that
// makes it a habit, a condition or a story.
func learnerRequest(toks []string, n Normalized) ([]string, bool) {
	if len(toks) < 3 || len(toks) > 10 || n.Question || n.Negated || anyOf(toks, learnerGuards) {
		return toks, false
	}
	switch {
	case toks[0] == "you" && learnerVerbs[toks[1]]:
		return toks[1:], true
	case toks[0] == "we" && toks[1] == "play":
		return append([]string{"let", "us"}, toks[1:]...), true
	}
	return toks, false
}

// haveState: a polite request to have a device in a state ("[would it be possible to] have
// the bedroom AC on at 22", "[please] get the lights off"): "have" or "get", then what to
// have, then "on" or "off".
func haveState(toks []string, n Normalized) bool {
	if !n.Polite || len(toks) < 3 || toks[0] != "have" && toks[0] != "get" || !objectLeads[toks[1]] && toks[1] != "all" || anyOf(toks, wordSet(pastWords)) {
		return false // "could you have turned it off": a question about the past
	}
	for _, w := range toks[2:] {
		if w == "on" || w == "off" {
			return true
		}
	}
	return false
}

// deviceMayGo: a device may go on or off ("can the kids room light go back on", "the
// bedroom light can go off now"): a request put as leave for it.
func deviceMayGo(toks []string) bool {
	can, dev := false, false
	for i, w := range toks {
		switch {
		case w == "can" || w == "could" || w == "may":
			can = true
		case wordClasses[w]&wcHouseDevice != 0:
			dev = dev || can || i+1 < len(toks) && (toks[i+1] == "can" || toks[i+1] == "could" || toks[i+1] == "may")
		case w == "go" && can && dev && i+1 < len(toks):
			rest := toks[i+1:]
			if rest[0] == "back" && len(rest) > 1 {
				rest = rest[1:]
			}
			return (rest[0] == "on" || rest[0] == "off") && !contains(rest, "itself") && !contains(rest, "automatically")
		}
	}
	return false
}

// pastAlike: verbs whose past is the same word: "somebody put the light on" may say what
// was done.
var pastAlike = words2set("put set cut shut hit let quit")
