package broker

import (
	"slices"
	"strings"
	"unicode"

	"github.com/reachy-broker/reachy-broker/redact"
)

// speakable is the boundary every reply passes: redact, then strip markup, then redact again.
// The order matters. The redactor first sees the text as the handler (or a model) wrote it,
// so a token keeps the underscores and dashes its pattern needs ("rbk_…_…", "ghp_…").
// Markup is stripped only after, and the second pass catches a secret that markup had split
// ("sk-**ABC**DEF…") and stripping would otherwise join into speech.
func (b *Broker) speakable(text string) (redact.Result, error) {
	first, err := b.d.Redactor.Redact(text)
	if err != nil {
		return redact.Result{}, err
	}
	stripped := stripMarkup(first.Text)
	if stripped == first.Text {
		return first, nil // nothing was joined: a second pass would find nothing new
	}
	second, err := b.d.Redactor.Redact(stripped)
	if err != nil {
		return redact.Result{}, err
	}
	kinds := append(first.Kinds, second.Kinds...)
	slices.Sort(kinds)
	second.Kinds = slices.Compact(kinds)
	return second, nil
}

// stripMarkup removes what a speech engine would read out as symbols (markdown emphasis,
// headings, code ticks, table bars, quote marks) and control characters.
func stripMarkup(s string) string {
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
