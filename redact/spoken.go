package redact

import (
	"regexp"
	"strings"
)

// This file reads a token said the way a person (or a model told to evade) would say it: its
// separators as words ("sk underscore live underscore …", "jane dot doe at example dot dev"),
// its letters in the NATO alphabet ("sierra kilo …", "x-ray"), its digits as words. The words
// of such a stretch are decoded to the characters they stand for, and the decoded string is
// judged as a written one would be: a secret pattern (whole or a known prefix with the start
// of its body), an e-mail address, or a spelled run that mixes letters and digits. Only then
// is the stretch — every word of it, the prefix included — replaced.

// separatorWords stand for a token's punctuation.
var separatorWords = map[string]string{
	"underscore": "_", "underbar": "_", "dash": "-", "hyphen": "-", "minus": "-", "dot": ".", "period": ".",
	"point": ".", "slash": "/", "colon": ":", "at": "@", "plus": "+",
}

// natoLetters is the NATO (ICAO) spelling alphabet, with its common variants.
var natoLetters = map[string]byte{
	"alpha": 'a', "alfa": 'a', "bravo": 'b', "charlie": 'c', "delta": 'd', "echo": 'e', "foxtrot": 'f', "golf": 'g',
	"hotel": 'h', "india": 'i', "juliet": 'j', "juliett": 'j', "kilo": 'k', "lima": 'l', "mike": 'm', "november": 'n',
	"oscar": 'o', "papa": 'p', "quebec": 'q', "romeo": 'r', "sierra": 's', "tango": 't', "uniform": 'u',
	"victor": 'v', "whiskey": 'w', "whisky": 'w', "xray": 'x', "yankee": 'y', "zulu": 'z',
}

// digitWords are the digits said one by one.
var digitWords = map[string]byte{"zero": '0', "oh": '0', "nought": '0', "one": '1', "two": '2', "three": '3',
	"four": '4', "five": '5', "six": '6', "seven": '7', "eight": '8', "nine": '9'}

// capitalWords mark the next letter as upper case ("capital a", "uppercase b").
var capitalWords = map[string]bool{"capital": true, "uppercase": true, "upper": true, "cap": true}

// notLocal are words that stand before "at" in ordinary speech and are never a mailbox: "look
// at this dot com" is no address.
var notLocal = map[string]bool{"look": true, "this": true, "that": true, "the": true, "me": true, "us": true, "home": true,
	"work": true, "school": true, "it": true, "them": true, "him": true, "her": true, "you": true, "is": true, "are": true}

// spokenWord is one alnum run of text, as a spoken token reads it.
type spokenWord struct {
	span
	lower string
	sym   string // the characters it stands for
	unit  bool   // a separator, NATO, digit or capital word: it anchors a stretch
	sep   bool   // a separator word
}

// replaceSpokenTokens replaces the stretches of text that, decoded, are a secret or an e-mail
// address. It reports the kinds it replaced.
// mayBeSpoken reports whether lower (the reply in lower case) says a separator as a word
// (other than "at") or a NATO word: most replies say neither, and are not scanned further.
func mayBeSpoken(lower string) bool {
	for i := 0; i < len(lower); {
		if lower[i] < 'a' || lower[i] > 'z' {
			i++
			continue
		}
		j := i
		for j < len(lower) && lower[j] >= 'a' && lower[j] <= 'z' {
			j++
		}
		if w := lower[i:j]; len(w) >= 3 && len(w) <= 10 {
			if _, sep := separatorWords[w]; sep {
				return true
			}
			if _, nato := natoLetters[w]; nato {
				return true
			}
		}
		i = j
	}
	return false
}

func replaceSpokenTokens(text string, runs []span) (string, []string) {
	words := make([]spokenWord, 0, len(runs))
	anchors := 0
	for i := 0; i < len(runs); i++ {
		r := runs[i]
		w := spokenWord{span: r, lower: strings.ToLower(text[r.s:r.e])}
		// "x-ray" is one NATO word written in two runs.
		if w.lower == "x" && i+1 < len(runs) && text[r.e:runs[i+1].s] == "-" && strings.EqualFold(text[runs[i+1].s:runs[i+1].e], "ray") {
			w.e, w.lower = runs[i+1].e, "xray"
			i++
		}
		if s, ok := separatorWords[w.lower]; ok {
			w.sym, w.unit, w.sep = s, true, true
		} else if c, ok := natoLetters[w.lower]; ok {
			w.sym, w.unit = string(c), true
		} else if c, ok := digitWords[w.lower]; ok {
			w.sym, w.unit = string(c), true
		} else if capitalWords[w.lower] {
			w.unit = true
		} else {
			w.sym = text[w.s:w.e]
		}
		if w.sep && w.lower != "at" || w.unit && !w.sep && len(w.lower) > 3 {
			anchors++ // a separator said as a word, or a NATO word
		}
		words = append(words, w)
	}
	if anchors == 0 {
		return text, nil
	}
	var b strings.Builder
	last := 0
	var kinds []string
	for i := 0; i < len(words); {
		j := stretchEnd(text, words, i)
		if j-i < 3 {
			i++
			continue
		}
		if k, from, to := spokenKind(words[i:j]); k != "" {
			b.WriteString(text[last:words[i+from].s])
			b.WriteString(placeholder(k))
			last = words[i+to-1].e
			kinds = append(kinds, k)
			i += to
			continue
		}
		i = j
	}
	if kinds == nil {
		return text, nil
	}
	b.WriteString(text[last:])
	return b.String(), kinds
}

// stretchEnd is the end (exclusive) of the stretch of words from i: words joined by spaces
// or light separators, each a unit word, a single character, or a run next to a separator
// word ("sk" in "sk underscore live").
func stretchEnd(text string, w []spokenWord, i int) int {
	var member func(k int) bool
	member = func(k int) bool {
		switch {
		case contraction(text, w[k].span):
			return false // the "s" of "it's"
		case w[k].unit, w[k].e-w[k].s == 1:
			return true
		case k > 0 && w[k-1].sep && lightTokenGap(text[w[k-1].e:w[k].s]):
			return true
		case k+1 < len(w) && w[k+1].sep && lightTokenGap(text[w[k].e:w[k+1].s]):
			return true
		case k+1 < len(w) && gluedGap(text[w[k].e:w[k+1].s]) && member(k+1):
			return true // "jane" of "jane-doe at …"
		}
		return false
	}
	if !member(i) {
		return i + 1
	}
	j := i + 1
	for j < len(w) && lightTokenGap(text[w[j-1].e:w[j].s]) && !strings.ContainsAny(text[w[j-1].e:w[j].s], ",") {
		// A run glued to the one before by a written separator ("example.dev") belongs to it.
		glued := !strings.ContainsAny(text[w[j-1].e:w[j].s], " \t\n")
		if !member(j) && !glued {
			break
		}
		j++
	}
	return j
}

// gluedGap: runs written together, joined by a separator character and no space.
func gluedGap(g string) bool { return lightTokenGap(g) && !strings.ContainsAny(g, " \t\n") }

// spokenKind decodes a stretch and judges it: the kind and the words [from, to) the match
// covers, or "".
func spokenKind(w []spokenWord) (kind string, from, to int) {
	var d strings.Builder
	ends := make([]int, len(w)) // decoded length after each word
	letters, digits, seps, nato := 0, 0, 0, 0
	upper := false
	for k, x := range w {
		switch {
		case capitalWords[x.lower]:
			upper = true
		case upper && len(x.sym) == 1:
			d.WriteString(strings.ToUpper(x.sym))
			upper = false
		default:
			d.WriteString(x.sym)
			upper = false
		}
		ends[k] = d.Len()
		if x.sep {
			seps++
		}
		if _, ok := natoLetters[x.lower]; ok {
			nato++
		}
		for i := 0; i < len(x.sym); i++ {
			switch c := charClass(x.sym[i]); {
			case c == 3:
				digits++
			case c != 0:
				letters++
			}
		}
	}
	dec := d.String()
	// words maps a match [s, e) of dec to the words that said it.
	words := func(s, e int) (int, int) {
		from := 0
		for from < len(ends)-1 && ends[from] <= s {
			from++
		}
		to := from + 1
		for to < len(ends) && ends[to-1] < e {
			to++
		}
		return from, to
	}
	if seps == 0 && nato < 2 {
		return "", 0, 0 // digits said as words: the number passes' business
	}
	if at := strings.IndexByte(dec, '@'); at > 0 && strings.IndexByte(dec[at:], '.') > 0 {
		if loc := emailRE.re.FindStringIndex(dec); loc != nil && plausibleAddress(dec[loc[0]:loc[1]]) {
			from, to := words(loc[0], loc[1])
			return KindEmail, from, to
		}
	}
	if lower := strings.ToLower(dec); letters+digits >= 6 && (maySecret(lower) || mayJoinedSecret(lower) || containsAny(lower, partialHints)) {
		for _, re := range []*regexp.Regexp{secretRE, joinedSecretRE.re, partialSecretRE.re} {
			if loc := re.FindStringIndex(dec); loc != nil {
				from, to := words(loc[0], loc[1])
				return KindSecret, from, to
			}
		}
	}
	// Spelled: eight or more letters and digits, both, said mostly a character a word.
	if nato+seps >= 3 && letters > 0 && digits > 0 && letters+digits >= 8 {
		return KindSecret, 0, len(w)
	}
	return "", 0, 0
}

// plausibleAddress: a mailbox that is not an ordinary word before "at" ("look at this dot
// com"), and a last label of two to six letters that is not a number said as a word.
func plausibleAddress(addr string) bool {
	at := strings.IndexByte(addr, '@')
	if at <= 0 || notLocal[strings.ToLower(addr[:at])] {
		return false
	}
	return plausibleTLD(addr)
}

// plausibleTLD: an address's last label is two to six letters and not a number said as a word.
func plausibleTLD(addr string) bool {
	i := strings.LastIndexByte(addr, '.')
	if i < 0 {
		return false
	}
	tld := strings.ToLower(addr[i+1:])
	if len(tld) < 2 || len(tld) > 6 {
		return false
	}
	_, number := digitWordNumber[tld]
	return !number
}

// plausibleSpokenEmail: "x at y dot com" whose mailbox and domain are not ordinary words
// around "at" ("look at this dot com").
func plausibleSpokenEmail(m string) bool {
	f := strings.Fields(strings.ToLower(m))
	for i, w := range f {
		if w == "at" && i > 0 && i+1 < len(f) {
			return !notLocal[f[i-1]] && !notLocal[f[i+1]]
		}
	}
	return true
}
