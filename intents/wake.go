package intents

import (
	"slices"
	"strings"
)

// The broker's wake-phrase check. The hub's spotter already woke up on sound; this check
// reads the transcript, where whisper spells the robot's name as it heard it: "hey richie",
// "hey ritchie", "reechy", "what's the time, Reachy?". A wake phrase counts when the name
// is said as a vocative — opening the sentence (after "hey", "ok", "hi" ...), set off by
// punctuation anywhere ("..., Reachy."), or closing it after a word that does not make it
// an object — and it is taken off the sentence.
//
// With fuzzy matching (the default, home.wake_fuzzy) a word counts as the name when it
// sounds like it under a coarse English spelling key: consonants by sound ("tch", "ch" are
// one sound; "ck", "k", a hard "c" another; a soft "g" is "j"), every vowel run one vowel.
// So richie, ritchie, reechy, reachie and reachey all key like reachy, while ricky, ready,
// reach, peachy and preachy do not: a word that is another real name or word is never the
// wake phrase, since a false wake sends a stray sentence into the house. Spellings the key
// misses can be listed in home.wake_spellings.

// wakeLeads are words that may open a wake phrase before the name.
var wakeLeads = map[string]bool{"hey": true, "hi": true, "hello": true, "ok": true, "okay": true, "oi": true, "yo": true, "ey": true, "heya": true, "hiya": true}

// wakeMatcher recognises the home's wake phrases.
type wakeMatcher struct {
	phrases [][]string      // the configured phrases, normalized, longest first
	names   map[string]bool // exact name words (the last word of each phrase) and extra spellings
	keys    map[string]bool // spelling keys of the names, when fuzzy
	leads   map[string]bool
	longest int // the longest name: a much longer word is never it
	// firsts are the letters a word keying like a name may start with (a cheap test first:
	// an array, read without hashing; set whenever keys is).
	firsts *[256]bool
}

func newWakeMatcher(phrases, spellings []string, fuzzy bool) wakeMatcher {
	w := wakeMatcher{names: map[string]bool{}, keys: map[string]bool{}, leads: map[string]bool{}}
	for k := range wakeLeads {
		w.leads[k] = true
	}
	for _, p := range phrases {
		t := strings.Fields(normalizeVocab(p))
		if len(t) == 0 {
			continue
		}
		w.phrases = append(w.phrases, t)
		name := t[len(t)-1]
		w.names[name] = true
		w.longest = max(w.longest, len(name))
		if fuzzy {
			w.keys[spellingKey(name)] = true
		}
		for _, lead := range t[:len(t)-1] {
			w.leads[lead] = true
		}
	}
	for _, s := range spellings {
		for _, tok := range strings.Fields(normalizeVocab(s)) {
			w.names[tok] = true
		}
	}
	slices.SortStableFunc(w.phrases, func(a, b []string) int { return len(b) - len(a) })
	w.firsts = &[256]bool{'h': true, 'w': true} // silent letters are skipped by the key
	for k := range w.keys {
		switch k[0] {
		case 'j':
			w.firsts['j'], w.firsts['g'] = true, true
		case 'k':
			w.firsts['k'], w.firsts['c'], w.firsts['q'] = true, true, true
		case 's':
			w.firsts['s'], w.firsts['c'], w.firsts['z'] = true, true, true
		case 'f':
			w.firsts['f'], w.firsts['p'] = true, true
		case 'C':
			w.firsts['c'], w.firsts['t'] = true, true
		case 'S':
			w.firsts['s'] = true
		case 'T':
			w.firsts['t'] = true
		case 'V':
			for _, c := range []byte("aeiouy") {
				w.firsts[c] = true
			}
		default:
			w.firsts[k[0]] = true
		}
	}
	return w
}

// isName reports whether a word is the robot's name as whisper may have spelled it.
func (w wakeMatcher) isName(tok string) bool {
	if w.names[tok] {
		return true
	}
	if len(w.keys) == 0 || len(tok) < 3 || len(tok) > w.longest+3 || !w.firsts[tok[0]] {
		return false
	}
	var buf [32]byte
	if w.keys[string(appendSpellingKey(buf[:0], tok))] { // spellingKey(tok), not copied
		return true
	}
	return w.glidedName(tok, buf[:0])
}

// glidedName: a small child glides a name's r or l into w ("weachy", "wichie"). A word that
// starts with w and ends like a pet name (y, ie, i) is the name when, with an r for its w, it
// keys like one; "watch" and "which" do not end so, and so are never the name.
func (w wakeMatcher) glidedName(tok string, buf []byte) bool {
	if tok[0] != 'w' || len(tok) < 4 || !(strings.HasSuffix(tok, "y") || strings.HasSuffix(tok, "ie") || strings.HasSuffix(tok, "i")) {
		return false
	}
	for _, first := range []byte{'r', 'l'} {
		b := appendSpellingKey(append(buf[:0], first), tok[1:]) // the key of first+tok[1:]: r and l key as themselves
		if w.keys[string(b)] {
			return true
		}
	}
	return false
}

// vocative reports whether toks is only a wake phrase: leads and at least one name
// ("reachy", "hey richie", "okay okay reachy").
func (w wakeMatcher) vocative(toks []string) bool {
	named := false
	for _, t := range toks {
		name, ok := w.phraseWord(t)
		if !ok {
			return false
		}
		named = named || name
	}
	return named
}

// phraseWord reports whether t may stand in a wake phrase (ok) and whether it is the name.
func (w wakeMatcher) phraseWord(t string) (name, ok bool) {
	if w.isName(t) {
		return true, true
	}
	return false, w.leads[t]
}

// vocativeText is vocative(words(s)), read word by word: most segments stop at their first.
func (w wakeMatcher) vocativeText(s string) bool {
	named := false
	var buf [4]string // one word's expansion
	for raw := range rawTokens(joinSigns(s)) {
		for _, t := range appendExpanded(buf[:0], raw) {
			name, ok := w.phraseWord(t)
			if !ok {
				return false
			}
			named = named || name
		}
	}
	return named
}

// stripSegments takes off the parts of a raw transcript, between punctuation, that are only
// a wake phrase: "Hey Reachy, is the light on?", "What's the time, Reachy?".
func (w wakeMatcher) stripSegments(raw string) (string, bool) {
	if len(w.names) == 0 || !strings.ContainsAny(raw, ",.!?;:") {
		return raw, false
	}
	// The segments that are only a wake phrase; most transcripts have none, and are
	// returned as they are, without being copied.
	var cut [][2]int
	start := 0
	for i := 0; i <= len(raw); i++ {
		if i < len(raw) && !isClauseMark(raw[i]) {
			continue
		}
		end := min(i+1, len(raw))
		seg := raw[start:i]
		if len(seg) <= 40 { // a wake phrase is a few short words
			if w.vocativeText(seg) {
				cut = append(cut, [2]int{start, end})
			}
		}
		start = end
	}
	if len(cut) == 0 {
		return raw, false
	}
	var out strings.Builder
	kept := 0
	for _, c := range cut {
		out.WriteString(raw[kept:c[0]])
		kept = c[1]
	}
	out.WriteString(raw[kept:])
	return out.String(), true
}

// isClauseMark reports whether c is one of ",.!?;:".
func isClauseMark(c byte) bool {
	switch c {
	case ',', '.', '!', '?', ';', ':':
		return true
	}
	return false
}

// stripEdges takes a wake phrase off the start ("hey richie what time is it") or the end
// ("stop it reachy") of a tokenized sentence. At the end, a name after a word that makes it
// the sentence's object ("who made reachy", "tell me about reachy") is not a wake phrase.
func (w wakeMatcher) stripEdges(toks []string) ([]string, bool) {
	for _, p := range w.phrases { // the configured phrase, as written
		if hasPrefix(toks, p) {
			return toks[len(p):], true
		}
	}
	i := 0
	for i < len(toks) && w.leads[toks[i]] && !w.isName(toks[i]) {
		i++
	}
	if i < len(toks) && i <= 2 && w.isName(toks[i]) {
		return toks[i+1:], true
	}
	return w.stripEnd(toks)
}

// stripEnd takes a closing name off: "stop it reachy" (whisper left out the comma).
func (w wakeMatcher) stripEnd(toks []string) ([]string, bool) {
	if n := len(toks); n >= 2 && w.isName(toks[n-1]) && (!wakeBlockers[toks[n-2]] || nounCall(toks[:n-1])) {
		return toks[:n-1], true
	}
	return toks, false
}

// nounCall: toks end with "call" used as a noun ("end the call", "this call"), after which a
// name is said to the robot, not called.
func nounCall(toks []string) bool {
	n := len(toks)
	return n >= 2 && toks[n-1] == "call" && (toks[n-2] == "the" || toks[n-2] == "this" || toks[n-2] == "that" || toks[n-2] == "a")
}

// stripMiddle takes the robot's name out of the middle of a sentence, where whisper left
// out the commas around it ("hold your horses richie stop", "right hang up now richie we
// gotta go"); after a word that makes it an object ("I told richie to stop") it stays.
func (w wakeMatcher) stripMiddle(toks []string) ([]string, bool) {
	for i := 1; i+1 < len(toks); i++ {
		if w.isName(toks[i]) && (!wakeBlockers[toks[i-1]] || nounCall(toks[:i])) && !nameTakers[toks[i-1]] {
			return append(toks[:i:i], toks[i+1:]...), true
		}
	}
	return toks, false
}

// nameTakers before a name make it the object of a verb: "I told richie", "let richie".
var nameTakers = words2set("told tell asked ask let make made help helps thank thanks give gave show showed watch " +
	"bye goodbye night goodnight morning evening afternoon hi hello hey cheers ta love") // "bye reachy see you": the farewell's own

// wakeBlockers are words after which a sentence-final name is what the sentence is about,
// not who it is said to: "who made reachy", "tell me about reachy", "I love reachy".
var wakeBlockers = map[string]bool{"about": true, "the": true, "to": true, "with": true, "of": true, "for": true,
	"from": true, "by": true, "is": true, "was": true, "are": true, "called": true, "named": true, "made": true,
	"built": true, "meet": true, "love": true, "like": true, "likes": true, "loves": true, "a": true, "my": true,
	"your": true, "our": true, "than": true, "and": true, "or": true, "call": true, "see": true, "hear": true,
	"ask": true, "tell": true, "at": true, "on": true, "in": true, "hate": true, "hates": true, "bought": true,
	"designed": true, "created": true, "invented": true, "sells": true, "does": true, "did": true, "can": true}

// dropLeads takes "hey", "ok" ... off the start once a wake phrase was found elsewhere
// ("Hey, Reachy, what time is it?" leaves "hey" before the name's own segment).
func (w wakeMatcher) dropLeads(toks []string) []string {
	for len(toks) > 1 && w.leads[toks[0]] {
		toks = toks[1:]
	}
	return toks
}

// spellingKey is a coarse sound-alike key for an English word (see the comment at the top).
func spellingKey(word string) string { return string(appendSpellingKey(make([]byte, 0, 16), word)) }

// appendSpellingKey appends spellingKey(word) to b: isName looks a word's key up from a
// buffer of its own, without allocating it.
func appendSpellingKey(b []byte, word string) []byte {
	s := word
	vowel := func(c byte) bool { return strings.IndexByte("aeiouy", c) >= 0 }
	lastVowel := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		next := byte(0)
		if i+1 < len(s) {
			next = s[i+1]
		}
		if vowel(c) && !(c == 'y' && i == 0) {
			if !lastVowel {
				b = append(b, 'V')
			}
			lastVowel = true
			continue
		}
		lastVowel = false
		var k byte
		switch {
		case c == 't' && next == 'c' && i+2 < len(s) && s[i+2] == 'h', c == 'c' && next == 'h':
			k = 'C'
			if c == 't' {
				i++
			}
			i++
		case c == 's' && next == 'h':
			k, i = 'S', i+1
		case c == 't' && next == 'h':
			k, i = 'T', i+1
		case c == 'p' && next == 'h':
			k, i = 'f', i+1
		case c == 'c' && next == 'k':
			k, i = 'k', i+1
		case c == 'c' && (next == 'e' || next == 'i' || next == 'y'):
			k = 's'
		case c == 'c' || c == 'q':
			k = 'k'
		case c == 'g' && (next == 'e' || next == 'i' || next == 'y'):
			k = 'j'
		case c == 'z':
			k = 's'
		case c == 'h' || c == 'w':
			continue // silent or vowel-like: "rh", "wh"
		default:
			k = c
		}
		if n := len(b); n > 0 && b[n-1] == k {
			continue // doubled consonants: "tt", "ss"
		}
		b = append(b, k)
	}
	return b
}

// stripAfterHush takes off the name said between a hush or a stop and more words ("shh
// richie shh", "stop reachy stop it"): a vocative with no comma around it.
func (w wakeMatcher) stripAfterHush(toks []string) ([]string, bool) {
	for i := 1; i+1 < len(toks); i++ {
		if p := toks[i-1]; (hushWord(p) || p == "stop" || p == "quiet" || p == "enough" || p == "hush" || p == "shush") && w.isName(toks[i]) {
			return append(toks[:i:i], toks[i+1:]...), true
		}
	}
	return toks, false
}

// nearNames are real words whisper writes for the robot's name when it mishears it
// ("peachy, lights off", "ricky time please", "reach me, lights on"), and "robot" said to it
// ("hey robot, stop"). Being real words, they
// are never the wake phrase (a false wake sends a stray sentence into the house: n.Wake stays
// false, and a broker that requires the wake phrase still ignores the sentence). Said first,
// before a request, they are dropped so the request reads as itself.
var nearNames = words2set("peachy preachy beachy ricky rickey ricki ruchi reechy richy robot")

// nearNameRequestStarts may follow a misheard name at the start of a request: a verb said
// to the robot, a question word, a modal of a polite request, a device or "please". After
// anything else ("ricky is busy", "ricky says ...", "reach me the salt") the word is what the
// sentence says, and stays.
var nearNameRequestStarts = words2set("lights light lamp ac aircon timer time please pls what whats when how can could would will do turn switch put set start stop cancel play call " +
	"dance nod thank thanks sing show tell help hang end mute be let lets")

// dropNearName takes a misheard name off the start of a request ("peachy lights off in the
// office" reads "lights off in the office"); wake reports nothing.
func dropNearName(toks []string, woke bool) []string {
	if len(toks) < 2 {
		return toks
	}
	k, lead := 0, 0
	if wakeLeads[toks[0]] && len(toks) > 2 {
		lead = 1 // "hey robot, stop"
	}
	switch {
	case woke && toks[lead] != "robot":
		return toks // the name was heard: another word is not it again
	case nearNames[toks[lead]]:
		k = lead + 1
	case toks[lead] == "reach" && lead+1 < len(toks) && toks[lead+1] == "me":
		k = lead + 2 // "reach me lights on": "reach me the salt" keeps its words (the next check)
	default:
		return toks
	}
	if len(toks)-k < 1 || len(toks)-k < 2 && toks[k-1] != "robot" && lead == 0 {
		return toks // "ricky time" is too little to tell; "hey robot, stop" is not
	}
	next := toks[k]
	if !nearNameRequestStarts[next] && !isImperativeVerb(next) {
		return toks
	}
	return toks[k:]
}
