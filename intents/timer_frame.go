package intents

import (
	"slices"
	"strings"
)

// The timer frame: a sentence that names a timer, read whole — what is asked (start, cancel,
// how long is left), its length and label anywhere in it, and its form across its clauses.

// timerFrame decides the three timer intents from a sentence that names a timer: what is
// asked (cancel, start, or how long is left), the duration and the label anywhere in it, and
// its form. Only a request starts or cancels a timer; any other form reads.
func (t *Table) timerFrame(n Normalized, m Mentions, ctx Context) (Decision, bool) {
	d, ok := t.timerFrameWhole(n, m, ctx)
	if ok || m.seen&wcTimerFrame == 0 || len(n.tokens()) < 5 || n.Negated && negationLed(n) {
		return d, ok
	}
	// "cancel the laundry timer I already took it out", "bath timer fifteen minutes so they
	// don't stay in forever": the timer asked for, then a reason or a purpose of its own
	c, cut := t.reasonCut(n)
	if !cut || c.Negated {
		return d, ok // no reason said after it, or the "not" is the request's own
	}
	cd, cok := t.timerFrameWhole(c, m, ctx)
	if !cok {
		return d, ok
	}
	cd.Normalized = n
	cd.Doctrine = append(cd.Doctrine, "a timer with a reason said after it ("+strings.Join(n.tokens()[len(c.tokens()):], " ")+")")
	return cd, true
}

// thenClause takes "then I'll hang it out" off a request: what the speaker does after.
func thenClause(toks []string) []string {
	for i := 2; i+1 < len(toks); i++ {
		if toks[i] == "then" && (reasonSubjects[toks[i+1]] || toks[i+1] == "ill" || toks[i+1] == "well") {
			return toks[:i]
		}
	}
	return toks
}

// labelReadyAsked: a short question whether what a timer of the home's is for is ready yet
// ("is the rice done yet?", "are the eggs ready"): that timer's status.
func (t *Table) labelReadyAsked(n Normalized, toks []string) bool {
	return n.Question && len(toks) <= 5 && (toks[0] == "is" || toks[0] == "are") &&
		(contains(toks, "done") || contains(toks, "ready") || contains(toks, "finished")) &&
		slices.ContainsFunc(toks, func(w string) bool { return t.vocab.labels[w] != "" })
}

// cancelAsked: a cancel word asks for a cancel — not "forget" said of someone ("the cake's in
// and I always forget": the reason for a timer, not its end).
func cancelAsked(toks []string) bool {
	for i, w := range toks {
		if !timerCancel[w] {
			continue
		}
		if w == "forget" && i > 0 && (forgetters[toks[i-1]] || i > 1 && forgetters[toks[i-2]]) {
			continue
		}
		return true
	}
	return false
}

// forgetters say who forgets, or how often: "I always forget", "we might forget".
var forgetters = words2set("i we you they he she always never might may will would could often sometimes usually")

// timerFrameWhole reads the whole sentence as the timer frame does.
func (t *Table) timerFrameWhole(n Normalized, m Mentions, ctx Context) (Decision, bool) {
	toks := n.tokens()
	if len(toks) == 0 || m.named || m.seen&wcTimerFrame == 0 && !isDigits(toks[0]) && !lengthOpeners[toks[0]] && t.vocab.labels[toks[0]] == "" && toks[0] != "count" && !(toks[0] == "put" && lengthWithUnit(n.durations())) && !t.labelReadyAsked(n, toks) || len(toks) > 20 || !t.aboutTimer(n, toks) || len(toks) > 1 && adviceLeads[toks[0]] && (toks[1] == "i" || toks[1] == "we") {
		return Decision{}, false // "should I set a timer?" asks for advice
	}
	if (toks[0] == "thanks" || hasPrefix(toks, []string{"thank", "you"})) && !anyOf(toks, timerStart) && !anyOf(toks, timerCancel) {
		return Decision{}, false // "thank you so much for the timer": thanks (smalltalk), not a question about it
	}
	if slices.ContainsFunc(toks, isNegativeNumber) {
		return Decision{}, false // "a timer for minus 60 seconds" is never 60 seconds: the patterns refuse it
	}
	if n.Question && applianceTimer(toks) {
		return Decision{}, false // "how do you stop a timer on a microwave": an appliance's timer, not the robot's
	}
	view := n.durationWords()
	captured := map[string]string{}
	unexplained := 0
	for i, w := range view {
		switch {
		case strings.HasPrefix(w, "~"):
			if d, ok := captured["duration"]; !ok {
				captured["duration"] = w[1:]
			} else if _, o := parseDuration(d); o != durationOK {
				if _, o := parseDuration(w[1:]); o == durationOK {
					captured["duration"] = w[1:] // "one of your timers ..., forty five minutes": the length is the one that reads
				}
			}
		case t.vocab.labels[w] != "":
			if _, ok := captured["label"]; !ok {
				captured["label"] = w
			}
		case timerNouns[w], timerCancel[w], timerStart[w], timerStatus[w], timerFill[w], frameFill[w]:
		default:
			if i > 0 && (view[i-1] == "and" || view[i-1] == "then") {
				return Decision{}, false // "..., and call mom": a second request
			}
			unexplained++
		}
	}
	if unexplained > 2 {
		return Decision{}, false
	}
	form := t.timerForm(n, toks)
	if (verblessTimer(view) || t.terseTimer(view)) && !n.Negated && !n.Question {
		form = FormImperative // "ten minutes for the pasta": a length for something, said as a request
	}
	unsupported := anyOf(toks, timerUnsupported) || contains(toks, "add") && contains(toks, "to")
	if form == FormImperative && (contains(toks, "or") || contains(toks, "either")) {
		form = FormQuestion // "ten or fifteen minutes?": a choice offered is not a request to act
		m.Alternatives = true
	}
	m.Form = form
	name := "timer.status"
	switch {
	case form != FormImperative, unsupported:
	case cancelAsked(toks) && !(contains(toks, "off") && (contains(toks, "go") || contains(toks, "gone") || contains(toks, "went"))) ||
		hasPrefix(toks, []string{"no", "more"}):
		name = "timer.cancel"
	case anyOf(toks, timerStart) || !anyOf(toks, timerStatus) || t.terseTimer(view):
		name = "timer.start" // "set a pasta timer", "timer for the pasta", "a timer please": how long is asked
	}
	if name == "timer.cancel" && allTimers(toks) {
		captured["label"] = "all" // "stop all the timers, we're ordering pizza": every timer, whatever else is named
	}
	var kept map[string]string
	in := t.byName[name]
	if in == nil || in.Unavailable {
		return Decision{}, false
	}
	kept = map[string]string{}
	for k, v := range captured {
		if _, ok := in.Arg(k); ok {
			kept[k] = v
		}
	}
	rule := &Rule{Intent: name, Index: -1, Pattern: "timer frame (intents/builtin_frames.go)", Where: in.where}
	d := t.settle(in, t.bind(in, kept, ctx), rule, n)
	d.Mentions = m.ref()
	d.Doctrine = append([]string{"frame: a timer, form " + form + ": " + name}, d.Doctrine...)
	switch {
	case unsupported && form == FormImperative:
		d.NotActed = "a timer operation this home does not have"
	case form != FormImperative && (anyOf(toks, timerCancel) || anyOf(toks, timerStart)):
		d.NotActed = formNeverActs[form]
	}
	return d, true
}

// allTimers: "all the timers", "every timer", "all timers", "all of the timers", "each timer".
func allTimers(toks []string) bool {
	if hasPhrase(toks, []string{"them", "all"}) || hasPhrase(toks, []string{"all", "of", "them"}) {
		return true // "no more timers, stop them all"
	}
	for i, w := range toks {
		if !timerNouns[w] {
			continue
		}
		for j := i - 1; j >= 0 && j >= i-4; j-- {
			switch toks[j] {
			case "all", "every", "each", "both":
				return true
			case "the", "of", "my", "our", "those", "these", "them", "running", "active", "kitchen":
				continue
			}
			break
		}
	}
	return false
}

// aboutTimer: the sentence names a timer, or times something ("time the tea for four
// minutes"), or asks how long a labelled timer has left ("how much longer on the rice?").
func (t *Table) aboutTimer(n Normalized, toks []string) bool {
	if anyOf(toks, timerNouns) {
		return true
	}
	if v := n.durations(); strings.Contains(v, "~") { // both need a duration in the view: without one no slice is built
		if view := strings.Fields(v); verblessTimer(view) || t.terseTimer(view) {
			return true // "two minutes for the tea please", "eggs six minutes go"
		}
	}
	if toks[0] == "how" && (contains(toks, "till") || contains(toks, "until") || hasPrefix(toks, []string{"how", "much", "time"}) && !anyOf(toks, cookingAsks)) && len(toks) <= 9 {
		for _, w := range toks {
			if t.vocab.labels[w] != "" {
				return true // "how many minutes till the rice is done"
			}
		}
	}
	if lead := stripRequestLeads(toks); len(lead) > 1 && (lead[0] == "time" && strings.Contains(n.durations(), "~") || lead[0] == "count" && lengthWithUnit(n.durations())) {
		return true // "time the bath for fifteen minutes", "count three minutes for the tea"
	}
	if (toks[0] == "when" || (toks[0] == "is" || toks[0] == "are") && n.Question && len(toks) <= 5) && len(toks) <= 8 &&
		(contains(toks, "done") || contains(toks, "ready") || contains(toks, "finished")) &&
		slices.ContainsFunc(toks, func(w string) bool { return t.vocab.labels[w] != "" }) {
		return true // "when will the eggs be done", "is the rice done yet": the timer asked about
	}
	if lead := stripRequestLeads(toks); len(lead) > 3 && lead[0] == "give" && (lead[1] == "me" || lead[1] == "us") && strings.Contains(n.durations(), "~") &&
		slices.ContainsFunc(lead, func(w string) bool { return t.vocab.labels[w] != "" }) {
		return true // "give me forty five minutes for the oven"
	}
	if lead := stripRequestLeads(toks); len(lead) > 3 && lead[0] == "put" && lengthWithUnit(n.durations()) && !anyOf(toks, timerMore) &&
		slices.ContainsFunc(lead[2:], func(w string) bool { return t.vocab.labels[w] != "" }) {
		return true // "put ten minutes on the eggs"
	}
	for i, w := range toks {
		if t.vocab.labels[w] == "" {
			continue
		}
		if i+1 < len(toks) && (toks[i+1] == "1" || toks[i+1] == "one") && (anyOf(toks, timerCancel) || anyOf(toks, timerStatus)) {
			return true // "cancel the bath one", "how long is left on the rice one"
		}
		if lead := stripRequestLeads(toks); len(lead) > 2 && lead[0] == "give" && i <= 3 && strings.Contains(n.durations(), "~") && !anyOf(toks, timerMore) {
			return true // "give the eggs six minutes"
		}
	}
	if !contains(toks, "longer") && !contains(toks, "left") && !contains(toks, "remaining") {
		return false
	}
	if toks[0] == "how" && (contains(toks, "minutes") || contains(toks, "seconds") || contains(toks, "hours")) && len(toks) <= 6 {
		return true // "how many minutes left": a timer's time
	}
	for _, w := range toks {
		if t.vocab.labels[w] != "" {
			return true
		}
	}
	return false
}

// cookingAsks make "how much time ..." a question about cooking, not about a timer: "how much
// time does pasta take".
var cookingAsks = words2set("does do did should take takes need needs cook boil bake")

// timerMore asks for more time on a timer ("give the pasta five more minutes"): timers here
// cannot be extended, and that is no new timer.
var timerMore = words2set("more extra another additional")

// timerUnsupported are things done to a timer that timers here cannot do: such a sentence
// reads the timers rather than starting a new one ("add 5 minutes to the pasta timer").
var timerUnsupported = words2set("pause paused resume extend snooze reset restart change move rename repeat")

// adviceLeads open a question that asks what to do ("should I ...").
var adviceLeads = words2set("should shall would could can may might must")

// timerForm is the form of a timer sentence: across its clauses ("the cookies need nine
// minutes, start a timer"), a request in one clause with statements around it is a request;
// any clause that is negated, reported, conditional, in the past or the future is not.
func (t *Table) timerForm(n Normalized, toks []string) string {
	toks = timerRelative(toks)
	whole := commandForm(toks, n)
	switch {
	case whole == FormStatement && (timerRequestAtEnd(toks) || hasPrefix(toks, []string{"no", "more"}) && len(toks) > 2 && timerNouns[toks[2]]):
		return FormImperative // "rice needs twenty minutes, make timer", "no more timer for the rice"
	case whole == FormNegated:
		// "time the bath for fifteen minutes so it doesn't overflow": the "not" is the reason's
		if head := cutReason(toks); len(head) < len(toks) && !anyOf(head, negationWords) && !negationLed(n) { // "don't set a timer ..., I'm ..." stays negated
			plain := n
			plain.Negated = false
			if f := commandForm(head, plain); f == FormImperative {
				return f
			}
		}
	}
	if whole == FormImperative || !mayBeCompound(n) && !t.commandAfterStatement(n) {
		return whole
	}
	form := whole
	request := false
	for _, c := range t.clauses(n) {
		ct := c.tokens()
		switch f := commandForm(ct, c); f {
		case FormImperative:
			// Only a clause that names the timer or what to do with it asks: "a quarter" in
			// "set for an hour and a quarter" is part of a duration.
			request = request || anyOf(ct, timerNouns) || anyOf(ct, timerStart) || anyOf(ct, timerCancel)
		case FormStatement:
		default:
			return f
		}
	}
	if request {
		return FormImperative
	}
	return form
}

// lengthWithUnit: a duration view holds a length said with its unit ("~3_minutes"), not a
// bare number ("count to twenty").
func lengthWithUnit(view string) bool {
	for w := range strings.FieldsSeq(view) {
		if phrase, ok := strings.CutPrefix(w, "~"); ok {
			for _, p := range strings.Split(phrase, "_") {
				if durationUnits[p] > 0 {
					return true
				}
			}
		}
	}
	return false
}

// timerRequestAtEnd: a sentence ends with a short request for a timer ("... make timer",
// "..., start a timer please").
func timerRequestAtEnd(toks []string) bool {
	for j := max(1, len(toks)-4); j < len(toks)-1; j++ {
		if timerEndVerbs[toks[j]] && only(toks[j+1:], timerEndFill) && anyOf(toks[j+1:], timerNouns) {
			return true
		}
	}
	return false
}

var (
	timerEndVerbs = words2set("make set start put")
	timerEndFill  = words2set("a an the timer timers one please now for it")
	negationWords = words2set("not never no dont")
)

// timerRelative takes off what is said of the timers after their name — "scrap every timer
// you've got", "cancel the timers that are running", "stop all the timers you have going" —
// so the request's form is read: it is part of the thing acted on, not a statement.
func timerRelative(toks []string) []string {
	for i, w := range toks {
		if !timerNouns[w] || i+1 >= len(toks) {
			continue
		}
		rest := toks[i+1:]
		if rest[0] == "that" || rest[0] == "which" {
			rest = rest[1:]
		}
		if (hasPrefix(rest, []string{"you", "have"}) || hasPrefix(rest, []string{"you", "got"}) || hasPrefix(rest, []string{"are"})) &&
			only(rest, timerRelativeWords) {
			return toks[:i+1]
		}
	}
	return toks
}

var timerRelativeWords = words2set("you have got are running going on set now still left")

// isNegativeNumber reports whether a normalized token is a number with its minus sign
// ("-60"; normalization keeps "minus 60" and "negative 60" that way).
func isNegativeNumber(tok string) bool {
	return len(tok) > 1 && tok[0] == '-' && isASCIIDigit(tok[1])
}

// terseTimer: a label and a length said with nothing else to do ("eggs six minutes go",
// "ten minutes eggs", "bath timer fifteen minutes"): a timer asked for in few words.
func (t *Table) terseTimer(view []string) bool {
	if len(view) < 2 || len(view) > 5 {
		return false
	}
	length, label := false, false
	for _, w := range view {
		switch {
		case strings.HasPrefix(w, "~"):
			if _, o := parseDuration(w[1:]); o != durationOK || length {
				return false
			}
			length = true
		case t.vocab.labels[w] != "":
			if label {
				return false
			}
			label = true
		case !terseTimerFill[w]:
			return false
		}
	}
	return length && label
}

var terseTimerFill = words2set("go timer please now quick quickly for the on start")

// verblessTimer: a length for something and nothing else — "two minutes for the tea", "ten
// minutes for the pasta please": a timer asked for without its name.
func verblessTimer(view []string) bool {
	if len(view) < 3 || len(view) > 5 || !strings.HasPrefix(view[0], "~") || view[1] != "for" {
		return false
	}
	if _, outcome := parseDuration(view[0][1:]); outcome != durationOK {
		return false
	}
	for _, w := range view[2:] {
		if isImperativeVerb(w) || finiteWords[w] || pastWords[w] || futureWords[w] || strings.HasPrefix(w, "~") || wordClasses[w]&(wcDevice|wcHouseDevice) != 0 {
			return false
		}
	}
	return true
}

// lengthOpeners may open a sentence about a timer without its name: "an hour for the
// laundry", "half an hour for the rice", "how many minutes till the rice is done".
var lengthOpeners = words2set("a an half how when")
