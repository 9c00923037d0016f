package intents

// The token passes of normalisation, in the order normalize runs them: expansions of
// contractions and joined words, phrase rewrites, numbers said as words to digits, hedges,
// false starts, laughter and hushing, fillers and stutters, courtesy tails.

import (
	"slices"
	"strconv"
	"strings"
)

func expandTokens(in []string) []string {
	out := make([]string, 0, len(in)+4)
	for _, t := range in {
		out = appendExpanded(out, t)
	}
	return out
}

// appendExpanded appends a token with its contraction expanded, its apostrophes taken out
// and its single-word rewrite done.
func appendExpanded(out []string, t string) []string {
	t = strings.Trim(t, "'")
	if t == "" {
		return out
	}
	if strings.IndexByte(t, '\'') < 0 {
		// Most words: one lookup in the contractions and single rewrites together.
		if expansionShapes.may(t) {
			if c, ok := wordExpansions[t]; ok {
				return append(out, c...)
			}
		}
		switch t[0] {
		case 'h', 'l', 'H', 'L':
			if laughter(strings.ToLower(t)) {
				return out // "stop stop stop hahaha stop"
			}
		case 's', 'S':
			if hushWord(strings.ToLower(t)) {
				return append(out, "shh") // "shhh", "shhhhh"
			}
		}
		return append(out, t)
	}
	if c, ok := contractions[t]; ok {
		return append(out, c...)
	}
	// Possessives and stray apostrophes: "kid's" -> "kids", "kids'" -> "kids".
	t = strings.ReplaceAll(t, "'", "")
	if r, ok := singleRewrites[t]; ok {
		t = r
	}
	return append(out, t)
}

func rewritePhrases(in []string) []string {
	out := in[:0] // in place: it never writes past what it has read
outer:
	for i := 0; i < len(in); {
		if !rewriteStartShapes.may(in[i]) || !rewriteStarts[in[i]] {
			out = append(out, in[i])
			i++
			continue
		}
		for _, r := range phraseRewrites {
			if in[i] != r.from[0] {
				continue
			}
			if hasPrefix(in[i:], r.from) {
				out = append(out, r.to...)
				i += len(r.from)
				continue outer
			}
		}
		out = append(out, in[i])
		i++
	}
	return out
}

// numbersToDigits turns "twenty two" into "22" and "five" into "5", and "minus 20" (a sign,
// not a subtraction: no number before it) into "-20".
func numbersToDigits(in []string) []string {
	out := in[:0] // in place: it never writes past what it has read
	for i := 0; i < len(in); i++ {
		t := in[i]
		if !numberShapes.may(t) || !numberWords[t] {
			out = append(out, t) // no sign, tens or unit word
			continue
		}
		if signWords[t] && i+1 < len(in) && (len(out) == 0 || !isNumber(out[len(out)-1])) {
			next := nextOrEmpty(in, i+2)
			if n := numbersToDigits([]string{in[i+1], next}); isNumber(n[0]) {
				out = append(out, "-"+n[0])
				i++
				if len(n) == 1 && next != "" {
					i++ // "minus twenty five": both words made the number
				}
				continue
			}
		}
		if v, ok := tens[t]; ok {
			if i+1 < len(in) {
				if u, ok := units[in[i+1]]; ok && u > 0 && u < 10 {
					v += u
					i++
				} else if d := numberSounds[in[i+1]]; len(d) == 1 && d != "0" {
					v += int(d[0] - '0') // "twenty too" is 22: after a tens word the sound is only a number
					i++
				}
			}
			out = append(out, strconv.Itoa(v))
			continue
		}
		if v, ok := units[t]; ok {
			if i+1 < len(in) && in[i+1] == "hundred" {
				v *= 100
				i++
			}
			if i+2 < len(in) && in[i+1] == "point" {
				if d, ok := units[in[i+2]]; ok && d < 10 {
					out = append(out, strconv.Itoa(v)+"."+strconv.Itoa(d)) // "one point five" is 1.5, never 5
					i += 2
					continue
				}
			}
			out = append(out, strconv.Itoa(v))
			continue
		}
		out = append(out, t)
	}
	return out
}

func nextOrEmpty(toks []string, i int) string {
	if i < len(toks) {
		return toks[i]
	}
	return ""
}

// dropHedges takes out "like" where it hedges a command ("can you like turn the lights
// off", "get dad to, like, call the robot"): before a verb that opens a command.
func dropHedges(toks []string) []string {
	// "what can you even do", "what month is it even", "is the AC even on": an "even" after a
	// pronoun or at the end weighs nothing ("is 4 even" keeps it)
	for i := 1; i < len(toks); i++ {
		if toks[i] == "even" && (i == len(toks)-1 && (toks[i-1] == "it" || toks[i-1] == "is" || toks[i-1] == "you") ||
			i+1 < len(toks) && (toks[i-1] == "you" || toks[i-1] == "it" || toks[i-1] == "we" || toks[i-1] == "they")) {
			toks = append(toks[:i:i], toks[i+1:]...)
			break
		}
	}
	for i := 0; i+1 < len(toks); i++ {
		if toks[i] == "like" && (isImperativeVerb(toks[i+1]) || toks[i+1] == "call" || toks[i+1] == "play") &&
			(i == 0 || toks[i-1] != "would" && toks[i-1] != "i" && toks[i-1] != "we" && toks[i-1] != "you" || i >= 2 && toks[i-2] == "can") {
			return append(toks[:i:i], toks[i+1:]...)
		}
	}
	return toks
}

// dropFalseStarts takes out a run of words said again at once ("turn on the turn on the
// kitchen light", "can you can you ..."): a false start, as whisper writes it.
func dropFalseStarts(toks []string) []string {
	if len(toks) < 4 {
		return toks
	}
	for l := 4; l >= 2; l-- {
		for i := 0; i+2*l <= len(toks); i++ {
			if toks[i] == toks[i+l] && hasPrefix(toks[i+l:], toks[i:i+l]) {
				return dropFalseStarts(append(toks[:i:i], toks[i+l:]...))
			}
		}
	}
	return toks
}

// laughter: "haha", "hahaha", "hehe", "lol" — said around a command, never part of it.
func laughter(t string) bool {
	if t == "lol" || t == "lmao" {
		return true
	}
	if len(t) < 4 || t[0] != 'h' {
		return false
	}
	for i := 0; i < len(t); i++ {
		if c := t[i]; c != 'h' && c != 'a' && c != 'e' {
			return false
		}
	}
	return true
}

// hushWord: "sh", "shh", "shhhh", "shhhhh" are all "shh".
func hushWord(t string) bool {
	if len(t) < 2 || t[0] != 's' {
		return false
	}
	for i := 1; i < len(t); i++ {
		if t[i] != 'h' {
			return false
		}
	}
	return true
}

func dropFillersAndStutters(in []string) []string {
	out := in[:0] // in place: it never writes past what it has read
	for _, t := range in {
		if fillerShapes.may(t) && fillers[t] {
			continue
		}
		if len(out) > 0 && out[len(out)-1] == t && stutterWords[t] {
			continue // "the the", "turn turn"; but "knock knock" and "bye bye" stay
		}
		out = append(out, t)
	}
	return out
}

// endearments are said to someone at the end of a sentence ("lights off, love"), unless the
// word before wants a noun (wantsANoun): then they are what is spoken of.
var (
	endearments = words2set("love dear darling sweetheart honey hon sugar pal buddy mate hen lovey chatterbox po ji")
	wantsANoun  = words2set("is are was were a an the my your his her our their of about good cook like some any this that eat call " +
		"with for best favourite favorite first spell what who")
	namingVerbs = words2set("call calls calling called name names named")
)

// endearmentSpokenOf: the endearment that ends toks is what is spoken of ("what is love",
// "why does she call me sweetie"), not who is spoken to ("be a dear", "lights off, love").
func endearmentSpokenOf(toks []string) bool {
	k := len(toks)
	if k < 2 || !endearments[toks[k-1]] {
		return false
	}
	prev := toks[k-2]
	if prev == "a" && k > 2 && (toks[k-3] == "be" || toks[k-3] == "theres" || toks[k-3] == "there") {
		return false // "be a dear", "there's a dear"
	}
	return wantsANoun[prev] || k > 2 && prev == "me" && namingVerbs[toks[k-3]]
}

func trimTails(toks []string) []string {
	for changed := true; changed; {
		changed = false
		if len(toks) == 0 || !tailEnds[toks[len(toks)-1]] {
			break
		}
		for _, c := range courtesyTailsByLast[toks[len(toks)-1]] { // those that can match, in courtesyTails' order
			if len(c) == 1 && endearmentSpokenOf(toks) {
				continue // "what is love", "is a cat a good pet": the word is what is asked about, not who is spoken to
			}
			if hasSuffix(toks, c) && len(toks) > len(c) {
				toks, changed = toks[:len(toks)-len(c)], true
				break
			}
		}
	}
	return toks
}

// negatedPreamble: how many words open toks as a speaker's negated words about themselves
// before "but" and a polite request ("I don't want to be a nuisance, but would you turn the
// AC off", "I'm not very good with these things but could you ..."): they name no device,
// action, number or state, and what follows "but" asks something of the robot. 0: none.
func negatedPreamble(toks []string) int {
	if len(toks) < 6 || toks[0] != "i" && toks[0] != "sorry" {
		return 0
	}
	negated := false
	for k := 1; k < len(toks)-3 && k <= 12; k++ {
		w := toks[k]
		switch {
		case w == "not" || w == "never":
			negated = true
		case w == "but":
			next := toks[k+1]
			if negated && (toks[k+2] == "you" && (next == "would" || next == "could" || next == "can" || next == "will") || next == "please") {
				return k + 1
			}
			return 0
		case wordClasses[w]&(wcDevice|wcHouseDevice|wcAction|wcOnVerb|wcOffVerb) != 0 || isDigits(w) || w == "on" || w == "off":
			return 0
		}
	}
	return 0
}

// joinSplitDigits closes up a two-digit number whisper wrote digit by digit: "timer for 2 0
// minutes" is 20, "the bedroom ac to 2 4" and "two three degrees" are 24 and 23. Only where
// it cannot be a range ("two three minutes" may mean two or three): a 0 second digit before a
// unit, or a temperature (before "degrees", or after "to" / "at" at the end) from 10 to 35.
func joinSplitDigits(toks []string) []string {
	for i := 0; i+2 < len(toks); i++ {
		if toks[i+1] == "point" && isDigits(toks[i]) && isDigits(toks[i+2]) {
			toks = append(append(toks[:i:i], toks[i]+"."+toks[i+2]), toks[i+3:]...) // "1 point 5 hours" is 1.5, never 5
		}
	}
	for i := 0; i+1 < len(toks); i++ {
		a, b := toks[i], toks[i+1]
		if len(a) != 1 || len(b) != 1 || !isASCIIDigit(a[0]) || !isASCIIDigit(b[0]) || a[0] == '0' {
			continue
		}
		next, prev := "", ""
		if i+2 < len(toks) {
			next = toks[i+2]
		}
		if i > 0 {
			prev = toks[i-1]
		}
		v := int(a[0]-'0')*10 + int(b[0]-'0')
		zeroUnit := b == "0" && splitUnits[next]
		temperature := v >= 10 && v <= 35 && (next == "degrees" || next == "degree" || (prev == "to" || prev == "at") && (next == "" || next == "please"))
		if !zeroUnit && !temperature {
			continue
		}
		toks = append(append(toks[:i:i], a+b), toks[i+2:]...)
	}
	return toks
}

// splitUnits are the units a number written digit by digit may stand before.
var splitUnits = words2set("minutes minute mins min seconds second secs hours hour degrees degree")

// splitRunTogether parts two words whisper ran together ("isthe kitchen light on", "turnoff
// the kitchenlight", "settimer", "hangup"): a word that is a first part and a second part of
// the lists below, said as one, and no word of its own. Without it "isthe kitchen light on"
// read as a command with one word unexplained, and switched the light on.
func splitRunTogether(toks []string) []string {
	for i := 0; i < len(toks); i++ {
		w := toks[i]
		if len(w) < 4 || len(w) > 16 {
			continue
		}
		for _, first := range runFirstsBy[w[0]] { // most words start none of them
			if len(first) >= len(w) || w[:len(first)] != first || !runSeconds[w[len(first):]] || runTogetherKeep[w] {
				continue
			}
			toks = append(append(toks[:i:i], first, w[len(first):]), toks[i+1:]...)
			i++
			break
		}
	}
	return toks
}

// runFirsts and runSeconds are the words whisper runs together, first and second.
var runFirsts = []string{"is", "are", "was", "do", "does", "did", "can", "could", "turn", "switch", "set", "hang", "put",
	"shut", "what", "whats", "wat", "where", "who", "how", "kitchen", "bedroom", "office", "living", "kids", "bath", "call"}

var runSeconds = words2set("the off on up down it dad mom mum mommy daddy timer timers light lights lamp time room you there")

// runTogetherKeep are real words the lists would part.
var runTogetherKeep = words2set("canon cantime turnup setup puton")

// runFirstsBy are runFirsts by their first byte.
var runFirstsBy = func() (out [256][]string) {
	for _, f := range runFirsts {
		out[f[0]] = append(out[f[0]], f)
	}
	return out
}()

// roomAir reads a room's "air" as its AC, in place: "bedroom air off", "is the living room
// air still going" ("air con" and the like are already "ac").
func roomAir(toks []string) {
	for i := 1; i < len(toks); i++ {
		if toks[i] == "air" && airRooms[toks[i-1]] {
			toks[i] = "ac"
		}
	}
}

var airRooms = words2set("bedroom room lounge office kitchen")

// dropSaidAgain takes off a request said again after "I said" ("be quiet be quiet I said
// be quiet"): the speaker repeats themselves; nobody else's words are reported.
func dropSaidAgain(toks []string) []string {
	for i := 1; i+2 < len(toks); i++ {
		if toks[i] != "i" || toks[i+1] != "said" {
			continue
		}
		rest := toks[i+2:]
		if len(rest) <= i && slices.Equal(rest, toks[i-len(rest):i]) {
			return toks[:i]
		}
	}
	return toks
}

// unstretch reads a word stretched for feeling ("pleeease", "stooop", "nooo", "byeee"): a
// word with a letter said three times or more is the word whose letters, each said once,
// are the same — from a short list of words people stretch.
func unstretch(toks []string) {
	for i, w := range toks {
		if !hasRun3(w) {
			continue
		}
		if to, ok := stretchedWords[dedupeLetters(w)]; ok {
			toks[i] = to
		}
	}
}

func hasRun3(w string) bool {
	for i := 2; i < len(w); i++ {
		if w[i] == w[i-1] && w[i] == w[i-2] {
			return true
		}
	}
	return false
}

// dedupeLetters says each run of one letter once: "pleeease" and "please" are both "plese".
func dedupeLetters(w string) string {
	b := make([]byte, 0, len(w))
	for i := 0; i < len(w); i++ {
		if i == 0 || w[i] != w[i-1] {
			b = append(b, w[i])
		}
	}
	return string(b)
}

// stretchedWords: the words people stretch, by their letters said once.
var stretchedWords = func() map[string]string {
	out := map[string]string{}
	for _, w := range strings.Fields("please no stop yes yeah bye hi hello mom mum dad mommy daddy so okay ok " +
		"now quiet hey shh shush wow come on off lights light") {
		out[dedupeLetters(w)] = w
	}
	return out
}()
