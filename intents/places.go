package intents

import "strings"

// Places the home does not have, found around device words and after prepositions ("in the
// garage", "the porch light"): asked about, never echoed.

// unknownPlace finds a place that is not a room of the home: "in the garage", "at the first
// floor", or a word in front of a device word that is neither a room nor a fixture ("the
// garage light"). It never keeps the words: an unknown place is only asked about.
func (t *Table) unknownPlace(toks []string, used []bool, classes []wordClass) (bool, []int) {
	span := func(a, b int) []int {
		var out []int
		for i := a; i < b; i++ {
			out = append(out, i)
		}
		return out
	}
	for i := range toks {
		if classes[i]&wcRoomPrep == 0 || i+1 >= len(toks) || timeAfter(toks, i) {
			continue // "in half an hour" is when, not where
		}
		j := i + 1
		for j < len(toks) && (toks[j] == "the" || toks[j] == "my" || toks[j] == "our" || toks[j] == "your") {
			j++
		}
		k := j
		for k < len(toks) && k-j < 3 && !placeStop[toks[k]] && !used[k] && classes[k]&wcDevice == 0 && !isDigits(toks[k]) {
			k++
		}
		if k == j || (k < len(toks) && used[k]) {
			continue
		}
		if placeIsKnown(toks[j:k]) {
			continue
		}
		return true, span(j, k)
	}
	for i := range toks {
		if classes[i]&wcHouseDevice == 0 {
			continue
		}
		// After the device: "turn off all the lights first floor".
		k := i + 1
		for k < len(toks) && k-i <= 3 && !used[k] && !explained(toks[k]) && !timeAfter(toks, k) {
			k++
		}
		if k > i+1 && (k == len(toks) || !used[k]) && !nounSubject(toks[i+1:]) && !possessiveKin(toks[i+1]) &&
			!(i+2 < len(toks) && reportVerbs[toks[i+2]]) && !deviceDoing(toks[i+1]) {
			// (not a reason said straight after the device: "... the bedroom light dad's
			// napping", "... the office light mum says it's ok")
			return true, span(i+1, k)
		}
		j := i - 1
		for j >= 0 && fixtureWords[toks[j]] {
			j--
		}
		if j < 0 || used[j] || stopsModifier(toks[j]) {
			continue
		}
		k = j
		for k > 0 && k > j-2 && !used[k-1] && !stopsModifier(toks[k-1]) && !fixtureWords[toks[k-1]] {
			k--
		}
		return true, span(k, j+1)
	}
	return false, nil
}

// timeAfter: toks[i] opens a time, not a place ("in half an hour", "after 10 minutes", "at
// bedtime"): the words after it say when.
func timeAfter(toks []string, i int) bool {
	if i+1 >= len(toks) {
		return false
	}
	switch toks[i] {
	case "in", "at", "after", "for", "by", "until", "till":
		next := toks[i+1]
		return isDigits(next) || next == "half" || laterNouns[next] ||
			(next == "a" || next == "an") && i+2 < len(toks) && durationCore(toks[i+2])
	}
	return false
}

// deviceDoing: a word after a device word that says what it does or how ("the AC blasting
// in here", "the AC even on"), not where it is.
func deviceDoing(w string) bool {
	return strings.HasSuffix(w, "ing") || deviceAdverbs[w]
}

var deviceAdverbs = words2set("even still really just actually already currently definitely properly again also too")

// placeIsKnown: words after "in" that name no place ("in here", "in the house", "in a minute").
func placeIsKnown(phrase []string) bool {
	if laterNouns[phrase[0]] || timesOfDay[phrase[0]] {
		return true // "at bedtime", "in the morning": a time, not a place
	}
	switch phrase[0] {
	case "here", "this", "house", "home", "apartment", "flat", "entire", "whole", "every", "each", "all", "a", "an",
		"dark", "sun", "shade", "heat", "cold", "light", "way", // "sitting in the dark": how, not where
		"general", "case", "minute", "moment", "bit", "there", "which", "what", "rooms", "total", "front", "charge",
		"any", "bed", "order", "fact", "time", "advance", "mind", "future", "winter", "summer", "morning", "evening":
		return true
	}
	return false
}

// stopsModifier: words that may stand before a device word without naming a place.
func stopsModifier(w string) bool {
	return modifierStops[w] || isDigits(w) || wordClasses[w]&(wcAction|wcOnVerb|wcOffVerb) != 0
}

// modifierStops is every word stopsModifier names, in one map: the verbs, function words and
// the words of the command rule's lists, and the words of modifierStopWords.
var modifierStops = func() map[string]bool {
	out := map[string]bool{}
	for _, list := range []map[string]bool{imperativeVerbs, gerunds, functionWords, finiteWords, wishWords, pastWords,
		futureWords, notCommandStarts} {
		for w, ok := range list {
			out[w] = out[w] || ok
		}
	}
	for _, w := range strings.Fields(modifierStopWords) {
		out[w] = true
	}
	return out
}()

// modifierStopWords may stand before a device word without naming a place.
const modifierStopWords = "on off out up down a an any no some of in at to which many that this these those whole " +
	"entire activate deactivate check dim if whether light lights ac please again now still kill cut much sure want " +
	"need like let lets us all every each both other left leave think wonder know tell see find said say says asked " +
	"told about whats with without from by for everywhere here house home just only really brighter dimmer same " +
	"their his her its more" // whose light it is ("switch their light off": ownersRoom reads the owners), "more light"
