package redact

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

var corpusTerms = []string{"Jane Doe", "Acme Corp", "42 Elm Street", "42 Elm St", "Springfield Elementary"}

func corpusRedactor(t testing.TB) *Redactor {
	r, err := New(Config{Terms: corpusTerms})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// corpusTexts are the replies of testdata/corpus.tsv (its second column).
func corpusTexts(t testing.TB) []string {
	f, err := os.Open("testdata/corpus.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var texts []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if parts := strings.Split(sc.Text(), "\t"); len(parts) >= 2 && !strings.HasPrefix(parts[0], "#") {
			texts = append(texts, parts[1])
		}
	}
	return texts
}

func TestCorpus(t *testing.T) {
	r := corpusRedactor(t)
	f, err := os.Open("testdata/corpus.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, line := 0, 0
	for sc.Scan() {
		line++
		if strings.HasPrefix(sc.Text(), "#") || sc.Text() == "" {
			continue
		}
		parts := strings.Split(sc.Text(), "\t")
		n++
		res, err := r.Redact(parts[1])
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		switch parts[0] {
		case "sensitive":
			for _, secret := range strings.Split(parts[2], "|") {
				if strings.Contains(strings.ToLower(res.Text), strings.ToLower(secret)) {
					t.Errorf("line %d: %q survives in %q", line, secret, res.Text)
				}
			}
			if len(res.Kinds) == 0 {
				t.Errorf("line %d: no redaction kind reported for %q", line, parts[1])
			}
		case "benign":
			if res.Text != parts[1] || len(res.Kinds) != 0 {
				t.Errorf("line %d: benign text changed: %q -> %q %v", line, parts[1], res.Text, res.Kinds)
			}
		default:
			t.Fatalf("line %d: unknown class %q", line, parts[0])
		}
	}
	if n < 200 {
		t.Fatalf("corpus has %d cases, want at least 200", n)
	}
}

func TestLengthCap(t *testing.T) {
	r, _ := New(Config{MaxChars: 50})
	res, _ := r.Redact(strings.Repeat("The quick brown fox jumps over the lazy dog. ", 10))
	if utf8.RuneCountInString(res.Text) > 50 || !strings.HasSuffix(res.Text, ".") || res.Kinds[0] != KindLength {
		t.Fatalf("%q %v", res.Text, res.Kinds)
	}
}

func TestKindsNeverCarryText(t *testing.T) {
	r := corpusRedactor(t)
	res, _ := r.Redact("Jane Doe: jane@example.com, 555-123-4567")
	for _, k := range res.Kinds {
		if strings.Contains(strings.ToLower(k), "jane") || strings.ContainsAny(k, "@0123456789") {
			t.Fatalf("kind carries text: %q", k)
		}
	}
}

func FuzzRedact(f *testing.F) {
	f.Add("Call 555-123-4567 or jane@example.com")
	f.Add("Jane Doe's card 4111 1111 1111 1111")
	f.Add(strings.Repeat("a", 5000))
	f.Add("\xff\xfe bad utf8 sk-ABCDEFGHIJKLMNOPQRSTUV")
	for _, e := range evasions {
		f.Add(e.text)
	}
	for _, s := range ordinary {
		f.Add(s)
	}
	r, err := New(Config{Terms: corpusTerms, MaxChars: 300})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		res, err := r.Redact(s)
		if err != nil {
			t.Fatalf("redactor failed: %v", err)
		}
		if utf8.RuneCountInString(res.Text) > 300 {
			t.Fatalf("output of %d runes is over the cap", utf8.RuneCountInString(res.Text))
		}
		if !utf8.ValidString(res.Text) {
			t.Fatal("output is not UTF-8")
		}
		for _, r := range res.Text {
			if invisible(r) {
				t.Fatalf("output keeps the invisible %U", r)
			}
		}
		// The boundary's second pass never fails either, and is a fixed point for what
		// it returns: redacting the spoken text again finds nothing new to remove.
		sp, err := r.Speakable(s)
		if err != nil {
			t.Fatalf("speakable failed: %v", err)
		}
		if again, _ := r.Speakable(sp.Text); len(again.Text) > len(sp.Text) {
			t.Fatalf("a second boundary pass grew the text: %q -> %q", sp.Text, again.Text)
		}
	})
}

// TestGuardsNeverSkipAMatch: the cheap guards that skip secretRE and spokenDigitsRE must be
// sound — on any text either pattern can match, its guard lets it run. Checked on every
// secret shape the pattern knows, in mixed case and inside sentences, on the corpus, and on
// the fuzzer's inputs (FuzzGuards).
func TestGuardsNeverSkipAMatch(t *testing.T) {
	samples := []string{
		"sk-proj-ABCDEFGHIJKLMNOPQRST", "PK-LIVE-abcdefghijklmnopqr", "rK_test_ABCDEFGHIJKLMNOPQR", "WHSEC_abcdefghijklmnopqrs",
		"GHP_abcdefghijklmnopqrstuvwx", "gHs_ABCDEFGHIJKLMNOPQRSTUVWX", "GitHub_PAT_abcdefghijklmnopqrstu", "XOXB-1234567890-abc",
		"akia0123456789ABCDEF", "AIZA0123456789012345678901234567890", "RBK_0123456789abcdef_abcdefghijklmnopqrstu",
		"GLPAT-abcdefghijklmnopqrstu", "EYJhbGciOiJI.eyJzdWIiOiIx.SflKxwRJSMeKKF", "BEARER abcdefghijklmnop0123",
		"API KEY = hunter2hunter2", "Apikey: swordfish", "SECRET=opensesame", "Token: abcdef123", "PASSWD=abcdef12",
		"Password : correcthorse", "nine eight seven six five four three", "OH ONE, TWO-THREE. four five six",
		"double five triple nine one two three", "The ſecret: hunter22", "the \u212aEY=abcdefgh",
	}
	samples = append(samples, corpusTexts(t)...)
	for _, s := range samples {
		checkGuards(t, "it says "+s+" ok")
	}
}

func FuzzGuards(f *testing.F) {
	f.Add("sk-ABCDEFGHIJKLMNOPQRSTUV")
	f.Add("one two three four five six seven")
	f.Fuzz(func(t *testing.T, s string) { checkGuards(t, s) })
}

func checkGuards(t *testing.T, s string) {
	t.Helper()
	folded := canonical(strings.ToValidUTF8(s, ""))
	n := strings.ToLower(folded)
	if secretRE.MatchString(folded) && !maySecret(n) {
		t.Fatalf("the secret guard would skip a match in %q", s)
	}
	if joinedSecretRE.re.MatchString(folded) && !mayJoinedSecret(n) {
		t.Fatalf("the joined-secret guard would skip a match in %q", s)
	}
	if spokenDigitsRE.re.MatchString(folded) && spokenDigitWords(n) < minSpokenDigits {
		t.Fatalf("the spoken-digits guard would skip a match in %q", s)
	}
}

// TestTermsWithLettersBeyondASCII: a family's own names with accents or letters beyond ASCII
// at either end are redacted as whole words, as ASCII names are — and never inside a
// longer word.
func TestTermsWithLettersBeyondASCII(t *testing.T) {
	r, err := New(Config{Terms: []string{"José", "Zoë", "Ærø", "Émile Zola", "Renée Dupont", "Chloé Martin"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{"José called.", "someone called."},
		{"Ask Zoë today", "Ask someone today"},
		{"ZOË said hi", "someone said hi"},
		{"Ærø is far", "someone is far"},
		{"Émile Zola wrote this", "someone wrote this"},
		{"Tell Zoë's teacher", "Tell someone teacher"},
		{"José, Zoë and Chloé Martin came", "someone, someone and someone came"},
		{"Josélito and Zoëlle are not on the list", "Josélito and Zoëlle are not on the list"},
		{"Renée Dupont phoned", "someone phoned"},
	} {
		got, err := r.Redact(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got.Text != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got.Text, c.want)
		}
	}
}
