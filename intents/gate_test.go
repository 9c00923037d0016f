package intents

import "testing"

// TestGateAdmitsEveryMatch: on every corpus sentence (its text and its duration view), a
// pattern that matches is never turned away by its word gate, and the gate turns most
// patterns away from a long sentence.
func TestGateAdmitsEveryMatch(t *testing.T) {
	tb := demo(t)
	tried, shut := 0, 0
	for _, s := range corpusSentences(t) {
		n := normalize(s, tb.vocab.wake)
		for _, text := range []string{n.Text, n.durations()} {
			for _, in := range tb.Intents() {
				for _, p := range in.patterns {
					sp := 0
					for i := 0; i < len(text); i++ {
						if text[i] == ' ' {
							sp++
						}
					}
					tried++
					if !p.gate.admits(text, sp) {
						shut++
						if p.re.MatchString(text) {
							t.Errorf("gate %+v of %s shuts out %q, which the pattern matches", p.gate, in.Name, text)
						}
					}
				}
			}
		}
	}
	if shut*2 < tried {
		t.Errorf("the gates shut out %d of %d tries: they save little", shut, tried)
	}
	g := deriveGate(`^(?:stop(?: it| that)?)$`)
	if g.lo != 0 || g.hi != 1 || g.admits("what is the stock price of apple", 6) || g.admits("top", 0) || !g.admits("stop it", 1) {
		t.Fatalf("gate of stop: %+v", g)
	}
}
