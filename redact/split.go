package redact

import "strings"

// This file finds what a pattern misses when it is said in pieces: a phone or card number
// spaced, dotted, dashed or spelled out digit by digit ("4 1 5 5 5 5 0 1 3 4", "four one
// five …", "41 55 55 01 34"). A secret split into short runs is split_secrets.go's. Both
// are hand-written scans: they run on every reply.

// A span of text: [s, e) byte offsets.
type span struct{ s, e int }

// alnumRuns returns the maximal runs of ASCII letters and digits of text.
func alnumRuns(text string) []span {
	out := make([]span, 0, len(text)/5)
	for i := 0; i < len(text); {
		if !isAlnum(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isAlnum(text[j]) {
			j++
		}
		out = append(out, span{i, j})
		i = j
	}
	return out
}

// digitWordDigits is how many digits a number word stands for when a number is read out:
// "four" 1, "double" 1 more, "triple" 2 more, "fifteen" and "forty" 2.
var digitWordDigits = map[string]int{
	"zero": 1, "oh": 1, "nought": 1, "one": 1, "two": 1, "three": 1, "four": 1, "five": 1, "six": 1, "seven": 1,
	"eight": 1, "nine": 1, "double": 1, "triple": 2,
	"ten": 2, "eleven": 2, "twelve": 2, "thirteen": 2, "fourteen": 2, "fifteen": 2, "sixteen": 2, "seventeen": 2,
	"eighteen": 2, "nineteen": 2, "twenty": 2, "thirty": 2, "forty": 2, "fifty": 2, "sixty": 2, "seventy": 2,
	"eighty": 2, "ninety": 2,
}

// digitWordNumber is a number word's value, for telling counting ("one two three …") from a
// number read out.
var digitWordNumber = map[string]int{
	"zero": 0, "oh": 0, "nought": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
	"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
	"fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}

func digitWordValue(lower string) int { return digitWordDigits[lower] }

// numberUnit is one piece of a number said in pieces: a run of digits or a number word.
type numberUnit struct {
	span
	digits int  // how many digits it stands for
	value  int  // its value (-1 for double/triple)
	word   bool // a number word
}

// replaceNumberRuns replaces numbers said in pieces: seven to nineteen digits in at least
// three pieces, joined by spaces or light separators ("-", ".", "/", "(", ")", ", " between
// single digits). Counting ("1 2 3 4 5 6 7"), dates, IP addresses, lists of years and lists
// of mixed one- and two-digit numbers ("4 8 15 16 23 42") are left alone.
func replaceNumberRuns(text string, runs []span) (string, string) {
	var units []numberUnit
	var b strings.Builder
	last, kind := 0, ""
	flush := func() {
		if k := numberRunKind(text, units); k != "" {
			b.WriteString(text[last:units[0].s])
			b.WriteString(placeholder(k))
			last = units[len(units)-1].e
			if kind == "" || k == KindCard {
				kind = k
			}
		}
		units = units[:0]
	}
	for _, r := range runs {
		u, ok := asNumberUnit(text, r)
		if !ok && len(units) > 0 && strings.EqualFold(text[r.s:r.e], "hundred") && units[len(units)-1].digits == 1 && units[len(units)-1].value >= 1 {
			// "eight hundred", "one hundred" inside a number read out: two more digits. After
			// a number of two digits ("nineteen hundred") it is a year or a quantity.
			u, ok = numberUnit{span: r, digits: 2, value: -1, word: true}, true
		}
		if !ok {
			flush()
			continue
		}
		if len(units) > 0 && !lightNumberGap(text[units[len(units)-1].e:u.s]) {
			flush()
		}
		units = append(units, u)
	}
	flush()
	if kind == "" {
		return text, ""
	}
	b.WriteString(text[last:])
	return b.String(), kind
}

func asNumberUnit(text string, r span) (numberUnit, bool) {
	w := text[r.s:r.e]
	if countDigits(w) == len(w) {
		v := -1
		if len(w) <= 4 {
			v = 0
			for i := 0; i < len(w); i++ {
				v = v*10 + int(w[i]-'0')
			}
		}
		return numberUnit{span: r, digits: len(w), value: v}, true
	}
	if len(w) < 2 || len(w) > 9 {
		return numberUnit{}, false
	}
	lw := strings.ToLower(w)
	d, ok := digitWordDigits[lw]
	if !ok {
		return numberUnit{}, false
	}
	v, ok := digitWordNumber[lw]
	if !ok {
		v = -1
	}
	return numberUnit{span: r, digits: d, value: v, word: true}, true
}

// lightNumberGap: what may stand between the pieces of one number.
func lightNumberGap(g string) bool {
	if len(g) == 0 || len(g) > 4 || strings.Contains(g, ". ") {
		return false // a sentence ends between them
	}
	marks := 0
	for i := 0; i < len(g); i++ {
		switch g[i] {
		case ' ':
		case '-', '.', '/', ',', '(', ')', '+':
			marks++
		default:
			return false
		}
	}
	return marks <= 2
}

// numberRunKind tells whether units, a run of number pieces, is a phone or card number said
// in pieces: the kind, or "" when it is not.
func numberRunKind(text string, units []numberUnit) string {
	if len(units) < 3 {
		return "" // one or two groups: the phone and card patterns' business
	}
	digits, maxDigits, words := 0, 0, 0
	sizes := map[int]bool{}
	for _, u := range units {
		digits += u.digits
		maxDigits = max(maxDigits, u.digits)
		sizes[u.digits] = true
		if u.word {
			words++
		}
	}
	if digits < 7 || digits > 19 {
		return ""
	}
	var gaps []string
	for i := 1; i < len(units); i++ {
		gaps = append(gaps, text[units[i-1].e:units[i].s])
	}
	if counting(units) || ipAddress(text, units, gaps) || dateLike(units, gaps) {
		return ""
	}
	if words == 0 {
		years := true
		for _, u := range units {
			years = years && u.digits == 4 && u.value >= 1000 && u.value <= 2099
		}
		if years {
			return ""
		}
		for _, g := range gaps {
			if g == "," {
				return "" // 1,234,567 is a number, not pieces of one
			}
			if strings.Contains(g, ",") && maxDigits > 1 {
				return "" // a list: "rooms 101, 102, 103"
			}
		}
		// "4 8 15 16 23 42": a list of small numbers, not a number read in groups.
		if maxDigits == 2 && sizes[1] && !strings.Contains(text[max(0, units[0].s-1):units[0].s], "+") {
			return ""
		}
	}
	if digits >= 13 && luhn(joinDigits(text, units)) || digits > 15 {
		return KindCard
	}
	return KindPhone
}

// joinDigits is the digits of the digit pieces (number words are left out: only for luhn).
func joinDigits(text string, units []numberUnit) string {
	var b strings.Builder
	for _, u := range units {
		if u.word {
			if v, ok := digitWordNumber[strings.ToLower(text[u.s:u.e])]; ok && v < 10 {
				b.WriteByte(byte('0' + v))
			}
			continue
		}
		b.WriteString(text[u.s:u.e])
	}
	return b.String()
}

// counting: the values go up or down by one ("one two three four five six seven", "10 9 8 …").
func counting(units []numberUnit) bool {
	step := 0
	for i := 1; i < len(units); i++ {
		a, b := units[i-1].value, units[i].value
		if a < 0 || b < 0 {
			return false
		}
		d := b - a
		if d != 1 && d != -1 || step != 0 && d != step {
			return false
		}
		step = d
	}
	return true
}

func ipAddress(text string, units []numberUnit, gaps []string) bool {
	if len(units) != 4 {
		return false
	}
	for _, g := range gaps {
		if g != "." {
			return false
		}
	}
	for _, u := range units {
		if u.word || u.digits > 3 || u.value > 255 {
			return false
		}
	}
	return true
}

// dateLike: 2026-12-01, 01/12/2026, 1.12.26.
func dateLike(units []numberUnit, gaps []string) bool {
	if len(units) != 3 || gaps[0] != gaps[1] || gaps[0] != "-" && gaps[0] != "/" && gaps[0] != "." {
		return false
	}
	a, b, c := units[0], units[1], units[2]
	small := func(u numberUnit) bool { return !u.word && u.digits <= 2 && u.value >= 1 && u.value <= 31 }
	year := func(u numberUnit) bool { return !u.word && (u.digits == 4 || u.digits == 2) }
	return a.digits == 4 && small(b) && small(c) || small(a) && small(b) && year(c)
}
