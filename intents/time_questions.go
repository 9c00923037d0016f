package intents

import "slices"

// Time and date asked in the family's words, beside the built-in frames (builtin_frames.go):
// "is it still morning", "is it past eight already", "is it the 14th today", a part of the day
// asked after the time, and a past asked about someone ("what I did at this time"), which is
// not the time now.

// partsOfDay and clockWords make "is it still morning", "is it past eight already" a question
// about the time; an ordinal with "today" ("is it the 14th or the 15th today") one about the date.
var (
	partsOfDay = words2set("morning afternoon evening night daytime nighttime midday lunchtime bedtime noon midnight teatime dinnertime")
	clockLeads = words2set("past after before nearly almost gone already yet")
)

func (t *Table) clockQuestion(toks []string, n Normalized, decide func(name, why string, args map[string]string) (Decision, bool)) (Decision, bool) {
	if !n.Question || len(toks) > 8 || !hasPrefix(toks, []string{"is", "it"}) && !(len(toks) > 2 && toks[0] == "is" && clockLeads[toks[1]]) {
		return Decision{}, false
	}
	rest := toks[1:] // "is already five o'clock?": the "it" not heard
	if toks[1] == "it" {
		rest = toks[2:]
	}
	switch {
	case anyOf(rest, partsOfDay) && only(rest, partsOfDay, timeFill, timeCore, frameFill, clockLeads, wordSet{"or": true}):
		return decide("time.now", "a part of the day asked about", map[string]string{})
	case anyOf(rest, clockLeads) && slices.ContainsFunc(rest, isDigits) && only(rest, clockLeads, timeFill, frameFill, wordSet{"oclock": true}) ||
		anyOf(rest, clockLeads) && slices.ContainsFunc(rest, isDigits) && len(rest) <= 4:
		return decide("time.now", "a clock time asked about", map[string]string{})
	case contains(rest, "today") && slices.ContainsFunc(rest, isOrdinal),
		len(rest) >= 1 && len(rest) <= 3 && rest[0] == "the" && slices.ContainsFunc(rest, isOrdinal) &&
			!slices.ContainsFunc(rest, func(w string) bool { return !dayAskFill[w] && !isOrdinal(w) }):
		return decide("date.today", "a day of the month asked about", map[string]string{})
	case (anyOf(rest, dateCore) || contains(rest, "weekend")) && only(rest, dateCore, dayAskFill, clockLeads) && !contains(rest, "date"):
		return decide("date.today", "a day asked about", map[string]string{}) // "is it friday yet", "is it the weekend already"
	}
	return Decision{}, false
}

// partOfDayAfter takes a part of the day asked about after the time off: "what time is it,
// is it bedtime", "what time is it is it morning yet".
func partOfDayAfter(toks []string) []string {
	for i := len(toks) - 3; i >= 2; i-- {
		if toks[i] == "is" && toks[i+1] == "it" && anyOf(toks[i+2:], partsOfDay) &&
			only(toks[i+2:], partsOfDay, clockLeads, dayAskFill, wordSet{"time": true}) {
			return toks[:i]
		}
	}
	return toks
}

// dayAskFill may go with a day in "is it ... yet": "is it the weekend already".
var dayAskFill = words2set("the a weekend yet already still today now or finally")

// ordinalWords are the days of a month said as words ("is it the twelfth").
var ordinalWords = words2set("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth " +
	"thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth")

// isOrdinal: "14th", "1st", "22nd", "3rd", "twelfth".
func isOrdinal(w string) bool {
	if ordinalWords[w] {
		return true
	}
	if len(w) < 3 || !isASCIIDigit(w[0]) {
		return false
	}
	k := 0
	for k < len(w) && isASCIIDigit(w[k]) {
		k++
	}
	switch w[k:] {
	case "st", "nd", "rd", "th":
		return true
	}
	return false
}

// didByOthers: "what I did at this time", "what time did we leave": a past asked about
// someone, not the time now ("what time did you say it was" asks it).
func didByOthers(toks []string) bool {
	for i := 0; i+1 < len(toks); i++ {
		a, b := toks[i], toks[i+1]
		if a == "did" && (b == "i" || b == "we" || b == "he" || b == "she" || b == "they") ||
			b == "did" && (a == "i" || a == "we" || a == "he" || a == "she" || a == "they") {
			return true
		}
	}
	return false
}
