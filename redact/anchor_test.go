package redact

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// startSamples are texts for TestStartSets: every corpus, evasion and ordinary text, the
// guards' samples, and each of them run together with the next.
func startSamples(t testing.TB) []string {
	var out []string
	out = append(out, corpusTexts(t)...)
	for _, e := range evasions {
		out = append(out, e.text)
	}
	for _, e := range spokenEvasions {
		out = append(out, e.text)
	}
	out = append(out, ordinary...)
	out = append(out, spokenOrdinary...)
	out = append(out, "Reach 555-0134, +44 20 7946 0958 or (415) 555-0134; SSN 123-45-6789, card 4111-1111-1111-1111.",
		"GB82WEST12345698765432, DE89 3704 0044 0532 0130 00, fr14 2004 1010 0505 0001 3m02 606.",
		"mail a.b@c.de, x (AT) y [dot] com, j.doe at example.com, .x@y.io, _a@b.co, +1-202-555-0199",
		"Doe, Jane and JANE-DOE'S and jane doe; acme corp; 42 elm st.", "it's ghp_abc ghpabc123 xoxb1abc glpatabcdef rbk_0123 AKIA1234 AIzaabcdef")
	n := len(out)
	for i := 0; i+1 < n; i++ {
		out = append(out, out[i]+" "+out[i+1])
	}
	// Long replies full of one start: past maxAnchored, a pattern runs over the whole text.
	for _, r := range []string{"sk_live_x sk-y ", "jane said hi to Jane Doe. ", "a@b.c x@y ", "five five five five five x ",
		"+1 (2) 3 ", "call 555 1234 now ", "double double ", "GB82 WEST 1234 ", "ghp_abc1 rbk_0123 "} {
		out = append(out, strings.Repeat(r, 40))
	}
	return out
}

// spokenSamples are runs of number words, "double", "triple", "hundred" and near-misses,
// in any case, between separators and ordinary words.
func spokenSamples(n int) []string {
	words := []string{"zero", "oh", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "double",
		"triple", "hundred", "hundreds", "ten", "ohh", "oneself", "Nine", "FIVE", "x", "1", "five_", "seven2"}
	seps := []string{" ", ", ", ". ", "-", " - ", "\t", "", "_", "; ", ",,", " . "}
	rng := rand.New(rand.NewSource(5))
	var out []string
	for i := 0; i < n; i++ {
		var b strings.Builder
		for k := rng.Intn(16); k >= 0; k-- {
			b.WriteString(words[rng.Intn(len(words))])
			b.WriteString(seps[rng.Intn(len(seps))])
		}
		out = append(out, b.String())
	}
	return out
}

// TestStartSets: every pattern run at its start set does exactly what it does run over the
// whole text — the same matches, where they start and end — on the corpus, the evasions,
// ordinary sentences, and spelled-out numbers; the hand-written spoken-digits match is the
// pattern's; and validIBAN is its slow form.
func TestStartSets(t *testing.T) {
	r := corpusRedactor(t)
	texts := append(startSamples(t), spokenSamples(3000)...)
	for _, s := range texts {
		checkStartSets(t, r, s)
	}
}

func FuzzStartSets(f *testing.F) {
	for _, s := range startSamples(f)[:60] {
		f.Add(s)
	}
	r := corpusRedactor(f)
	f.Fuzz(func(t *testing.T, s string) { checkStartSets(t, r, s) })
}

func checkStartSets(t *testing.T, r *Redactor, s string) {
	t.Helper()
	text := canonical(strings.ToValidUTF8(s, ""))
	sc := (&textScan{ix: prefixes}).of(text)
	mark := func(m string) string { return "<" + m + ">" }
	type set struct {
		name   string
		p      *startRE
		starts []int
	}
	sets := []set{
		{"spoken digits", spokenDigitsRE, sc.spokenDigitStarts()},
		{"iban", ibanRE, sc.ibanStarts()},
		{"joined secret", joinedSecretRE, sc.hits[setJoined]},
		{"email", emailRE, emailStarts(text)},
		{"ssn", ssnRE, sc.digitStarts()},
		{"card", cardRE, sc.digitStarts()},
		{"phone", phoneRE, phoneStarts(text)},
		{"partial secret", partialSecretRE, sc.hits[setPartial]},
		{"joined partial", joinedPartialRE, sc.hits[setJoinedPartial]},
	}
	for i, f := range secretFamilies {
		sets = append(sets, set{fmt.Sprint("secret family ", i), f, sc.hits[i]})
	}
	for _, tm := range r.terms {
		if tm.opens != nil {
			sets = append(sets, set{"term " + tm.first, tm.re, sc.prefixStarts(tm.opens)})
		}
	}
	for _, x := range sets {
		if got, want := x.p.replaceAt(text, x.starts, mark), x.p.re.ReplaceAllStringFunc(text, mark); got != want {
			t.Fatalf("%s at its starts %v differs from the whole-text pattern on %q:\n got %q\nwant %q", x.name, x.starts, text, got, want)
		}
	}
	for _, run := range sc.runs {
		if got, want := spokenDigitsAt(text, run.s), spokenDigitsRE.regexpAt(text, run.s); got != want {
			t.Fatalf("spoken digits by hand at %d of %q: %d, the pattern: %d", run.s, text, got, want)
		}
	}
	for _, w := range strings.Fields(text) {
		if validIBAN(w) != validIBANSlow(w) {
			t.Fatalf("validIBAN(%q) = %v, its slow form %v", w, validIBAN(w), validIBANSlow(w))
		}
	}
}
