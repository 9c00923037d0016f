package intents

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The router's shortcuts (prefilter.go, normalize.go) must never change a decision: these
// tests hold each shortcut to the plain computation it stands for, on every corpus sentence.

func corpusSentences(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	tsv, err := filepath.Glob("testdata/*.tsv")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range append(files, tsv...) {
		for _, c := range loadCases(t, f) {
			out = append(out, c.Sentence)
		}
	}
	if len(out) < 1000 {
		t.Fatalf("only %d corpus sentences", len(out))
	}
	return out
}

// TestPrefilterAdmitsEveryMatch: on every corpus sentence (its text and its duration view),
// a pattern that matches is never turned away by its prefilter.
func TestPrefilterAdmitsEveryMatch(t *testing.T) {
	tb := demo(t)
	for _, s := range corpusSentences(t) {
		n := normalize(s, tb.vocab.wake)
		for _, text := range []string{n.Text, n.durations()} {
			for _, in := range tb.Intents() {
				for _, p := range in.patterns {
					if p.re.MatchString(text) && !p.filter.admits(text) {
						t.Errorf("prefilter %q of %s rejects %q, which the pattern matches", p.filter, in.Name, text)
					}
				}
			}
		}
	}
}

// TestPrefilterKnowsWholeWords: a pattern whose alternatives the regexp parser factors into
// fragments ("h(?:ello|i|ey)") still gets a prefilter, so a sentence holding none of its
// words never runs the expression.
func TestPrefilterKnowsWholeWords(t *testing.T) {
	f := derivePrefilter(`^(?:(?:hello|hi|hey|hiya|howdy|greetings|(?:good )?(?:morning|afternoon|evening))(?: there| everyone)?)$`)
	if len(f) == 0 || f.admits("what is the weather like in paris") {
		t.Fatalf("greeting prefilter %q admits a sentence without a greeting", f)
	}
	for _, s := range []string{"hello there", "hi", "good evening everyone", "hiya"} {
		if !f.admits(s) {
			t.Errorf("greeting prefilter %q rejects %q", f, s)
		}
	}
	f = derivePrefilter(`^(?:(?:what|which) (?:day|date) is it)$`)
	if f.admits("what is the date of easter, which day") {
		t.Fatalf("prefilter %q admits a sentence without \"what day\", \"which date\" ...", f)
	}
}

// TestNormalizedTextIsItsWords: Text is its words joined (normalize shares it with Clean
// when it can), and the duration view's shortcut gives what durationView does.
func TestNormalizedTextIsItsWords(t *testing.T) {
	tb := demo(t)
	for _, s := range corpusSentences(t) {
		n := normalize(s, tb.vocab.wake)
		if got, want := n.Text, strings.Join(n.toks, " "); got != want {
			t.Fatalf("%q: Text %q, its words %q", s, got, want)
		}
		if got, want := n.durations(), durationView(n.tokens()); got != want {
			t.Fatalf("%q: duration view %q, durationView %q", s, got, want)
		}
	}
}

// TestRawReplaceShortcut: a transcript needsRawReplace lets by is one the replacer would
// not change (its keys: "a.c.", "a/c", typographic apostrophes, the degree sign, dashes).
func TestRawReplaceShortcut(t *testing.T) {
	sentences := append(corpusSentences(t), "turn on the a.c.", "set the a. c. to 20", "a/c on", "the a.c off",
		"it’s 20° in here", "set it to −5", "done.", "what is 2.5 / 5")
	for _, s := range sentences {
		s = strings.ToLower(s)
		if !needsRawReplace(s) && rawReplacer.Replace(s) != s {
			t.Errorf("%q: skipped, but the replacer makes it %q", s, rawReplacer.Replace(s))
		}
	}
	if needsRawReplace("what time is it.") {
		t.Error("a closing full stop alone sends a sentence through the replacer")
	}
}

// TestRawPartsSplitAsFieldsFunc: the byte splitter parts every corpus sentence (as heard,
// lower-cased) exactly where strings.FieldsFunc at the clause marks does.
func TestRawPartsSplitAsFieldsFunc(t *testing.T) {
	isMark := func(r rune) bool { return strings.ContainsRune(".!?;:,", r) }
	for _, s := range append(corpusSentences(t), "", ",,", "a,b", "¿qué?, sí.", "end.", ".start") {
		raw := strings.ToLower(s)
		if got, want := rawParts(raw), strings.FieldsFunc(raw, isMark); !slices.Equal(got, want) {
			t.Errorf("rawParts(%q) = %q, FieldsFunc gives %q", raw, got, want)
		}
	}
}

// TestPatternIndexKeepsEveryGatedPattern: on every corpus sentence and each of its clauses,
// every pattern whose gate admits the text it is matched against (the sentence, or its
// duration view) is among the candidates match visits — so match, visiting only those,
// answers exactly as the loop over every pattern did.
func TestPatternIndexKeepsEveryGatedPattern(t *testing.T) {
	tb := demo(t)
	visited := 0
	check := func(n Normalized) {
		for _, x := range []*patternIndex{tb.builtinIx, tb.customIx} {
			set := x.candidates(nil, n.Text, strings.Count(n.Text, " "))
			for k, r := range x.refs {
				p := &r.in.patterns[r.i]
				text := n.Text
				if p.durations {
					text = n.durations()
				}
				visited++
				if p.gate.admits(text, strings.Count(text, " ")) && set[k/64]&(1<<(k%64)) == 0 {
					t.Fatalf("%q: pattern %q of %s admitted by its gate, but not a candidate", text, p.source, r.in.Name)
				}
			}
		}
	}
	sentences := append(corpusSentences(t), "ten minutes timer", "an hour and a half timer for the eggs", "5 minutes", "")
	for _, s := range sentences {
		n := normalize(s, tb.vocab.wake)
		check(n)
		for _, c := range tb.clauses(n) {
			check(c)
		}
	}
	if visited == 0 {
		t.Fatal("no pattern visited")
	}
}

// TestWordIndexIsEveryList: the table's word index says of every word what each list it
// stands for says (wordClasses, the lexicon index, people, room starts, gerunds, a home's
// expression words): the corpus's words, and every key of those lists.
func TestWordIndexIsEveryList(t *testing.T) {
	tb := demo(t)
	v := &tb.vocab
	words := map[string]bool{"": true, "nobody-knows-this-word": true}
	for _, s := range corpusSentences(t) {
		for _, w := range normalize(s, v.wake).tokens() {
			words[w] = true
		}
	}
	for w := range wordClasses {
		words[w] = true
	}
	for w := range v.lexIx.first {
		words[w] = true
	}
	for w := range v.people {
		words[w] = true
	}
	for w := range v.roomStarts {
		words[w] = true
	}
	for w := range gerunds {
		words[w] = true
	}
	for w := range v.frameWords {
		words[w] = true
	}
	roomSpan := func(w string) uint8 { // which room lookups starting at w can succeed
		var span uint8
		for k := range v.rooms {
			ws := strings.Fields(k)
			if ws[0] == w && len(ws) <= maxRoomWords {
				span |= 1 << (len(ws) - 1)
			}
			if len(ws) == 1 && w != "" && len(w) < len(k) && strings.HasPrefix(k, w) {
				span |= roomJoined
			}
		}
		return span
	}
	spans, persons := 0, 0
	for w := range words {
		person, isPerson := v.people[w]
		if isPerson {
			persons++
		}
		got := v.words[w]
		if got.person != 0 != isPerson || v.personName(got) != person {
			t.Errorf("%q: index names %q (%v), people %q (%v)", w, v.personName(got), got.person != 0, person, isPerson)
		}
		var flags uint8
		if gerunds[w] {
			flags |= wiGerund
		}
		if v.frameWords[w] {
			flags |= wiFrameWord
		}
		want := wordInfo{cls: wordClasses[w], lex: v.lexIx.first[w], person: got.person, roomSpan: roomSpan(w), flags: flags}
		if want.roomSpan != 0 {
			spans++
			if !v.roomStarts[w] {
				t.Errorf("%q may start a room, but roomStarts does not list it", w)
			}
		}
		if got != want {
			t.Errorf("%q: index %+v, the lists %+v", w, got, want)
		}
	}
	if spans == 0 || persons == 0 {
		t.Errorf("%d words start a room, %d name a person: the test tests too little", spans, persons)
	}
}

// TestDurationWordsAsListed: durationWord and durationCore, which read one map of the
// duration lists, say of every corpus word (and every listed word, and glued and decimal
// numbers) what reading each list in turn says.
func TestDurationWordsAsListed(t *testing.T) {
	tb := demo(t)
	refWord := func(w string) bool {
		if _, ok := durationUnits[w]; ok || durationFillers[w] || isNumber(w) || slices.Contains(durationJoinWords, w) ||
			slices.Contains(vagueDurationWords, w) {
			return true
		}
		k := 0
		for k < len(w) && (w[k] >= '0' && w[k] <= '9' || w[k] == '.') {
			k++
		}
		_, unit := durationUnits[w[k:]]
		return k > 0 && unit
	}
	refCore := func(w string) bool {
		_, unit := durationUnits[w]
		return unit || isNumber(w) || slices.Contains(vagueDurationWords, w) || slices.Contains(durationCoreWords, w) ||
			len(w) > 1 && w[0] >= '0' && w[0] <= '9' && refWord(w)
	}
	words := []string{"", "10min", "90s", "1.5", "2.5h", "-5", "5x", "minutes", "quarters", "several", "hundred"}
	for w := range durationUnits {
		words = append(words, w)
	}
	for w := range durationFillers {
		words = append(words, w)
	}
	words = append(append(append(words, durationJoinWords...), vagueDurationWords...), durationCoreWords...)
	for _, s := range corpusSentences(t) {
		words = append(words, normalize(s, tb.vocab.wake).tokens()...)
	}
	for _, w := range words {
		if got, want := durationWord(w), refWord(w); got != want {
			t.Errorf("durationWord(%q) = %v, the lists say %v", w, got, want)
		}
		if got, want := durationCore(w), refCore(w); got != want {
			t.Errorf("durationCore(%q) = %v, the lists say %v", w, got, want)
		}
	}
}

// TestClauseTextIsItsWords: every clause of every corpus sentence (as route sees it, after a
// self-correction) has as Text its words joined, which appendClauses takes as a slice of its
// part's Text.
func TestClauseTextIsItsWords(t *testing.T) {
	tb := demo(t)
	for _, s := range append(corpusSentences(t), "turn on the light and then set a timer", "stop, stop and stop") {
		n := normalize(s, tb.vocab.wake)
		if c, ok := tb.selfCorrect(n); ok {
			n = c
		}
		for _, c := range tb.clauses(n) {
			if want := strings.Join(c.tokens(), " "); c.Text != want {
				t.Fatalf("%q: clause Text %q, its words %q", s, c.Text, want)
			}
		}
	}
}

// TestCourtesyEndsByLast: for every corpus sentence (and each of its shorter heads), the
// first courtesy end it ends with is the same whether every end is tried (courtesyEnds) or
// only those ending in its last word (courtesyEndsByLast).
func TestCourtesyEndsByLast(t *testing.T) {
	tb := demo(t)
	first := func(toks []string, ends [][]string) []string {
		for _, p := range ends {
			if len(toks) > len(p) && hasSuffix(toks, p) {
				return p
			}
		}
		return nil
	}
	found := 0
	for _, s := range append(corpusSentences(t), "turn it off there's a good lad", "lights on if you would be so kind") {
		toks := normalize(s, tb.vocab.wake).tokens()
		for k := len(toks); k > 0; k-- {
			head := toks[:k]
			want, got := first(head, courtesyEnds), first(head, courtesyEndsByLast[head[k-1]])
			if !slices.Equal(got, want) {
				t.Fatalf("%q: by last word %q, trying every end %q", strings.Join(head, " "), got, want)
			}
			if want != nil {
				found++
			}
		}
	}
	if found == 0 {
		t.Fatal("no sentence ends in a courtesy: the test tests nothing")
	}
}

// TestDurationPatternsReadTheTextFirst: a duration pattern whose onText groups turn a
// sentence (or clause) away has a prefilter that turns its duration view away too, so match
// may skip it without working the view out; and some sentences are skipped so.
func TestDurationPatternsReadTheTextFirst(t *testing.T) {
	tb := demo(t)
	skipped, checked := 0, 0
	check := func(n Normalized) {
		for _, r := range tb.builtinIx.refs {
			p := &r.in.patterns[r.i]
			if !p.durations {
				continue
			}
			checked++
			if r.onText.admits(n.Text) {
				continue
			}
			skipped++
			if view := n.durations(); p.filter.admits(view) || p.re.MatchString(view) {
				t.Fatalf("%q (view %q): pattern %q skipped on its text, but its view passes", n.Text, view, p.source)
			}
		}
	}
	for _, s := range append(corpusSentences(t), "set a timer for an hour and a half", "won minute timer", "5 minute timer for the eggs") {
		n := normalize(s, tb.vocab.wake)
		check(n)
		for _, c := range tb.clauses(n) {
			check(c)
		}
	}
	if skipped == 0 || skipped == checked {
		t.Fatalf("%d of %d skipped: the test tests nothing", skipped, checked)
	}
}

// TestWordsHoldNoSpace: no word of a sentence, of its parts or of its clauses holds a space,
// so mentions may close a room's words up by joining them ("bed room" -> "bedroom").
func TestWordsHoldNoSpace(t *testing.T) {
	tb := demo(t)
	for _, s := range corpusSentences(t) {
		n := normalize(s, tb.vocab.wake)
		if c, ok := tb.selfCorrect(n); ok {
			n = c
		}
		all := append([]Normalized{n}, tb.clauses(n)...)
		all = append(all, tb.partsOf(n)...)
		for _, c := range all {
			for _, w := range c.tokens() {
				if strings.Contains(w, " ") {
					t.Fatalf("%q: word %q holds a space", s, w)
				}
			}
		}
	}
}

// TestShapesAdmitTheirWords: a word a shape filter turns away is on none of the lists the
// filter stands for, so the lookup it saves would have found nothing: every corpus word and
// every listed word.
func TestShapesAdmitTheirWords(t *testing.T) {
	tb := demo(t)
	words := []string{"", "uh", "no", "wait", "im", "dont", "minutes", "twenty", "minus"}
	for _, s := range corpusSentences(t) {
		words = append(words, normalize(s, tb.vocab.wake).tokens()...)
	}
	for w := range speechWords {
		words = append(words, w)
	}
	for w := range courtesyFlags {
		words = append(words, w)
	}
	for w := range durationClasses {
		words = append(words, w)
	}
	for _, list := range []map[string]int{units, tens} {
		for w := range list {
			words = append(words, w)
		}
	}
	for _, list := range []map[string]bool{numberFragments, fillers, rewriteStarts, signWords, clauseSeparators} {
		for w := range list {
			words = append(words, w)
		}
	}
	for _, w := range words {
		_, unit := units[w]
		_, ten := tens[w]
		for _, c := range []struct {
			name   string
			may    bool
			listed bool
		}{
			{"correction", correctionShapes.may(w), speechWords[w]&swCorrection != 0},
			{"courtesy", courtesyShapes.may(w), courtesyFlags[w] != 0},
			{"duration", durationShapes.may(w), durationClasses[w] != 0},
			{"number", numberShapes.may(w) && numberWords[w], unit || ten || signWords[w]},
			{"fragment", fragmentShapes.may(w), numberFragments[w]},
			{"filler", fillerShapes.may(w), fillers[w]},
			{"rewrite start", rewriteStartShapes.may(w), rewriteStarts[w]},
			{"clause separator", separatorShapes.may(w), clauseSeparators[w]},
		} {
			if c.listed && !c.may {
				t.Errorf("%s shapes turn away %q, which is listed", c.name, w)
			}
		}
	}
}

// TestDurationViewsKeptApart: the memo keeps each clause's duration view apart from the
// sentence's: asked in any order, every view is durationView of its own words.
func TestDurationViewsKeptApart(t *testing.T) {
	tb := demo(t)
	for _, s := range append(corpusSentences(t), "set a timer for 5 minutes and then another for ten minutes",
		"wait five minutes then turn the light off and set a timer for an hour and a half") {
		n := normalize(s, tb.vocab.wake)
		all := append([]Normalized{n}, tb.clauses(n)...)
		for round := 0; round < 2; round++ { // the second round reads what the first kept
			for i := len(all) - 1; i >= 0; i-- {
				c := all[i]
				if got, want := c.durations(), durationView(c.tokens()); got != want {
					t.Fatalf("%q, clause %q: view %q, durationView %q", s, c.Text, got, want)
				}
			}
		}
	}
}

// TestQuoteListIsPercentQ: the compound rule's doctrine quotes its afterthoughts as fmt's %q
// would.
func TestQuoteListIsPercentQ(t *testing.T) {
	for _, list := range [][]string{nil, {}, {"thanks"}, {"bye grandma", "it's \"late\"", "naïve\ttab"}} {
		if got, want := quoteList(list), fmt.Sprintf("%q", list); got != want {
			t.Errorf("quoteList(%q) = %s, want %s", list, got, want)
		}
	}
}

// TestClausesKeptForTheirSentence: the clauses kept in a memo are given back only for the
// same sentence; a copy that differs (another negation, question or words) is split anew.
func TestClausesKeptForTheirSentence(t *testing.T) {
	tb := demo(t)
	same := func(a, b []Normalized) bool {
		return slices.EqualFunc(a, b, func(x, y Normalized) bool {
			return x.Text == y.Text && x.Negated == y.Negated && x.Question == y.Question && x.Polite == y.Polite
		})
	}
	for _, s := range append(corpusSentences(t), "turn on the light and set a timer", "stop, stop and stop") {
		n := normalize(s, tb.vocab.wake)
		if !same(tb.clauses(n), tb.appendClauses(nil, n)) || !same(tb.clauses(n), tb.appendClauses(nil, n)) {
			t.Fatalf("%q: kept clauses differ from a fresh split", s)
		}
		for _, v := range []Normalized{n, n, n} {
			v.Negated, v.Question = !n.Negated, !n.Question
			if len(n.toks) > 1 {
				v.toks, v.Text = n.toks[1:], strings.Join(n.toks[1:], " ")
			}
			if !same(tb.clauses(v), tb.appendClauses(nil, v)) {
				t.Fatalf("%q: a changed copy got the sentence's kept clauses", s)
			}
		}
	}
}

// TestRawTokensAsRangeLoop: rawTokens, which steps over a word's ASCII bytes without decoding
// them, splits every corpus sentence (as heard, and lower-cased) and some odd strings as the
// loop over runes it replaces did.
func TestRawTokensAsRangeLoop(t *testing.T) {
	ref := func(s string) []string {
		var out []string
		start := -1
		for i, r := range s {
			var keep bool
			if r < 0x80 {
				keep = r == '\'' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
			} else {
				keep = unicode.IsLetter(r) || unicode.IsDigit(r)
			}
			if r == '.' && i > 0 && i+1 < len(s) && isASCIIDigit(s[i-1]) && isASCIIDigit(s[i+1]) {
				keep = true
			}
			if r == '-' && start < 0 && i+1 < len(s) && isASCIIDigit(s[i+1]) {
				keep = true
			}
			switch {
			case keep && start < 0:
				start = i
			case !keep && start >= 0:
				out = append(out, s[start:i])
				start = -1
			}
		}
		if start >= 0 {
			out = append(out, s[start:])
		}
		return out
	}
	odd := []string{"", "-", "-5", "a-5", "1.5.2", "x.", ".5", "naïve café", "\xff\xfeab", "it’s 20° — ok", "a\u00a0b", "’twas", "--20", "3.-4"}
	for _, s := range append(corpusSentences(t), odd...) {
		for _, v := range []string{s, strings.ToLower(s)} {
			if got, want := slices.Collect(rawTokens(v)), ref(v); !slices.Equal(got, want) {
				t.Errorf("rawTokens(%q) = %q, the rune loop gives %q", v, got, want)
			}
		}
	}
}
