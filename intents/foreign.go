package intents

// A learner's or a grandparent's own language (foreign.yaml): "apaga la luz de la cocina por
// favor", "que hora es", "llama a la policía", "kitne baje hai", "patayin ang ilaw", "wyłącz
// światło", "appelle maman", "liga para a mãe", "ruf Mama an", "shukran". When a sentence reaches nobody as said and
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
	// englishToo are markers that are English words as well ("favor", "hindi"): alone in a
	// sentence of English they say nothing of its language.
	englishToo map[string]bool
	// shapes are the markers' shapes: enough looks up only a word of one of them.
	shapes *wordShapes
	// byFirst: a phrase's first word -> its phrases (longest first), each with its English.
	byFirst map[string][]foreignPhrase
}

type foreignPhrase struct {
	from, to []string
}

type foreignYAMLLanguage struct {
	Markers []string `yaml:"markers"`
	// EnglishToo lists markers that are English words too (see foreignLanguage.englishToo).
	EnglishToo []string          `yaml:"english_too"`
	Words      map[string]string `yaml:"words"`
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
		l := foreignLanguage{markers: map[string]bool{}, englishToo: map[string]bool{}, shapes: &wordShapes{}, byFirst: map[string][]foreignPhrase{}}
		for _, w := range y.EnglishToo {
			l.englishToo[strings.ToLower(w)] = true
		}
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

// count is how many of toks are this language's own words.
func (l *foreignLanguage) count(toks []string) int {
	markers := 0
	for _, w := range toks {
		if l.shapes.may(w) && l.markers[w] {
			markers++
		}
	}
	return markers
}

// enough reports whether toks hold enough of this language's own words to be read from it:
// two, or one that is no English word too — a learner's own verb among English nouns
// ("enciende the light of the living", "washa the light please").
func (l *foreignLanguage) enough(toks []string) bool {
	markers, english := 0, 0
	for _, w := range toks {
		if l.shapes.may(w) && l.markers[w] {
			markers++
			if l.englishToo[w] {
				english++
			}
		}
	}
	return markers >= 2 || markers == 1 && (len(toks) <= 3 || english == 0)
}

// read gives the English of toks and how many of them were read, or nil when they are not
// enough of this language.
func (l *foreignLanguage) read(toks []string) ([]string, int) {
	if !l.enough(toks) {
		return nil, 0
	}
	covered := 0
	out := make([]string, 0, len(toks)+4)
	for i := 0; i < len(toks); {
		matched := false
		for _, p := range l.byFirst[toks[i]] {
			if hasPrefix(toks[i:], p.from) {
				out = append(out, p.to...)
				i += len(p.from)
				covered += len(p.from)
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
		return nil, 0
	}
	return out, covered
}

// mostlyForeign: a language has two or more of its own words (none an English word too) in
// the transcript as said, and they are at least a third of its words: "abbu ko call karo" is
// Hindi around one English word, whatever an English reading made of it.
func (t *Table) mostlyForeign(transcript string) bool {
	toks := tokenize(strings.ToLower(transcript))
	for i := range t.foreign {
		l := &t.foreign[i]
		own := 0
		for _, w := range toks {
			if l.shapes.may(w) && l.markers[w] && !l.englishToo[w] {
				own++
			}
		}
		if own >= 2 && 3*own >= len(toks) {
			return true
		}
	}
	return false
}

// someForeignWord reports whether the routed words or the words as said hold a marker of
// any language, reading both in place.
func (t *Table) someForeignWord(routed []string, transcript string) bool {
	for _, w := range routed {
		if t.foreignMarkers[w] {
			return true
		}
	}
	for w := range rawTokens(transcript) {
		if t.foreignMarkers[strings.ToLower(w)] {
			return true
		}
	}
	return false
}

// readAsForeign routes a sentence that reached nobody again as read from another language.
func (t *Table) readAsForeign(transcript string, n Normalized, ctx Context) (Decision, bool) {
	if !t.someForeignWord(n.tokens(), transcript) {
		return Decision{}, false // most sentences: no language's own words (read with no copy)
	}
	// Enough of one language's words as routed, or as said (the normalizer may have put
	// English for one: "allume la clim du salon" was routed as "... ac ...").
	someLanguage := func(toks []string) bool {
		return slices.ContainsFunc(t.foreign, func(l foreignLanguage) bool { return l.enough(toks) })
	}
	toks := tokenize(strings.ToLower(transcript))
	if !someLanguage(n.tokens()) && !someLanguage(toks) {
		return Decision{}, false
	}
	// The language that reads the most of the sentence is read first, then the one with the
	// most of its own words ("apaga a luz da cozinha, por favor" is Portuguese, not Spanish);
	// one whose reading reaches nobody gives way to the next.
	type reading struct {
		english          []string
		covered, markers int
	}
	var readings []reading
	for i := range t.foreign {
		if english, covered := t.foreign[i].read(toks); english != nil {
			readings = append(readings, reading{english, covered, t.foreign[i].count(toks)})
		}
	}
	sort.SliceStable(readings, func(a, b int) bool {
		ra, rb := readings[a], readings[b]
		return ra.covered > rb.covered || ra.covered == rb.covered && ra.markers > rb.markers
	})
	for _, r := range readings {
		english := r.english
		text := strings.Join(english, " ")
		d := t.routeSentence(text, ctx)
		if !understood(d) && d.Intent != IntentUnclear && d.Intent != IntentDeepAsk {
			continue
		}
		d.Doctrine = append([]string{"read from another language: \"" + strings.Join(toks, " ") + "\" as \"" + text + "\""}, d.Doctrine...)
		return d, true
	}
	return Decision{}, false
}
