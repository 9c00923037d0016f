package redact

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The family's own words (Config.Terms): how each term is compiled and matched as a whole
// word, also when its edges are letters beyond ASCII.

// termPattern matches one configured term. Every match holds first (the term's first word,
// lower case): a reply that does not is not scanned for it. opens are what its
// alternatives open with (the ASCII start of a word of the term, lower case): it runs only at
// the words that open so. When an alternative opens with a character that is not ASCII,
// opens is nil and the pattern runs over the whole text.
//
// A term whose first or last letter is not ASCII ("José", "Zoë", "Ærø") cannot use \b, which
// knows only ASCII word characters: wholeWord is set, its pattern has no \b, and a match
// counts only where no letter, digit or mark touches it on either side.
type termPattern struct {
	first     string
	opens     []string
	re        *startRE
	wholeWord bool
}

// asciiOpens: what a term's alternatives open with — the ASCII start of its first word; with
// two words, also of its second ("Doe, Jane") — or nil when one opens with a character that
// is not ASCII.
func asciiOpens(words []string) []string {
	firsts := words[:1]
	if len(words) == 2 {
		firsts = words
	}
	var out []string
	for _, w := range firsts {
		n := 0
		for n < len(w) && w[n] < 0x80 {
			n++
		}
		if n == 0 {
			return nil
		}
		out = append(out, w[:n])
	}
	return out
}

// asciiEdges reports whether a term opens and ends with an ASCII letter or digit, where \b
// judges its edges right (the words are lower case).
func asciiEdges(words []string) bool {
	first, last := words[0], words[len(words)-1]
	isWord := func(c byte) bool { return c < 0x80 && (isLetter(c) || isDigit(c)) }
	return isWord(first[0]) && isWord(last[len(last)-1])
}

// replaceWholeWords replaces re's matches in text that no letter, digit, mark or underscore
// touches on either side (a Unicode \b); a match that one touches is passed over and the
// search goes on from its next rune. It reports whether it replaced any.
func replaceWholeWords(text string, re *regexp.Regexp, repl string) (string, bool) {
	wordRune := func(r rune) bool {
		return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
	}
	var b strings.Builder
	last, found := 0, false
	for pos := 0; pos < len(text); {
		loc := re.FindStringIndex(text[pos:])
		if loc == nil {
			break
		}
		s, e := pos+loc[0], pos+loc[1]
		before, _ := utf8.DecodeLastRuneInString(text[:s])
		after, _ := utf8.DecodeRuneInString(text[e:])
		if e == s || (s > 0 && wordRune(before)) || (e < len(text) && wordRune(after)) {
			_, size := utf8.DecodeRuneInString(text[s:])
			pos = s + max(size, 1)
			continue
		}
		b.WriteString(text[last:s])
		b.WriteString(repl)
		last, pos, found = e, e, true
	}
	if !found {
		return text, false
	}
	b.WriteString(text[last:])
	return b.String(), true
}
