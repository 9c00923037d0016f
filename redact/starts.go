package redact

import (
	"slices"
	"strings"
)

// This file holds the start sets — where each pattern's match can start, found from one scan
// of the text (redact/anchor.go) — the quick tests that every match at a start passes, and
// the spoken-digits pattern matched by hand. TestStartSets and FuzzStartSets hold each of
// them to its pattern run over the whole text.

// digitStarts: the word starts that are digits (a \b before a digit).
func (sc *textScan) digitStarts() []int {
	var out []int
	for _, r := range sc.runs {
		if isDigit(sc.text[r.s]) {
			out = append(out, r.s)
		}
	}
	return out
}

// phoneStarts: where phoneRE can start — a '+', a '(' or a digit that starts a word.
func phoneStarts(t string) []int {
	var out []int
	for i := 0; i < len(t); i++ {
		if c := t[i]; c == '+' || c == '(' || isDigit(c) && (i == 0 || !isWordByte(t[i-1])) {
			out = append(out, i)
		}
	}
	return out
}

// spokenDigitStarts: where spokenDigitsRE can start — a word that is a digit said as a word,
// or "double" or "triple".
func (sc *textScan) spokenDigitStarts() []int {
	var out []int
	var buf [8]byte
	for _, r := range sc.runs {
		w := sc.text[r.s:r.e]
		if len(w) < 2 || len(w) > 6 {
			continue
		}
		for i := 0; i < len(w); i++ {
			buf[i] = w[i] | 0x20
		}
		if spokenDigitWord[string(buf[:len(w)])] {
			out = append(out, r.s)
		}
	}
	return out
}

// ibanStarts: where ibanRE can start — a word that opens with two letters and two digits.
func (sc *textScan) ibanStarts() []int {
	var out []int
	t := sc.text
	for _, r := range sc.runs {
		if r.e-r.s >= 4 && isLetter(t[r.s]) && isLetter(t[r.s+1]) && isDigit(t[r.s+2]) && isDigit(t[r.s+3]) {
			out = append(out, r.s)
		}
	}
	return out
}

// prefixStarts: the word starts that open with one of lits (lower-case ASCII), in any case.
func (sc *textScan) prefixStarts(lits []string) []int {
	var out []int
	for _, r := range sc.runs {
		for _, l := range lits {
			if hasPrefixFold(sc.text[r.s:], l) {
				out = append(out, r.s)
				break
			}
		}
	}
	return out
}

// emailStarts: where emailRE can start. Its match is a mailbox of letters, digits and
// "._%+-", then white space, then "@", "(at)", "[at]" or "at" between spaces; so it starts at
// a \b inside the run of mailbox characters right before one of them.
func emailStarts(t string) []int {
	var out []int
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == '@':
		case (c == '(' || c == '[') && i+3 < len(t) && hasPrefixFold(t[i+1:], "at") && (c == '(' && t[i+3] == ')' || c == '[' && t[i+3] == ']'):
		case c|0x20 == 'a' && i > 0 && i+2 < len(t) && t[i+1]|0x20 == 't' && reSpace(t[i-1]) && reSpace(t[i+2]):
		default:
			continue
		}
		j := i
		for j > 0 && reSpace(t[j-1]) {
			j--
		}
		k := j
		for k > 0 && mailboxByte(t[k-1]) {
			k--
		}
		for s := k; s < j; s++ {
			if boundaryAt(t, s) {
				out = append(out, s)
			}
		}
	}
	if !slices.IsSorted(out) {
		slices.Sort(out) // replaceAt skips a repeated start
	}
	return out
}

// reSpace is \s of Go's regexp.
func reSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func mailboxByte(c byte) bool { return isAlnum(c) || strings.IndexByte("._%+-", c) >= 0 }

// The quick tests: what every match of a pattern at s holds.

// ssnQuick: three digits, a dash or space, two digits, a dash or space, four digits.
func ssnQuick(t string, s int) bool {
	if s+11 > len(t) {
		return false
	}
	for i := s; i < s+11; i++ {
		switch i - s {
		case 3, 6:
			if t[i] != '-' && t[i] != ' ' {
				return false
			}
		default:
			if !isDigit(t[i]) {
				return false
			}
		}
	}
	return true
}

// digitsAhead reports whether need digits follow s before a byte that is neither a digit
// nor in set, and with no more than gap bytes of set in a row between them (or before the
// first). It stops at the need-th digit: a long reply of one run costs no more than a short.
func digitsAhead(t string, s int, set string, need, gap int) bool {
	n, run := 0, 0
	for i := s; i < len(t); i++ {
		switch c := t[i]; {
		case isDigit(c):
			if n++; n >= need {
				return true
			}
			run = 0
		case strings.IndexByte(set, c) >= 0:
			if run++; run > gap {
				return false
			}
		default:
			return false
		}
	}
	return false
}

// cardQuick: thirteen digits, with at most one space or dash between two.
func cardQuick(t string, s int) bool { return digitsAhead(t, s, " -", 13, 1) }

// phoneQuick: five digits (the fewest of phoneRE's shortest alternative), with at most three
// of " .-()+" between two (")", a separator, "(").
func phoneQuick(t string, s int) bool { return digitsAhead(t, s, " .-()+", 5, 3) }

// ibanQuick: fifteen letters and digits, with at most one space or dash between two.
func ibanQuick(t string, s int) bool {
	n, sep := 0, false
	for i := s; i < len(t) && n < 15; i++ {
		switch c := t[i]; {
		case isAlnum(c):
			n, sep = n+1, false
		case (c == ' ' || c == '-') && !sep:
			sep = true
		default:
			return false
		}
	}
	return n >= 15
}

// spokenDigitsAt is spokenDigitsRE's match at s, by hand: the pattern is six or more
// elements — a number word, perhaps "hundred", and separators; or "double" or "triple" and
// separators — then a number word, perhaps "hundred", at a word's end. Its program is too
// large for regexp's backtracker, and regexp's other matcher took most of a reply's time.
// Tried in the pattern's order: another element before the end, "hundred" before none.
func spokenDigitsAt(t string, s int) int {
	if !boundaryAt(t, s) {
		return -1
	}
	return spokenDigitsFrom(t, s, 0)
}

func spokenDigitsFrom(t string, p, count int) int {
	var opts [2]int
	n := 0
	if w := numberWordAt(t, p); w > 0 {
		q := p + w
		if h := hundredAt(t, q); h >= 0 {
			if k := sepRun(t, h); k > 0 {
				opts[n], n = h+k, n+1
			}
		}
		if k := sepRun(t, q); k > 0 {
			opts[n], n = q+k, n+1
		}
	} else if hasPrefixFold(t[p:], "double") || hasPrefixFold(t[p:], "triple") {
		if k := sepRun(t, p+6); k > 0 {
			opts[n], n = p+6+k, n+1
		}
	}
	for _, q := range opts[:n] {
		if e := spokenDigitsFrom(t, q, count+1); e >= 0 {
			return e
		}
	}
	if count < 6 {
		return -1
	}
	w := numberWordAt(t, p)
	if w == 0 {
		return -1
	}
	if h := hundredAt(t, p+w); h >= 0 && boundaryAt(t, h) {
		return h
	}
	if boundaryAt(t, p+w) {
		return p + w
	}
	return -1
}

// numberWords are spokenDigitsRE's number words.
var numberWords = []string{"zero", "oh", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}

// numberWordAt is the length of the number word that t[p:] opens with, in any case, or 0.
func numberWordAt(t string, p int) int {
	for _, w := range numberWords {
		if hasPrefixFold(t[p:], w) {
			return len(w)
		}
	}
	return 0
}

// sepRun is the length of the run of white space, ',', '.' and '-' at p.
func sepRun(t string, p int) int {
	i := p
	for i < len(t) && (reSpace(t[i]) || t[i] == ',' || t[i] == '.' || t[i] == '-') {
		i++
	}
	return i - p
}

// hundredAt is the end of separators then "hundred" at p, or -1.
func hundredAt(t string, p int) int {
	if k := sepRun(t, p); k > 0 && hasPrefixFold(t[p+k:], "hundred") {
		return p + k + 7
	}
	return -1
}
