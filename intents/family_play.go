package intents

import (
	"slices"
	"strings"
)

// The family frames for privacy mode and the games (family_frames.go says how the frames
// decide).

// nobodyStatement: a sentence opening with "nobody" / "no one" that says what happened or
// what is ("nobody called in today", "nobody rings through anyway", "no one ever calls") — a
// statement about calls, never a request to keep them out.
func nobodyStatement(toks []string) bool {
	if len(toks) < 2 || !(toks[0] == "nobody" || toks[0] == "noone" || toks[0] == "no" && toks[1] == "1") {
		return false
	}
	for _, w := range toks[1:] {
		if callsSaidOf[w] {
			return true
		}
	}
	return false
}

// callsSaidOf are words that make a sentence about calls say what happened or what is: a past
// call verb, or "anyway", "ever", "usually" ("nobody rings through tonight" still asks).
var callsSaidOf = words2set("called rang rung phoned dialled dialed facetimed tried came " +
	"anyway ever usually never always yet has have had did does")

var gameSets = []string{"game.rps", "game.animal", "game.simon", "game.freeze", "game.hide"}

var gameIntents = map[string]string{"game.rps": "play.rps", "game.animal": "play.animal", "game.simon": "play.simon",
	"game.freeze": "play.freeze", "game.hide": "play.hide"}

// gameFrame: a game named (its lexicon) or a game at all ("let's play a game"), and what is
// asked — to start it (a request, or its name said as one), to stop ("I don't want to play
// any more"), or about it (a question: play.invite says how to start one).
func (t *Table) gameFrame(n Normalized, toks []string, m Mentions) (Decision, bool) {
	lx := t.vocab.lex
	used := make([]bool, len(toks))
	var setBuf [8]string
	sets := setBuf[:0] // the game sets with a key word said (m.lex), in order: the others cover nothing
	if m.lex&t.vocab.lexIx.bit["game.any"] != 0 {
		sets = append(sets, "game.any")
	}
	for _, name := range gameSets {
		if m.lex&t.vocab.lexIx.bit[name] != 0 {
			sets = append(sets, name)
		}
	}
	hits := lx.cover(toks, used, sets...)
	game, named := lexHit{}, false
	for _, h := range hits {
		if h.set == "game.any" {
			if !named {
				game = h
			}
			continue
		}
		if named && h.set != game.set {
			// "rock paper scissors no simon says", "I don't wanna play simon says I wanna play
			// freeze dance": a game taken back for another — the words after the change are read
			if k := gameSwitchAt(toks, game.at+game.n, h.at); k > 0 {
				tail := toks[k:]
				return t.gameFrame(normalize(strings.Join(tail, " "), t.vocab.wake), tail, m)
			}
			return Decision{}, false // two games named: ask for one at a time elsewhere
		}
		game, named = h, true
	}
	if game.n == 0 && wantsTo(toks, lx, "game.start") && !n.Negated && len(toks) <= 5 && (contains(toks, "play") || contains(toks, "playing")) {
		return t.familyDecision("play.invite", map[string]string{}, n, m, FormImperative, "playing, with no game named") // "I want to play"
	}
	if game.n == 0 {
		if q, ok := t.findSaid(m.lex, toks, "game.quit"); ok && q.at == 0 && only(toks[q.n:], gameQuitFill) && !n.Question {
			return t.familyDecision("play.stop", map[string]string{}, n, m, FormImperative, "giving up the game ("+hitWords(q)+")") // "i quit"
		}
		// whisper writes "we're" as "were": "were done playing" is no question
		question := n.Question && !(toks[0] == "were" && len(toks) > 1 && (toks[1] == "done" || toks[1] == "finished" || toks[1] == "bored"))
		// "stop playing, it's bath time": the game's end asked for, a reason around it
		if !n.Negated && len(toks) <= 10 { // the first piece is read only then
			if first := gameStopLead(t.pieces(n)[0].tokens()); len(first) >= 2 && len(first) <= 4 &&
				hasPrefix(stripRequestLeads(first), []string{"stop", "playing"}) && only(stripRequestLeads(first)[2:], gameQuitFill) {
				return t.familyDecision("play.stop", map[string]string{}, n, m, FormImperative, "an end to playing (\"stop playing\")")
			}
		}
		// "I don't want to play any more", "I'm done playing": playing, and an end to it.
		if (contains(toks, "play") || contains(toks, "playing")) && lx.has(toks, "game.stop") && len(toks) <= 10 &&
			(n.Negated || contains(toks, "done") || contains(toks, "finished") || contains(toks, "bored") || toks[0] == "enough") && !question {
			stop, _ := lx.find(toks, "game.stop")
			return t.familyDecision("play.stop", map[string]string{}, n, m, FormImperative, "an end to playing ("+hitWords(stop)+")")
		}
		return Decision{}, false
	}
	if named && gameResultSaid(toks) {
		return Decision{}, false // "rock paper scissors shoot! ha I won": a game played by others, its result said
	}
	if game.set == "game.freeze" {
		lx.cover(toks, used, "game.freeze.fill") // "... stop the music and we freeze": the game described, no stop
	}
	if game.set == "game.animal" {
		animalClue(toks, used, game.at+game.n) // "I'm thinking of an animal, it has a trunk, guess"
	}
	butAside(toks, used, game.at+game.n) // "let's do simon says but I'm the boss first"
	formN, formToks := n, toks
	if game.set == "game.hide" {
		// "you count, I hide, no peeking": the game described; its "no" corrects nothing
		if fill := slices.DeleteFunc(lx.cover(toks, used, "game.hide.fill"), func(h lexHit) bool {
			return !strings.HasPrefix(h.phrase, "no ") && !strings.HasPrefix(h.phrase, "and no ") && !strings.HasPrefix(h.phrase, "do not ")
		}); len(fill) > 0 {
			formToks = withoutHits(toks, fill)
			formN.toks, formN.Text = formToks, strings.Join(formToks, " ")
		}
	}
	if named && n.Question && (toks[0] == "who" || toks[0] == "why" || toks[0] == "when" || toks[0] == "where" ||
		game.at >= 2 && toks[game.at-1] == "of" && !anyOf(toks[:game.at], gamePlayWords)) {
		return Decision{}, false // "who made up simon says", "what's the origin of simon says": about the game, for the agent
	}
	if named && !n.Negated && askedIfCanPlay(n.raw, contains(toks, "with")) {
		// "can you play rock paper scissors?": asked whether it can (with no "with me"), the
		// robot says how to start it (play.invite, as the brief's "can we play simon says?")
		return t.familyDecision("play.invite", map[string]string{}, n, m, FormQuestion, "a question about playing a game ("+hitWords(game)+")")
	}
	if h, ok := lx.find(toks, "game.howto"); named && ok && !n.Negated {
		// "teach me how to play freeze dance", "what are the rules of simon says": how it goes
		return t.familyDecision("play.invite", map[string]string{}, n, m, FormQuestion, "how a game goes ("+hitWords(game, h)+")")
	}
	stopHits := lx.cover(toks, used, "game.stop")

	startHits := lx.cover(toks, used, "game.start")
	if named && !n.Negated && keepsBusy(toks, game) {
		// "could you keep young Sam busy with a game of simon says while I put the kettle on":
		// others to be kept playing; the robot says how to start the game
		return t.familyDecision("play.invite", map[string]string{}, n, m, FormIndirect, "others kept busy with a game ("+hitWords(game)+")")
	}
	if named && !n.Question && !n.Negated && len(startHits) > 0 && gamePutOffIn(toks) {
		// "let's play simon says after dinner": the game asked for later is not started now
		return t.familyDecision("play.invite", map[string]string{}, n, m, FormFuture, "a game put off ("+hitWords(game)+")")
	}
	unexplained := 0
	for i, w := range toks {
		if !used[i] && !familyFill[w] && !isDigits(w) && w != "want" && w != "not" && w != "of" && w != "am" && w != "let" &&
			!audience(toks, i) { // "for my birthday party guests": who it is for
			unexplained++
		}
	}
	form := t.requestForm(formN, formToks, func(ct []string) bool {
		return lx.has(ct, "game.start") || lx.has(ct, "game.any") || anyGame(lx, ct)
	}, gameSets...)
	if !named && n.Question && !n.Negated && (toks[0] == "what" || toks[0] == "which") && game.at == 1 && only(toks[2:], gamesAsked) {
		// "what games do you even know", "which games have you actually got": the games asked for
		return t.familyDecision("play.invite", map[string]string{}, n, m, FormQuestion, "a question about the games ("+hitWords(game)+")")
	}
	if !named && unexplained <= 4 && form == FormQuestion && contains(toks, "play") && !n.Negated && toks[0] != "did" && !anyOf(toks, pastWords) {
		// "would the little ones be able to play a game with you?": a question about playing
		return t.familyDecision("play.invite", map[string]string{}, n, m, form, "a question about playing a game ("+hitWords(game)+")")
	}
	if unexplained > 0 && clauseName(game.phrase) && unexplainedAfter(toks, used, game.at+game.n) {
		return Decision{}, false // "we hide the cookies", "the kids are hiding in the shed": a statement, not the game
	}
	if unexplained > 1 && !(unexplained <= 3 && (form == FormQuestion || form == FormReported) && named) {
		if d, ok := t.gameFirstPiece(n, m); ok {
			return d, true // "that'll do for the games now, thank you, it's bath time"
		}
		return Decision{}, false // "simon says touch your nose": a move of the game, not a request to start it
	}
	if form == FormStatement && named && !n.Negated && len(startHits) > 0 && endsWithRequest(startHits[len(startHits)-1], toks) {
		form = FormImperative // "I'm thinking of an animal, guess it", "hide and seek you count"
	}
	if form != FormImperative && !n.Negated && wantsTo(toks, lx, "game.start") {
		form = FormImperative // "I want to play rock paper scissors with you", "let's play simon says"
	}
	if form == FormFuture && len(stopHits) > 0 && strings.HasPrefix(stopHits[0].phrase, "that will") {
		form = FormStatement // "that'll do for the games": its "will" is no future
	}
	if form == FormQuestion && len(stopHits) > 0 && len(toks) > 2 && (toks[0] == "can" || toks[0] == "could") && (toks[1] == "we" || toks[1] == "you") &&
		stopHits[0].at == 2 && !n.Negated {
		form = FormImperative // "can we stop the game, it's dinner time": a polite request
	}
	switch {
	case len(stopHits) > 0 && (form == FormImperative || n.Negated || form == FormStatement):
		// "stop the game", "I don't want to play any more", "I'm done playing", "game over"
		return t.familyDecision("play.stop", map[string]string{}, n, m, form, "ending a game ("+hitWords(append([]lexHit{game}, stopHits...)...)+")")
	case (n.Negated || noNeed(toks)) && named:
		return t.familyDecision("play.invite", map[string]string{}, n, m, FormNegated, "a game not asked for ("+hitWords(game)+")")
	case n.Negated || noNeed(toks):
		return Decision{}, false
	case form == FormQuestion || form == FormIndirect || form == FormReported && named:
		// "mi hija wants play the simon game": someone else's wish is answered with how to start
		return t.familyDecision("play.invite", map[string]string{}, n, m, form, "a question or a wish about a game ("+hitWords(game)+")")
	case form != FormImperative && !(named && len(startHits) > 0 && form == FormStatement && (startHits[0].at == 0 || game.at == 0) && !anyOf(toks, finiteSet)):
		return Decision{}, false // "I played rock paper scissors yesterday"
	case !named && len(startHits) == 0:
		return Decision{}, false // "we won the game, celebrate with me"
	case !named:
		return t.familyDecision("play.invite", map[string]string{}, n, m, FormImperative, "a game without its name ("+hitWords(game)+")")
	}
	return t.familyDecision(gameIntents[game.set], map[string]string{}, n, m, FormImperative, "a game ("+hitWords(append([]lexHit{game}, startHits...)...)+")")
}

// gameQuitFill may follow "i quit": "i quit now", "i quit this game".
var gameQuitFill = words2set("now then ok okay this game the it reachy already")

// wantLeads put a request as a wish or an invitation: "I want to play", "let's play".
var wantLeads = [][]string{{"i", "want", "to"}, {"we", "want", "to"}, {"i", "wanna"}, {"we", "wanna"}, {"wanna"},
	{"i", "would", "like", "to"}, {"we", "would", "like", "to"}, {"let", "us"}, {"lets"}, {"come", "on", "let", "us"},
	{"i", "need", "to"}, {"we", "need", "to"}}

// wantsTo: the sentence opens with a wish or an invitation followed by a word of the set.
func wantsTo(toks []string, lx lexicon, set string) bool {
	lead := stripRequestLeads(toks)
	for _, l := range wantLeads {
		if hasPrefix(lead, l) && len(lead) > len(l) && lx[set].at(lead, len(l)) > 0 {
			return true
		}
	}
	return false
}

func anyGame(lx lexicon, toks []string) bool {
	for _, s := range gameSets {
		if lx.has(toks, s) {
			return true
		}
	}
	return false
}

// beneficiaryLeads come before a person who is spoken of, not asked about: "a present FOR

// endsWithRequest: a game's start word closes the sentence as a request of its own ("...
// guess it", "... you count", "... guess what it is"), with no past or future in it.
func endsWithRequest(h lexHit, toks []string) bool {
	end := h.at + h.n
	for _, w := range toks[end:] {
		if w != "it" && w != "me" && w != "us" && w != "now" && w != "then" && w != "what" && w != "is" && w != "which" && w != "animal" {
			return false
		}
	}
	for _, w := range toks {
		if pastWords[w] || futureWords[w] {
			return false
		}
	}
	return h.at > 0 && (isImperativeVerb(toks[h.at]) || toks[h.at] == "you" || toks[h.at] == "guess" || toks[h.at] == "count" || toks[h.at] == "try")
}

// privacyTimes say how long privacy lasts, not when something happened: "no video calls
// tonight", "privacy for this evening".
var privacyTimes = words2set("tonight today evening afternoon morning")

// timeless is toks without privacyTimes.
func timeless(toks []string) []string {
	if !anyOf(toks, privacyTimes) {
		return toks
	}
	out := make([]string, 0, len(toks))
	for i, w := range toks {
		if !privacyTimes[w] && !(w == "this" && i+1 < len(toks) && privacyTimes[toks[i+1]]) {
			out = append(out, w)
		}
	}
	return out
}

// privacyTimeless is n without privacyTimes, for reading its form.
func (t *Table) privacyTimeless(n Normalized) Normalized {
	toks := n.tokens()
	if !anyOf(toks, privacyTimes) {
		return n
	}
	out := timeless(toks)
	n.toks, n.Text = out, strings.Join(out, " ")
	return n
}

// callsEnding: "I don't want the calls to stop" wants them.
var callsEnding = words2set("stop stopping end ending cut off miss missing lose")

// unwantedCalls follow "I don't want" when what is not wanted is the calls ("any calls",
// "anyone to call", "video calls"), not something done ("I don't want you to block ...").
var unwantedCalls = words2set("any anyone anybody calls video people the visitors callers")

// privacyWish are the words of a wish put as a request: "I'd rather nobody rang through".
var privacyWish = words2set("rather prefer through")

// withoutHits is toks without the words of hits.
func withoutHits(toks []string, hits []lexHit) []string {
	out := make([]string, 0, len(toks))
	for i, w := range toks {
		in := false
		for _, h := range hits {
			in = in || i >= h.at && i < h.at+h.n
		}
		if !in {
			out = append(out, w)
		}
	}
	return out
}

// clauseName: a game named by what its players do ("i hide", "we freeze", "the kids are
// hiding"): with any other word about it, the sentence says what someone does.
func clauseName(phrase string) bool {
	f := strings.Fields(phrase)
	return len(f) > 0 && (f[0] == "i" || f[0] == "we" || f[0] == "you" || f[0] == "they" || f[0] == "kids" ||
		f[0] == "everyone" || f[0] == "are" || f[0] == "and" || slices.Contains(f, "are") || slices.Contains(f, "is"))
}

// unexplainedAfter: a word from toks[from:] that no list explained.
func unexplainedAfter(toks []string, used []bool, from int) bool {
	for i := from; i < len(toks); i++ {
		if !used[i] && !familyFill[toks[i]] {
			return true
		}
	}
	return false
}

// gameFirstPiece: the game asked for in the sentence's first part, what is said after it only
// afterthoughts (thanks, a reason: "that'll do for the games now, thank you, it's bath time").
func (t *Table) gameFirstPiece(n Normalized, m Mentions) (Decision, bool) {
	ps := t.pieces(n)
	if len(ps) < 2 || !t.vocab.lex.has(ps[0].tokens(), "game.any") && !anyGame(t.vocab.lex, ps[0].tokens()) {
		return Decision{}, false
	}
	for _, p := range ps[1:] {
		if !t.afterthought(p) {
			return Decision{}, false
		}
	}
	// The piece was normalized on its own: its words may hold a key word the sentence's do not,
	// and gameFrame reads only the sets whose bits m.lex holds — so its own words' bits are added.
	pm := m
	pm.lex |= t.lexOf(ps[0].tokens())
	return t.gameFrame(ps[0], ps[0].tokens(), pm)
}

// gamesAsked may follow "what games": "what games do you even know", "which games have you got".
var gamesAsked = words2set("do you know have got can play are there any other else even actually really reachy robot " +
	"we i us with")

// animalClue marks as explained a clue said after the animal is named ("... it has a trunk",
// "... it lives in the sea"), up to the request that follows it ("guess").
func animalClue(toks []string, used []bool, from int) {
	if from+2 > len(toks) || toks[from] != "it" && toks[from] != "its" || !clueVerbs[toks[from+1]] {
		return
	}
	for i := from; i < len(toks) && i < from+8 && toks[i] != "guess" && toks[i] != "what" && toks[i] != "can"; i++ {
		used[i] = true
	}
}

// clueVerbs open a clue about the animal: "it has", "it lives", "it is big".
var clueVerbs = words2set("has is lives can eats likes got makes says goes swims flies climbs runs hops")

// butAside marks as explained who plays which part, said after the game's name with "but"
// ("... but I'm the boss first", "... but you go first"); nothing else is.
func butAside(toks []string, used []bool, from int) {
	i := slices.Index(toks, "but")
	if i < from || i+2 >= len(toks) || len(toks)-i > 7 || !only(toks[i+1:], butRoles) {
		return
	}
	for k := i; k < len(toks); k++ {
		used[k] = true
	}
}

// butRoles say who plays which part: "I'm the boss", "you go first", "me first".
var butRoles = words2set("i you we me am are is the boss first go goes start starts it simon seeker leader my your turn be can")

// gamePutOffIn: the game is put off ("let's play hide and seek later", "... after dinner"),
// not described ("freeze after the music stops").
func gamePutOffIn(toks []string) bool {
	for i, w := range toks {
		if gamePutOff[w] || w == "after" && i+1 < len(toks) && toks[i+1] != "the" && toks[i+1] != "it" && toks[i+1] != "each" {
			return true
		}
	}
	return false
}

var gamePutOff = words2set("later tomorrow tonight afterwards soon")

// gamePlayWords ask to play, said before "of <game>": "can we have a round of simon says".
var gamePlayWords = words2set("play playing round rounds game games go turn rules how")

// keepsBusy: "keep the kids busy with a game of hide and seek", "entertain Sam with simon
// says": the game asked for others, with at most a reason after it ("while I ...").
func keepsBusy(toks []string, game lexHit) bool {
	lead := stripRequestLeads(toks)
	off := len(toks) - len(lead)
	if len(lead) == 0 || !busyVerbs[lead[0]] {
		return false
	}
	with := slices.Index(lead, "with")
	if with < 2 || with > 5 || with+off > game.at || game.at-(with+off) > 4 {
		return false
	}
	rest := toks[game.at+game.n:]
	return len(rest) == 0 || len(cutReason(append([]string{"x", "x", "x"}, rest...))) == 3 // a reason: "while I ..."
}

// busyVerbs keep others playing: "keep", "entertain", "amuse", "occupy".
var busyVerbs = words2set("keep entertain amuse occupy")

// gameStopLead takes "time to" off "time to stop playing".
func gameStopLead(toks []string) []string {
	if hasPrefix(toks, []string{"time", "to"}) || hasPrefix(toks, []string{"it", "is", "time", "to"}) {
		return toks[slices.Index(toks, "to")+1:]
	}
	return toks
}

// gameSwitchAt: where the words between two games named (from, to) take the first back ("no",
// "I mean", "actually", "I wanna"): the index after the last such word, or 0.
func gameSwitchAt(toks []string, from, to int) int {
	k := 0
	for i := from; i < to && i < len(toks); i++ {
		if gameSwitches[toks[i]] {
			k = i + 1
		}
	}
	return k
}

var gameSwitches = words2set("no nah not mean actually wait rather instead want wanna prefer")

// askedIfCanPlay: the sentence as said asks whether the robot can play — "can you play ..."
// with no one to play with, or "is it possible to play ..." (the polite lead is gone from its
// words).
func askedIfCanPlay(raw string, with bool) bool {
	raw = strings.TrimLeft(raw, " ,.!?")
	return !with && (strings.HasPrefix(raw, "can you play ") || strings.HasPrefix(raw, "could you play ")) ||
		strings.HasPrefix(raw, "is it possible to play ") || strings.HasPrefix(raw, "would it be possible to play ")
}

// rpsThrows are rock paper scissors' throws: "paper beats rock" is a round played.
var rpsThrows = words2set("rock paper scissors stone")

// gameResultSaid: someone says who won or lost ("ha I won", "you lost", "I beat you"): the
// game was played, by whoever says it — no request to start one.
func gameResultSaid(toks []string) bool {
	if hasPhrase(toks, []string{"the", "champion", "is"}) || hasPhrase(toks, []string{"the", "winner", "is"}) ||
		hasPhrase(toks, []string{"takes", "home"}) || hasPhrase(toks, []string{"the", "contestant"}) || hasPhrase(toks, []string{"the", "players"}) {
		return true // "rock paper scissors shoot and the champion is Dana": a round played, its winner named
	}
	for i := 1; i < len(toks); i++ {
		p := toks[i-1]
		switch toks[i] {
		case "won", "lost", "beat", "win", "wins", "beats":
			if p == "i" || p == "you" || p == "we" || p == "he" || p == "she" || p == "they" || rpsThrows[p] {
				return true // "ha I won", "paper beats rock"
			}
		case "out":
			if p == "are" && i > 1 && toks[i-2] == "you" {
				return true // "you're out"
			}
		}
	}
	return false
}
