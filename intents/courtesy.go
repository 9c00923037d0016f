package intents

import "strings"

// Courtesy: the wrappers people put around a request say nothing about what is asked. "I
// wonder if you might put the light out in the kitchen", "would you be a dear and ...", "do
// you think you could ...", "be good enough to ...", "could I ask you to ...", "... if you
// please", "..., there's a dear", "... that would be lovely" are the request inside them.
// A wrapper is taken off only where it stands (the sentence's start or end), and only as a
// whole phrase of its list, so what is left keeps its own form: "I wonder if you could turn
// the light off" is "turn the light off" (a request), "I wonder if the light is off" keeps
// its "if" and stays a question, and a negation, a condition or a report inside the request
// still decides ("I wonder if you could not call dad" stays negated).

// courtesyLeads open a polite request: the rest is the request.
var courtesyLeads = expandPhrases([]string{
	"i wonder if you {could|would|might|can}",
	"i was wondering if you {could|would|might|can}",
	"i wonder whether you {could|would|might|can}",
	"i was wondering whether you {could|would|might|can}",
	"i wondered if you {could|would|might}",
	"do you think you {could|can|might}",
	"{would|could} you be {good|kind} enough to",
	"be {good|kind} enough to",
	"be so good as to",
	"might you", "might i ask you to",
	"{could|can|may} i ask you to",
	"{could|can} i get you to",
	"{would|is} it be possible to", "would it be possible for you to", "is it possible for you to",
	"would you be a {dear|love|darling|sweetheart|star|treasure|angel|doll|pet|good boy|good girl|good lad} and",
	"be a {dear|love|darling|sweetheart|star|treasure|angel|doll|pet|good boy|good girl|good lad|sweetie} and",
	"if you {could|would|can} {just|please|kindly}",
	"if you {could|would|can}",
	"do me a {favour|favor} and",
	"you may", // "you may ring off now": leave given is a request
	"{you|u} {must|need to|have to|gotta}",
})

// courtesyAdverbs follow a request's wrapper: "could you possibly ...", "would you mind
// awfully ...".
var courtesyAdverbs = words2set("possibly just kindly awfully quickly maybe perhaps please now")

// courtesyAsks open a polite question: the rest is the question ("would you happen to know
// what day it is" asks what day it is).
var courtesyAsks = expandPhrases([]string{
	"{would|do|did|might} you happen to know",
	"happen to know", "you happen to know",
	"{would|do|did|might} you happen to",
	"you would not happen to know",
	"you do not happen to know",
	"{might|may} you tell me",
	"{might|may|could|can} i ask",
	"i wonder if you know",
	"i was wondering if you knew",
	"any idea",
	"do you have any idea",
	"have you any idea",
})

// courtesyEnds close a request without adding to it.
var courtesyEnds = expandPhrases([]string{
	"if you",                  // "if you please": "please" is already politeness
	"there is a", "that is a", // "there's a dear": the vocative is already gone
	"there is a {dear|love|darling|good boy|good girl|good lad|good chap|good robot|good fellow|sweetie|pet}",
	"that is a {dear|love|darling|good boy|good girl|good lad|good chap|good robot|good fellow|sweetie|pet}",
	"be a {dear|love|darling|sweetie|pet|star}",
	"that would be {great|lovely|wonderful|nice|brilliant|grand|good|perfect|super|helpful|fantastic|amazing}",
	"that would be {very|really|ever so|most} {great|lovely|wonderful|nice|brilliant|grand|good|helpful|kind}",
	"if you would be so kind", "if you would be {that|ever so} kind", "if you are able",
	"thank you {dear|love|darling|kindly|so much|ever so much|very much indeed}",
	"thanks {dear|love|darling|so much|ever so much|a bunch|a million}",
	"much obliged", "ta", "cheers {love|mate|dear}",
	"{i|we} would {really|so|very much} appreciate it", "{i|we} would appreciate it",
	"{i|we} would be {ever so|very|so|most} grateful", "{i|we} would be grateful",
	"when you {can|get a chance|have a moment|are ready}",
	// what the recogniser makes up at the end of a recording ("Thanks for watching!")
	"{thanks|thank you} for watching", "{thanks|thank you} for listening", "subscribe", "like and subscribe",
	"subtitles by the amara org community", "{thanks|thank you} for watching and {see you next time|please subscribe}",
	"{dear|love|darling|sweetheart|sweetie|pet|my dear|old chap|my friend|my love|dearie|poppet|kiddo}",
})

// courtesyRequestLeads are the first words of courtesyLeads and courtesyAsks; courtesyEndWords
// the last words of courtesyEnds: one lookup decides that a sentence has none.
var courtesyStarts, courtesyEndWords = func() (map[string]bool, map[string]bool) {
	s, e := map[string]bool{}, map[string]bool{}
	for _, p := range courtesyLeads {
		s[p[0]] = true
	}
	for _, p := range courtesyAsks {
		s[p[0]] = true
	}
	for _, p := range courtesyEnds {
		e[p[len(p)-1]] = true
	}
	return s, e
}()

// expandPhrases turns "{a|b} c" alternatives into word lists, longest first.
func expandPhrases(specs []string) [][]string {
	var out [][]string
	for _, s := range specs {
		out = append(out, expandOne(s)...)
	}
	// longest first, so "if you could just" is tried before "if you could"
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j]) > len(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func expandOne(s string) [][]string {
	open := strings.IndexByte(s, '{')
	if open < 0 {
		return [][]string{strings.Fields(s)}
	}
	end := strings.IndexByte(s[open:], '}') + open
	var out [][]string
	for _, alt := range strings.Split(s[open+1:end], "|") {
		out = append(out, expandOne(s[:open]+alt+s[end+1:])...)
	}
	return out
}

// courtesy takes the wrappers off a normalized sentence: a request's wrapper makes what is
// left a polite request, a question's wrapper leaves the question. It reports whether it
// changed anything.
func courtesy(n Normalized) (Normalized, bool) {
	toks := n.tokens()
	if len(toks) == 0 {
		return n, false
	}
	var flags uint8
	for _, w := range toks { // one lookup per word decides which rewrites can apply
		flags |= courtesyFlags[w]
		if w[0] == 'p' && len(w) >= 7 && isTextPlease(w) {
			flags |= cfPlease
		} else if w[0] == 's' && (len(w) == 3 || len(w) == 4) && (w[len(w)-1] == 'z' || w[len(w)-1] == 's') {
			flags |= cfGame
		}
	}
	// The sentence as heard (n.raw) keeps its words here: each part of it is normalized again.
	if flags&cfContraction != 0 {
		if out, negated, ok := expandBareContractions(toks); ok {
			// "stop the game im bored", "it doesnt work": contractions typed or heard without the apostrophe
			n.toks, n.Text = out, strings.Join(out, " ")
			n.Negated = n.Negated || negated
			if p, ok := courtesy(n); ok {
				return p, true
			}
			return n, true
		}
	}
	if flags&cfGame != 0 {
		if out, ok := foldGameNames(toks); ok {
			n.toks, n.Text = out, strings.Join(out, " ")
			if p, ok := courtesy(n); ok {
				return p, true
			}
			return n, true
		}
	}
	if flags&cfHedge != 0 {
		if out, ok := dropNumberHedges(toks); ok {
			n.toks, n.Text = out, strings.Join(out, " ")
			if p, ok := courtesy(n); ok {
				return p, true
			}
			return n, true
		}
	}
	if flags&cfPlease != 0 {
		// "pls", "plz", "pleeease": a texter's or a child's please is politeness
		out := make([]string, 0, len(toks)-1)
		for _, w := range toks {
			if !isTextPlease(w) {
				out = append(out, w)
			}
		}
		n.Polite = true
		if len(out) == 0 {
			return n, true // "pls" alone: nothing else was said
		}
		n.toks, n.Text = out, strings.Join(out, " ")
		toks = out
		if p, ok := courtesy(n); ok {
			return p, true
		}
		return n, true
	}
	if out, ok := learnerRequest(toks, n); ok {
		// "you turn off the light in kitchen", "we play simon says": a learner's request
		n.toks, n.Text = out, strings.Join(out, " ")
		if p, ok := courtesy(n); ok {
			return p, true
		}
		return n, true
	}
	if out, ok := dropHedgeWords(toks, flags&cfActually != 0); ok {
		// "I guess turn the kitchen light off", "is the AC like actually on": how sure the
		// speaker is, not what is asked
		n.toks, n.Text = out, strings.Join(out, " ")
		if p, ok := courtesy(n); ok {
			return p, true
		}
		return n, true
	}
	if apologyStarts[toks[0]] {
		for _, a := range apologyLeads {
			if len(toks) > len(a)+1 && hasPrefix(toks, a) {
				// "sorry to bother you, could you ...", "excuse me, is dad busy": leave to speak
				rest := toks[len(a):]
				if rest[0] == "but" && len(rest) > 1 {
					rest = rest[1:] // "I'm sorry to bug you but what's the date"
				}
				n.raw = rawAfter(n.raw, toks[:len(toks)-len(rest)], rest)
				rest = politeOpen(&n, rest)
				n.toks, n.Text = rest, strings.Join(rest, " ")
				if p, ok := courtesy(n); ok {
					return p, true
				}
				return n, true
			}
		}
	}
	if len(toks) > 2 && interjections[toks[0]] && asksAfterGreeting(toks[1:]) {
		// "wait, is it already six?", "quick, what time is it": a word for attention
		n.raw = rawAfter(n.raw, toks[:1], toks[1:])
		n.toks, n.Text = toks[1:], strings.Join(toks[1:], " ")
		if questionWords[toks[1]] || toks[1] == "is" || toks[1] == "are" {
			n.Question = true
		}
		if p, ok := courtesy(n); ok {
			return p, true
		}
		return n, true
	}
	if len(toks) > 2 && greetingOpeners[toks[0]] {
		for _, g := range greetingLeads {
			if len(toks) > len(g)+1 && hasPrefix(toks, g) && asksAfterGreeting(toks[len(g):]) {
				// "hello, what time is it", "good morning, is mom busy": the greeting asks nothing
				rest := toks[len(g):]
				n.raw = rawAfter(n.raw, g, rest)
				n.toks, n.Text = rest, strings.Join(rest, " ")
				if len(rest) > 0 && questionWords[rest[0]] {
					n.Question = true
				}
				if p, ok := courtesy(n); ok {
					return p, true
				}
				return n, true
			}
		}
	}
	if len(toks) > 3 && toks[0] == "hey" && slangVocatives[toks[1]] || len(toks) > 2 && slangVocatives[toks[0]] {
		// "bro shut up for ten minutes", "dude what time is it", "hey robot guy, ...": said to get attention
		k := 1
		for k < len(toks)-1 && (slangVocatives[toks[k]] || toks[k] == "guy") {
			k++
		}
		n.raw = rawAfter(n.raw, toks[:k], toks[k:])
		rest := politeOpen(&n, toks[k:]) // "hey robot guy can you ...": the request's own lead
		n.toks, n.Text = rest, strings.Join(rest, " ")
		if p, ok := courtesy(n); ok {
			return p, true
		}
		return n, true
	}
	if len(toks) < 3 || !courtesyStarts[toks[0]] && !courtesyEndWords[toks[len(toks)-1]] && !(n.Polite && courtesyAdverbs[toks[0]]) {
		return n, false // most sentences: two lookups
	}
	out, changed, request, ask := toks, false, false, false
	for more := true; more && len(out) > 2; {
		more = false
		for _, p := range courtesyLeads {
			if len(out) > len(p) && hasPrefix(out, p) {
				out, more, changed, request = out[len(p):], true, true, true
				break
			}
		}
		if more {
			continue
		}
		if (request || n.Polite) && courtesyAdverbs[out[0]] {
			out, more, changed = out[1:], true, true
			continue
		}
		for _, p := range courtesyAsks {
			if len(out) > len(p)+1 && hasPrefix(out, p) && !request && !ask && out[len(p)] != "if" && out[len(p)] != "whether" {
				out, more, changed, ask = out[len(p):], true, true, true
				break
			}
		}
		for _, p := range politeLeads {
			if request && len(out) > len(p)+1 && hasPrefix(out, p) {
				out, more, changed, request = out[len(p):], true, true, true
				break
			}
		}
	}
	for more := true; more && len(out) > 2; {
		more = false
		for _, p := range courtesyEnds {
			if len(out) > len(p) && hasSuffix(out, p) {
				out, more, changed = out[:len(out)-len(p)], true, true
				break
			}
		}
		if t := trimTails(out); len(t) < len(out) && len(t) > 1 {
			out, more, changed = t, true, true
		}
	}
	if !changed {
		return n, false
	}
	if request {
		n.Polite, n.Question = true, false
		if len(out) > 0 && questionWords[out[0]] {
			n.Question = true // "I wonder if you could tell me what time it is" keeps its question
		}
	}
	if ask {
		n.Question = true
	}
	if len(out) > 0 && (out[0] == "not" || out[0] == "never") {
		n.Negated = true
	}
	n.raw = keptRaw(n.raw, toks, out)
	n.toks = out
	n.Text = strings.Join(out, " ")
	return n, true
}

// keptRaw cuts the wrappers off the sentence as heard, punctuation kept (so its parts are
// still found), when the words taken off are found there as said; otherwise the words kept
// stand for it.
func keptRaw(raw string, toks, out []string) string {
	start := 0
	for start < len(toks) && &toks[start] != &out[0] {
		start++
	}
	text := strings.Join(out, " ")
	if start == len(toks) {
		return text
	}
	lead, tail := strings.Join(toks[:start], " "), strings.Join(toks[start+len(out):], " ")
	r := raw
	if lead != "" {
		i := strings.Index(r, lead)
		if i < 0 {
			return text
		}
		r = r[i+len(lead):]
	}
	if tail != "" {
		i := strings.LastIndex(r, tail)
		if i < 0 {
			return text
		}
		r = r[:i]
	}
	return r
}

// isTextPlease: "pls", "plz", "pleeease" — a texter's or a child's please.
func isTextPlease(w string) bool {
	switch w {
	case "pls", "plz", "plse", "pleez", "pleeze", "puhlease":
		return true
	}
	if len(w) < 7 || !strings.HasPrefix(w, "ple") {
		return false // "please" itself is normalized already
	}
	return strings.Trim(w[3:], "eas") == "" // "pleeease", "pleaseee", "pleasee"
}

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
// paper sissors", "simon sez", "hide and seak", "stone paper scissors". A word is folded only
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
	out := map[string]uint8{"paper": cfGame, "rock": cfGame, "hide": cfGame, "says": cfGame, "stone": cfGame, "like": cfHedge,
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
