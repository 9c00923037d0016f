package console

import "testing"

// TestConsents: what the room may answer to "Dad would like to join. Say yes, or come in."
// Only a plain yes lets the owner in; a no, a not-yet, a question or anything else declines.
func TestConsents(t *testing.T) {
	for _, s := range []string{"yes", "Yes!", "yeah", "yep, come in", "come in", "Come on in, Dad.", "sure", "okay",
		"ok go ahead", "let him in", "yes please", "of course", "all right", "yes please do"} {
		if !consents(s) {
			t.Errorf("%q should let the owner in", s)
		}
	}
	for _, s := range []string{"", "no", "No thanks", "not now", "yes, but not now", "don't come in", "wait", "later",
		"who is it", "hang up", "maybe", "never", "nope", "I'm busy", "yes no", "hello", "privacy mode on",
		"can't right now", "we are in the bath, dont come in", "the cat says yes to dinner and tea and more and more words than an answer"} {
		if consents(s) {
			t.Errorf("%q should decline", s)
		}
	}
}
