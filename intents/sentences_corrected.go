package intents

import (
	"maps"
	"strconv"
	"strings"
)

// A request corrected sentences later: grandparents say a request, talk on, take it back
// ("No, hang on, ...", "Oh, no, ...") and end with what they want ("Make it seven.", "Turn on
// the bedroom light, please."). The request and the last word are read as one sentence with
// its self-correction ("... four minutes no make it seven"), so the correction rules of
// self_correct.go decide: the corrected value, or the command said again whole.

// correctionOpeners open a sentence that takes back what was asked before it.
var correctionOpeners = [][]string{{"no"}, {"oh", "no"}, {"wait"}, {"hang", "on"}, {"hold", "on"}, {"actually"}, {"sorry", "no"}}

// callsOff: words in a sentence after the take-back that call everything off.
var callsOff = words2set("dont cancel nobody anyone anything stop forget never nothing")

// intentAsked is what d does or asks to do.
func intentAsked(d Decision) string {
	if d.Intent == IntentClarify && d.Pending != nil {
		return d.Pending.Intent
	}
	return d.Intent
}

// correctedAcrossSentences reads transcript as a request corrected in a later sentence; ok is
// false when it is not one: no sentence before the correction asks to act, none takes it
// back, or nothing after says what is wanted instead.
func (t *Table) correctedAcrossSentences(transcript string, ctx Context) (Decision, bool) {
	sentences := mergeFragments(splitSentences(transcript)) // "Would you time my eggs? Four minutes." is one request
	if len(sentences) < 3 || len(sentences) > maxSentences+2 {
		return Decision{}, false
	}
	request, back := -1, -1
	for i, s := range sentences {
		toks := tokenize(strings.ToLower(s))
		if request < 0 {
			if d := t.routeSentence(s, ctx); Acting(d) || t.asksToAct(d) {
				request = i
			}
			continue
		}
		for _, o := range correctionOpeners {
			if hasPrefix(toks, o) {
				back = i
				break
			}
		}
		if back >= 0 {
			break
		}
	}
	if request < 0 || back < 0 {
		return Decision{}, false
	}
	end := len(sentences) - 1
	if end <= back || strings.HasSuffix(strings.TrimSpace(sentences[end]), "?") {
		return Decision{}, false // nothing said after the take-back, or only a question
	}
	for i := back; i < end; i++ { // what is said between may give reasons; it may not call it all off
		toks := tokenize(strings.ToLower(sentences[i]))
		if anyOf(toks, callsOff) || hasPhrase(toks, []string{"do", "not"}) || i > back && strings.HasSuffix(strings.TrimSpace(sentences[i]), "?") ||
			i > back && len(toks) <= 2 && !fragmentSentence(toks) && !t.mentionsRoom(toks) {
			return Decision{}, false // "No. Don't.", "Who's free?", "Jake." (someone spoken to)
		}
	}
	first := t.routeSentence(sentences[request], ctx)
	lastToks := tokenize(strings.ToLower(sentences[end]))
	if hasPrefix(lastToks, []string{"make", "it"}) && !fragmentSentence(lastToks[2:]) {
		return Decision{}, false // "Make it twenty something": a value not heard is asked, never guessed
	}
	said := strings.TrimRight(sentences[request], ".?! ")
	last := strings.TrimRight(sentences[end], ".?! ")
	d := t.routeSentence(said+" no "+last, ctx)
	if !Acting(d) || !d.Normalized.Corrected || intentAsked(first) != d.Intent {
		return Decision{}, false
	}
	d.Doctrine = append(d.Doctrine, "a request corrected sentences later: "+quoteList([]string{sentences[request], sentences[len(sentences)-1]})+" read as one, its last word taken")
	d.Normalized.raw = transcript
	return d, true
}

// lengthHedges open a length said as its own sentence: "Say about an hour.", "Oh, maybe
// twenty minutes."
var lengthHedges = words2set("say about around maybe perhaps roughly oh um like lets let us make it")

// quietLengthAfter: quiet time asked for without a length, then a sentence that is only a
// length ("Hush up for a little while, honey. Say about an hour."): that length.
func (t *Table) quietLengthAfter(transcript string, d Decision) (Decision, bool) {
	if d.Intent != IntentQuiet || d.Args["state"] != "on" || d.Args["duration"] != "" {
		return Decision{}, false
	}
	sentences := splitSentences(transcript)
	for _, s := range sentences[min(1, len(sentences)):] {
		toks := normalize(s, t.vocab.wake).tokens() // numbers as digits: "twenty minutes" is "20 minutes"
		for len(toks) > 0 && lengthHedges[toks[0]] {
			toks = toks[1:]
		}
		if len(toks) == 0 || len(toks) > 4 {
			continue
		}
		if secs, outcome := parseDuration(strings.Join(toks, " ")); outcome == durationOK && secs > 0 {
			out := d
			out.Args = maps.Clone(d.Args)
			out.Args["duration"] = strconv.Itoa(secs)
			out.Doctrine = append(out.Doctrine, "the length said as a sentence of its own ("+strings.TrimSpace(s)+") is the quiet time's")
			return out, true
		}
	}
	return Decision{}, false
}
