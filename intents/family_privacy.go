package intents

import "strings"

// privacyByEffect: privacy mode asked for by what it does to the people who would call or
// look in, not by its name — "make it so dad can't video in", "I'd rather nobody could
// peek in through the camera", "nobody's to ring through till after supper", "ok, people
// can call you again" — and privacy mode named with its purpose after "so" ("turn privacy
// off so mum can call"). A request opens with its request words; the same effect said as
// a statement ("nobody can call in anyway", "people can call you on weekends") is what
// is, and nothing is set (docs/intents.md, "Privacy said by its effect").
func (t *Table) privacyByEffect(n Normalized, toks []string, m Mentions) (Decision, bool) {
	if m.lex&t.vocab.lexGate.privacy == 0 && !callerOrLookVerbs.any(toks) {
		return Decision{}, false // no privacy word, no calling or looking in: most sentences
	}
	if n.Question || reported(toks) || anyOf(toks, pastWords) || len(toks) < 3 {
		return Decision{}, false
	}
	if i := purposeAt(toks); i > 0 && t.vocab.lex.has(toks[:i], "privacy.names") {
		head := n
		head.toks = toks[:i]
		head.Text = strings.Join(head.toks, " ")
		head.raw = head.Text
		return t.privacyFrame(head, head.toks, m) // "turn privacy mode off so mum can call"
	}
	lead := stripRequestLeads(toks)
	state, why := "", ""
	switch {
	case nobodyModal(lead):
		// "nobody should call in now", "nobody must be able to see me": an order, as "nobody is to"
		if blocked, verb, ok := callerEffect(lead); ok && blocked {
			state, why = "on", "nobody may "+verb
		}
	case hasPrefix(lead, []string{"nobodys", "to"}) || hasPrefix(lead, []string{"nobody", "is", "to"}) ||
		hasPrefix(lead, []string{"no", "one", "is", "to"}) || hasPrefix(lead, []string{"noone", "is", "to"}):
		// "nobody's to ring through": an order, as "you are to" is
		to := slicesIndex(lead, "to")
		if to+1 < len(lead) && callerVerbs[lead[to+1]] {
			state, why = "on", "nobody is to "+lead[to+1]
		}
	default:
		for _, op := range effectOpeners {
			if !hasPrefix(lead, op) {
				continue
			}
			if blocked, verb, ok := callerEffect(lead[len(op):]); ok {
				state, why = "off", strings.Join(op, " ")+" ... can "+verb
				if blocked {
					state, why = "on", strings.Join(op, " ")+" ... cannot "+verb
				}
			}
			break
		}
		if state == "" && permissionOpener(n) && rawHas(n, "again", "now") {
			// "ok, calls can come through again": a permission given now, not what is
			if blocked, verb, ok := callerEffect(lead); ok && !blocked {
				state, why = "off", "ok ... can "+verb+" again"
			}
		}
	}
	if state == "" {
		return Decision{}, false
	}
	return t.familyDecision("privacy.set", map[string]string{"state": state}, n, m, FormImperative, "privacy mode by its effect ("+why+")")
}

// effectOpeners open a request that says what should be so: "make it so ...", "I'd
// rather ...".
var effectOpeners = [][]string{
	{"make", "it", "so", "that"}, {"make", "it", "so"}, {"set", "it", "up", "so"}, {"set", "it", "so"},
	{"i", "would", "rather"}, {"we", "would", "rather"}, {"i", "would", "prefer", "it", "if"}, {"i", "would", "prefer", "if"},
	{"i", "would", "prefer"}, {"i", "would", "like", "it", "if"},
}

// permissionOpener: the transcript as heard opens with "ok", "okay", "right", "alright" —
// the word that gives a permission now ("ok people can call you again").
func permissionOpener(n Normalized) bool {
	w := strings.ToLower(strings.TrimLeft(n.raw, " \t"))
	for _, o := range []string{"ok ", "ok,", "okay ", "okay,", "right ", "right,", "alright ", "alright,", "all right ", "all right,"} {
		if strings.HasPrefix(w, o) {
			return true
		}
	}
	return false
}

// rawHas: one of words is a word of the transcript as heard (normalisation takes a last
// "now" off).
func rawHas(n Normalized, words ...string) bool {
	for _, f := range strings.Fields(strings.ToLower(n.raw)) {
		f = strings.Trim(f, ".,!?;:'\"")
		for _, w := range words {
			if f == w {
				return true
			}
		}
	}
	return false
}

// purposeAt is where "so (that) SUBJECT can/cannot ..." starts after a request, or 0.
func purposeAt(toks []string) int {
	for i := 2; i+2 < len(toks); i++ {
		if toks[i] != "so" {
			continue
		}
		rest := toks[i+1:]
		if len(rest) > 0 && rest[0] == "that" {
			rest = rest[1:]
		}
		if _, _, ok := callerEffect(rest); ok {
			return i
		}
		for j := 1; j < len(rest) && j <= 4; j++ {
			if effectModals[rest[j]] {
				return i
			}
		}
	}
	return 0
}

// callerEffect reads "SUBJECT can/cannot VERB": whether callers are kept out ("dad
// cannot video in", "nobody could peek in") and the verb, when the verb is one of calling
// or of looking in.
func callerEffect(toks []string) (blocked bool, verb string, ok bool) {
	if len(toks) < 3 {
		return false, "", false
	}
	if toks[0] == "i" || toks[0] == "we" || toks[0] == "you" || toks[0] == "u" {
		return false, "", false // "make it so I can call mum": the speaker calls out, no one calls in
	}
	nobody := toks[0] == "nobody" || toks[0] == "noone" || hasPrefix(toks, []string{"no", "one"}) || hasPrefix(toks, []string{"no", "1"})
	for k := 1; k < len(toks)-1 && k <= 4; k++ {
		if !effectModals[toks[k]] {
			continue
		}
		blocked = negModals[toks[k]]
		v := k + 1
		if toks[v] == "not" {
			blocked, v = true, v+1
		}
		if hasPrefix(toks[v:], []string{"be", "able", "to"}) {
			v += 3
		}
		if v >= len(toks) {
			return false, "", false
		}
		w := toks[v]
		looks := lookVerbs[w] && (v+1 < len(toks) && toks[v+1] == "in" || anyOf(toks, wordSet{"camera": true, "robot": true, "robots": true, "screen": true, "video": true}))
		through := (w == "come" || w == "get") && v+1 < len(toks) && toks[v+1] == "through"
		if !callerVerbs[w] && !looks && !through {
			return false, "", false
		}
		return blocked != nobody, w, true
	}
	return false, "", false
}

var effectModals = words2set("can cannot cant could couldnt will wont would wouldnt should shouldnt may")

var negModals = words2set("cannot cant couldnt wont wouldnt shouldnt")

// callerVerbs are what a caller does to reach the robot; lookVerbs what someone does to
// see through its camera (with "in", or the camera named).
var callerVerbs = words2set("call ring phone video facetime dial videocall buzz skype")

var lookVerbs = words2set("see look peek peep watch spy")

// callerOrLookVerbs: privacyByEffect reads nothing further without one (or a privacy word).
var callerOrLookVerbs = unionOf(callerVerbs, lookVerbs)

func slicesIndex(toks []string, w string) int {
	for i, x := range toks {
		if x == w {
			return i
		}
	}
	return -1
}

// privacyFrame: privacy mode named, or the calls it keeps out with a verb that blocks or
// allows them ("block the video calls for now"). The state is the last state word said; a
// name alone ("privacy please") turns it on.
func (t *Table) privacyFrame(n Normalized, toks []string, m Mentions) (Decision, bool) {
	lx := t.vocab.lex
	name, okName := lx.find(toks, "privacy.names")
	calls, okCalls := lx.find(toks, "privacy.calls")
	if !okName && !okCalls {
		return Decision{}, false
	}
	if !okName && n.Negated && (contains(toks, "want") || contains(toks, "need")) && !reported(toks) && !conditional(toks) &&
		(hasPrefix(toks, []string{"i", "do", "not"}) || hasPrefix(toks, []string{"we", "do", "not"})) && !anyOf(toks, callsEnding) &&
		len(toks) > 4 && unwantedCalls[toks[4]] {
		// "I don't want any calls coming in for a while": the calls kept out
		return t.familyDecision("privacy.set", map[string]string{"state": "on"}, n, m, FormImperative, "calls not wanted ("+hitWords(calls)+")")
	}
	used := make([]bool, len(toks))
	negated := n.Negated || noNeed(toks)
	state := ""
	var stateHit, either lexHit
	eitherOfMode := false
	if okName {
		// A state word in the reason said after the request is not the request's ("go
		// private, we've got guests over"): only the request's own words set the state.
		head := toks[:len(cutReason(toks))]
		if mayBeCompound(n) {
			for _, c := range t.pieces(n) {
				if ct := c.tokens(); lx.has(ct, "privacy.names") {
					head = ct // "go private, my friends are over": the part that names it
					break
				}
			}
		}
		for _, h := range lx.cover(head, make([]bool, len(head)), "privacy.names", "privacy.calls", "privacy.off", "privacy.on", "privacy.either") {
			switch h.set {
			case "privacy.either":
				// "close the privacy", not "close the camera for privacy": the verb is said of the mode
				if nh, ok := lx.find(head, "privacy.names"); ok && (nh.at == h.at+1 || nh.at == h.at+2 && possessiveOrThe[head[h.at+1]]) {
					either, eitherOfMode = h, true
				}
			case "privacy.on":
				if state != "" && h.at > stateHit.at && privacyWishes[h.phrase] {
					continue // "privacy off, we want to see dad": a wish after the mode's state is the reason's
				}
				state, stateHit = "on", h
			case "privacy.off":
				state, stateHit = "off", h
			}
		}
	} else {
		if k := calls.at + calls.n; k < len(toks) && (t.vocab.people[toks[k]] != "" || kinWords[toks[k]] || parentWords[toks[k]]) {
			return Decision{}, false // "nobody call mom, she's in a meeting": calls to someone, not to the robot
		}
		// The calls it keeps out: a verb that blocks them turns it on, one that allows them
		// off; "don't let anyone call" blocks.
		for _, h := range lx.cover(toks, used, "privacy.calls", "privacy.block", "privacy.allow") {
			switch h.set {
			case "privacy.block":
				state, stateHit = "on", h
			case "privacy.allow":
				state, stateHit = "off", h
				if negated {
					state, negated = "on", false
				}
			}
		}
		if stopBlocking(toks) {
			state, stateHit = "off", calls // "stop blocking the video calls", a learner's "stop to block ...": let them through
		}
		if nobodyStatement(toks) {
			return Decision{}, false // "nobody called in today", "nobody rings through anyway": what is, not a request
		}
		if state == "" && (strings.HasPrefix(calls.phrase, "nobody ") || strings.HasPrefix(calls.phrase, "no 1 ")) {
			state, stateHit = "on", calls // "nobody call the robot tonight": the block is in the phrase
		}
		if state == "" {
			return Decision{}, false // "the calls were fun" is not privacy mode
		}
		if state == "on" && hangVerbs[toks[stateHit.at]] && (calls.phrase == "video call" || calls.phrase == "call") &&
			calls.at > 0 && (toks[calls.at-1] == "the" || toks[calls.at-1] == "this" || toks[calls.at-1] == "our") {
			return Decision{}, false // "stop the video call with grandma": the call in progress ends (session.end), no privacy mode
		}
		name = calls
	}
	if okName {
		lx.cover(toks, used, "privacy.names", "privacy.calls", "privacy.off", "privacy.on", "privacy.either")
	}
	askState := state == "" && eitherOfMode
	if state == "" {
		state = "on"
	}
	unexplained := 0
	head := toks[:len(cutReason(toks))]
	for i, w := range head {
		if (w == "until" || w == "till") && i+1 < len(head) && only(head[i+1:], quietUntil, frameFill) {
			head = head[:i] // "enable privacy until I say otherwise": until it is ended
			break
		}
	}
	for i, w := range head { // "no calls please, I am in the bath": the reason is not counted
		if !used[i] && !familyFill[w] && !isDigits(w) && w != "mode" && w != "for" && w != "while" && w != "minutes" &&
			!privacyTimes[w] && !privacyWish[w] {
			unexplained++
		}
	}
	form := t.requestForm(t.privacyTimeless(n), timeless(toks), func(ct []string) bool { return lx.has(ct, "privacy.names") || lx.has(ct, "privacy.calls") })
	if form == FormNegated && !negated || form == FormStatement && (!okName && (stateHit.at == 0 || only(toks[:stateHit.at], privacyTimes, wordSet{"this": true})) || okName && name.at == 0 && !anyOf(toks, finiteSet) ||
		okName && stateHit.phrase != "" && stateHit.at == 0 && name.at > 0 && name.at <= 2) { // "no more privacy mode, we're done": the state said first
		form = FormImperative // "don't let anyone video call", "no more video calls today"
	}
	if form != FormImperative {
		lead := stripRequestLeads(toks)
		if (hasPrefix(lead, []string{"i", "need"}) || hasPrefix(lead, []string{"i", "want"}) || hasPrefix(lead, []string{"we", "need"}) ||
			hasPrefix(lead, []string{"i", "would", "rather"}) || hasPrefix(lead, []string{"i", "would", "prefer"}) ||
			hasPrefix(lead, []string{"we", "would", "rather"})) && !n.Negated {
			form = FormImperative // "I need some privacy"
		}
	}
	if form != FormImperative || unexplained > maxFamilyUnexplained && !mayBeCompound(n) {
		return Decision{}, false
	}
	if askState {
		return t.privacyOnOrOff(n, m, form, either), true
	}
	return t.familyDecision("privacy.set", map[string]string{"state": state}, n, m, form, "privacy mode ("+hitWords(name, stateHit)+")")
}

var possessiveOrThe = words2set("the my your our this")

// privacyOnOrOff asks which way privacy mode is meant when the only verb said goes either
// way ("close the privacy"): a guess could let a call in, or keep the family's call out.
func (t *Table) privacyOnOrOff(n Normalized, m Mentions, form string, verb lexHit) Decision {
	in := t.byName["privacy.set"]
	d := t.decide(t.byName[IntentClarify], map[string]string{}, &Rule{Intent: in.Name, Index: -1, Pattern: "family frame (intents/family_frames.go)", Where: in.where}, n)
	d.Pending = &Pending{Intent: in.Name, Args: map[string]string{}, Missing: "state"}
	d.Prompt = "Privacy mode on or off?"
	m.Form = form
	d.Mentions = m.ref()
	d.Doctrine = append([]string{"frame: privacy mode with a verb that goes either way (" + hitWords(verb) + "), form " + form + ": asked"}, d.Doctrine...)
	return d
}

// privacyWishes ask for privacy before its name ("I want privacy"); after its state is said
// they belong to the reason ("privacy off, we want to see dad").
var privacyWishes = words2set("want need")

// nobodyModal: "nobody should ...", "no one must ...": an order about what nobody may do.
func nobodyModal(lead []string) bool {
	k := 1
	if hasPrefix(lead, []string{"no", "one"}) || hasPrefix(lead, []string{"no", "1"}) {
		k = 2
	} else if lead[0] != "nobody" && lead[0] != "noone" {
		return false
	}
	return len(lead) > k+2 && (lead[k] == "should" || lead[k] == "must" || lead[k] == "shall")
}

// stopBlocking: "stop blocking ...", "stop to block ..." (a learner's), "quit blocking ...":
// an end to keeping calls out.
func stopBlocking(toks []string) bool {
	return hasPhrase(toks, []string{"stop", "blocking"}) || hasPhrase(toks, []string{"stop", "to", "block"}) ||
		hasPhrase(toks, []string{"quit", "blocking"}) || hasPhrase(toks, []string{"no", "more", "blocking"})
}
