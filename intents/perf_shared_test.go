package intents

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// More of the router's shortcuts held to the plain computation they stand for (see
// perf_equivalence_test.go): the word tests that skip their loops, the lexicon's phrase-set
// filters, and the parts a sentence's memo keeps.

// TestQuotedOrTakenBackAsPlain: quotedOrTakenBack answers as its plain loop does for every
// corpus sentence and clause.
func TestQuotedOrTakenBackAsPlain(t *testing.T) {
	tb := demo(t)
	for _, sentence := range corpusSentences(t) {
		n := normalize(sentence, tb.vocab.wake)
		for _, c := range append([]Normalized{n}, tb.clauses(n)...) {
			toks := c.tokens()
			want := false
			for i, w := range toks {
				want = want || speechVerbs[w] && (i == 0 || toks[i-1] != "simon") || takeBacks[w] || quoteNouns[w] && (i == 0 || toks[i-1] != "to")
			}
			if got := quotedOrTakenBack(toks); got != want {
				t.Fatalf("%q: quotedOrTakenBack = %v, the plain loop %v", c.Text, got, want)
			}
		}
	}
}

// plainReportedOrTakenBack is reportedOrTakenBack without the test that skips its loop.
func plainReportedOrTakenBack(toks []string) bool {
	for i, w := range toks {
		if reportVerbs[w] && !(i > 0 && toks[i-1] == "simon") || takeBacks[w] {
			return true
		}
		if copulas[w] && (i+1 < len(toks) && quoteNouns[toks[i+1]] || i+2 < len(toks) && quoteNouns[toks[i+2]] ||
			i+3 < len(toks) && quoteNouns[toks[i+3]]) {
			return true
		}
	}
	return false
}

// TestWordTestsAsPlain: reportedOrTakenBack and the lexicon's phrase sets (at,
// lastWordOf) answer as their plain loops do on every corpus sentence and clause (and each
// of its tails), every set.
func TestWordTestsAsPlain(t *testing.T) {
	tb := demo(t)
	for _, ps := range tb.vocab.lex {
		for first := range ps.byFirst {
			if !ps.may(first) {
				t.Fatalf("set %s turns away %q, a phrase's first word", ps.name, first)
			}
		}
	}
	for _, s := range append(corpusSentences(t), "she was saying it is a lie", "simon says jump", "just kidding") {
		n := normalize(s, tb.vocab.wake)
		for _, c := range append([]Normalized{n}, tb.clauses(n)...) {
			toks := c.tokens()
			for k := range toks {
				tail := toks[k:]
				if got, want := reportedOrTakenBack(tail), plainReportedOrTakenBack(tail); got != want {
					t.Fatalf("%q: reportedOrTakenBack = %v, the plain loop %v", tail, got, want)
				}
				for _, ps := range tb.vocab.lex {
					plain := 0
					for _, p := range ps.byFirst[tail[0]] {
						if hasPrefix(tail, p) {
							plain = len(p)
							break
						}
					}
					if got := ps.at(tail, 0); got != plain {
						t.Fatalf("%q: set %s finds a phrase of %d words, the plain loop %d", tail, ps.name, got, plain)
					}
					single := slices.ContainsFunc(ps.byFirst[tail[0]], func(p []string) bool { return len(p) == 1 })
					if got := lastWordOf(ps, tail[0]); got != single {
						t.Fatalf("%q: lastWordOf(%s) = %v, the plain loop %v", tail[0], ps.name, got, single)
					}
				}
			}
		}
	}
}

// TestPartsKeptForTheirRaw: the parts a memo keeps (or that there are none) are given back
// only for the raw sentence they were split from: copies sharing the memo with another raw
// text, asked in turn, each get their own.
func TestPartsKeptForTheirRaw(t *testing.T) {
	tb := demo(t)
	plain := func(raw string) []string {
		parts := rawParts(raw)
		if len(parts) < 2 {
			return nil
		}
		var out []string
		for _, p := range parts {
			c, _ := courtesy(normalize(p, tb.vocab.wake))
			out = append(out, c.Text)
		}
		return out
	}
	texts := func(ns []Normalized) []string {
		var out []string
		for _, n := range ns {
			out = append(out, n.Text)
		}
		return out
	}
	for _, s := range append(corpusSentences(t), "turn on the light, then stop", "stop") {
		n := normalize(s, tb.vocab.wake)
		one, two := n, n
		one.raw, two.raw = "turn on the light", "hello, turn on the light"
		for round := 0; round < 2; round++ {
			for _, v := range []Normalized{n, one, two, n} {
				if got, want := texts(tb.partsOf(v)), plain(v.raw); !slices.Equal(got, want) || (tb.partsOf(v) == nil) != (want == nil) {
					t.Fatalf("%q (raw %q): parts %q, split anew %q", s, v.raw, got, want)
				}
			}
		}
	}
}

// TestWordUnionsAsPlain: each union (wordUnion) answers as the plain loops over the sets it
// joins, for every word of every corpus sentence and clause (and words of every set, and
// words of no set), and its shapes admit every word of its sets.
func TestWordUnionsAsPlain(t *testing.T) {
	tb := demo(t)
	unions := []struct {
		name string
		u    *wordUnion
		sets []wordSet
	}{
		{"reportedWords", reportedWords, []wordSet{reportVerbs, takeBacks, quoteNouns}},
		{"quotedWords", quotedWords, []wordSet{speechVerbs, quoteNouns, takeBacks}},
		{"speechWordsOnly", speechWordsOnly, []wordSet{speechVerbs}},
		{"callerOrLookVerbs", callerOrLookVerbs, []wordSet{callerVerbs, lookVerbs}},
		{"reportWords", reportWords, []wordSet{finiteWords, gerunds, reportGerunds, pastWords, futureWords}},
		{"reportVerbsOnly", reportVerbsOnly, []wordSet{reportVerbs}},
		{"feltWords", feltWords, []wordSet{feelingWords, classWords(wcWarmth)}},
	}
	var words [][]string
	for _, s := range corpusSentences(t) {
		n := normalize(s, tb.vocab.wake)
		for _, c := range append([]Normalized{n}, tb.clauses(n)...) {
			words = append(words, c.tokens())
		}
	}
	for _, x := range unions {
		for _, s := range x.sets {
			for w := range s {
				words = append(words, []string{w}, []string{w + "x"}, []string{w[:len(w)-1]})
			}
		}
	}
	for _, x := range unions {
		for _, toks := range words {
			want := slices.ContainsFunc(x.sets, func(s wordSet) bool { return anyOf(toks, s) })
			if got := x.u.any(toks); got != want {
				t.Fatalf("%s.any(%q) = %v, the plain loops %v", x.name, toks, got, want)
			}
			for _, w := range toks {
				if got, want := x.u.has(w), slices.ContainsFunc(x.sets, func(s wordSet) bool { return s[w] }); got != want {
					t.Fatalf("%s.has(%q) = %v, the plain lookups %v", x.name, w, got, want)
				}
			}
		}
	}
}

// TestDurationKindsAsPlain: durationKinds answers durationWord and durationCore for every
// word of every corpus sentence and of the duration lists (glued to a number too), and
// numberSoundShapes admits every word of numberSounds.
func TestDurationKindsAsPlain(t *testing.T) {
	tb := demo(t)
	var words []string
	for _, s := range corpusSentences(t) {
		words = append(words, normalize(s, tb.vocab.wake).tokens()...)
	}
	for w := range durationClasses {
		words = append(words, w, "10"+w, "1.5"+w, w+"s")
	}
	words = append(words, "10", "1.5", "-3", "90s", "10min", "", "5x")
	for _, w := range words {
		word, core := durationKinds(w)
		if word != durationWord(w) || core != durationCore(w) {
			t.Fatalf("%q: durationKinds = %v %v, durationWord %v, durationCore %v", w, word, core, durationWord(w), durationCore(w))
		}
	}
	for w := range numberSounds {
		if !numberSoundShapes.may(w) {
			t.Fatalf("numberSoundShapes turns away %q", w)
		}
	}
}

// TestSocialGateHoldsEverySocialStart: builtinFrame and compound try small talk only with a
// key word of its sets in the sentence (lexGate.social; builtinFrame also with a leading
// "night"): every corpus sentence and clause that socialStart or socialFrame takes has one.
func TestSocialGateHoldsEverySocialStart(t *testing.T) {
	tb := demo(t)
	for _, s := range append(corpusSentences(t), "night", "night all", "bye", "thanks", "I'm off to bed", "hello there reachy") {
		n := normalize(s, tb.vocab.wake)
		for _, c := range append([]Normalized{n}, tb.clauses(n)...) {
			toks := c.tokens()
			if len(toks) == 0 {
				continue
			}
			m := tb.mentions(c)
			open := m.lex&tb.vocab.lexGate.social != 0 || toks[0] == "night"
			_, social := tb.socialFrame(c)
			if (tb.socialStart(toks) || social) && !open {
				t.Fatalf("%q: small talk (socialStart %v, socialFrame %v) with the gate shut", c.Text, tb.socialStart(toks), social)
			}
		}
	}
}

// TestPrefilterReadsRunsAfterUnknown: past a part known only by its conditions (a label), a
// run of parts known exactly still gives a condition ("for ~", "of ~" ...), so a timer
// sentence whose duration does not follow "for" never runs the expression; a match is
// still admitted (TestPrefilterAdmitsEveryMatch holds it on the corpora).
func TestPrefilterReadsRunsAfterUnknown(t *testing.T) {
	f := derivePrefilter(`^(?:(?:set|start) (?:a |the )?(?:(?P<label>[a-z0-9]+) )?timer(?: going| on)? (?:for|of|to|at|lasting) ~(?P<duration>[a-z0-9.]+(?:_[a-z0-9.]+)*))$`)
	if f.admits("set a timer for the eggs ~7_minutes") {
		t.Fatalf("prefilter %q admits a timer whose duration follows no \"for\"", f)
	}
	for _, s := range []string{"set a timer for ~7_minutes", "start the egg timer going lasting ~1_hour"} {
		if !f.admits(s) {
			t.Errorf("prefilter %q rejects %q", f, s)
		}
	}
}

// TestVerblessTimerOpensWithDuration: aboutTimer splits the duration view for verblessTimer
// and terseTimer only when the view holds a duration; no corpus sentence or clause whose view
// holds none is a verbless or terse timer.
func TestVerblessTimerOpensWithDuration(t *testing.T) {
	tb := demo(t)
	for _, s := range append(corpusSentences(t), "ten minutes for the pasta", "2 minutes for the tea please", "eggs six minutes go") {
		n := normalize(s, tb.vocab.wake)
		for _, c := range append([]Normalized{n}, tb.clauses(n)...) {
			v := c.durations()
			if (verblessTimer(strings.Fields(v)) || tb.terseTimer(strings.Fields(v))) && !strings.Contains(v, "~") {
				t.Fatalf("%q: a verbless or terse timer whose view %q holds no duration", c.Text, v)
			}
		}
	}
}

// TestFindSaidAsFind: a phrase of a lexicon set found in a sentence's words, or in any run of
// them, has the set's bit in the sentence's mentions (findSaid and the frames that skip a
// set without its bit answer as find does), for every corpus sentence and clause.
func TestFindSaidAsFind(t *testing.T) {
	tb := demo(t)
	for _, s := range corpusSentences(t) {
		n := normalize(s, tb.vocab.wake)
		for _, c := range append([]Normalized{n}, tb.clauses(n)...) {
			toks := c.tokens()
			lex := tb.mentions(c).lex
			for name, ps := range tb.vocab.lex {
				for i := range toks {
					if ps.at(toks, i) > 0 && lex&tb.vocab.lexIx.bit[name] == 0 {
						t.Fatalf("%q: a phrase of %s at %d, and its bit not in the mentions' lexicon bits", c.Text, name, i)
					}
				}
				got, gotOK := tb.findSaid(lex, toks, name)
				want, wantOK := tb.vocab.lex.find(toks, name)
				if gotOK != wantOK || got != want {
					t.Fatalf("%q: findSaid(%s) = %v %v, find %v %v", c.Text, name, got, gotOK, want, wantOK)
				}
			}
		}
	}
}

// TestChildWordShapesAdmitTheirWords: glideHeard looks a word up in childWords only when its
// shape is one of theirs: every word of childWords has such a shape.
func TestChildWordShapesAdmitTheirWords(t *testing.T) {
	for w := range childWords {
		if !childWordShapes.may(w) {
			t.Fatalf("childWordShapes turns away %q", w)
		}
	}
}

// TestMentionsOfKnownAsMentions: a clause whose words are a run of its sentence's is read
// with the sentence's word-index entries (runInfo) exactly as mentions reads it anew, for
// every corpus sentence and clause; a clause of another sentence's words gets none.
func TestMentionsOfKnownAsMentions(t *testing.T) {
	tb := demo(t)
	for _, s := range corpusSentences(t) {
		n := normalize(s, tb.vocab.wake)
		info := tb.wordInfos(nil, n.tokens())
		if got, want := tb.mentionsOf(n, info), tb.mentions(n); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: mentionsOf %+v, mentions %+v", n.Text, got, want)
		}
		for _, c := range tb.clauses(n) {
			known := runInfo(info, n.toks, c.toks)
			if known == nil {
				if tb.partsOf(n) == nil && len(c.tokens()) > 0 {
					t.Fatalf("%q: clause %q of a sentence without parts gets no entries", n.Text, c.Text)
				}
				continue
			}
			for i, w := range c.tokens() {
				if known[i] != tb.vocab.words[w] {
					t.Fatalf("%q: clause %q word %q: entry %+v, the index %+v", n.Text, c.Text, w, known[i], tb.vocab.words[w])
				}
			}
			if got, want := tb.mentionsOf(c, known), tb.mentions(c); !reflect.DeepEqual(got, want) {
				t.Fatalf("%q: clause %q: mentionsOf %+v, mentions %+v", n.Text, c.Text, got, want)
			}
		}
	}
	other := normalize("turn on the kitchen light", tb.vocab.wake)
	n := normalize("turn on the kitchen light", tb.vocab.wake)
	if runInfo(tb.wordInfos(nil, n.tokens()), n.toks, other.toks) != nil {
		t.Fatal("runInfo gives entries for another sentence's words")
	}
}

// TestDurationWordsAsFields: durationWords gives the duration view's words as strings.Fields
// does, for every corpus sentence, clause and part (and a corrected sentence).
func TestDurationWordsAsFields(t *testing.T) {
	tb := demo(t)
	for _, s := range append(corpusSentences(t), "set a timer for an hour and a half", "be quiet for an our") {
		n := normalize(s, tb.vocab.wake)
		all := append([]Normalized{n}, tb.clauses(n)...)
		all = append(all, tb.partsOf(n)...)
		if c, ok := tb.selfCorrect(n); ok {
			all = append(all, c)
		}
		for _, c := range all {
			if got, want := c.durationWords(), strings.Fields(c.durations()); !slices.Equal(got, want) {
				t.Fatalf("%q: durationWords %q, the view's fields %q", c.Text, got, want)
			}
		}
	}
}

// TestPatternPairsTurnAwayOnlyWhatThePrefilterDoes: a pattern's pair bits (patternRef.pairs)
// are pairs of a literal alone in a group of its prefilter, so a text they turn away the
// prefilter turns away too: held on every corpus sentence and clause, for every pattern.
func TestPatternPairsTurnAwayOnlyWhatThePrefilterDoes(t *testing.T) {
	tb := demo(t)
	for _, x := range []*patternIndex{tb.customIx, tb.builtinIx} {
		if x == nil {
			continue
		}
		for k := range x.refs {
			r := &x.refs[k]
			p := &r.in.patterns[r.i]
			if r.npairs == 0 {
				continue
			}
			ok := slices.ContainsFunc(p.filter, func(g []string) bool {
				if len(g) != 1 {
					return false
				}
				lp := pairsOf(g[0])
				return lp.holdsPairs(r)
			})
			if p.durations || !ok {
				t.Fatalf("%s %s: pairs %v are no literal's alone in a group of %q", r.in.Name, p.where, r.pairs[:r.npairs], p.filter)
			}
		}
		for _, s := range corpusSentences(t) {
			n := normalize(s, tb.vocab.wake)
			for _, c := range append([]Normalized{n}, tb.clauses(n)...) {
				tp := pairsOf(c.Text)
				for k := range x.refs {
					r := &x.refs[k]
					if p := &r.in.patterns[r.i]; !tp.holdsPairs(r) && p.filter.admits(c.Text) {
						t.Fatalf("%q: the pairs of %s %s turn it away, its prefilter %q admits it", c.Text, r.in.Name, p.where, p.filter)
					}
				}
			}
		}
	}
}

// TestGameCoverOfSaidSets: gameFrame covers a sentence with only the game sets whose bit its
// mentions carry; the hits are those of every game set, for every corpus sentence and clause.
func TestGameCoverOfSaidSets(t *testing.T) {
	tb := demo(t)
	all := append([]string{"game.any"}, gameSets...)
	for _, s := range append(corpusSentences(t), "lets play hide and seek", "simon says jump", "rock paper scissors") {
		n := normalize(s, tb.vocab.wake)
		for _, c := range append([]Normalized{n}, tb.clauses(n)...) {
			toks := c.tokens()
			lex := tb.mentions(c).lex
			var said []string
			for _, name := range all {
				if lex&tb.vocab.lexIx.bit[name] != 0 {
					said = append(said, name)
				}
			}
			got := tb.vocab.lex.cover(toks, make([]bool, len(toks)), said...)
			want := tb.vocab.lex.cover(toks, make([]bool, len(toks)), all...)
			if !slices.Equal(got, want) {
				t.Fatalf("%q: the said sets cover %v, every game set %v", c.Text, got, want)
			}
		}
	}
}

// TestForeignShapesAdmitTheirMarkers: enough looks a word up in a language's markers only
// when it has one of their shapes: every marker of every language has such a shape.
func TestForeignShapesAdmitTheirMarkers(t *testing.T) {
	tb := demo(t)
	if len(tb.foreign) == 0 {
		t.Fatal("no foreign language loaded")
	}
	for _, l := range tb.foreign {
		for w := range l.markers {
			if !l.shapes.may(w) {
				t.Fatalf("a language's shapes turn away its marker %q", w)
			}
		}
	}
}

// plainStripRequestLeads is stripRequestLeads reading every lead in order.
func plainStripRequestLeads(toks []string) []string {
	for changed := true; changed && len(toks) > 1 && requestLeadStarts[toks[0]]; {
		changed = false
		for _, l := range requestLeads {
			if len(toks) > len(l) && hasPrefix(toks, l) {
				toks, changed = toks[len(l):], true
				break
			}
		}
	}
	return toks
}

// TestStripRequestLeadsAsPlain: stripRequestLeads, reading only the leads that start with the
// first word, takes off what the plain loop does from every corpus sentence and clause (and
// each of its tails).
func TestStripRequestLeadsAsPlain(t *testing.T) {
	tb := demo(t)
	for _, s := range append(corpusSentences(t), "go on and just turn it off", "you can hang up now", "we are done end the call") {
		n := normalize(s, tb.vocab.wake)
		for _, c := range append([]Normalized{n}, tb.clauses(n)...) {
			toks := c.tokens()
			for k := range toks {
				if got, want := stripRequestLeads(toks[k:]), plainStripRequestLeads(toks[k:]); !slices.Equal(got, want) {
					t.Fatalf("%q: stripRequestLeads %q, the plain loop %q", toks[k:], got, want)
				}
			}
		}
	}
}

// TestGreetingFiltersByPairsAsPlain: isGreeting reads the social patterns' prefilters with the
// clause's byte pairs (admitsPairs); they answer as the plain substring searches (admits) on
// every corpus sentence and clause.
func TestGreetingFiltersByPairsAsPlain(t *testing.T) {
	tb := demo(t)
	for _, s := range corpusSentences(t) {
		n := normalize(s, tb.vocab.wake)
		for _, c := range append([]Normalized{n}, tb.clauses(n)...) {
			pairs := pairsOf(c.Text)
			for _, name := range socialIntents {
				in := tb.byName[name]
				if in == nil {
					continue
				}
				for i := range in.patterns {
					p := &in.patterns[i]
					if p.filter.admitsPairs(c.Text, &pairs) != p.filter.admits(c.Text) {
						t.Fatalf("%q: %s's prefilter %q by pairs %v, by search %v", c.Text, name, p.filter, !p.filter.admits(c.Text), p.filter.admits(c.Text))
					}
				}
			}
		}
	}
}

// plainTrimTails is trimTails trying every courtesy tail in order.
func plainTrimTails(toks []string) []string {
	for changed := true; changed; {
		changed = false
		if len(toks) == 0 || !tailEnds[toks[len(toks)-1]] {
			break
		}
		for _, c := range courtesyTails {
			if len(c) == 1 && endearmentSpokenOf(toks) {
				continue
			}
			if hasSuffix(toks, c) && len(toks) > len(c) {
				toks, changed = toks[:len(toks)-len(c)], true
				break
			}
		}
	}
	return toks
}

// TestTrimTailsAsPlain: trimTails, trying only the tails that end in the last word, takes off
// what the plain loop does from every corpus sentence's words (as said, and each of its
// heads), and from sentences made of the tails themselves.
func TestTrimTailsAsPlain(t *testing.T) {
	var all [][]string
	for _, s := range corpusSentences(t) {
		all = append(all, words(strings.ToLower(s)))
	}
	for _, c := range courtesyTails {
		all = append(all, append([]string{"turn", "it", "off"}, c...), append(append([]string{"stop"}, c...), "now", "please"))
	}
	for _, toks := range all {
		for k := 0; k <= len(toks); k++ {
			if got, want := trimTails(toks[:k]), plainTrimTails(toks[:k]); !slices.Equal(got, want) {
				t.Fatalf("%q: trimTails %q, the plain loop %q", toks[:k], got, want)
			}
		}
	}
}

// TestPhrasesByFirstKeepOrder: courtesy's indexes hold, for each first word, exactly the
// list's phrases that open with it, in the list's order — so the first phrase that matches
// is the one the plain loop over the list finds.
func TestPhrasesByFirstKeepOrder(t *testing.T) {
	for _, x := range []struct {
		name  string
		list  [][]string
		index map[string][][]string
	}{
		{"courtesyLeads", courtesyLeads, courtesyLeadsByFirst},
		{"courtesyAsks", courtesyAsks, courtesyAsksByFirst},
		{"politeLeads", politeLeads, politeLeadsByFirst},
		{"requestLeads", requestLeads, requestLeadsByFirst},
		{"generalLeads", generalLeads, generalLeadsByFirst},
	} {
		n := 0
		for w, ps := range x.index {
			var want [][]string
			for _, p := range x.list {
				if p[0] == w {
					want = append(want, p)
				}
			}
			if !slices.EqualFunc(ps, want, slices.Equal) {
				t.Fatalf("%s by %q: %q, the list's %q", x.name, w, ps, want)
			}
			n += len(ps)
		}
		if n != len(x.list) {
			t.Fatalf("%s: the index holds %d phrases, the list %d", x.name, n, len(x.list))
		}
	}
}

// classWords are the words wordClasses puts in class c (a plain set, for the tests).
func classWords(c wordClass) wordSet {
	out := wordSet{}
	for w, wc := range wordClasses {
		if wc&c != 0 {
			out[w] = true
		}
	}
	return out
}

// TestRoomOfWordsAsJoin: roomOfWords finds what a lookup by the joined words finds, for every
// room name and alias of the home, and every run of up to seven words of every corpus sentence.
func TestRoomOfWordsAsJoin(t *testing.T) {
	tb := demo(t)
	var runs [][]string
	for k := range tb.vocab.rooms {
		runs = append(runs, strings.Fields(k))
	}
	for _, s := range corpusSentences(t) {
		toks := normalize(s, tb.vocab.wake).tokens()
		for i := range toks {
			for l := 1; l <= 7 && i+l <= len(toks); l++ {
				runs = append(runs, toks[i:i+l])
			}
		}
	}
	runs = append(runs, []string{strings.Repeat("long", 30), "room"})
	for _, r := range runs {
		got, gotOK := roomOfWords(tb.vocab.rooms, r)
		want, wantOK := tb.vocab.rooms[strings.Join(r, " ")]
		if got != want || gotOK != wantOK {
			t.Fatalf("%q: roomOfWords %v %v, the joined lookup %v %v", r, got, gotOK, want, wantOK)
		}
	}
}

// TestUnglideHeardAsPlain: unglideHeard answers as the loop over unglide(w)[1:] does, for
// every corpus word with a w, the robot's names and the table's known words with their r and
// l glided, and words of many w's.
func TestUnglideHeardAsPlain(t *testing.T) {
	tb := demo(t)
	s := &tb.sound
	plain := func(w string) bool {
		for _, g := range unglide(w)[1:] {
			if s.known[g] || s.wake.isName(g) {
				return true
			}
		}
		return false
	}
	var words []string
	for _, sent := range corpusSentences(t) {
		words = append(words, normalize(sent, tb.vocab.wake).tokens()...)
	}
	for k := range s.known {
		words = append(words, strings.NewReplacer("r", "w", "l", "w").Replace(k))
	}
	words = append(words, "weachy", "wichie", "wawawa", "wowwowwow", "whwhw", "w", "ww", "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww")
	for _, w := range words {
		if strings.IndexByte(w, 'w') < 0 {
			continue
		}
		if got, want := s.unglideHeard(w), plain(w); got != want {
			t.Fatalf("%q: unglideHeard %v, the plain loop %v", w, got, want)
		}
	}
}

// TestGameFramesReadWithTheirWordsBits: every call of gameFrame reads words whose lexicon bits
// its Mentions holds (the sentence's, a run of them, or a piece's own words added), so the game
// sets it skips for want of a bit have no phrase there: held for the whole sentence, for the
// first piece gameFirstPiece reads, and for a sentence whose first piece holds a word its own
// normalizing keeps and the sentence's drops.
func TestGameFramesReadWithTheirWordsBits(t *testing.T) {
	tb := demo(t)
	all := append([]string{"game.any"}, gameSets...)
	check := func(what string, toks []string, lex uint64) {
		for _, name := range all {
			if lex&tb.vocab.lexIx.bit[name] != 0 {
				continue
			}
			for i := range toks {
				if tb.vocab.lex[name].at(toks, i) > 0 {
					t.Fatalf("%s %q: a phrase of %s with its bit not held", what, toks, name)
				}
			}
		}
	}
	for _, s := range append(corpusSentences(t), "okay, simon says, thanks", "its hide and seek time, thank you") {
		n := normalize(s, tb.vocab.wake)
		m := tb.mentions(n)
		check("sentence", n.tokens(), m.lex)
		if ps := tb.pieces(n); len(ps) > 1 {
			check("first piece", ps[0].tokens(), m.lex|tb.lexOf(ps[0].tokens()))
		}
	}
}
