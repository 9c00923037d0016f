package intents

// A learner's or a grandparent's own language (foreign.yaml): "apaga la luz de la cocina por
// favor", "que hora es", "llama a la policía". When a sentence reaches nobody as said and
// holds enough of a language's own words, it is read word by word into English — phrases
// first, longest first — and routed again as read. The reading is deterministic and never
// guesses: a word the table has no English for stays as it was said, and the sentence is
// then routed as any other, with every rule of the doctrine (a quotation, a report, a
// negation still never act).

import (
	_ "embed"
	"fmt"
	"slices"
	"sort"
	"strings"
)

//go:embed foreign.yaml
var foreignYAML []byte

// foreignLanguage is one language of foreign.yaml, in lookup form.
type foreignLanguage struct {
	markers map[string]bool
	// shapes are the markers' shapes: enough looks up only a word of one of them.
	shapes *wordShapes
	// byFirst: a phrase's first word -> its phrases (longest first), each with its English.
	byFirst map[string][]foreignPhrase
}

type foreignPhrase struct {
	from, to []string
}

type foreignYAMLLanguage struct {
	Markers []string          `yaml:"markers"`
	Words   map[string]string `yaml:"words"`
}

// loadForeign reads foreign.yaml.
func loadForeign() ([]foreignLanguage, error) {
	langs, err := decodeStrict[map[string]foreignYAMLLanguage](foreignYAML, "foreign.yaml")
	if err != nil {
		return nil, fmt.Errorf("built-in foreign words: %w", err)
	}
	var out []foreignLanguage
	for _, code := range sortedKeys(langs) {
		y := langs[code]
		l := foreignLanguage{markers: map[string]bool{}, shapes: &wordShapes{}, byFirst: map[string][]foreignPhrase{}}
		for _, m := range y.Markers {
			l.markers[strings.ToLower(m)] = true
			l.shapes.add(strings.ToLower(m))
		}
		for _, from := range sortedKeys(y.Words) {
			f := tokenize(strings.ToLower(from))
			if len(f) == 0 || len(f) > 4 {
				return nil, fmt.Errorf("foreign.yaml: %s: %q: a phrase is one to four words", code, from)
			}
			l.byFirst[f[0]] = append(l.byFirst[f[0]], foreignPhrase{from: f, to: strings.Fields(y.Words[from])})
		}
		for _, ps := range l.byFirst {
			sort.SliceStable(ps, func(i, j int) bool { return len(ps[i].from) > len(ps[j].from) })
		}
		out = append(out, l)
	}
	return out, nil
}

// enough reports whether toks hold enough of this language's own words to be read from it.
func (l *foreignLanguage) enough(toks []string) bool {
	markers := 0
	for _, w := range toks {
		if l.shapes.may(w) && l.markers[w] {
			markers++
		}
	}
	return markers >= 2 || markers == 1 && len(toks) <= 3
}

// read gives the English of toks, or nil when they are not enough of this language.
func (l *foreignLanguage) read(toks []string) []string {
	if !l.enough(toks) {
		return nil
	}
	out := make([]string, 0, len(toks)+4)
	for i := 0; i < len(toks); {
		matched := false
		for _, p := range l.byFirst[toks[i]] {
			if hasPrefix(toks[i:], p.from) {
				out = append(out, p.to...)
				i += len(p.from)
				matched = true
				break
			}
		}
		if !matched {
			out = append(out, toks[i])
			i++
		}
	}
	if slices.Equal(out, toks) {
		return nil
	}
	return out
}

// readAsForeign routes a sentence that reached nobody again as read from another language.
func (t *Table) readAsForeign(transcript string, n Normalized, ctx Context) (Decision, bool) {
	if !slices.ContainsFunc(t.foreign, func(l foreignLanguage) bool { return l.enough(n.tokens()) }) {
		return Decision{}, false // most sentences: no language's own words (read from what was routed, no copy)
	}
	toks := tokenize(strings.ToLower(transcript))
	for i := range t.foreign {
		english := t.foreign[i].read(toks)
		if english == nil {
			continue
		}
		text := strings.Join(english, " ")
		d := t.routeSentence(text, ctx)
		if !understood(d) && d.Intent != IntentUnclear && d.Intent != IntentDeepAsk {
			return Decision{}, false
		}
		d.Doctrine = append([]string{"read from another language: \"" + strings.Join(toks, " ") + "\" as \"" + text + "\""}, d.Doctrine...)
		return d, true
	}
	return Decision{}, false
}
