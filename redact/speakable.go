package redact

import (
	"slices"
	"strings"
	"unicode"
)

// Speakable is the boundary every spoken text passes — replies, streamed sentences,
// announcements and timer rings: redact, strip markup, then redact again, and return the text
// exactly as the synthesizer is to be given it.
//
// The order matters. The first pass sees the text as the handler (or a model) wrote it, so a
// token keeps the underscores and dashes its pattern needs ("rbk_…_…", "ghp_…"). Markup is
// stripped only after, and the second pass sees the text as it will be spoken: a secret that
// markup had split ("sk-**ABC**DEF…") and stripping joins, and a prefix whose separators
// stripping removed ("`sk_live_`…" becomes "sklive…"), are caught there.
func (r *Redactor) Speakable(text string) (Result, error) {
	first, err := r.Redact(text)
	if err != nil {
		return Result{}, err
	}
	stripped := stripMarkup(first.Text)
	if stripped == first.Text {
		return first, nil // nothing was joined: a second pass would find nothing new
	}
	second, err := r.Redact(stripped)
	if err != nil {
		return Result{}, err
	}
	kinds := append(first.Kinds, second.Kinds...)
	slices.Sort(kinds)
	second.Kinds = slices.Compact(kinds)
	return second, nil
}

// stripMarkup removes what a speech engine would read out as symbols (markdown emphasis,
// headings, code ticks, table bars, quote marks, HTML-like tags) and control characters.
func stripMarkup(s string) string {
	s = stripTags(s)
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t' || r == '\r':
			return ' '
		case unicode.IsControl(r), r == '*', r == '#', r == '`', r == '_', r == '|', r == '>', r == '~':
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// stripTags removes short HTML-like tags ("<b>", "</code>", "<span class=x>"): markup, read
// out as "less than b greater than", and able to split a secret past the patterns.
func stripTags(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '<' || i+1 >= len(s) || !(s[i+1] == '/' || s[i+1] >= 'a' && s[i+1] <= 'z' || s[i+1] >= 'A' && s[i+1] <= 'Z') {
			continue
		}
		end := strings.IndexByte(s[i:min(len(s), i+40)], '>')
		if end < 0 || strings.ContainsAny(s[i+1:i+end], "<\n") {
			continue
		}
		b.WriteString(s[last:i])
		last = i + end + 1
		i = last - 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}
