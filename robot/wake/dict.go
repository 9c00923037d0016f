package wake

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// phrasesWords splits and checks the configured phrases.
func normalizePhrases(phrases []string) ([][]string, error) {
	if len(phrases) == 0 {
		return nil, fmt.Errorf("%w: no wake phrase configured (wake_phrases: [hey reachy])", ErrSpelling)
	}
	var out [][]string
	for _, p := range phrases {
		words := strings.Fields(strings.ToLower(p))
		if len(words) == 0 {
			return nil, fmt.Errorf("%w: an empty wake phrase in wake_phrases", ErrSpelling)
		}
		for _, w := range words {
			for _, r := range w {
				if (r < 'a' || r > 'z') && r != '\'' {
					return nil, fmt.Errorf("%w: %q in wake phrase %q: write words with the letters a-z only (no digits or punctuation)", ErrSpelling, w, p)
				}
			}
		}
		out = append(out, words)
	}
	return out, nil
}

// modelPaths checks the model directory and names what is missing.
func modelPaths(dir string) (hmm, dict string, err error) {
	if dir == "" {
		dir = DefaultModelDir
	}
	hmm, dict = filepath.Join(dir, "en-us"), filepath.Join(dir, "cmudict-en-us.dict")
	for _, f := range []string{filepath.Join(hmm, "mdef"), filepath.Join(hmm, "means"), dict} {
		if _, err := os.Stat(f); err != nil {
			return "", "", fmt.Errorf("%w: %s is missing: install the model (Debian: apt-get install pocketsphinx-en-us) or set wake_model_dir to a directory holding en-us/ and cmudict-en-us.dict", ErrModel, f)
		}
	}
	return hmm, dict, nil
}

// lexicon reads only the phrase words from the big dictionary, so the engine loads a
// dictionary of a few lines instead of 130,000 words (that is most of its memory).
func lexicon(dictPath string, phrases [][]string, extra map[string]string) (map[string][]string, error) {
	want := map[string]bool{}
	for _, p := range phrases {
		for _, w := range p {
			want[w] = true
		}
	}
	lex := map[string][]string{}
	f, err := os.Open(dictPath)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrModel, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		word, phones, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if i := strings.IndexByte(word, '('); i > 0 {
			word = word[:i]
		}
		if want[word] {
			lex[word] = append(lex[word], strings.TrimSpace(phones))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: reading %s: %v", ErrModel, dictPath, err)
	}
	for _, src := range []map[string]string{BuiltinPronunciations(), extra} {
		for w, ph := range src {
			w = strings.ToLower(w)
			if want[w] {
				lex[w] = []string{strings.ToUpper(strings.Join(strings.Fields(ph), " "))}
			}
		}
	}
	var missing []string
	for w := range want {
		if len(lex[w]) == 0 {
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("%w: the dictionary %s cannot spell %q: add its sounds under wake_pronunciations in the hub config (ARPAbet, e.g. %s: R IY CH IY) or choose another phrase",
			ErrSpelling, dictPath, strings.Join(missing, ", "), missing[0])
	}
	return lex, nil
}

// writeLexicon writes the small dictionary in the engine's format.
func writeLexicon(path string, lex map[string][]string) error {
	var b strings.Builder
	words := make([]string, 0, len(lex))
	for w := range lex {
		words = append(words, w)
	}
	sort.Strings(words)
	for _, w := range words {
		for i, ph := range lex[w] {
			if i == 0 {
				fmt.Fprintf(&b, "%s %s\n", w, ph)
			} else {
				fmt.Fprintf(&b, "%s(%d) %s\n", w, i+1, ph)
			}
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o600)
}
