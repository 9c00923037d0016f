package intents

import (
	"fmt"
	"strings"
)

// Context is what the router knows about the caller.
type Context struct {
	// DeviceRoom is the room of the device that heard the sentence; "here" means this room.
	// Empty means the home's configured device_room.
	DeviceRoom string
}

// Rule names the pattern that matched.
type Rule struct {
	Intent  string `json:"intent"`
	Index   int    `json:"index"` // position of the pattern in the intent, from 0; -1: the frame router
	Pattern string `json:"pattern"`
	Where   string `json:"where"` // file:line of the pattern (of the intent's entry, for the frame router)
}

// Pending is an intent waiting for the answer to a clarifying question.
type Pending struct {
	Intent  string            `json:"intent"`
	Args    map[string]string `json:"args"`
	Missing string            `json:"missing"` // the argument the question asks for
	// Unit is the unit a duration question named ("How many minutes?"): a bare number in the
	// answer counts in it.
	Unit string `json:"unit,omitempty"`
}

// Decision is the router's answer: which intent, with which arguments, and why.
type Decision struct {
	Intent     string            `json:"intent"`
	Args       map[string]string `json:"args"`
	Kind       Kind              `json:"kind"`
	Scope      string            `json:"scope,omitempty"`
	Rule       *Rule             `json:"rule,omitempty"`
	Doctrine   []string          `json:"doctrine,omitempty"`  // why the doctrine changed the result
	NotActed   string            `json:"not_acted,omitempty"` // why a sentence that spoke of an action did not act
	Prompt     string            `json:"prompt,omitempty"`    // for clarify: the question to ask
	Pending    *Pending          `json:"pending,omitempty"`
	Mentions   *Mentions         `json:"mentions,omitempty"` // what the frame router found
	Normalized Normalized        `json:"normalized"`
}

// Route decides the intent for a transcript. It is deterministic and never fails: anything
// the table does not cover is a general question. A fault in the router itself (a panic: a
// bug) is answered as unclear — nothing acts, nothing reaches the agent — and said in the
// decision's doctrine, so the caller can log it; it never takes the broker down.
func (t *Table) Route(transcript string, ctx Context) (d Decision) {
	defer func() {
		if p := recover(); p != nil {
			d = t.unclear(Normalized{Text: transcript}, "", fmt.Sprintf("router fault (%v)", p))
			d.Doctrine = append([]string{RouterFault}, d.Doctrine...)
		}
	}()
	return t.routeTranscript(transcript, ctx)
}

// routeTranscript is routeSentence, then, for a sentence that reached nobody, the reading of
// a small child's speech (soundalike.go) or of another language (foreign.go).
func (t *Table) routeTranscript(transcript string, ctx Context) Decision {
	d := t.routeSentence(transcript, ctx)
	if s, ok := t.oneRequestAmongSentences(transcript, d, ctx); ok {
		d = s // "Could you put the kitchen light on? I can't see a thing.": one request among asides (sentences.go)
	} else if !Acting(d) && mayHoldSentences(transcript) {
		if c, ok := t.correctedAcrossSentences(transcript, ctx); ok {
			d = c // "Timer for the rice, fifteen minutes. No, it's the brown rice. Make it forty." (sentences_corrected.go)
		} else if d.Intent == IntentUnclear {
			if q, ok := t.worldQuestionAmongAsides(transcript, ctx); ok {
				d = q // "How long do you cook collard greens? My mama did hers all day." (sentences_question.go)
			}
		}
	}
	if d.Intent == IntentQuiet && mayHoldSentences(transcript) {
		if q, ok := t.quietLengthAfter(transcript, d); ok {
			d = q // "Hush up for a little while, honey. Say about an hour." (sentences_corrected.go)
		}
	}
	if (Acting(d) || t.asksToAct(d)) && mayHoldSentences(transcript) && sentenceTakesBack(transcript) {
		return t.neverActs(d.Normalized, d, actTakenBack) // "Could you turn off the light? Never mind."
	}
	if d.Kind == KindRead && t.someForeignWord(d.Normalized.tokens(), transcript) && t.mostlyForeign(transcript) {
		// "abbu ko call karo": read in English it asked about dad; in its language it is a call
		if c, ok := t.readAsForeign(transcript, d.Normalized, ctx); ok && understood(c) && c.Intent != d.Intent {
			return c
		}
	}
	if d.Intent == IntentClarify && d.Pending != nil && d.NotActed == "" || d.Intent == IntentUnclear && d.NotActed != "" {
		// Hindi said around English nouns ("light band karo": "band" is no English verb here)
		// asks something else as said, or is left undone for words that are no house words
		// ("bachchon ke kamre ki light band karo"); read in its language, it is what was asked
		// (a switch that still asks which room asks that).
		if c, ok := t.readAsForeign(transcript, d.Normalized, ctx); ok && understood(c) &&
			(c.Intent != IntentClarify || d.Pending == nil || c.Pending.Intent != d.Pending.Intent) {
			return c
		}
	}
	if understood(d) || d.NotActed != "" {
		return d
	}
	if c, ok := t.readAsChildSpeech(transcript, d.Normalized, ctx); ok {
		return c
	}
	if c, ok := t.readAsForeign(transcript, d.Normalized, ctx); ok {
		return c // "apaga la luz de la cocina"
	}
	return d
}

// RouterFault opens the doctrine of a decision made after the router failed.
const RouterFault = "router fault: answered as unclear"

func (t *Table) routeSentence(transcript string, ctx Context) Decision {
	n := normalize(transcript, t.vocab.wake)
	if n.Text == "" {
		if n.Wake {
			d := t.decide(t.byName[IntentGreeting], map[string]string{}, nil, n)
			d.Doctrine = append(d.Doctrine, "only the wake phrase was said: greet and listen")
			return d
		}
		return Decision{Intent: IntentNone, Args: map[string]string{}, Kind: KindMeta, Normalized: n}
	}
	said := n.Text
	if c, ok := t.selfCorrect(n); ok {
		n = c
	}
	if c, ok := t.commandRestart(n); ok {
		n = c // "turn on the kit turn off the office light": the command begun again is the one meant
	}
	d := t.route(n, ctx)
	if n.Deep && (d.Intent == IntentUnclear || d.Kind == KindRead && (d.Scope == ScopeHouseRead)) && d.Mentions != nil &&
		len(d.Mentions.Rooms) == 0 && !d.Mentions.Here {
		// "think step by step: if my mom is 40 ...": asked to think, about no room of the
		// home: a question for the stronger model.
		ask := t.ask(n, nil)
		ask.Doctrine = append([]string{"asked to think hard, naming no room of the home: " + d.Intent + " becomes a deep question"}, ask.Doctrine...)
		d = ask
	}
	if n.Corrected {
		d.Doctrine = append([]string{"self-correction: \"" + said + "\" is taken as \"" + n.Text + "\""}, d.Doctrine...)
	}
	// Quoted, relayed and conditional commands never act: what they would do is offered.
	acts := Acting(d) || t.asksToAct(d)
	if acts && !t.homeOwn(d) {
		if act := t.notARequestToMe(n.tokens()); act != "" {
			return t.neverActs(n, d, act) // "turn off the kitchen light just kidding", "..., mum always says"
		}
	}
	if !acts && (d.Kind == KindMeta || d.Kind == KindAsk || speechWords[n.tokens()[0]]&swQuote == 0) {
		return d // nothing to stop, nothing quoted: most sentences
	}
	act, quoted := t.speechAct(n)
	if act != "" && acts && !t.homeOwn(d) {
		return t.neverActs(n, d, act)
	}
	if act == actQuoted && len(quoted) > 0 && !t.homeOwn(d) && d.Intent != IntentGeneralAsk && d.Intent != IntentDeepAsk && d.Kind != KindMeta {
		ask := t.ask(n, nil)
		ask.Doctrine = append([]string{actQuoted + ": the agent may say it"}, ask.Doctrine...)
		return ask
	}
	return d
}

// asksToAct: a clarifying question whose answer would complete an action ("Which room?" for
// a light): answering it must not act on a sentence that never could.
func (t *Table) asksToAct(d Decision) bool {
	if d.Intent != IntentClarify || d.Pending == nil {
		return false
	}
	in, ok := t.byName[d.Pending.Intent]
	return ok && Acting(Decision{Intent: in.Name, Kind: in.Kind})
}

// homeOwn reports whether a decision came from one of the home's own intents: its patterns
// are the home's word, and the speech-act rules leave it alone.
func (t *Table) homeOwn(d Decision) bool {
	in, ok := t.byName[d.Intent]
	return ok && !in.Builtin
}

// route decides a normalized, non-empty sentence.
func (t *Table) route(n Normalized, ctx Context) Decision {
	// Whole-sentence patterns first: a home's own intents (that is how a parent adds one),
	// then the built-in ones (time, date, stop, expressions, timers ...).
	if d, ok := t.match(n, ctx, false); ok {
		return d
	}
	var infoBuf [32]wordInfo // the sentence's word-index entries: its clauses' words are runs of its words
	var info []wordInfo
	if toks := n.tokens(); len(toks) <= len(infoBuf) {
		info = t.wordInfos(infoBuf[:0], toks)
	}
	m := t.mentionsOf(n, info)
	// No built-in pattern names a light or the AC: a sentence that does skips them.
	if !m.named {
		if d, ok := t.match(n, ctx, true); ok {
			return d
		}
	}
	// A question about the world that mentions a person or a device is the agent's.
	if word, ok := t.aboutWorld(n, m); ok {
		d := t.ask(n, nil)
		d.Mentions = m.ref()
		d.Doctrine = append([]string{"a question about the world (" + hitWords(word) + "): what it mentions is not this home's"}, d.Doctrine...)
		return d
	}
	// A timer sentence is read whole: "set a timer for the eggs, seven minutes".
	if d, ok := t.timerFrame(n, m, ctx); ok {
		return d
	}
	// So are emergencies, calls back, privacy mode and games, from their lexicons.
	if d, ok := t.familyFrame(n, m, ctx); ok {
		return d
	}
	if g := t.vocab.lexGate; m.lex&(g.call|g.privacy|g.game|g.quiet) != 0 && !m.named {
		if c, ok := t.reasonCut(n); ok {
			if d, ok := t.familyFrame(c, m, ctx); ok && !(gameStart(d.Intent) && gameResultSaid(n.tokens())) { // "start simon says, the baby is asleep"
				d.Normalized = n
				d.Doctrine = append(d.Doctrine, "a reason said after the request ("+strings.Join(n.tokens()[len(c.tokens()):], " ")+")")
				return d
			}
		}
	}
	// A sentence of several parts is never acted on in part.
	if d, ok := t.compound(n, ctx, m.lex, info); ok {
		return d
	}
	if m.lex&t.vocab.lexGate.farewell != 0 {
		if intent, hit, ok := t.farewellFirst(n); ok { // "thank you for the light": thanks, not a read
			d := t.decide(t.byName[intent], map[string]string{}, nil, n)
			d.Doctrine = append(d.Doctrine, "a farewell or thanks that asks for nothing after it ("+hitWords(hit)+"): "+intent)
			return d
		}
	}
	m.whole = true
	if m.lex&t.vocab.lexGate.stopWords != 0 {
		if d, ok := t.quietAfterReason(n); ok {
			return d // "dad's on a work call shush": the calendar's words are the reason (stop_words.go)
		}
	}
	if d, ok := t.frames(n, m, ctx, false); ok { // the timer frame was tried above
		return d
	}
	if m.lex&t.vocab.lexGate.farewell != 0 { // the cheap test first: farewellAfter is read only with a farewell word
		if intent, hit, ok := t.farewellAfter(n); ok {
			d := t.decide(t.byName[intent], map[string]string{}, nil, n)
			d.Doctrine = append(d.Doctrine, "a statement that ends in a farewell ("+hitWords(hit)+"): "+intent)
			return d
		}
	}
	if d, ok := t.stopAsked(n, m); ok {
		return d
	}
	if d, ok := t.clockLead(n); ok {
		return d // "could you tell me the time please I've left my glasses upstairs" (clock_lead.go)
	}
	if topic, ok := aboutHome(n, m); ok {
		d := t.unclear(n, topic, "no intent fits a sentence about this home")
		m.withForm(n)
		d.Mentions = m.ref()
		return d
	}
	d := t.ask(n, nil)
	d.Mentions = m.ref()
	return d
}

// frames routes with the frame router: the built-in frames (stop, time, date, help,
// expressions, hang-up, and timers unless the caller tried them), the house frame, then the
// calendar frame.
func (t *Table) frames(n Normalized, m Mentions, ctx Context, timers bool) (Decision, bool) {
	if d, ok := t.builtinFrame(n, m); ok {
		return d, true
	}
	if timers {
		if d, ok := t.timerFrame(n, m, ctx); ok {
			return d, true
		}
	}
	if d, ok := t.houseFrame(n, m, ctx); ok {
		return d, true
	}
	return t.calendarFrame(n, m, ctx)
}

// routeClause routes one part of a compound sentence; known: its words' word-index entries,
// when looked up already (nil: none).
func (t *Table) routeClause(n Normalized, ctx Context, known []wordInfo) (Decision, bool) {
	if d, ok := t.match(n, ctx, false); ok {
		return d, true
	}
	m := t.mentionsOf(n, known)
	if !m.named {
		if d, ok := t.match(n, ctx, true); ok {
			return d, true
		}
	}
	if d, ok := t.familyFrame(n, m, ctx); ok {
		return d, true
	}
	if d, ok := t.frames(n, m, ctx, true); ok {
		return d, true
	}
	return t.stopAsked(n, m) // "the baby's asleep, keep it down": the lexicon's ways of asking for quiet, in a part too
}

// match tries the patterns of the config's intents (builtin false) or of the built-ins, in
// table order: those their index (match_index.go) says the sentence's first byte and length
// may admit.
func (t *Table) match(n Normalized, ctx Context, builtin bool) (Decision, bool) {
	x := t.customIx
	if builtin {
		x = t.builtinIx
	}
	if x == nil || len(x.refs) == 0 {
		return Decision{}, false
	}
	text := n.Text
	textPairs := pairsOf(text)
	textSpaces := strings.Count(text, " ")
	var buf [8]uint64
	set := x.candidates(buf[:0], text, textSpaces)
	// The duration view is worked out when a pattern matched against it is a candidate.
	durText, durPairs, durSpaces, haveDur := "", &textPairs, 0, false
	var dp pairSet
	for k := next(set); k >= 0; k = next(set) {
		if !textPairs.holdsPairs(&x.refs[k]) {
			continue // a literal every match holds is not in the text (patternRef.pairs): the pattern is not read
		}
		in, i := x.refs[k].in, x.refs[k].i
		p := &in.patterns[i] // not a copy
		text, pairs, sp := n.Text, &textPairs, textSpaces
		if p.durations {
			if !haveDur && !x.refs[k].onText.admitsPairs(n.Text, &textPairs) {
				continue // the view would be turned away too (patternRef.onText)
			}
			if !haveDur {
				durText, durSpaces, haveDur = n.durations(), textSpaces, true
				if durText != text {
					dp, durSpaces = pairsOf(durText), strings.Count(durText, " ")
					durPairs = &dp
				}
			}
			text, pairs, sp = durText, durPairs, durSpaces
		}
		if !p.gate.admits(text, sp) || !p.filter.admitsPairs(text, pairs) {
			continue
		}
		m := p.re.FindStringSubmatch(text) // one run of the expression: nil when it does not match
		if m == nil {
			continue
		}
		captured, ok := captures(p.groups, m)
		if !ok {
			continue
		}
		b := t.bind(in, captured, ctx)
		if b.notApplicable || !plausiblePeople(b, n) {
			continue // a capture swallowed the sentence's own words: not this rule
		}
		rule := &Rule{Intent: in.Name, Index: i, Pattern: p.source, Where: p.where}
		return t.doctrine(in, b, rule, n, ctx), true
	}
	return Decision{}, false
}

func captures(groups []string, m []string) (map[string]string, bool) {
	out := map[string]string{}
	for i, name := range groups {
		if name == "" || m[i] == "" {
			continue
		}
		if prev, ok := out[name]; ok && prev != m[i] {
			return nil, false // "turn on the kitchen light in the bedroom": two rooms
		}
		out[name] = m[i]
	}
	return out, true
}

// kinWords name someone a family speaks of without a name the home lists: "where is
// grandma" is about a person (asked about), "where is Fiji" is not.
var kinWords = map[string]bool{"grandma": true, "grandpa": true, "granny": true, "grandad": true, "granddad": true,
	"nan": true, "nana": true, "nanny": true, "gran": true, "uncle": true, "aunt": true, "auntie": true, "aunty": true,
	"brother": true, "sister": true, "son": true, "daughter": true, "cousin": true, "neighbour": true, "neighbor": true,
	"husband": true, "wife": true, "boyfriend": true, "girlfriend": true, "partner": true, "baby": true, "babysitter": true,
	"nanny's": true, "grandmother": true, "grandfather": true, "mr": true, "mrs": true, "ms": true, "miss": true}

// busyWords make a sentence about someone's time: "is susan busy", "can I call Bob".
var busyWords = map[string]bool{"busy": true, "free": true, "available": true, "meeting": true, "call": true,
	"calendar": true, "schedule": true, "appointment": true, "booked": true, "interrupt": true, "disturb": true}

// plausiblePeople: an unknown person is asked about only when the words could be someone
// the family knows — a kin word ("grandma", "uncle bob"), or one or two words in a sentence
// about someone's time ("is susan busy"). "Where is Fiji?" and "what is Barack Obama doing"
// are general questions.
func plausiblePeople(b binding, n Normalized) bool {
	for _, p := range b.problems {
		if p.arg != "person" || p.why != "unknown" {
			continue
		}
		w := strings.Fields(strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(p.value, "my "), "our "), "the "))
		if len(w) == 0 || len(w) > 2 {
			return false
		}
		if kinWords[w[0]] {
			continue
		}
		busy := false
		for _, t := range n.tokens() {
			busy = busy || busyWords[t]
		}
		if !busy || len(w) > 1 {
			return false
		}
	}
	return true
}

// doctrine is the one place where a sentence's grammar can overrule its pattern.
func (t *Table) doctrine(in *Intent, b binding, rule *Rule, n Normalized, ctx Context) Decision {
	if in.Acts() && (n.Question || n.Negated) {
		why := formNeverActs[FormQuestion]
		if n.Negated {
			why = formNeverActs[FormNegated]
		}
		return t.fallTo(in, b, rule, n, ctx, why)
	}
	return t.settle(in, b, rule, n)
}

// fallTo sends a write that must not act to its read (or, without one, to general.ask).
func (t *Table) fallTo(in *Intent, b binding, rule *Rule, n Normalized, ctx Context, why string) Decision {
	target := in.Fallback
	if target == "" {
		d := t.ask(n, rule)
		d.Doctrine = append([]string{why + ": " + in.Name + " becomes a general question"}, d.Doctrine...)
		d.NotActed = why
		return d
	}
	fb := t.byName[target]
	captured := map[string]string{}
	for k, v := range b.args {
		if _, ok := fb.Arg(k); ok {
			captured[k] = v
		}
	}
	for _, p := range b.problems { // keep what the sentence said, even if the write rejected it
		if p.value != "" {
			if _, ok := fb.Arg(p.arg); ok {
				captured[p.arg] = p.value
			}
		}
	}
	d := t.settle(fb, t.bind(fb, captured, ctx), rule, n)
	d.Doctrine = append([]string{fmt.Sprintf("%s: %s falls to the read %s", why, in.Name, fb.Name)}, d.Doctrine...)
	d.NotActed = why
	return d
}

func (t *Table) decide(in *Intent, args map[string]string, rule *Rule, n Normalized) Decision {
	return Decision{Intent: in.Name, Args: args, Kind: in.Kind, Scope: in.Scope, Rule: rule, Normalized: n}
}

// ask sends free text to the lean agent: the only place free text goes.
func (t *Table) ask(n Normalized, rule *Rule) Decision {
	name, why := IntentGeneralAsk, "no rule matched: free text goes to "+IntentGeneralAsk // constants: no string built per call
	if n.Deep {
		name, why = IntentDeepAsk, "no rule matched: free text goes to "+IntentDeepAsk
	}
	q := n.Clean
	if q == "" {
		q = n.Text
	}
	d := t.decide(t.byName[name], map[string]string{"question": q}, rule, n)
	if rule == nil {
		d.Doctrine = append(d.Doctrine, why)
	}
	return d
}
