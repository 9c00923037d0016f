package intents

import "strconv"

// Spoken numbers cut off and said again. Whisper writes a number the speaker broke off as a
// word fragment ("twenty fi uh twenty six", "fif uh fifteen", "twenty tw no twenty four").
// The number said last is the one meant; a number cut off with nothing said after it is
// not read at all (the command rule then asks), never taken as the first, broken number.

// numberFragments are the pieces of a number word whisper writes when the speaker breaks
// off: every proper prefix of two letters or more, but real words ("on", "for").
var numberFragments = func() map[string]bool {
	out := map[string]bool{}
	for _, list := range []map[string]int{units, tens} {
		for w := range list {
			for l := 2; l < len(w); l++ {
				out[w[:l]] = true
			}
		}
	}
	for _, w := range []string{"on", "for", "fort", "te"} {
		delete(out, w)
	}
	for w := range units { // "six" is a number, never a piece of "sixteen"
		delete(out, w)
	}
	for w := range tens {
		delete(out, w)
	}
	return out
}()

// restartMarkers may stand between a broken number and the one said again.
var restartMarkers = [][]string{{"no", "wait"}, {"no", "i", "mean"}, {"i", "mean"}, {"i", "meant"}, {"no", "sorry"},
	{"sorry"}, {"no"}, {"wait"}, {"make", "that"}, {"make", "it"}, {"or", "rather"}}

// numberRestarts takes a number the speaker broke off and said again: "20 fi uh 26" is 26,
// "fif uh 15" is 15, "20 tw no 24" is 24, and "20 uh 6" (said haltingly) is 26. A number
// followed by a fragment and no number after it is dropped (unreadable: asked about).
// It runs before fillers are taken out, which is where it sees the hesitation.
func numberRestarts(toks []string) []string {
	var out []string // nil until something changes
	changed := false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		num, frag := isNumber(t), fragmentShapes.may(t) && numberFragments[t]
		if !num && !frag {
			if changed {
				out = append(out, t)
			}
			continue
		}
		j, broken, paused := i+1, frag, false
		for j < len(toks) && (numberFragments[toks[j]] || fillers[toks[j]]) {
			broken = broken || numberFragments[toks[j]]
			paused = paused || fillers[toks[j]]
			j++
		}
		k := j
		for _, m := range restartMarkers {
			if hasPrefix(toks[j:], m) {
				k = j + len(m)
				break
			}
		}
		keep := -1 // the index the run is replaced from; -1: no restart here
		var merged string
		switch {
		case k < len(toks) && isNumber(toks[k]) && (broken || paused):
			if num && !broken && k == j && tensOnly(t) && singleDigit(toks[k]) {
				a, _ := strconv.Atoi(t)
				b, _ := strconv.Atoi(toks[k])
				merged = strconv.Itoa(a + b) // "twenty uh six": one number said slowly
			}
			keep = k
		case num && broken:
			keep = i + 1 // "20 fi" and no number after: the 20 was cut off
		}
		if keep < 0 {
			if changed {
				out = append(out, t)
			}
			continue
		}
		if !changed {
			out = append(make([]string, 0, len(toks)), toks[:i]...)
			changed = true
		}
		if merged != "" {
			out = append(out, merged)
			i = k
			continue
		}
		i = keep - 1 // the loop looks at what was said again (it may be broken off too)
	}
	if !changed {
		return toks
	}
	return out
}

func tensOnly(s string) bool {
	v, err := strconv.Atoi(s)
	return err == nil && v >= 20 && v <= 90 && v%10 == 0
}

func singleDigit(s string) bool { return len(s) == 1 && s[0] >= '1' && s[0] <= '9' }

// commandRestart takes a command the speaker broke off and began again with the same verb
// (turn, switch, put, set, start, cancel, stop, call):
// "turn on the kit turn off the office light" is "turn off the office light". The part
// broken off ends in a cut-off word — the start of a room's name the recogniser wrote
// as a fragment ("kit", "bedr") — so two whole commands ("turn on the kitchen light
// turn off the office light") are never taken for one.
func (t *Table) commandRestart(n Normalized) (Normalized, bool) {
	toks := n.tokens()
	for i := 0; i+2 < len(toks); i++ {
		switch toks[i] { // restartVerbs, as a switch: it runs on every sentence
		case "turn", "switch", "put", "set", "start", "cancel", "stop", "call":
		default:
			continue
		}
		for j := i + 2; j < len(toks) && j <= i+5; j++ {
			if toks[j] != toks[i] || j+1 >= len(toks) {
				continue
			}
			cut := toks[j-1]
			if len(cut) >= 2 && t.vocab.roomStarts[cut] && t.vocab.rooms[cut] == nil && !explained(cut) && t.vocab.people[cut] == "" {
				out := append(append(make([]string, 0, len(toks)-(j-i)), toks[:i]...), toks[j:]...)
				return rebuilt(n, out), true
			}
		}
	}
	return n, false
}
