package intents

// The lexicon's ways of asking for quiet (stop.words in lexicon.yaml): "give it a rest",
// "hold your horses", "could you keep quiet" stop the robot when no frame took the sentence.

// stopAsked: a sentence no frame took that is a way of asking for quiet from the lexicon
// ("give it a rest", "hold your horses, stop"): the robot stops. Quiet time and the stop
// frame's own words are read first.
func (t *Table) stopAsked(n Normalized, m Mentions) (Decision, bool) {
	toks := n.tokens()
	if m.lex&t.vocab.lexGate.stopWords == 0 || len(toks) > 10 || n.Negated || !t.stopPhrase(toks, n) {
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
			return false
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
	return f == FormImperative || f == FormQuestion && len(toks) > 2 && (toks[0] == "can" || toks[0] == "could" || toks[0] == "would" || toks[0] == "will") && toks[1] == "you"
}
