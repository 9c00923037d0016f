package intents

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func demo(t testing.TB) *Table {
	t.Helper()
	tb, err := LoadDemo()
	if err != nil {
		t.Fatalf("demo table: %v", err)
	}
	return tb
}

func TestGoldenCorpus(t *testing.T) {
	tb := demo(t)
	f, err := os.Open("testdata/corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := ParseCases(f, "corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 400 {
		t.Fatalf("corpus has %d sentences, want at least 400", len(cases))
	}
	covered := map[string]bool{}
	for _, c := range cases {
		d, diff := tb.CheckCase(c, Context{})
		if diff != "" {
			t.Errorf("corpus.txt:%d %q: %s (doctrine: %s)", c.Line, c.Sentence, diff, strings.Join(d.Doctrine, "; "))
		}
		covered[d.Intent] = true
		if d.Pending != nil {
			covered[d.Pending.Intent] = true
		}
	}
	for _, in := range tb.Intents() {
		// A game's answer is claimed by the game in play (broker/play), never by the router.
		if !covered[in.Name] && in.Name != IntentPlayAnswer {
			t.Errorf("the corpus never reaches intent %s", in.Name)
		}
	}
}

func TestEveryArgumentValueIsReachable(t *testing.T) {
	tb := demo(t)
	for _, r := range tb.Home.Rooms {
		for _, st := range []string{"on", "off"} {
			d := tb.Route("turn "+st+" the "+r.Name+" light", Context{})
			if d.Intent != "house.light.set" || d.Args["room"] != r.Name || d.Args["state"] != st {
				t.Errorf("light %s %s: %+v", r.Name, st, d)
			}
			for _, alias := range r.Aliases {
				if d := tb.Route("switch the "+alias+" lights "+st, Context{}); d.Args["room"] != r.Name {
					t.Errorf("alias %q: %+v", alias, d.Args)
				}
			}
		}
	}
	for _, p := range tb.Home.People {
		for _, w := range append([]string{p.Name}, p.Aliases...) {
			if d := tb.Route("is "+w+" busy", Context{}); d.Intent != "calendar.status" || d.Args["person"] != p.Name {
				t.Errorf("person %q: %s %v", w, d.Intent, d.Args)
			}
		}
	}
	for name, words := range tb.Home.Expressions {
		for _, w := range words {
			if d := tb.Route("look "+w, Context{}); d.Intent == "robot.expression" && d.Args["expression"] != name {
				t.Errorf("expression %q: %v", w, d.Args)
			}
		}
		if d := tb.Route("do a "+name, Context{}); d.Intent != "robot.expression" || d.Args["expression"] != name {
			if d2 := tb.Route("look "+name, Context{}); d2.Intent != "robot.expression" || d2.Args["expression"] != name {
				t.Errorf("expression %s unreachable: %s %v", name, d2.Intent, d2.Args)
			}
		}
	}
	for temp := tb.Home.ACRange.Min; temp <= tb.Home.ACRange.Max; temp++ {
		d := tb.Route("set the bedroom ac to "+itoa(temp)+" degrees", Context{})
		if d.Intent != "house.ac.set" || d.Args["temperature"] != itoa(temp) {
			t.Errorf("temperature %d: %s %v", temp, d.Intent, d.Args)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestHereMeansTheDevicesRoom(t *testing.T) {
	tb := demo(t)
	d := tb.Route("turn off the light in here", Context{DeviceRoom: "bedroom"})
	if d.Intent != "house.light.set" || d.Args["room"] != "bedroom" {
		t.Fatalf("%s %v", d.Intent, d.Args)
	}
	d = tb.Route("is the light on", Context{DeviceRoom: "office"})
	if d.Args["room"] != "office" {
		t.Fatalf("read without a room should ask about the device's room, got %v", d.Args)
	}
}

func TestClarificationCompletes(t *testing.T) {
	tb := demo(t)
	d := tb.Route("turn on the light", Context{})
	if d.Intent != IntentClarify || d.Pending == nil || !strings.HasPrefix(d.Prompt, "Which room?") {
		t.Fatalf("want a clarify, got %+v", d)
	}
	for answer, room := range map[string]string{"the kitchen": "kitchen", "bedroom please": "bedroom", "in the kid's room": "kids room", "Living room.": "living room", "here": "living room", "all of them": ""} {
		got, ok := tb.Complete(*d.Pending, answer, Context{})
		if room == "" {
			if ok && got.Args["room"] != "all" {
				t.Errorf("%q: %v", answer, got.Args)
			}
			continue
		}
		if !ok || got.Intent != "house.light.set" || got.Args["room"] != room || got.Args["state"] != "on" {
			t.Errorf("answer %q: ok=%v %s %v", answer, ok, got.Intent, got.Args)
		}
	}
	for _, answer := range []string{"the garage", "what time is it", "", "never mind"} {
		if got, ok := tb.Complete(*d.Pending, answer, Context{}); ok {
			t.Errorf("answer %q completed the request: %s %v", answer, got.Intent, got.Args)
		}
	}
	ac := tb.Route("set the bedroom ac to 40", Context{})
	if ac.Pending == nil || ac.Pending.Missing != "temperature" {
		t.Fatalf("%+v", ac)
	}
	got, ok := tb.Complete(*ac.Pending, "twenty two degrees", Context{})
	if !ok || got.Args["temperature"] != "22" || got.Args["room"] != "bedroom" {
		t.Fatalf("temperature answer: %v %v", ok, got.Args)
	}
	who := tb.Route("is grandma busy", Context{})
	if got, ok := tb.Complete(*who.Pending, "my dad", Context{}); !ok || got.Args["person"] != "dad" {
		t.Fatalf("person answer: %v %v", ok, got.Args)
	}
}

func TestGuideOnlyAdvertisesWhatRoutes(t *testing.T) {
	tb := demo(t)
	for _, g := range tb.Guide(nil) {
		for _, ex := range g.Examples {
			if d := tb.Route(ex, Context{}); d.Intent != g.Intent {
				t.Errorf("guide advertises %q for %s but it routes to %s", ex, g.Intent, d.Intent)
			}
		}
	}
	limited := tb.SpokenGuide([]string{ScopeHouseRead})
	if strings.Contains(limited, "turn on the kitchen light") || !strings.Contains(limited, "is the kitchen light on") {
		t.Fatalf("guide for a read-only caller: %s", limited)
	}
	if strings.Contains(limited, "ask me a question") {
		t.Fatalf("read-only caller is offered general questions: %s", limited)
	}
}

func TestWakePhraseIsReported(t *testing.T) {
	tb := demo(t)
	if d := tb.Route("Hey Jeeves, what time is it?", Context{}); !d.Normalized.Wake || d.Intent != "time.now" {
		t.Fatalf("%+v", d)
	}
	if d := tb.Route("what time is it", Context{}); d.Normalized.Wake {
		t.Fatal("wake reported without a wake phrase")
	}
	if d := tb.Route("", Context{}); d.Intent != IntentNone {
		t.Fatalf("empty transcript: %s", d.Intent)
	}
}

func TestPrefilterNeverHidesAMatch(t *testing.T) {
	tb := demo(t)
	for _, in := range tb.Intents() {
		for _, p := range in.patterns {
			for _, ex := range in.Examples {
				n := normalize(ex, tb.vocab.wake)
				if p.re.MatchString(n.Text) && !p.filter.admits(n.Text) {
					t.Errorf("prefilter %q of %s rejects %q, which the pattern matches", p.filter, in.Name, n.Text)
				}
			}
		}
	}
	if f := derivePrefilter(`^(?:(?:turn|switch) (?:on|off) (?:the )?lights?)$`); len(f) < 2 || f.admits("turn on the oven") {
		t.Fatal("no prefilter derived for a plain pattern")
	}
}

// TestPairSetNeverTurnsAwayALiteral: the byte-pair pre-check in front of each substring
// search answers "maybe" for every literal a sentence holds, so a prefilter's answer is the
// one a plain search gives.
func TestPairSetNeverTurnsAwayALiteral(t *testing.T) {
	tb := demo(t)
	cases := append(loadCases(t, "testdata/corpus.txt"), loadCases(t, "testdata/ha-intents-en.tsv")...)
	turnedAway := 0
	for _, c := range cases {
		n := normalize(c.Sentence, tb.vocab.wake)
		for _, text := range []string{n.Text, n.durations()} {
			pairs := pairsOf(text)
			for _, in := range tb.Intents() {
				for _, p := range in.patterns {
					for _, g := range p.filter {
						for _, lit := range g {
							held := strings.Contains(text, lit)
							if held && !pairs.mayHold(lit) {
								t.Fatalf("%q holds %q, but its pairs say it does not", text, lit)
							}
							if !held && !pairs.mayHold(lit) {
								turnedAway++
							}
						}
					}
					if got, want := p.filter.admitsPairs(text, &pairs), plainAdmits(p.filter, text); got != want {
						t.Fatalf("prefilter of %s on %q: %v, a plain search says %v", in.Name, text, got, want)
					}
				}
			}
		}
	}
	if turnedAway == 0 {
		t.Fatal("the pair pre-check never turned a literal away: it saves no search")
	}
}

// TestRewriteShortcutsChangeNothing: rewriteTokens skips passes only when they would not
// change the words, so its tokens are those of every pass run in turn; words is tokenize and
// expandTokens in one pass.
func TestRewriteShortcutsChangeNothing(t *testing.T) {
	sentences := []string{"turn of the air conditioning", "um set the a c to twenty two degrees celsius",
		"the the kitchen light", "knock knock", "go ahead and switch of each and every light", "do not disturb",
		"never mind", "one hundred", "turn on the light", "what time is it", "don't turn on kid's lites", "'quoted' words'"}
	for _, c := range append(loadCases(t, "testdata/corpus.txt"), loadCases(t, "testdata/ha-intents-en.tsv")...) {
		sentences = append(sentences, c.Sentence)
	}
	skipped := 0
	for _, s := range sentences {
		toks := expandTokens(tokenize(strings.ToLower(s)))
		want := dropFillersAndStutters(numbersToDigits(rewritePhrases(slices.Clone(toks))))
		if !mayRewrite(toks) && !hasRepeat(toks) {
			skipped++
		}
		if got := rewriteTokens(slices.Clone(toks)); !slices.Equal(got, want) {
			t.Errorf("%q: %q, every pass gives %q", s, got, want)
		}
		if got := words(strings.ToLower(s)); !slices.Equal(got, toks) {
			t.Errorf("%q: words gives %q, tokenize and expandTokens %q", s, got, toks)
		}
	}
	if skipped == 0 {
		t.Error("no sentence skipped the passes")
	}
}

func plainAdmits(p prefilter, text string) bool {
	for _, anyOf := range p {
		if !slices.ContainsFunc(anyOf, func(lit string) bool { return strings.Contains(text, lit) }) {
			return false
		}
	}
	return true
}

// TestCourtesyTailsAreIndexed: trimTails only tries a tail when the sentence ends in one of
// tailEnds, so every tail's last word must be there.
func TestCourtesyTailsAreIndexed(t *testing.T) {
	for _, c := range courtesyTails {
		if !tailEnds[c[len(c)-1]] {
			t.Errorf("courtesy tail %v: %q is not in tailEnds", c, c[len(c)-1])
		}
	}
}

// TestNoBuiltinPatternNamesADevice: Route skips the built-in patterns for a sentence that
// names a light or the AC, which is only right while no built-in pattern could match one.
func TestNoBuiltinPatternNamesADevice(t *testing.T) {
	tb := demo(t)
	for _, in := range tb.builtins {
		for _, p := range in.patterns {
			for w, d := range deviceWords {
				if (d == "light" || d == "ac") && regexp.MustCompile(`\b`+w+`\b`).MatchString(p.source) {
					t.Errorf("%s pattern %q names the device word %q", in.Name, p.source, w)
				}
			}
		}
	}
}
