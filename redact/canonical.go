package redact

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// canonical folds text to what a listener hears, so that the patterns see a secret the way
// the speech engine will say it: compatibility forms fold to ASCII (NFKC: fullwidth letters,
// NBSP and thin spaces), invisible characters are dropped (format characters such as U+200B,
// U+00AD, U+2060 and bidi controls, variation selectors, fillers, control characters),
// combining marks stacked on an ASCII character are dropped, every other space becomes a
// plain space, hyphen-like dashes become '-', and Cyrillic or Greek look-alikes inside a word
// that also holds ASCII letters or digits fold to the Latin letters they imitate.
// White space is folded to single spaces, as the reply is finally spoken. The result is what
// the redactor returns and what the synthesizer is given.
func canonical(s string) string {
	if plainASCII(s) {
		return foldSpaces(s)
	}
	s = norm.NFKC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	afterASCII, lookalikes := false, false
	for _, r := range s {
		switch {
		case r < 0x80:
			if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
				continue // the markup pass drops control characters: so does this one
			}
			b.WriteRune(r)
			afterASCII = r > ' '
			continue
		case invisible(r):
			continue
		case unicode.In(r, unicode.Mn, unicode.Me):
			if afterASCII {
				continue // a mark NFKC could not compose onto an ASCII letter is decoration
			}
		case unicode.IsSpace(r) || unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp):
			b.WriteByte(' ')
			afterASCII = false
			continue
		case unicode.IsControl(r):
			continue
		case r == 0x2010 || r == 0x2012 || r == 0x2013 || r == 0x2043 || r == 0x2212:
			b.WriteByte('-')
			afterASCII = true
			continue
		}
		if _, ok := latinLookalike[r]; ok {
			lookalikes = true
		}
		b.WriteRune(r)
		afterASCII = false
	}
	out := b.String()
	if lookalikes {
		out = foldLookalikes(out)
	}
	return foldSpaces(out)
}

// foldSpaces makes every run of white space one space, as the reply is finally spoken: a
// pattern must not miss "0000000\r0000000" that the listener hears as "0000000 0000000".
func foldSpaces(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\t' || c == '\n' || c == '\r' || c == ' ' && (i == 0 || i+1 == len(s) || s[i+1] == ' ') {
			return strings.Join(strings.Fields(s), " ")
		}
	}
	return s
}

// plainASCII reports text made only of printable ASCII, tabs and line breaks: the common
// case, which canonical returns unchanged.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x7f || c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// invisible reports characters a reader does not see but a speech engine may still read, or
// that split a token for a pattern while the listener hears it whole.
func invisible(r rune) bool {
	switch {
	case unicode.Is(unicode.Cf, r): // U+00AD, U+200B..U+200F, U+202A..U+202E, U+2060..U+206F, U+FEFF, tags
		return true
	case r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF, r >= 0x180B && r <= 0x180F: // variation selectors
		return true
	}
	switch r {
	case 0x034F, // combining grapheme joiner
		0x115F, 0x1160, 0x3164, 0xFFA0, // Hangul fillers
		0x17B4, 0x17B5, // Khmer inherent vowels
		0x2800, // braille blank
		0xFFFC: // object replacement
		return true
	}
	return false
}

// latinLookalike maps Cyrillic and Greek letters to the Latin letters they are drawn like.
var latinLookalike = map[rune]rune{
	'а': 'a', 'в': 'b', 'е': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't', 'у': 'y', 'х': 'x',
	'ѕ': 's', 'і': 'i', 'ј': 'j', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ү': 'y', 'һ': 'h', 'ɡ': 'g',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'У': 'Y', 'Х': 'X',
	'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'Ү': 'Y', 'Һ': 'H', 'Ԛ': 'Q', 'Ԝ': 'W',
	'α': 'a', 'ο': 'o', 'ν': 'v', 'ι': 'i', 'κ': 'k', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x', 'ϲ': 'c', 'ε': 'e',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P',
	'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'Ϲ': 'C',
}

// foldLookalikes rewrites look-alike letters to Latin inside words that also hold an ASCII
// letter or digit ("ѕk-live…" with a Cyrillic dze). A word wholly in Cyrillic or Greek is a
// word of that language and is left alone.
func foldLookalikes(s string) string {
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' }
	var b strings.Builder
	b.Grow(len(s))
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if !isWord(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j := i
		ascii, alike := false, false
		for ; j < len(rs) && isWord(rs[j]); j++ {
			r := rs[j]
			if r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				ascii = true
			} else if _, ok := latinLookalike[r]; ok {
				alike = true
			}
		}
		for _, r := range rs[i:j] {
			if l, ok := latinLookalike[r]; ok && ascii && alike {
				r = l
			}
			b.WriteRune(r)
		}
		i = j
	}
	return b.String()
}
