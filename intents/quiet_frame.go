package intents

import (
	"slices"
	"strings"
)

// Quiet time (robot.quiet). A stop word on its own ("be quiet", "shush", "quiet for a
// second") stops the speech of the moment: robot.stop. The same words with something that
// makes the quiet LAST ask for quiet time: a mute word ("mute", "be muted"), a length ("for an
// hour", "for the next 20 minutes"), "until I say so" / "until further notice", "for the rest
// of the night", "for a while", quiet or silent mode, or a sleeper as the reason ("the baby's
// asleep, shush"). "You can talk again", "unmute", "quiet time is over" end it (state off).
// The command rule decides as for every frame: "I wish you'd be quiet" and "she said be
// quiet" set nothing.

// IntentQuiet is quiet time: state on (an optional duration) or off.
const IntentQuiet = "robot.quiet"

// Quiet time lasts from one minute to twelve hours; without a length it lasts until it is
// ended, at most the longest.
const (
	MinQuietSeconds = 60
	MaxQuietSeconds = 12 * 60 * 60
)

var (
	quietMute    = words2set("mute muted")
	quietModes   = words2set("mode time times")
	quietEnds    = words2set("over off end ended finish finished done stop cancel exit leave disable deactivate")
	quietSleeper = words2set("asleep sleeping napping nap")
	// quietUntil may follow "until" / "till" to the end of the sentence: "until I say so",
	// "until said otherwise", "until further notice", "till I tell you".
	quietUntil = words2set("i we say says said tell tells told you so otherwise further notice it is ok okay to " +
		"again can may talk speak morning tomorrow then back")
	// quietRest: "for the rest of the day", "for the night", "for tonight".
	quietRest = words2set("rest of the day night evening afternoon morning tonight today whole remainder")
	// quietMoments are lengths said as "a moment": "quiet for a second" stops the moment only.
	quietMoments = words2set("a an second sec secs seconds moment mo tick bit minute min jiffy little")
	// quietModeVerbs put the robot into quiet mode: "turn on quiet mode", "go into silent mode".
	quietModeVerbs = words2set("turn switch put on enable activate start go into in the")
	// quietEndFill are the other words of "you can talk again", "start talking again".
	quietEndFill = words2set("resume continue carry on feel free no more unmute unmuted yourself again now start back to me us you can may ok okay all turn time times mode quiet silent is over are allowed " +
		"make away loud being as much like want some enough come " + // "you can make noise again", "chat away again"
		"off end ended finish finished done stop cancel exit leave disable deactivate")
)

// quietFrame decides robot.quiet from a sentence with a stop or talk word (the word classes
// gate it, as every built-in frame). It returns false for a sentence that is not about quiet
// time: the stop frame then reads it.
func (t *Table) quietFrame(toks []string, n Normalized, form func() string) (map[string]string, string, bool) {
	if !n.Negated && anyOf(toks, quietEndCues) && mayBeCompound(n) {
		if t.quietEndAmong(n) {
			return map[string]string{"state": "off"}, "words that end quiet time, with a reason", true
		}
	}
	if (n.Negated || toks[0] == "no") && quietReleased(toks, n.raw) {
		return map[string]string{"state": "off"}, "quiet no longer needed (\"" + strings.Join(toks, " ") + "\")", true
	}
	if n.Polite && len(toks) > 0 && stopTalk[toks[0]] && (strings.HasPrefix(n.Clean, "you can ") || strings.HasPrefix(n.Clean, "you may ")) {
		toks = append([]string{"you", "can"}, toks...) // "you may talk now": leave, not politeness
	}
	if !n.Negated && (anyOf(toks, quietEndCues) || toks[0] == "you") {
		// "you're allowed to talk now the meeting's over": leave to talk, its reason said
		// after it without a comma
		if head, _, ok := t.reasonAfter(toks, func(h []string) bool {
			return quietEnd(h) && only(h, quietEndFill, quietMute, stopTalk, frameFill)
		}); ok {
			if f := commandForm(head, n); f == FormImperative || f == FormStatement {
				return map[string]string{"state": "off"}, "words that end quiet time, with a reason", true
			}
		}
	}
	if quietEnd(toks) {
		if n.Negated || !only(toks, quietEndFill, quietMute, stopTalk, frameFill) {
			return nil, "", false
		}
		if f := form(); f != FormImperative && f != FormStatement {
			return nil, "", false // "she said you can talk again", "I wish you could talk again"
		}
		return map[string]string{"state": "off"}, "words that end quiet time", true
	}
	// Take the lasting parts off: what is left must be a sentence the stop frame accepts.
	words, duration, lasting := quietLasting(n.durationWords())
	words = soundOff(words)
	if n.Negated && n.Polite && len(words) > 1 && words[0] == "not" {
		words = words[1:] // "could you not talk for an hour": a polite "don't"
	}
	for _, w := range words {
		lasting = lasting || quietMute[w] || quietSleeper[w]
	}
	if !lasting && len(words) > 2 && (words[len(words)-1] == "for" || len(words) > 3 && words[len(words)-2] == "for" &&
		(words[len(words)-1] == "a" || words[len(words)-1] == "an" || words[len(words)-1] == "like")) {
		// "be quiet for uh for a": a length broken off — asked about ("How long?"), never a default
		if head := words[:slices.Index(words, "for")]; len(head) > 0 && quietAsked(head) && t.stopWords(head, n, form) {
			return map[string]string{"state": "on", "duration": "x"}, "words that ask for quiet, its length not heard", true
		}
	}
	if !t.stopWords(words, n, form) {
		// "hush now the little ones are napping": a sleeper as the reason, said after the
		// request without a comma
		head, reason, ok := t.reasonAfter(words, func(h []string) bool {
			return quietAsked(h) && t.stopWords(h, n, func() string { return commandForm(h, n) })
		})
		if !ok || !lasting && !sleeperSaid(reason) {
			return nil, "", false
		}
		words, lasting = head, true
	}
	if !lasting {
		return nil, "", false
	}
	args := map[string]string{"state": "on"}
	if duration != "" {
		args["duration"] = duration
	}
	return args, "words that ask for quiet that lasts", true
}

// quietEnd: the sentence speaks of ending quiet ("unmute", "you can talk again", "quiet
// time is over") and holds no word that asks for quiet.
func quietEnd(toks []string) bool {
	switch {
	case contains(toks, "unmute") || contains(toks, "unmuted"):
		return true
	case (contains(toks, "quiet") || contains(toks, "silent") || anyOf(toks, quietMute)) && anyOf(toks, quietModes) && anyOf(toks, quietEnds):
		return true // "quiet time is over", "turn quiet mode off"
	case (contains(toks, "quiet") || contains(toks, "silent")) && anyOf(toks, quietModes) && hasPrefix(toks, []string{"no", "more"}):
		return true // "no more quiet time"
	case hasPhrase(toks, []string{"off", "mute"}):
		return true // "you can come off mute now"
	case contains(toks, "enough") && (contains(toks, "quiet") || contains(toks, "silent")) && anyOf(toks, quietModes):
		return true // "enough quiet time, talk to us"
	case hasPhrase(toks, []string{"stop", "being", "quiet"}) || hasPhrase(toks, []string{"stop", "being", "silent"}) ||
		hasPhrase(toks, []string{"no", "need", "to", "be", "quiet"}):
		return true // "can you stop being quiet now"
	}
	for _, w := range toks {
		if stopCore[w] {
			return false // "stop talking again", "be quiet again"
		}
	}
	// "you can speak now", "you're allowed to talk": leave to talk ends quiet time
	permission := hasPrefix(toks, []string{"you", "can"}) || hasPrefix(toks, []string{"you", "may"}) ||
		hasPrefix(toks, []string{"you", "are", "allowed", "to"}) || hasPrefix(toks, []string{"feel", "free", "to"})
	// "you may resume speaking", "carry on talking", "continue talking": talk taken up again
	resume := contains(toks, "resume") || contains(toks, "continue") || hasPhrase(toks, []string{"carry", "on"})
	return anyOf(toks, stopTalk) && (contains(toks, "again") || resume || permission && len(toks) <= 6) && !repeatAsked(toks)
}

// repeatAsked: the last thing said asked for again ("say it again", "could you say that
// again, dear", "repeat that"): not quiet time ended.
func repeatAsked(toks []string) bool {
	for i, w := range toks {
		if w == "repeat" || (w == "say" || w == "tell") && i+1 < len(toks) && repeatObjects[toks[i+1]] {
			return true
		}
	}
	return false
}

var repeatObjects = words2set("it that this what again")

// quietLasting takes the parts that make quiet last off a duration view: a length (not a
// moment), "until ...", "for the rest of the night", "for a while", quiet or silent mode. It
// returns the words left, the length (a duration phrase for the argument) and whether any
// part made the quiet last.
func quietLasting(view []string) (rest []string, duration string, lasting bool) {
	rest = make([]string, 0, len(view))
	for i := 0; i < len(view); i++ {
		w := view[i]
		switch {
		case strings.HasPrefix(w, "~"):
			phrase := strings.Split(w[1:], "_")
			if phrase[len(phrase)-1] == "while" {
				lasting = true // "for a while": until it is ended
			} else if !only(phrase, quietMoments) && duration == "" {
				duration, lasting = w[1:], true
			}
			if len(rest) > 0 && rest[len(rest)-1] == "for" {
				rest = rest[:len(rest)-1]
			}
			continue
		case (w == "until" || w == "till" || w == "unless") && i+1 < len(view) && only(view[i+1:], quietUntil, frameFill):
			return rest, duration, true
		case (w == "until" || w == "till") && i+1 < len(view) && len(view)-i-1 <= maxUntilWords && i > 0:
			// "until I'm home from work", "till dinner is ready": when quiet time ends is
			// the person's to say; it is kept until ended, at most the longest.
			return rest, duration, true
		case quietRest[w] && (w == "today" || w == "tonight") || w == "this" && i+1 < len(view) && quietRest[view[i+1]]:
			// "do not speak today", "be quiet this evening"
			if w == "this" {
				i++
			}
			if len(rest) > 0 && rest[len(rest)-1] == "for" {
				rest = rest[:len(rest)-1]
			}
			lasting = true
			continue
		case w == "for" && i+1 < len(view) && only(view[i+1:], quietRest, frameFill) && anyOf(view[i+1:], quietRest):
			return rest, duration, true
		case (w == "quiet" || w == "silent" || w == "mute") && i+1 < len(view) && quietModes[view[i+1]]:
			lasting = true
			for len(rest) > 0 && quietModeVerbs[rest[len(rest)-1]] {
				rest = rest[:len(rest)-1] // "turn on quiet mode": the mode is the request
			}
			rest = append(rest, "quiet")
			i++
			continue
		}
		rest = append(rest, w)
	}
	return rest, duration, lasting
}

// maxUntilWords bounds the "until ..." that ends a request for quiet time.
const maxUntilWords = 8

var (
	// soundOffVerbs with "off" switch the robot's sound off: "turn off the sound", "switch
	// the speakers off"; "shut down the sound" too. "turn down the volume" is not muting.
	soundOffVerbs = words2set("turn switch power cut")
	// soundThings are the robot's sound: what muting it switches off.
	soundThings = words2set("sound sounds audio speaker speakers voice volume noise noises")
)

// soundOff reads "turn off the sound" as "mute the sound": a verb that switches something
// off, and the robot's sound as the thing. Anything else is returned as it was.
func soundOff(words []string) []string {
	if !anyOf(words, soundThings) {
		return words
	}
	for i, w := range words {
		if !soundOffVerbs[w] && w != "shut" {
			continue
		}
		for j := i + 1; j < len(words) && j <= i+4; j++ {
			if words[j] == "off" || w == "shut" && words[j] == "down" {
				out := append(append(append([]string(nil), words[:i]...), "mute"), words[i+1:j]...)
				return append(out, words[j+1:]...)
			}
		}
	}
	return words
}

// quietDecision binds quiet time's arguments (the length to whole seconds) and says why.
func (t *Table) quietDecision(n Normalized, m Mentions, args map[string]string, why string) (Decision, bool) {
	in := t.byName[IntentQuiet]
	if in == nil || in.Unavailable {
		return Decision{}, false
	}
	if m.Form == "" {
		m.withForm(n) // "don't talk until I say so": the negation asks for quiet
	}
	rule := &Rule{Intent: IntentQuiet, Index: -1, Pattern: "quiet frame (intents/quiet_frame.go)", Where: in.where}
	d := quietPrompt(t.settle(in, t.bind(in, args, Context{}), rule, n))
	d.Mentions = m.ref()
	d.Doctrine = append([]string{"frame: " + why + ", form " + m.Form + ": " + IntentQuiet}, d.Doctrine...)
	return d, true
}

// quietPrompt asks how long quiet time should last in quiet's own words, not a timer's ("How
// long should I be quiet?"); a unit that was heard is kept ("How many minutes?").
func quietPrompt(d Decision) Decision {
	if d.Intent == IntentClarify && d.Pending != nil && d.Pending.Intent == IntentQuiet && d.Pending.Missing == "duration" &&
		!strings.HasPrefix(d.Prompt, "How many ") {
		d.Prompt = "How long should I be quiet? You can say something like half an hour."
	}
	return d
}

// quieter: a stop and a request for quiet time said together ("stop, be quiet for an hour")
// are one request for quiet time.
func quieter(a, b Decision) (Decision, bool) {
	switch {
	case a.Intent == "robot.stop" && b.Intent == IntentQuiet && b.Args["state"] == "on":
		return b, true
	case b.Intent == "robot.stop" && a.Intent == IntentQuiet && a.Args["state"] == "on":
		return a, true
	}
	return Decision{}, false
}

// sleeperIn: an afterthought says someone is asleep ("the baby's asleep").
func sleeperIn(afterthoughts []string) bool {
	for _, a := range afterthoughts {
		if anyOf(strings.Fields(a), quietSleeper) {
			return true
		}
	}
	return false
}

// sleeperReason: a reason that says someone is asleep, in a child's or a learner's words ("the
// little one is asleep", "the baby sleep"): a subject, a sleeper word, and nothing the home
// could do.
func (t *Table) sleeperReason(tail []string) bool {
	if len(tail) < 2 || len(tail) > 7 || !sleeperSaid(tail) {
		return false
	}
	for _, w := range tail {
		if wordClasses[w]&(wcDevice|wcAction|wcOnVerb|wcOffVerb) != 0 {
			return false
		}
	}
	return !t.mentionsRoom(tail)
}

// quietAsked: a request for quiet names it — a stop word, or a talk word other than "say"
// ("say could you not ..." quotes, it asks nothing).
func quietAsked(h []string) bool {
	for _, w := range h {
		if stopCore[w] || stopTalk[w] && w != "say" && w != "saying" {
			return true
		}
	}
	return false
}

// sleeperSaid: a reason says someone is asleep — "the baby is napping", "the baby just went
// down", "the twins have gone down for their nap".
func sleeperSaid(reason []string) bool {
	return anyOf(reason, quietSleeper) || hasPhrase(reason, []string{"went", "down"}) || hasPhrase(reason, []string{"gone", "down"}) ||
		len(reason) > 1 && (reason[len(reason)-1] == "sleep" || reason[len(reason)-1] == "sleeps") && reason[len(reason)-2] != "to" // "the baby sleep(s)": a learner's "is asleep"; "I'm trying to sleep" is no sleeper yet
}

// quietBack are the words of "go back to normal", said with leave to talk again.
var quietBack = words2set("go back to normal now you can be your usual self")

// quietEndAmong: one part of the sentence ends quiet time ("you're allowed to speak now",
// "quiet time is over") and every other part is a reason or "go back to normal" ("okay you
// can talk again, exam's over", "go back to normal, you can talk").
func (t *Table) quietEndAmong(n Normalized) bool {
	ended := false
	for _, c := range t.pieces(n) {
		ct := c.tokens()
		switch {
		case c.Negated || reported(ct) || conditional(ct):
			return false
		case !ended && quietEnd(ct) && only(ct, quietEndFill, quietMute, stopTalk, frameFill):
			ended = true
		case only(ct, quietBack, frameFill) && contains(ct, "normal"):
		case anyOf(ct, stopTalk) && only(ct, stopTalk, quietEndFill, frameFill) && !anyOf(ct, stopCore): // "..., talk to me"
		case t.afterthought(c):
		case len(ct) <= 3 && !isImperativeVerb(ct[0]) && !anyOf(ct, stopCore) && !t.mentionsRoom(ct) && !slices.ContainsFunc(ct, func(w string) bool {
			return wordClasses[w]&(wcDevice|wcAction|wcOnVerb|wcOffVerb) != 0
		}): // "exam's over", "is ok": a reason too short to open with its subject
		default:
			return false
		}
	}
	return ended
}

// quietEndCues: a sentence that ends quiet time holds one of these ("you can talk again",
// "you're allowed to speak", "no more quiet time", "back to normal", "unmute").
var quietEndCues = words2set("again can may allowed normal more unmute unmuted over resume away")

// quietReleased: the speaker says quiet is no longer needed — "you don't have to be quiet
// anymore", "no need to stay silent now", "you needn't keep quiet any longer". Only quiet's
// own words, said to be over: "you don't have to talk" and "you don't have to be quiet"
// release nothing.
func quietReleased(toks []string, raw string) bool {
	rest := toks
	if len(rest) > 0 && rest[0] == "you" {
		rest = rest[1:]
	}
	cut := false
	for _, lead := range quietReleaseLeads {
		if hasPrefix(rest, lead) {
			rest, cut = rest[len(lead):], true
			break
		}
	}
	if !cut || len(rest) == 0 {
		return false
	}
	if quietHold[rest[0]] {
		rest = rest[1:] // "be", "stay", "keep"
	}
	// "anymore", "any longer", "now" say it was asked for before and is over: "you don't
	// have to be quiet" alone is no request to end anything.
	return len(rest) > 0 && (rest[0] == "quiet" || rest[0] == "silent" || rest[0] == "muted" || rest[0] == "whisper") &&
		only(rest[1:], quietReleaseFill) && (anyOf(toks, quietReleaseMarks) || anyOf(strings.Fields(raw), quietReleaseMarks)) // "now" is a softener normalizing takes off
}

var (
	quietReleaseLeads = [][]string{{"do", "not", "have", "to"}, {"do", "not", "need", "to"}, {"do", "not", "got", "to"},
		{"have", "not", "got", "to"}, {"no", "need", "to"}, {"need", "not"}, {"no", "longer", "have", "to"},
		{"no", "longer", "need", "to"}, {"are", "not", "required", "to"}}
	quietHold         = words2set("be stay keep remain")
	quietReleaseFill  = words2set("anymore any more longer now again reachy so please its ok okay fine all")
	quietReleaseMarks = words2set("anymore more longer now")
)

// reasonAfter splits toks into a request and the reason said after it without a comma
// ("hush now the little ones are napping", "you can talk now the meeting's over"): the first
// split whose head ok accepts and whose rest is an afterthought (compound_reasons.go).
func (t *Table) reasonAfter(toks []string, ok func([]string) bool) (head, reason []string, found bool) {
	for i := 1; i+1 < len(toks); i++ {
		tail := toks[i:]
		if !reasonLeads[tail[0]] && t.vocab.people[tail[0]] == "" && !kinWords[tail[0]] && !possessiveKin(tail[0]) {
			continue // a reason opens with its subject
		}
		if contains(tail, "not") || contains(tail, "never") {
			continue // a reason's negation would be the request's: "say could you not talk"
		}
		if ok(toks[:i]) && (t.afterthought(Normalized{Text: strings.Join(tail, " "), toks: tail}) || t.sleeperReason(tail)) {
			return toks[:i], tail, true
		}
	}
	return toks, nil, false
}

// stopOtherwise: a stop said in another language ("cállate por favor", "tais-toi", "sei
// still bitte": stop.foreign with stop.please and nothing else) or put off ("not now,
// reachy": stop.later, the whole sentence) stops the robot at once, like "stop".
func (t *Table) stopOtherwise(n Normalized, toks []string, m Mentions) (string, bool) {
	lx := t.vocab.lex
	if m.lex&t.vocab.lexGate.stop != 0 && len(toks) <= 6 {
		used := make([]bool, len(toks))
		hits := lx.cover(toks, used, "stop.foreign", "stop.please")
		foreign := false
		for _, h := range hits {
			foreign = foreign || h.set == "stop.foreign"
		}
		if foreign && !slices.Contains(used, false) {
			return "stop in another language (" + hitWords(hits...) + ")", true
		}
	}
	if l := lx["stop.later"].at(toks, 0); l > 0 && (only(toks[l:], stopLaterFill) ||
		reasonLeads[toks[l]] && t.afterthought(Normalized{Text: strings.Join(toks[l:], " "), toks: toks[l:]})) {
		return "a stop put off (stop.later \"" + strings.Join(toks[:l], " ") + "\")", true // "not now robot", "not now I'm busy"
	}
	// "not now" loses its "now" to normalizing (a softener at the end): the raw words decide.
	if len(toks) == 1 && toks[0] == "not" && n.Negated {
		raw := strings.FieldsFunc(n.raw, func(r rune) bool { return !(r >= 'a' && r <= 'z') })
		for l := min(len(raw), 4); l >= 2; l-- {
			if lx["stop.later"].at(raw, 0) == l {
				return "a stop put off (stop.later \"" + strings.Join(raw[:l], " ") + "\")", true
			}
		}
	}
	return "", false
}

// stopLaterFill may follow "not now": who it is said to, and a reason's first words.
var stopLaterFill = words2set("robot please thanks thank you buddy mate love dear sweetie honey ok okay")

// stopForSomeone: toks[i:] says someone of the home is busy or asleep ("dad is on a call",
// "mum is in a meeting", "grandpa is sleeping": stop.reasons), after a stop word.
func (t *Table) stopForSomeone(toks []string, i int) bool {
	rest := toks[i+1:] // "dad's on a call": the 's folded into the name
	w := toks[i]
	switch {
	case (t.vocab.people[w] != "" || kinWords[w]) && stopSubjectVerbs[toks[i+1]]:
		rest = toks[i+2:]
	case len(w) < 4 || w[len(w)-1] != 's' || t.vocab.people[w[:len(w)-1]] == "" && !kinWords[w[:len(w)-1]]:
		return false
	}
	if !anyOf(toks[:i], stopCore) {
		return false
	}
	hit, ok := t.vocab.lex.find(rest, "stop.reasons")
	return ok && !stopReasonsWeak[hit.phrase] && !contains(toks[i:], "not") && !anyOf(toks[i:], pastWords)
}

var (
	stopSubjectVerbs = words2set("is has")
	// stopReasonsWeak go with a stop without saying why: "stop it now, dude"
	stopReasonsWeak = words2set("please now already man dude enough")
)
