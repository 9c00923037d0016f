package intents

import (
	"fmt"
	"maps"
	"strings"
)

// Compound sentences: a transcript split into clauses at punctuation and joining words, each
// routed on its own, and the rules for when their intents can be answered together.

var clauseSeparators = map[string]bool{"and": true, "then": true, "also": true, "after": true, "plus": true}

// clauses splits a sentence at punctuation and at words that join commands.
func (t *Table) clauses(n Normalized) []Normalized {
	var out []Normalized
	isBreak := func(r rune) bool { return strings.ContainsRune(".!?;:,", r) }
	pieces := strings.FieldsFunc(n.raw, isBreak)
	for _, piece := range pieces {
		pn := n // one piece: the sentence is already normalized
		if len(pieces) > 1 {
			pn = normalize(piece, t.vocab.wake)
		}
		toks := pn.tokens()
		start := 0
		for i := 0; i <= len(toks); i++ {
			if i < len(toks) && !clauseSeparators[toks[i]] {
				continue
			}
			if i > start {
				c := pn
				c.Text = strings.Join(toks[start:i], " ")
				c.toks = toks[start:i:i]
				c.Question = c.Question || n.Question
				c.Negated = c.Negated || n.Negated
				out = append(out, c)
			}
			start = i + 1
		}
	}
	return out
}

// ignorableWords make up parts of a sentence that ask for nothing ("..., thanks", "okay, ...").
var ignorableWords = map[string]bool{"thanks": true, "thank": true, "you": true, "please": true, "okay": true, "ok": true,
	"alright": true, "right": true, "now": true, "cheers": true, "quickly": true, "quick": true, "yes": true, "yeah": true,
	"sure": true, "so": true, "well": true, "oh": true, "then": true, "also": true, "again": true, "very": true,
	"much": true, "a": true, "lot": true, "great": true, "cool": true}

func (t *Table) isGreeting(c Normalized) bool {
	in := t.byName[IntentGreeting]
	for _, p := range in.patterns {
		if p.filter.admits(c.Text) && p.re.MatchString(c.Text) {
			return true
		}
	}
	return false
}

// mayBeCompound is a cheap test before splitting: a joining word, or more than one part
// between punctuation that asks for something ("Hey Jeeves, turn on the light, please." has
// one).
func mayBeCompound(n Normalized) bool {
	for _, w := range n.tokens() {
		if clauseSeparators[w] {
			return true
		}
	}
	if !strings.ContainsAny(strings.TrimRight(n.raw, ".!?\" "), ".!?;:,") {
		return false
	}
	meaningful := 0
	for _, piece := range strings.FieldsFunc(n.raw, func(r rune) bool { return strings.ContainsRune(".!?;:,", r) }) {
		for _, w := range tokenize(piece) {
			if !ignorableWords[w] && !leadFillers[w] && w != "hey" && w != "hi" && w != "hello" {
				meaningful++
				break
			}
		}
	}
	return meaningful > 1
}

func ignorable(text string) bool {
	for _, w := range strings.Fields(text) {
		if !ignorableWords[w] {
			return false
		}
	}
	return true
}

// compound handles sentences made of several clauses. Nothing is done on part of a
// sentence: if any clause would act, the robot asks for one thing at a time. If every
// clause asks for the same read, that read is the answer; anything else is a general question.
func (t *Table) compound(n Normalized, ctx Context) (Decision, bool) {
	if !mayBeCompound(n) {
		return Decision{}, false
	}
	var parts, greetings []Normalized
	for _, c := range t.clauses(n) {
		switch {
		case ignorable(c.Text):
		case t.isGreeting(c):
			greetings = append(greetings, c) // "hello, ..." asks for nothing by itself
		default:
			parts = append(parts, c)
		}
	}
	if len(parts) == 0 {
		parts = greetings // "hello and good morning"
	}
	if len(parts) < 2 {
		return Decision{}, false
	}
	var same *Decision
	agree := true
	for _, c := range parts {
		d, ok := t.routeClause(c, ctx)
		if !ok {
			agree = false
			continue
		}
		acting := d.Kind == KindWrite || d.Kind == KindRobot
		if d.Pending != nil {
			if pin, ok := t.byName[d.Pending.Intent]; ok && pin.Acts() {
				acting = true
			}
		}
		if acting {
			out := t.decide(t.byName[IntentClarify], map[string]string{}, nil, n)
			out.Prompt = "Please ask me for one thing at a time."
			out.Doctrine = []string{fmt.Sprintf("compound sentence: the part %q would act, and nothing is done on part of a sentence", c.Text)}
			return out, true
		}
		if same == nil {
			same = &d
		} else if same.Intent != d.Intent || !maps.Equal(same.Args, d.Args) {
			agree = false
		}
	}
	if agree && same != nil && same.Pending == nil {
		d := *same
		d.Normalized = n
		d.Doctrine = append(d.Doctrine, "compound sentence: every part asks for the same thing")
		return d, true
	}
	return Decision{}, false
}
