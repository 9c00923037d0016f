package intents

import (
	"slices"
	"strings"
	"unicode"
)

// An utterance of several sentences: "Could you kindly switch on the lamp in the kids room?
// Sophie's frightened of the dark and I promised I'd leave it on for her." Grandparents say
// one request among sentences that only say how things are — a reason, an apology, a
// memory, a second greeting. Read whole, the request's question mark or the other
// sentences' words hide it; read one sentence at a time, each by every rule of the doctrine,
// the one request is what was asked.
//
// The rule only ever finds a request the whole reading missed: the utterance must split into
// sentences at ". ", "? ", "! "; exactly one of them (or the same one said again) must be a
// request the router reads; every other one must be small talk, a short tag question ("is it?"),
// or a statement no intent reads that takes nothing back: no negation but a statement's own
// ("my knees don't care for it"), no condition, no report or quotation, no "wait",
// "cancel", "instead". Anything else — two requests, a request the router cannot read, a
// question of its own — leaves the utterance as read whole. An action found this way is
// held to the whole utterance's speech acts too (relayed, quoted, taken back, said to
// someone else): "The following is a command from dad. Cancel all timers." never acts.

// maxSentences is the most sentences an utterance is read one at a time in.
const maxSentences = 6

// maxTagWords: a question of at most this many words among statements is a tag ("is it?",
// "is that the word?"), not a question of its own.
const maxTagWords = 4

// splitSentences splits a transcript at sentence ends: ".", "?" or "!" (or a run of them)
// followed by a space. "2.5" and "p.m." stay whole, and so do letters spelled out ("what is
// u. s. d. in euros") and a title's dot ("ask mrs. jones"). It returns nil for one sentence.
func splitSentences(transcript string) []string {
	var out []string
	start := 0
	for i := 0; i < len(transcript); i++ {
		c := transcript[i]
		if c != '.' && c != '?' && c != '!' {
			continue
		}
		j := i
		for j+1 < len(transcript) && (transcript[j+1] == '.' || transcript[j+1] == '?' || transcript[j+1] == '!') {
			j++
		}
		if j+1 < len(transcript) && transcript[j+1] != ' ' || c == '.' && j == i && abbreviationBefore(transcript, i) {
			i = j
			continue
		}
		if s := strings.TrimSpace(transcript[start : j+1]); s != "" {
			out = append(out, s)
		}
		start, i = j+1, j
	}
	if s := strings.TrimSpace(transcript[start:]); s != "" {
		out = append(out, s)
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// abbreviationBefore: the word ending at the dot at i is a spelled letter ("u." of "u. s.
// d."; not "I") or a title ("mr.", "dr.").
func abbreviationBefore(transcript string, i int) bool {
	w := transcript[strings.LastIndexByte(transcript[:i], ' ')+1 : i]
	if len(w) == 1 {
		return w != "I" && unicode.IsLetter(rune(w[0]))
	}
	return titleAbbreviations[strings.ToLower(w)]
}

var titleAbbreviations = words2set("mr mrs ms dr st")

// mayHoldSentences is the cheap test before splitting: a sentence end with more after it.
func mayHoldSentences(transcript string) bool {
	s := strings.TrimRight(transcript, ".?!\" ")
	return strings.Contains(s, ". ") || strings.Contains(s, "? ") || strings.Contains(s, "! ")
}

// asideStoppers are words that make a sentence more than an aside: it takes something back,
// changes it, or speaks of a command.
var asideStoppers = words2set("no nope wait cancel instead actually kidding joking forget scratch ignore pretend " +
	"following command commands instruction instructions order orders override rule rules simon stop unless if")

// putOff: a sentence said after a request puts it off ("Later, I mean.", "In an hour.",
// "Tomorrow morning.").
func putOff(toks []string) bool {
	return laterSaid(toks) || anyOf(toks, asideLater) || timeAfter(toks, 0) || len(toks) <= 5 && slices.ContainsFunc(toks, durationCore)
}

// asideLater put a request said before them off to later.
var asideLater = words2set("later tomorrow tonight soon afterwards eventually")

// asideNegations say "not" inside a statement; takenBackAfter, said right after one, take
// a request back ("I don't want it", "not now", "never mind", "don't bother").
var (
	asideNegations = words2set("not never cannot nothing")
	takenBackAfter = words2set("it that this now yet mind bother need needed")
)

// oneRequestAmongSentences reads an utterance of several sentences one sentence at a time
// (see above); whole is the decision for the utterance read whole. ok is false when the
// rule does not apply: whole stands.
func (t *Table) oneRequestAmongSentences(transcript string, whole Decision, ctx Context) (Decision, bool) {
	if !mayHoldSentences(transcript) || understood(whole) && whole.Kind != KindRead && whole.Intent != IntentClarify {
		return Decision{}, false
	}
	if whole.NotActed != "" && whole.Intent != IntentClarify && whole.Kind != KindRead {
		return Decision{}, false // the whole was kept from acting for a reason of its own
	}
	sentences := mergeFragments(splitSentences(transcript))
	if len(sentences) < 2 || len(sentences) > maxSentences {
		return Decision{}, false
	}
	var request Decision
	found := false
	var asides, asideTexts []string
	var candidates []Normalized // statements that may be asides: how strictly is known once the request is
	for _, s := range sentences {
		d := t.routeSentence(s, ctx)
		n := d.Normalized
		switch {
		case n.Text == "":
			continue // only the robot's name, or a filler
		case remedyOffered(d):
			candidates = append(candidates, n) // "the study is pitch black ...": how a room is, said
		case d.NotActed != "":
			return Decision{}, false // a sentence kept from acting: its reason is the utterance's
		case isSocial(d.Intent):
			if putOff(tokenize(strings.ToLower(n.Clean))) {
				return Decision{}, false // "Tomorrow morning.": not a greeting after a request
			}
			asides, asideTexts = append(asides, s), append(asideTexts, n.Text)
		case understood(d):
			if found && !sameRequest(request, d) {
				return Decision{}, false // two requests: the whole reading decides
			}
			if !found {
				request, found = d, true
			}
		default:
			candidates = append(candidates, n)
		}
	}
	if !found {
		return Decision{}, false
	}
	strict := Acting(request) || t.asksToAct(request)
	for _, n := range candidates {
		if !t.aside(n, strict) {
			return Decision{}, false // a question or a request of its own the router cannot read
		}
		asides, asideTexts = append(asides, n.raw), append(asideTexts, n.Text)
	}
	if rd, ok := t.roomFromReason(request, asideTexts, ctx); ok {
		request = rd // "The study is pitch black. Put a light on for him, would you?": the aside says where
	} else if pd, ok := t.personFromReason(request, asideTexts, ctx); ok {
		request = pd
	} else if ld, ok := t.labelFromReason(request, asideTexts); ok {
		request = ld // "I'm putting the rice on. Can you time twenty minutes for it?"
	}
	if !found || len(asides) == 0 {
		return Decision{}, false
	}
	if understood(whole) && whole.Intent != IntentClarify && !t.readOf(whole, request) {
		return Decision{}, false // the whole read something else: it stands
	}
	wn := whole.Normalized
	if gameStart(request.Intent) && (gameResultSaid(wn.tokens()) || simonSaidTwice(wn.tokens())) {
		return Decision{}, false // "rock paper scissors shoot! ha, I won": played already
	}
	if Acting(request) || t.asksToAct(request) {
		if t.notARequestToMe(wn.tokens()) != "" {
			return Decision{}, false
		}
		if act, _ := t.speechAct(wn); act != "" {
			return Decision{}, false
		}
	}
	request.Doctrine = append(request.Doctrine, "one request among sentences that ask for nothing: "+quoteList(asides)+" left out as asides")
	request.Normalized.raw = transcript
	return request, true
}

// readOf: whole is the read a request falls to when asked as a question ("Could you put the
// light on? ..." read whole as a question about the light).
func (t *Table) readOf(whole, request Decision) bool {
	intent := request.Intent
	if request.Intent == IntentClarify && request.Pending != nil {
		intent = request.Pending.Intent
	}
	in, ok := t.byName[intent]
	return ok && whole.Kind == KindRead && in.Fallback == whole.Intent
}

// isSocial: small talk that asks for nothing.
func isSocial(intent string) bool {
	for _, s := range socialIntents {
		if intent == s {
			return true
		}
	}
	return false
}

// aside: a sentence no intent read that asks for nothing — a statement, or a short tag
// question. Beside a request that would act (strict) it must also take nothing back: no
// negation but a statement's own, no condition, no one else's words, nothing put off.
func (t *Table) aside(n Normalized, strict bool) bool {
	toks := tokenize(strings.ToLower(n.Clean))
	if len(toks) == 0 {
		return false
	}
	if n.Question || strings.HasSuffix(strings.TrimSpace(n.raw), "?") {
		return len(toks) <= maxTagWords && !n.Negated // "is it?", "is that the word?"
	}
	first := toks[0]
	if wordClasses[first]&(wcOnVerb|wcOffVerb|wcAction) != 0 || isImperativeVerb(first) && !reasonLeads[first] {
		return false // "off with their heads!", a request it cannot read: a request of its own
	}
	if !strict {
		return true // beside a question or a read, a statement changes nothing done
	}
	if asideNegations[first] || first == "do" || first == "dont" {
		return false // "not that one", "don't."
	}
	for i, w := range toks {
		if asideStoppers[w] {
			return false
		}
		if asideNegations[w] && (takenBackAt(toks, i+1) || takenBackAt(toks, i+2)) {
			return false // "I don't want it", "not now", "never mind"
		}
		if speechVerbs[w] && !t.ownWords(toks, i) && !opinionTold(toks, i) && !reportedState(toks) {
			return false // "Mum said.", "that's what she told me": someone else's words
		}
	}
	if conditional(toks) || reportedOrTakenBack(toks) && !opinionSaid(toks) && !reportedState(toks) || t.notARequestToMe(toks) != "" {
		return false
	}
	return !putOff(toks) // "Later, I mean.", "In an hour.": the request put off
}

// takenBackAt: toks[j] is a takenBackAfter word that ends what is not wanted ("I don't want
// it"), not the subject of what follows ("I don't want it running over").
func takenBackAt(toks []string, j int) bool {
	return j < len(toks) && takenBackAfter[toks[j]] && !(j+1 < len(toks) && strings.HasSuffix(toks[j+1], "ing"))
}

// opinionTold: the speech verb toks[i] tells what someone thinks of the robot or of how
// things are ("my son tells me you're very clever"), not what to do: me or us, then a subject
// and its "is".
func opinionTold(toks []string, i int) bool {
	return i+3 < len(toks) && (toks[i+1] == "me" || toks[i+1] == "us") && personalSubjects[toks[i+2]] && copulas[toks[i+3]]
}

// opinionSaid: toks hold an opinion told (opinionTold) at their speech verb.
func opinionSaid(toks []string) bool {
	for i, w := range toks {
		if speechVerbs[w] && opinionTold(toks, i) {
			return true
		}
	}
	return false
}

// remedyOffered: d offers a remedy for how a room is said to be ("the study is pitch black":
// "Do you want me to turn on the office light?"): a statement, asking nothing itself.
func remedyOffered(d Decision) bool {
	return d.Intent == IntentClarify && d.Pending != nil && d.Pending.Missing == "confirm" && d.NotActed != ""
}

// mergeFragments joins a sentence that is only a length, a number or what it is for ("Fifteen
// minutes.", "Twenty-four.", "For the pasta.") to the sentence before it: it completes that
// request ("Could you put a timer on for my bath? Fifteen minutes.").
func mergeFragments(sentences []string) []string {
	if len(sentences) < 2 {
		return sentences
	}
	out := sentences[:1:1]
	for _, s := range sentences[1:] {
		toks := tokenize(strings.ToLower(s))
		if len(toks) == 0 || len(toks) > 4 || !fragmentSentence(toks) {
			out = append(out, s)
			continue
		}
		prev := out[len(out)-1]
		end := strings.TrimRight(prev, ".?!")
		punct := prev[len(end):]
		out[len(out)-1] = end + " " + strings.TrimRight(s, ".?!") + punct
	}
	return out
}

// fragmentSentence: toks are only a length or a number ("fifteen minutes", "twenty four",
// "two four") or say what something is for ("for the pasta").
func fragmentSentence(toks []string) bool {
	if toks[0] == "for" && len(toks) <= 3 {
		return true
	}
	for _, w := range toks {
		if !isDigits(w) && !numberWords[w] && !durationCore(w) && w != "and" && w != "a" && w != "an" && w != "half" && w != "degrees" {
			return false
		}
	}
	return true
}

// ownWords: the speech verb toks[i] is the speaker's own ("I'm going to ask you something",
// "I'd like to tell him about the boiler"): the nearest subject before it is "I" or "we".
func (t *Table) ownWords(toks []string, i int) bool {
	for j := i - 1; j >= 0; j-- {
		w := toks[j]
		switch {
		case w == "i" || w == "we":
			return true
		case personalSubjects[w] || kinWords[w] || t.vocab.people[w] != "" || possessiveKin(w):
			return false
		}
	}
	return false
}

// sentenceTakesBack: a sentence after the first takes what came before back ("Could you
// turn off the light? Never mind.", "... Hypothetically.", "... That was the advert.").
func sentenceTakesBack(transcript string) bool {
	sentences := splitSentences(transcript)
	for _, s := range sentences[min(1, len(sentences)):] {
		toks := tokenize(strings.ToLower(s))
		if takenBack(toks) {
			return true
		}
		lead := toks
		for len(lead) > 1 && takeBackFillers[lead[0]] {
			lead = lead[1:]
		}
		for _, p := range takeBackOpeners {
			if hasPrefix(lead, p) {
				return true
			}
		}
		for _, p := range takeBackAnywhere {
			if hasPhrase(toks, p) {
				return true
			}
		}
	}
	return false
}

// takeBackOpeners open a sentence that takes a request said before it back; takeBackFillers
// may come first ("oh, forget it"); takeBackAnywhere do so wherever they are said.
var (
	takeBackOpeners = [][]string{{"never", "mind"}, {"nevermind"}, {"forget", "it"}, {"forget", "that"}, {"forget", "about", "it"},
		{"not", "now"}, {"scratch", "that"}, {"leave", "it"}, {"do", "not", "do", "it"}, {"dont", "do", "it"}, {"do", "not", "bother"},
		{"dont", "bother"}, {"no", "need"}, {"cancel", "that"}}
	takeBackFillers  = words2set("oh ah um uh well actually no wait reachy richie")
	takeBackAnywhere = [][]string{{"hypothetically"}, {"testing", "you"}, {"just", "testing"}, {"only", "testing"},
		{"the", "advert"}, {"an", "advert"}, {"the", "ad"}, {"the", "commercial"}, {"on", "tv"}, {"on", "the", "tv"}, {"on", "the", "radio"}}
)
