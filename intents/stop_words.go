package intents

import "strings"

// The lexicon's ways of asking for quiet (stop.words in lexicon.yaml): "give it a rest",
// "hold your horses", "could you keep quiet" stop the robot when no frame took the sentence.

// stopAsked: a sentence no frame took that is a way of asking for quiet from the lexicon
// ("give it a rest", "hold your horses, stop"): the robot stops. Quiet time and the stop
// frame's own words are read first.
func (t *Table) stopAsked(n Normalized, m Mentions) (Decision, bool) {
	toks := n.tokens()
	if m.lex&t.vocab.lexGate.stopWords == 0 || len(toks) > 10 || n.Negated {
		return Decision{}, false
	}
	if d, ok := t.quietAfterReason(n); ok {
		return d, true
	}
	if !t.stopPhrase(toks, n) {
		return Decision{}, false
	}
	in := t.byName["robot.stop"]
	if in == nil || in.Unavailable {
		return Decision{}, false
	}
	d := t.decide(in, map[string]string{}, &Rule{Intent: in.Name, Index: -1, Pattern: "built-in frame (intents/builtin_frames.go)", Where: in.where}, n)
	d.Mentions = m.ref()
	d.Doctrine = append(d.Doctrine, "frame: a way of asking for quiet (stop.words): robot.stop")
	return d, true
}

// stopPhrase: the sentence is a way of asking for quiet from the lexicon's stop.words ("give
// it a rest", "hold your horses, stop", "could you keep quiet"), said as a request, with only
// a reason (stop.reasons) or fill words beside it.
func (t *Table) stopPhrase(toks []string, n Normalized) bool {
	st := stripRequestLeads(toks)
	lx := t.vocab.lex
	if _, ok := lx.find(st, "stop.words"); !ok {
		return false // most sentences: one lookup a word
	}
	var usedBuf [10]bool
	used := usedBuf[:len(st)]
	if t.unexplainedBy(st, used, []string{"stop.words", "stop.reasons"}, stopFill, frameFill, stopCore, stopTalk) > 0 {
		cut := t.cutStatedReason(st)                                                                     // "pipe down a second the phone's ringing": the reason said after
		if len(cut) == len(st) || len(cut) == 1 && hushWord(cut[0]) && !lx.has(st[1:], "stop.reasons") { // "shh, the dog is down there" hushes someone else
			rest, ok := t.stopAfterReason(st)
			if !ok {
				return false
			}
			cut = rest // "i'm on the phone shush": the reason said first
		}
		if _, ok := lx.find(cut, "stop.words"); !ok {
			return false
		}
		clear(used)
		if t.unexplainedBy(cut, used[:len(cut)], []string{"stop.words", "stop.reasons"}, stopFill, frameFill, stopCore, stopTalk) > 0 {
			return false
		}
		st = cut
	}
	f := commandForm(st, n)
	if f == FormStatement {
		if rest, ok := t.stopAfterReason(st); ok {
			f = commandForm(rest, n) // "the baby is sleeping shh": the reason said first
		}
	}
	return f == FormImperative || f == FormQuestion && len(toks) > 2 && (toks[0] == "can" || toks[0] == "could" || toks[0] == "would" || toks[0] == "will") && toks[1] == "you"
}

// quietAfterReason: a stop or quiet time asked straight after its reason ("i'm on the phone
// hush for 20 minutes", "dad's on a work call shush"): the request after the reason, read as
// its own sentence.
func (t *Table) quietAfterReason(n Normalized) (Decision, bool) {
	toks := n.tokens()
	if len(toks) > 14 || n.Negated {
		return Decision{}, false
	}
	rest, ok := t.stopAfterReason(stripRequestLeads(toks))
	if !ok {
		return Decision{}, false
	}
	c := n
	c.toks, c.Text = rest, strings.Join(rest, " ")
	d, ok := t.routeClause(c, Context{}, nil)
	if !ok || d.Intent != "robot.quiet" && d.Intent != "robot.stop" {
		return Decision{}, false
	}
	d.Normalized = n
	d.Doctrine = append(d.Doctrine, "a reason said first ("+strings.Join(toks[:len(toks)-len(rest)], " ")+")")
	return d, true
}

// reasonEndBlockers cannot end a reason said before a stop: the stop word is their complement
// ("it was quite quiet", "I kept quiet", "she stayed quiet", "the kids always be quiet").
var reasonEndBlockers = words2set("always never usually often sometimes kept keep keeps stayed stay stays was were is are be " +
	"been being get got go goes went quite very so too into remained remain fell long loud big good")

// stopAfterReason: toks are a stated reason and then a way of asking for quiet, said without
// a pause ("i'm on the phone shush", "mum's on the phone shush for a bit"): the words from
// the stop on.
func (t *Table) stopAfterReason(toks []string) ([]string, bool) {
	lx := t.vocab.lex
	for i := 2; i < len(toks); i++ {
		if lx["stop.words"].at(toks, i) == 0 {
			continue
		}
		reason := toks[:i]
		if possessiveKin(reason[0]) && !finiteWords[reason[1]] {
			reason = append([]string{strings.TrimSuffix(reason[0], "s"), "is"}, reason[1:]...) // "dads on a work call": the 's is "is"
		}
		if commandBlockers[toks[i-1]] || reasonEndBlockers[toks[i-1]] || !t.statedReason(Normalized{Text: strings.Join(reason, " "), toks: reason}) {
			// "i wish you would be quiet": the stop is the wish's own words, not after a reason
			return nil, false
		}
		return toks[i:], true
	}
	return nil, false
}
