package intents

import (
	"slices"
	"strconv"
	"strings"
)

// Self-corrections: "turn on the uh no off the kitchen light" is "turn off the kitchen
// light"; "call mom no wait call dad" is "call dad". The words after the marker replace the
// words of the same kind before it; when nothing lines up the sentence stays as said, and the
// command rule asks (FormCorrected). Part of the speech acts (speech_act.go).

// correctionMarkers end what the speaker takes back, longest first.
var correctionMarkers = [][]string{{"no", "no", "wait"}, {"no", "wait"}, {"wait", "no"}, {"no", "sorry"}, {"sorry", "no"},
	{"no", "no"}, {"no", "i", "mean"}, {"i", "mean"}, {"or", "rather"}, {"sorry"}, {"actually"}, {"wait"}, {"no"}, {"oops"},
	{"scratch", "that"}, {"strike", "that"}, {"correction"}, {"my", "bad"}, {"i", "meant"}}

// correctionLeads open the corrected words without adding to them: "no wait, make that ten".
var correctionLeads = [][]string{{"make", "that"}, {"make", "it"}, {"i", "meant"}, {"i", "mean"}, {"just"}}

// selfCorrect takes a request's courtesy wrappers off (courtesy.go) and applies a
// self-correction to a normalized sentence. It changes nothing unless a wrapper stands at an
// edge or the corrected words line up with words of the same kind before the marker.
func (t *Table) selfCorrect(n Normalized) (Normalized, bool) {
	p, plain := courtesy(n)
	if c, ok := t.correct(p); ok {
		return c, true
	}
	return p, plain
}

// correct applies a self-correction: the words after the marker replace the words of the
// same kind before it.
func (t *Table) correct(n Normalized) (Normalized, bool) {
	toks := n.tokens()
	for k := 0; k < len(toks); k++ {
		if !correctionShapes.may(toks[k]) || speechWords[toks[k]]&swCorrection == 0 {
			continue // most words start no marker: one lookup
		}
		var mk []string
		for _, c := range correctionMarkers {
			if hasPrefix(toks[k:], c) {
				mk = c
				break
			}
		}
		if mk == nil {
			continue
		}
		before, after := toks[:k], toks[k+len(mk):]
		for more := true; more; { // "actually no wait, ...": markers said together are one
			more = false
			for _, c := range correctionMarkers {
				if len(after) > len(c) && hasPrefix(after, c) {
					after, more = after[len(c):], true
					break
				}
			}
		}
		for _, l := range correctionLeads {
			if hasPrefix(after, l) && len(after) > len(l) {
				after = after[len(l):]
				break
			}
		}
		if l := len(after); l > 1 && (after[l-1] == "one" || after[l-1] == "1") {
			if dev := lastDevice(before); dev != "" {
				after = append(append(make([]string, 0, l), after[:l-1]...), dev) // "no wait, the office one": the office light
			}
		}
		if len(after) == 0 {
			if len(mk) == 2 && mk[0] == "i" && mk[1] == "mean" && k > 2 {
				return rebuilt(n, before), true // "is it on in the office, the light I mean": it specifies
			}
			return n, false
		}
		if k == 0 {
			if a := notThisButThat(after); len(a) < len(after) && slices.Contains(mk, "wait") && wholeHouseCommand(a) {
				r := rebuilt(n, a)
				r.Negated = false // its "not" took back the kitchen, not the request
				return r, true    // "no wait, not the kitchen, the office light off"
			}
			if mk[0] == "actually" || mk[0] == "sorry" || mk[0] == "oops" {
				return rebuilt(n, after), true // "actually, cancel that timer": a preface
			}
			return n, false // "no need ...", "no talking"
		}
		if a := notThisButThat(after); wholeHouseCommand(a) {
			// "could you dim, no, just turn off the light in here", "no wait, not the kitchen,
			// the office light off": a whole command said again replaces what came before
			return rebuilt(n, a), true
		}
		j := t.alignCorrection(before, after)
		if j < 0 {
			return n, false
		}
		if span := len(after); j+span <= len(before) && t.sameShape(before[j:j+span], after) {
			// "turn the kitchen light on, no, the office light": the phrase is swapped, the rest kept
			out := append(append(append(make([]string, 0, len(before)), before[:j]...), after...), before[j+span:]...)
			return rebuilt(n, keepDevice(before, out)), true
		}
		if j == 0 {
			after = objectForPronoun(before, after) // "turn on the kitchen light, actually no, turn it off"
		}
		out := append(append(make([]string, 0, j+len(after)), before[:j]...), after...)
		if len(after) == 1 && j < len(before) && t.wordKind(before[j]) != "" {
			out = append(out, before[j+1:]...) // "ten minutes no fifteen": only the number is taken back
		} else if j < len(before) && isNumber(before[j]) && isNumber(after[0]) && only(after, quantityWords) {
			out = append(out, before[j+1:]...) // "2 hours for the oven, no make it 2 and a half": the unit kept
		} else if j+1 < len(before) && isNumber(before[j]) && isNumber(after[0]) && len(after) > 1 && splitUnits[before[j+1]] && !splitUnits[after[1]] {
			// "a timer for 10 min no make it 12 for the pasta": the new number keeps the unit said with the old
			out = append(append(append(make([]string, 0, j+len(after)+1), before[:j]...), after[0], before[j+1]), after[1:]...)
		}
		return rebuilt(n, keepDevice(before, out)), true
	}
	return n, false
}

// keepDevice: a correction that swapped the words naming the device's room ("turn on the
// bedroom ac, no, the living room") keeps the device said before it — never the light by
// default.
func keepDevice(before, out []string) []string {
	if dev := lastDevice(before); dev != "" && lastDevice(out) == "" {
		return append(out, dev)
	}
	return out
}

// lastDevice is the last device word of toks ("light", "ac"), or "".
func lastDevice(toks []string) string {
	for i := len(toks) - 1; i >= 0; i-- {
		if wordClasses[toks[i]]&wcHouseDevice != 0 {
			return toks[i]
		}
	}
	return ""
}

// objectForPronoun: a command said again with "it" for its object ("turn it off") takes the
// object the first saying named ("the kitchen light"): the device and the words before it
// back to its article.
func objectForPronoun(before, after []string) []string {
	i := slices.Index(after, "it")
	if i < 1 || i > 2 {
		return after
	}
	dev := -1
	for k, w := range before {
		if wordClasses[w]&wcHouseDevice != 0 {
			dev = k
		}
	}
	if dev < 0 {
		return after
	}
	start := dev
	for start > 0 && (before[start-1] != "the" && before[start-1] != "my" && before[start-1] != "our") && dev-start < 3 &&
		wordClasses[before[start-1]]&(wcOnVerb|wcOffVerb|wcAction) == 0 {
		start--
	}
	if start > 0 && (before[start-1] == "the" || before[start-1] == "my" || before[start-1] == "our") {
		start--
	}
	out := append(append(append(make([]string, 0, len(after)+dev-start+1), after[:i]...), before[start:dev+1]...), after[i+1:]...)
	return out
}

// quantityWords say a number with its fraction: "2 and a half", "1 and a quarter".
var quantityWords = func() wordSet {
	s := words2set("and a an half quarter")
	for i := 0; i <= 100; i++ {
		s[strconv.Itoa(i)] = true
	}
	return s
}()

// alignCorrection finds where the corrected words start again in what came before the
// marker: the same first word ("call mom no wait call dad"), or the last word of the same
// kind — a state, a room, a person, a number, a timer label. -1: nothing lines up.
func (t *Table) alignCorrection(before, after []string) int {
	first := 0
	for first < len(after)-1 && objectLeads[after[first]] {
		first++
	}
	w := after[first]
	kind := t.wordKind(w)
	if !objectLeads[after[0]] && kind == "" {
		for j := len(before) - 1; j >= 0; j-- {
			if before[j] == w {
				return j
			}
		}
	}
	if kind == "" {
		return -1
	}
	for j := len(before) - 1; j >= 0; j-- {
		if t.wordKind(before[j]) != kind {
			continue
		}
		for first > 0 && j > 0 && objectLeads[before[j-1]] {
			j-- // "the kitchen" replaced by "the bedroom": one article
			first--
		}
		return j
	}
	return -1
}

// wordKind is the closed vocabulary a word belongs to, for aligning a correction.
func (t *Table) wordKind(w string) string {
	switch {
	case w == "on" || w == "off":
		return "state"
	case isNumber(w):
		return "number"
	case t.vocab.people[w] != "" || kinWords[w]:
		return "person"
	case t.vocab.labels[w] != "":
		return "label"
	case deviceWords[w] != "":
		return "device" // "turn the heating, I mean the air conditioning, on"
	case t.vocab.roomStarts[w] && !functionWords[w] && !objectLeads[w]:
		if _, ok := t.vocab.rooms[w]; ok || len(w) > 3 {
			return "room"
		}
	}
	return ""
}

func rebuilt(n Normalized, toks []string) Normalized {
	n.toks = toks
	n.Text = strings.Join(toks, " ")
	n.Corrected = true
	n.raw = n.Text // the pieces of the raw sentence no longer match it
	return n
}

// sameShape: two phrases of one length that differ only in words of the same kind ("the
// kitchen light" and "the office light").
func (t *Table) sameShape(a, b []string) bool {
	differ := 0
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		if k := t.wordKind(a[i]); k == "" || k != t.wordKind(b[i]) {
			return false
		}
		differ++
	}
	return differ > 0 && len(a) > 1
}

// wholeHouseCommand: toks are a light or AC command of their own — a verb that switches or
// sets and a device, or a device and its state ("turn off the light in here", "the office
// light off").
func wholeHouseCommand(toks []string) bool {
	if len(toks) < 2 {
		return false
	}
	device, verb, state := false, false, false
	for i, w := range toks {
		c := wordClasses[w]
		device = device || c&wcHouseDevice != 0
		verb = verb || i == 0 && c&(wcAction|wcOnVerb|wcOffVerb) != 0 && c&wcHouseDevice == 0
		state = state || w == "on" || w == "off"
	}
	return device && (verb || state)
}

// notThisButThat takes "not the kitchen" off the front of a correction ("not the kitchen the
// office light off"): what is meant follows it.
func notThisButThat(toks []string) []string {
	if len(toks) < 4 || toks[0] != "not" {
		return toks
	}
	for i := 2; i < len(toks) && i <= 4; i++ {
		if toks[i] == "the" || toks[i] == "my" {
			return toks[i:]
		}
	}
	return toks
}
