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
	})
}
