package broker

import (
	"github.com/reachy-broker/reachy-broker/redact"
)

// speakable is the boundary every reply passes (redact.Redactor.Speakable: redact, strip
// markup, redact again). What it returns is exactly what the synthesizer is given.
func (b *Broker) speakable(text string) (redact.Result, error) {
	return b.d.Redactor.Speakable(text)
}

// SpeakableText is the same boundary for the text-only callers wired outside a turn — owner
// announcements and timer rings: the two passes, the text as it will be spoken.
func SpeakableText(r *redact.Redactor) func(string) (string, error) {
	return func(text string) (string, error) {
		res, err := r.Speakable(text)
		return res.Text, err
	}
}
