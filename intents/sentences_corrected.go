package intents

import (
	"strings"
)

// A request corrected sentences later: grandparents say a request, talk on, take it back
// ("No, hang on, ...", "Oh, no, ...") and end with what they want ("Make it seven.", "Turn on
// the bedroom light, please."). The request and the last word are read as one sentence with
// its self-correction ("... four minutes no make it seven"), so the correction rules of
// self_correct.go decide: the corrected value, or the command said again whole.

// correctionOpeners open a sentence that takes back what was asked before it.
var correctionOpeners = [][]string{{"no"}, {"oh", "no"}, {"wait"}, {"hang", "on"}, {"hold", "on"}, {"actually"}, {"sorry", "no"}}

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
	said := strings.TrimRight(sentences[request], ".?! ")
	last := strings.TrimRight(sentences[len(sentences)-1], ".?! ")
	if len(sentences)-1 <= back {
		return Decision{}, false
	}
	d := t.routeSentence(said+" no "+last, ctx)
	if !Acting(d) || !d.Normalized.Corrected {
		return Decision{}, false
	}
	d.Doctrine = append(d.Doctrine, "a request corrected sentences later: "+quoteList([]string{sentences[request], sentences[len(sentences)-1]})+" read as one, its last word taken")
	d.Normalized.raw = transcript
	return d, true
}
