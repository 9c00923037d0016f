package intents

import (
	"slices"
	"strings"
)

// The family frames: emergencies, calls back, privacy mode and games are decided like house
// commands — by what the sentence mentions (words of the lexicons, lexicon.yaml), the people
// of the home, and its form (command.go) — never by one pattern per whole sentence. Each
// frame names the lexicon words that decided in the decision's doctrine, so `reachyctl
// route` shows them. A frame that does not fit returns false and the next one reads the
// sentence; only a request (the command rule) makes any of them act.

// familyFill are words any family sentence may carry without changing what it asks.
var familyFill = words2set("a an the it that this is are me us you your i we please now right just so okay ok " +
	"can could would will do tell let know kindly quick quickly again reachy jeeves love mate dear buddy darling " +
	"sweetie honey pal sir madam hey oh well and then for to with my our some bit little time")

// maxFamilyUnexplained is how many words a family command may carry that no list explains.
const maxFamilyUnexplained = 2

// familyFrame tries the family frames in order: an emergency first (it must never be read
// as a call back), then a call back, privacy mode, a game.
func (t *Table) familyFrame(n Normalized, m Mentions, ctx Context) (Decision, bool) {
	toks := n.tokens()
	if len(toks) == 0 || len(toks) > 24 {
		return Decision{}, false
	}
	g := t.vocab.lexGate
	if d, ok := t.privacyByEffect(n, toks, m); ok {
		return d, true // "make it so dad can't video in", "turn privacy off so mum can call"
	}
	if d, ok := t.personOff(n, toks, m); ok {
		return d, true // "bye mommy, turn mommy off"
	}
	if len(m.People) == 1 && len(toks) <= 9 && !m.named {
		if d, ok := t.wantPerson(n, toks, m); ok {
			return d, true // "i want daddy"
		}
	}
	if (n.Question || n.Polite || toks[0] == "i" || calendarParticles[toks[0]]) && (m.Calendar || m.lex&g.calendar != 0) {
		if d, ok := t.calendarAsk(n, toks, m, ctx); ok {
			return d, true // "are mom and dad both busy", "does my mother have anything on"
		}
	}
	playing := m.seen&wcPlay != 0 // "I don't want to play any more": playing, with no game named
	if m.lex&(g.remind|g.emergency|g.secrets|g.call|g.privacy|g.quiet|g.game) == 0 && !playing {
		return Decision{}, false // no key word of any family's lexicon: most sentences
	}
	if m.lex&g.remind != 0 {
		if d, ok := t.reminderFrame(n, toks, m); ok {
			return d, true
		}
	}
	if m.lex&g.emergency != 0 {
		if d, ok := t.emergencyFrame(n, toks, m); ok {
			return d, true
		}
	}
	if m.lex&g.secrets == 0 {
	} else if hit, ok := t.vocab.lex.find(toks, "house.secrets"); ok && (n.Question || indirect(toks) || hasPrefix(toks, []string{"tell", "me"})) {
		d := t.unclear(n, "secret", "a secret of the home asked for ("+hitWords(hit)+")")
		d.Mentions = m.ref()
		return d, true
	}
	if m.named {
		return Decision{}, false // a light or the AC: the house frame's
	}
	if m.lex&g.call != 0 {
		if d, ok := t.callFrame(n, toks, m, ctx); ok {
			return d, true
		}
	}
	if m.lex&g.privacy != 0 {
		if d, ok := t.privacyFrame(n, toks, m); ok {
			return d, true
		}
	}
	if m.lex&g.quiet != 0 || n.Negated && len(toks) > 1 && (stopTalk[toks[0]] || toks[0] == "a" && banNouns[toks[1]]) {
		if d, ok := t.quietWords(n, toks, m); ok {
			return d, true
		}
	}
	if m.lex&g.game == 0 && !playing {
		return Decision{}, false
	}
	return t.gameFrame(n, toks, m)
}

// reminderFrame: "remind me in half an hour to take the laundry out", "ring me in forty five
// seconds", "give me five minutes on the clock for the bath" — a reminder or a wake-up IN a
// length of time is a timer (its task is not kept; a label the home knows is). At a clock
// time ("wake me up at 7 am") it is not: that is said plainly, never guessed.
func (t *Table) reminderFrame(n Normalized, toks []string, m Mentions) (Decision, bool) {
	lx := t.vocab.lex
	lead := stripRequestLeads(toks)
	if len(lead) > 2 && lead[0] == "in" {
		// "in twenty minutes tell me to take the pasta off": the length said first
		if view := strings.Fields(durationView(lead)); len(view) > 2 && strings.HasPrefix(view[1], "~") {
			lead = lead[1+len(strings.Split(strings.TrimPrefix(view[1][1:], "x_"), "_")):]
		}
	}
	remind := m.lex&t.vocab.lexIx.bit["timer.remind"] != 0 && lx["timer.remind"].at(lead, 0) > 0 // lead: a run of toks
	clock, okClock := t.findSaid(m.lex, toks, "timer.clock")
	alarm, okAlarm := t.findSaid(m.lex, toks, "timer.alarm")
	if !remind && !okClock && !okAlarm {
		return Decision{}, false
	}
	if !remind && !okClock {
		// "set an alarm for seven am": an alarm at a clock time is said not to be a timer;
		// an alarm for a length is the patterns' ("set an alarm for 10 minutes")
		_, at := lx.find(toks, "timer.clocktime")
		if !at && !(contains(toks, "at") && slices.ContainsFunc(toks, isDigits)) || n.Negated || n.Question || commandForm(toks, n) != FormImperative {
			return Decision{}, false
		}
		d := t.unclear(n, "timer", "an alarm at a clock time ("+hitWords(alarm)+"): timers here run for a length of time")
		d.Mentions = m.ref()
		d.NotActed = "a clock time, not a length"
		return d, true
	}
	if n.Negated || n.Question || noNeed(toks) || len(toks) > 16 {
		return Decision{}, false
	}
	view := n.durationWords()
	duration := ""
	for i, w := range view {
		if strings.HasPrefix(w, "~") && (okClock || i > 0 && (view[i-1] == "in" || view[i-1] == "after" || view[i-1] == "when")) {
			if _, outcome := parseDuration(w[1:]); outcome == durationOK {
				duration = w[1:]
			}
			break
		}
	}
	in := t.byName["timer.start"]
	if in == nil || in.Unavailable {
		return Decision{}, false
	}
	if duration == "" {
		if _, ok := lx.find(toks, "timer.clocktime"); remind && ok || remind && contains(toks, "at") && slices.ContainsFunc(toks, isDigits) {
			d := t.unclear(n, "timer", "a reminder at a clock time: timers here run for a length of time")
			d.Mentions = m.ref()
			d.NotActed = "a clock time, not a length"
			return d, true
		}
		return Decision{}, false
	}
	if !remind {
		if f := commandForm(toks, n); f != FormImperative {
			return Decision{}, false // "the countdown was ten minutes": a length told, not asked for
		}
	}
	args := map[string]string{"duration": duration}
	for _, w := range toks {
		if l := t.vocab.labels[w]; l != "" {
			args["label"] = l
			break
		}
	}
	why := "a reminder in a length of time"
	if okClock {
		why = "a length on the clock (" + hitWords(clock) + ")"
	}
	return t.familyDecision("timer.start", args, n, m, FormImperative, why)
}

// quietWords: words that ask for quiet (quiet.verbs: "keep it down", "stay silent") with a
// length ("for half an hour") ask for quiet time, whatever reason goes with them ("I'm on a
// work call, stay silent for 20 minutes"). Without a length the stop frame reads them.
func (t *Table) quietWords(n Normalized, toks []string, m Mentions) (Decision, bool) {
	lx := t.vocab.lex
	hit, ok := lx.find(toks, "quiet.verbs")
	if !ok && n.Negated && len(toks) > 1 && stopTalk[toks[0]] {
		hit, ok = lexHit{set: "quiet.verbs", phrase: toks[0], n: 1}, true // "don't speak during dinner": the "don't" is the lead's
	}
	if !ok && n.Negated && len(toks) > 2 && toks[0] == "a" && banNouns[toks[1]] {
		hit, ok = lexHit{set: "quiet.verbs", phrase: "a " + toks[1], n: 2}, true // "not a peep from you for an hour"
	}
	if !ok {
		return Decision{}, false
	}
	if agreementTag(n, toks) {
		n.Question = false // "no speak during the film, ok?"
	}
	if d, ok := t.quietUntil(n, toks, m, hit); ok {
		return d, true
	}
	view := n.durationWords()
	duration, lasting, span := "", false, len(view)
	for i, w := range view {
		if w == "~while" {
			continue // "be quiet while I'm on this call": the conjunction, not "a while"
		}
		if strings.HasPrefix(w, "~") && i > 0 && (view[i-1] == "for" || view[i-1] == "next" || i == hit.at+hit.n ||
			i > hit.at+hit.n && lengthClause(view, i) || // "..., it's like 45 minutes", "it'll take about an hour"
			i > 1 && view[i-2] == "for" && (view[i-1] == "like" || view[i-1] == "about" || view[i-1] == "around")) {
			if only(strings.Split(w[1:], "_"), quietMoments) || i+1 < len(view) && view[i+1] == "ago" {
				return Decision{}, false // "be quiet for a second": the moment only (robot.stop)
			}
			if strings.HasSuffix(w, "_while") {
				lasting = true // "hush for a little while": until it is ended, as "for a while"
			} else {
				duration = w[1:]
			}
			break
		}
		if (w == "for" || w == "all" || w == "the" && i+1 < len(view) && view[i+1] == "whole") && i+1 < len(view) && restOfSpan(view[i+1:]) ||
			w == "all" && i+1 < len(view) && restOfSpan(view[i:]) {
			lasting, span = true, i // "stay silent for the rest of the evening", "be silent the whole afternoon"
			break
		}
	}
	if k := len(view); duration == "" && !lasting && k >= 2 && k-1 > hit.at+hit.n-1 && (view[k-1] == "for" ||
		k >= 3 && view[k-2] == "for" && (view[k-1] == "a" || view[k-1] == "an" || view[k-1] == "like")) {
		duration = "x" // "stay silent for uh for a": a length broken off — asked about, never a default
	}
	if duration == "" && !lasting {
		return Decision{}, false
	}
	used := make([]bool, len(view))
	for i, w := range view {
		used[i] = strings.HasPrefix(w, "~") || w == "next" || w == "the" || i >= span
	}
	// "dad's got calls for the next hour so keep it down": the reason first, then "so"
	so := slices.Index(toks[:hit.at], "so")
	sleeper := false
	if so < 0 && hit.at > 1 && toks[hit.at] == "no" && t.sleeperReason(toks[:hit.at]) {
		so, sleeper = hit.at-1, true // "ada's asleep no noise for two hours": someone asleep, then the ban
	}
	if (so > 1 || sleeper) && !n.Negated && !n.Question && !conditional(toks) && !reported(toks[:so]) && !anyOf(toks[:so], pastWords) {
		for i := range view {
			used[i] = used[i] || view[i] != "so" && i < so || sleeper && i == so
		}
	} else {
		so = -1
	}
	if t.unexplainedBy(view, used, []string{"quiet.verbs", "stop.reasons"}, familyFill, stopFill, frameFill) > maxFamilyUnexplained && !mayBeCompound(n) {
		return Decision{}, false
	}
	// "stay silent for tonight": how long it lasts is no future
	form := t.requestForm(t.privacyTimeless(n), timeless(toks), func(ct []string) bool { return lx.has(ct, "quiet.verbs") })
	if form == FormStatement && hit.at == 0 && hit.n > 1 && quietVerbOpeners[toks[0]] && !n.Negated && !anyOf(toks, pastWords) && !reported(toks) && !conditional(toks) {
		form = FormImperative // "stay silent while I'm on this call, it's like 45 minutes": quiet's own words open it
	}
	if form == FormNegated && hit.at == 0 && (strings.HasPrefix(hit.phrase, "not a ") || strings.HasPrefix(hit.phrase, "do not ")) &&
		!conditional(toks) && !reported(toks) && !anyOf(toks, pastWords) {
		form = FormImperative // "not a peep from you for an hour": the ban is the request
	}
	if so > 0 && form != FormImperative {
		if tail := timeless(toks[so+1:]); tail[0] == "no" || commandForm(tail, Normalized{Text: strings.Join(tail, " "), toks: tail, Polite: n.Polite}) == FormImperative {
			form = FormImperative
		}
	}
	if form != FormImperative {
		return Decision{}, false
	}
	args := map[string]string{"state": "on"}
	if duration != "" {
		args["duration"] = duration
	}
	return t.familyDecision(IntentQuiet, args, n, m, form, "quiet that lasts ("+hitWords(hit)+")")
}

// restOfSpan: "the rest of the day", "tonight", "the whole evening" (a unit the duration view
// marked, "~day", read as its word).
func restOfSpan(view []string) bool {
	words := make([]string, len(view))
	for i, w := range view {
		words[i] = strings.TrimPrefix(w, "~")
	}
	return only(words, quietRest, frameFill) && anyOf(words, quietRest)
}

// familyDecision is a frame's decision with its explanation.
func (t *Table) familyDecision(name string, args map[string]string, n Normalized, m Mentions, form, why string) (Decision, bool) {
	in := t.byName[name]
	if in == nil || in.Unavailable {
		return Decision{}, false
	}
	d := quietPrompt(t.settle(in, t.bind(in, args, Context{}), &Rule{Intent: name, Index: -1, Pattern: "family frame (intents/family_frames.go)", Where: in.where}, n))
	m.Form = form
	d.Mentions = m.ref()
	d.Doctrine = append([]string{"frame: " + why + ", form " + form + ": " + name}, d.Doctrine...)
	return d, true
}

// requestForm is the form of a family sentence across its clauses: a request in one clause
// that names the family, with statements around it ("privacy please, I'm getting changed",
// "call the police, someone's in the garden"), is a request; a clause that is negated,
// reported, conditional, past or future is not.
func (t *Table) requestForm(n Normalized, toks []string, names func([]string) bool, mask ...string) string {
	var named func([]string) bool // a clause that is only the thing's name asks for it
	if len(mask) > 0 {
		named = func(ct []string) bool {
			for _, s := range mask {
				if t.vocab.lex.has(ct, s) {
					return true
				}
			}
			return false
		}
	}
	whole := opened(commandForm(t.masked(toks, mask), n), toks, names)
	if whole == FormImperative || !mayBeCompound(n) && !t.commandAfterStatement(n) {
		return whole
	}
	request := false
	for _, c := range t.pieces(n) {
		ct := c.tokens()
		f := opened(commandForm(t.masked(ct, mask), c), ct, names)
		if !names(ct) && f != FormConditional && f != FormReported {
			continue // a reason said around the request: "I don't want anyone to see me, block the calls"
		}
		switch f {
		case FormImperative:
			request = request || names(ct)
		case FormStatement, FormWish, FormQuestion:
			if named != nil && named(ct) && len(ct) <= 4 && !c.Question && !anyOf(ct, finiteSet) {
				request = true // "hide and seek, you count": the name said as a request
			}
		default:
			return f
		}
	}
	if request {
		return FormImperative
	}
	return whole
}

// pieces are the parts of a sentence between punctuation, each normalized on its own (its
// own negation: "I don't want anyone to see me, block the calls" blocks them).
func (t *Table) pieces(n Normalized) []Normalized {
	parts := t.partsOf(n)
	if parts == nil {
		return []Normalized{n} // "and" inside a name ("hide and seek") parts nothing
	}
	out := make([]Normalized, 0, len(parts))
	for _, pn := range parts {
		if len(pn.tokens()) > 0 {
			out = append(out, pn)
		}
	}
	return out
}

// partsOf is each part of the sentence heard between punctuation (rawParts), normalized on
// its own and with its courtesy taken off; nil when there are fewer than two parts. The
// frames and the compound rule all read them: they are worked out once per sentence, in its
// memo, and never written to.
func (t *Table) partsOf(n Normalized) []Normalized {
	if m := n.memo; m != nil && m.parts != nil && m.partsRaw == n.raw {
		if len(m.parts) == 0 {
			return nil // one part, kept as none
		}
		return m.parts
	}
	var buf [8]string // the parts, only read here
	raw := appendRawParts(buf[:0], n.raw)
	if len(raw) < 2 {
		if n.memo != nil {
			n.memo.parts, n.memo.partsRaw = noParts, n.raw
		}
		return nil
	}
	out := make([]Normalized, len(raw))
	for i, p := range raw {
		out[i], _ = courtesy(normalize(p, t.vocab.wake))
	}
	if n.memo != nil {
		n.memo.parts, n.memo.partsRaw = out, n.raw
	}
	return out
}

// noParts is what a memo keeps for a sentence of one part: empty, not nil (nil is not asked).
var noParts = []Normalized{}

// rawParts splits a sentence at the punctuation that parts clauses (". ! ? ; : ,"),
// dropping empty parts: strings.FieldsFunc's result, without a call per rune.
func rawParts(raw string) []string { return appendRawParts(nil, raw) }

// appendRawParts appends rawParts(raw) to out (a caller's buffer: nothing escapes).
func appendRawParts(out []string, raw string) []string {
	start := -1
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '.', '!', '?', ';', ':', ',':
			if start >= 0 {
				out = append(out, raw[start:i])
				start = -1
			}
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		out = append(out, raw[start:])
	}
	return out
}

// masked replaces the phrases of the named sets by one neutral word, so a name's own words
// do not decide the form ("simon says" is a game, not reported speech).
func (t *Table) masked(toks []string, sets []string) []string {
	if len(sets) == 0 {
		return toks
	}
	used := make([]bool, len(toks))
	hits := t.vocab.lex.cover(toks, used, sets...)
	if len(hits) == 0 {
		return toks
	}
	out := make([]string, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		if !used[i] {
			out = append(out, toks[i])
			continue
		}
		for _, h := range hits {
			if h.at == i {
				out = append(out, "game")
				i += h.n - 1
				break
			}
		}
	}
	return out
}

// opened: a statement that opens with the family's own words ("stay silent for 20
// minutes", "keep it down") is a command in the family's verbs the command rule's lists do
// not hold.
func opened(form string, toks []string, names func([]string) bool) string {
	if form != FormStatement {
		return form
	}
	lead := stripRequestLeads(toks)
	if len(lead) == 0 || notCommandStarts[lead[0]] || !names(lead[:1+min(3, len(lead)-1)]) {
		return form
	}
	for _, w := range lead[1:] {
		if (finiteWords[w] || pastWords[w] || futureWords[w]) && !privacyTimes[w] { // "stay silent for tonight": how long
			return form // "privacy is important": a statement about it
		}
	}
	return FormImperative
}

// unexplainedBy counts the words of toks that none of the lexicon sets, the word sets, the
// home's people or kin words explain.
func (t *Table) unexplainedBy(toks []string, used []bool, sets []string, words ...wordSet) int {
	t.vocab.lex.cover(toks, used, sets...)
	count := 0
	for i, w := range toks {
		if used[i] || t.vocab.people[w] != "" || kinWords[w] || isDigits(w) {
			continue
		}
		ok := false
		for _, s := range words {
			if s[w] {
				ok = true
				break
			}
		}
		if !ok {
			count++
		}
	}
	return count
}
