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
	"{oh|so|very|} sorry {um|uh|}", // "sorry, um, can you switch on the lamp": an apology before the request
	"{i am|} {ever so|so|very|terribly|awfully|really|} sorry to {bother|trouble} you {again|} but",
	"sorry to be a {bother|nuisance|pain} but", "i hate to {bother|trouble} you but",
	"i wonder {dear|love|darling|pet|sweetheart} if you {could|would|might|can}",
	"i {do not|dont} suppose you {could|would|might|can}", "i suppose you {could|would|might|can} not",
	"i was hoping you {could|would|might|can}", "i was hoping that you {could|would|might}",
	"{could|would} you see your way to", "{would|could} you be so {good|kind} as to",
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
	"{i|we} would appreciate it if you {would|could}", "{i|we} would really appreciate it if you {would|could}",
	"{i|we} {would|should} be {ever so|very|so|most|awfully|terribly|really|so very|most awfully} grateful if you {would|could}", "{i|we} {would|should} be grateful if you {would|could}",
	"{i|we} {would|should} be {much|most|very|} obliged if you {would|could}",
	"do one thing",                  // Indian English: "do one thing, off all the lights"
	"{would|will} {you|ya|ye} ever", // Irish English: "would you ever turn on the light"
	"{you|u} {can|could} to",        // a learner's "you can to switch off the AC?"
	"help me {to|and}", "help me",   // "help me open the light kitchen"
	"{you|u} help me {to|and|}", "{can|could} you help me {to|and|}", // a learner's "you help me turn on light office"
	"{mister|mr} robot", "{hello|hi|hey} {mister|mr} robot", // the robot called by what it is
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
	"if it is all the same to you", "if it is no trouble", "if it is not too much trouble", "if you do not mind",
	"if that is {alright|all right|ok|okay} {with you|}", "if you would not mind",
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

// courtesyShapes are the shapes of the words courtesyFlags lists.
var courtesyShapes = func() (out wordShapes) {
	for w := range courtesyFlags {
		out.add(w)
	}
	return out
}()

// courtesyEndsByLast holds courtesyEnds by their last word, in their order: the only ones a
// sentence ending in that word can end with.
var courtesyEndsByLast = func() map[string][][]string {
	out := map[string][][]string{}
	for _, p := range courtesyEnds {
		last := p[len(p)-1]
		out[last] = append(out[last], p)
	}
	return out
}()

// courtesyLeadsByFirst, courtesyAsksByFirst and politeLeadsByFirst are those lists by their
// phrases' first words, each word's in the list's order: courtesy tries only the phrases
// that can open what is left.
var courtesyLeadsByFirst, courtesyAsksByFirst, politeLeadsByFirst = phrasesByFirst(courtesyLeads),
	phrasesByFirst(courtesyAsks), phrasesByFirst(politeLeads)

// phrasesByFirst is list by its phrases' first words, each word's in list's order.
func phrasesByFirst(list [][]string) map[string][][]string {
	out := map[string][][]string{}
	for _, p := range list {
		out[p[0]] = append(out[p[0]], p)
	}
	return out
}

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
		if courtesyShapes.may(w) { // a word of no listed shape has no flag
			flags |= courtesyFlags[w]
		}
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
			n.Negated = n.Negated || negated
			return courtesyAgain(n, out)
		}
	}
	if flags&cfGame != 0 {
		if out, ok := foldGameNames(toks); ok {
			return courtesyAgain(n, out)
		}
	}
	if flags&cfHedge != 0 {
		if out, ok := dropNumberHedges(toks); ok {
			return courtesyAgain(n, out)
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
		return courtesyAgain(n, out)
	}
	if out, ok := learnerRequest(toks, n); ok {
		// "you turn off the light in kitchen", "we play simon says": a learner's request
		return courtesyAgain(n, out)
	}
	if out, ok := dropHedgeWords(toks, flags&cfActually != 0); ok {
		// "I guess turn the kitchen light off", "is the AC like actually on": how sure the
		// speaker is, not what is asked
		return courtesyAgain(n, out)
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
				return courtesyAgain(n, rest)
			}
		}
	}
	if len(toks) > 2 && interjections[toks[0]] && asksAfterGreeting(toks[1:]) {
		// "wait, is it already six?", "quick, what time is it": a word for attention
		n.raw = rawAfter(n.raw, toks[:1], toks[1:])
		if questionWords[toks[1]] || toks[1] == "is" || toks[1] == "are" {
			n.Question = true
		}
		return courtesyAgain(n, toks[1:])
	}
	if len(toks) > 2 && greetingOpeners[toks[0]] {
		for _, g := range greetingLeads {
			if len(toks) > len(g)+1 && hasPrefix(toks, g) && asksAfterGreeting(toks[len(g):]) {
				// "hello, what time is it", "good morning, is mom busy": the greeting asks nothing
				rest := toks[len(g):]
				n.raw = rawAfter(n.raw, g, rest)
				if len(rest) > 0 && questionWords[rest[0]] {
					n.Question = true
				}
				return courtesyAgain(n, rest)
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
		return courtesyAgain(n, rest)
	}
	if len(toks) < 3 || !courtesyStarts[toks[0]] && !courtesyEndWords[toks[len(toks)-1]] && !(n.Polite && courtesyAdverbs[toks[0]]) {
		return n, false // most sentences: two lookups
	}
	out, changed, request, ask := toks, false, false, false
	for more := true; more && len(out) > 2; {
		more = false
		for _, p := range courtesyLeadsByFirst[out[0]] { // courtesyLeads, in order: those opening so
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
		for _, p := range courtesyAsksByFirst[out[0]] { // courtesyAsks, in order: those opening so
			if len(out) > len(p)+1 && hasPrefix(out, p) && !request && !ask && out[len(p)] != "if" && out[len(p)] != "whether" {
				out, more, changed, ask = out[len(p):], true, true, true
				break
			}
		}
		for _, p := range politeLeadsByFirst[out[0]] { // politeLeads, in order: those opening so
			if request && len(out) > len(p)+1 && hasPrefix(out, p) {
				out, more, changed, request = out[len(p):], true, true, true
				break
			}
		}
	}
	for more := true; more && len(out) > 2; {
		more = false
		for _, p := range courtesyEndsByLast[out[len(out)-1]] { // courtesyEnds, in order: those ending so
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

// courtesyAgain goes on with toks, what is left of n once a courtesy is taken off: another
// courtesy may wrap it still ("sorry to bother you, would you be a dear and ...").
func courtesyAgain(n Normalized, toks []string) (Normalized, bool) {
	n.toks, n.Text = toks, strings.Join(toks, " ")
	if p, ok := courtesy(n); ok {
		return p, true
	}
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
