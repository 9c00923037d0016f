package intents

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Timer durations, as people say them: "ten minutes", "an hour and a half", "90 seconds",
// "a quarter of an hour", "two and a half minutes", "1 hour 20", "half an hour", "5 mins".
// The parser reads the normalizer's output (numbers already digits) and returns whole
// seconds. It is closed: a word it does not know ("a while", "a few minutes") is not a
// duration, and the router asks how long instead of guessing.

// Timer limits: a duration outside them is refused, not started.
const (
	MinTimerSeconds = 1
	MaxTimerSeconds = 24 * 60 * 60
)

// durationOutcome says what the parser made of a phrase.
type durationOutcome int

const (
	durationOK         durationOutcome = iota
	durationUnknown                    // not a duration the parser understands
	durationOutOfRange                 // a duration, but 0 s or more than 24 h
)

var durationUnits = map[string]float64{
	"s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
	"m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
	"h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
	"day": 86400, "days": 86400,
}

// pluralUnits need a number: "minutes" alone says how many were meant was not heard.
var pluralUnits = map[string]bool{"secs": true, "seconds": true, "mins": true, "minutes": true, "hrs": true, "hours": true, "days": true}

// spokenUnit is the plural unit a duration phrase names ("ate minutes" -> "minutes"), or "".
func spokenUnit(phrase string) string {
	for _, w := range strings.FieldsFunc(phrase, func(r rune) bool { return r == ' ' || r == '_' }) {
		switch w {
		case "s", "sec", "secs", "second", "seconds":
			return "seconds"
		case "m", "min", "mins", "minute", "minutes":
			return "minutes"
		case "h", "hr", "hrs", "hour", "hours":
			return "hours"
		}
	}
	return ""
}

// unheardNumber: a word before a bare unit that is no word the router knows — the number
// as the recogniser misheard it ("won", "ate", "tree", "fife").
func unheardNumber(w string) bool {
	return !explained(w) && !durationWord(w) && !timerFill[w] && !frameFill[w] && !timerNouns[w] && !timerStart[w] &&
		!timerCancel[w] && !timerStatus[w] && !beforeUnit[w]
}

// beforeUnit may stand before a bare unit: "for the next hour", "a whole minute".
var beforeUnit = words2set("next last whole entire full good extra additional first following coming remaining same single " +
	"every each per quick short long egg eggs mute muted quiet silent talking")

// durationFillers are words that change nothing: "about ten minutes", "another 5 minutes".
var durationFillers = map[string]bool{
	"about": true, "around": true, "exactly": true, "just": true, "roughly": true, "approximately": true,
	"only": true, "like": true, "more": true, "another": true, "additional": true, "extra": true,
}

// vagueDurationWords are words people use for a length of time that is no number: the
// placeholder lets them through so the router can ask "how long?" instead of ignoring them.
var vagueDurationWords = []string{"while", "bit", "few", "little", "moment", "some", "several"}

// durationJoinWords may stand inside a spoken duration: "an hour and a half", "a couple of
// minutes", "a quarter of an hour".
var durationJoinWords = []string{"a", "an", "and", "half", "quarter", "quarters", "of", "couple", "hundred", "from", "now"}

// durationCoreWords make a run of duration words a duration, as units and vague words do.
var durationCoreWords = []string{"half", "quarter", "couple"}

// durationWord reports whether a word can be part of a spoken duration.
func durationWord(w string) bool {
	if durationClass(w)&dcWord != 0 || isNumber(w) {
		return true // a unit, a filler, a joining word, a vague word, a number
	}
	return gluedUnit(w)
}

// gluedUnit: a unit glued to a number, "10min", "90s".
func gluedUnit(w string) bool {
	k := 0
	for k < len(w) && (w[k] >= '0' && w[k] <= '9' || w[k] == '.') {
		k++
	}
	if k == 0 {
		return false // no number before a unit (most words: no lookup)
	}
	_, unit := durationUnits[w[k:]]
	return unit
}

// durationKinds is durationWord(w) and durationCore(w), with one lookup of the word.
func durationKinds(w string) (word, core bool) {
	c, num := durationClass(w), isNumber(w)
	word = c&dcWord != 0 || num || gluedUnit(w)
	return word, c&dcCore != 0 || num || len(w) > 1 && w[0] >= '0' && w[0] <= '9' && word
}

// durationGate: the sentence may hold a duration — a core word, or "our" that may be whisper's
// "hour" ("be quiet for an our").
func durationGate(w string) bool { return durationCore(w) || w == "our" || w == "ours" }

// numberSounds are words whisper writes for a number word that sounds the same: read as that
// number only in a number's place, straight before a unit ("ate minutes", "won minute").
// Words that fit that place as themselves are never read as a number: "to", "for", "free"
// ("a timer for minutes", "set it to minutes") are asked about.
var numberSounds = map[string]string{"ate": "8", "won": "1", "tree": "3", "fife": "5", "sicks": "6", "nein": "9", "too": "2",
	"tin": "10", "fourty": "40"}

// numberSoundShapes are the shapes of numberSounds' words: numberHomophones looks up only
// a word of one of them.
var numberSoundShapes = func() (out wordShapes) {
	for w := range numberSounds {
		out.add(w)
	}
	return out
}()

// teenHeads are the first halves of a "-teen" number whisper wrote in two ("fif teen").
var teenHeads = map[string]string{"thir": "13", "3": "13", "4": "14", "four": "14", "fif": "15", "5": "15", "6": "16", "7": "17",
	"eigh": "18", "8": "18", "9": "19"}

// numberHomophones reads whisper's homophones in a duration: a number's sound before a unit
// ("set a timer for ate minutes" is 8 minutes) and "our" for "hour" after "an", "half an" or
// a number ("be quiet for an our"). It returns toks itself when nothing is read (most
// sentences), a copy otherwise.
func numberHomophones(toks []string) []string {
	var out []string
	for i, w := range toks {
		r := ""
		switch {
		case w == "teen" && i > 0 && teenHeads[toks[i-1]] != "" && i+1 < len(toks) && durationUnits[toks[i+1]] != 0:
			// "fif teen minutes": a number whisper wrote in two
			if out == nil {
				out = slices.Clone(toks)
			}
			out[i-1], out[i] = teenHeads[toks[i-1]], ""
			continue
		case numberSoundShapes.may(w) && numberSounds[w] != "" && i+1 < len(toks) && spokenUnit(toks[i+1]) != "" && durationUnits[toks[i+1]] != 0:
			r = numberSounds[w]
		case (w == "our" || w == "ours") && i > 0 && (toks[i-1] == "an" || isNumber(toks[i-1]) || numberSounds[toks[i-1]] != ""):
			r = "h" + w
		default:
			continue
		}
		if out == nil {
			out = slices.Clone(toks)
		}
		out[i] = r
	}
	if out == nil {
		return toks
	}
	out = slices.DeleteFunc(out, func(w string) bool { return w == "" })
	for i, w := range out { // "ate ours": the number's sound read before its unit
		if numberSounds[w] != "" && i+1 < len(out) && durationUnits[out[i+1]] != 0 {
			out[i] = numberSounds[w]
		}
	}
	return out
}

// durationCore: a run of duration words must hold one of these to be a duration at all.
func durationCore(w string) bool {
	return durationClass(w)&dcCore != 0 || isNumber(w) || len(w) > 1 && w[0] >= '0' && w[0] <= '9' && durationWord(w)
}

// durationClasses says of each word on the duration lists whether durationWord takes it
// (a unit, a filler, a joining word, a vague word) and whether durationCore does (a unit, a
// vague word, a core word): one lookup, where the lists are several.
var durationClasses = func() map[string]uint8 {
	out := map[string]uint8{}
	for w := range durationUnits {
		out[w] |= dcWord | dcCore
	}
	for w, ok := range durationFillers {
		if ok {
			out[w] |= dcWord
		}
	}
	for _, w := range durationJoinWords {
		out[w] |= dcWord
	}
	for _, w := range vagueDurationWords {
		out[w] |= dcWord | dcCore
	}
	for _, w := range durationCoreWords {
		out[w] |= dcCore
	}
	return out
}()

// durationShapes are the shapes of the words durationClasses lists.
var durationShapes = func() (out wordShapes) {
	for w := range durationClasses {
		out.add(w)
	}
	return out
}()

// durationClass is durationClasses[w], without a lookup for a word of no listed shape.
func durationClass(w string) uint8 {
	if !durationShapes.may(w) {
		return 0
	}
	return durationClasses[w]
}

const (
	dcWord uint8 = 1 << iota // durationWord
	dcCore                   // durationCore
)

// durationView joins each run of duration words into one marked token ("set a timer for an
// hour and a half" -> "set a timer for ~an_hour_and_a_half"), so a {duration} placeholder is a single
// token: patterns stay simple regular expressions, and cheap to run. The view only adds '~',
// '_' and an "x_" after a '~' to the sentence's words (match reads a duration pattern's other
// literals on the text first: patternRef.onText, TestDurationPatternsReadTheTextFirst).
func durationView(toks []string) string {
	toks = numberHomophones(toks)
	// Without a core word no run is marked: the view is the sentence itself (most sentences).
	if !slices.ContainsFunc(toks, durationCore) {
		return strings.Join(toks, " ")
	}
	return joinDurations(toks)
}

// joinDurations is durationView of words known to hold a core word.
func joinDurations(toks []string) string {
	var b strings.Builder
	for i := 0; i < len(toks); {
		if toks[i] == "little" && i > 0 && (objectLeads[toks[i-1]] || personOwners[toks[i-1]]) {
			// "the little one is asleep", "my little ones": who, not how long
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(toks[i])
			i++
			if i < len(toks) && (toks[i] == "1" || toks[i] == "ones") {
				b.WriteString(" " + toks[i])
				i++
			}
			continue
		}
		j := i
		core := false
		for j < len(toks) {
			word, isCore := durationKinds(toks[j]) // durationWord and durationCore, from one lookup
			if !word {
				break
			}
			core = core || isCore
			j++
		}
		// A run never ends on a joining word: "5 minutes and turn on ...".
		for j > i && (toks[j-1] == "and" || toks[j-1] == "a" || toks[j-1] == "an" || toks[j-1] == "of" || toks[j-1] == "from") {
			j--
		}
		if j > i+1 && toks[j-1] == "while" && durationUnits[toks[j-2]] > 0 {
			j-- // "20 minutes while I'm on a call": the length ends at its unit; "while" opens a clause
		}
		repeated := false
		if j > i+2 && toks[j-1] == toks[i] && isDigits(toks[i]) && durationUnits[toks[j-2]] > 0 {
			j, repeated = j-1, true // "12 minutes. 12.": the number said again, not 12 seconds more
		}
		// Nor starts on one: "a timer of 7 minute".
		if j > i+1 && (toks[i] == "of" || toks[i] == "and" || toks[i] == "from") {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(toks[i])
			i++
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if j > i && core {
			b.WriteByte('~') // marks the token as a duration for the {duration} placeholder
			if _, unit := durationUnits[toks[i]]; unit && i > 0 && unheardNumber(toks[i-1]) {
				b.WriteString("x_") // "won minute", "tree minutes": how many was not heard — asked, never one
			}
			b.WriteString(strings.Join(toks[i:j], "_"))
			i = j
			if repeated {
				i++
			}
			continue
		}
		b.WriteString(toks[i])
		i++
	}
	return b.String()
}

// parseDuration reads a normalized duration phrase and returns whole seconds.
func parseDuration(phrase string) (int, durationOutcome) {
	toks := durationTokens(strings.ReplaceAll(phrase, "_", " "))
	for _, t := range toks {
		if len(t) > 1 && t[0] == '-' && isASCIIDigit(t[1]) {
			return 0, durationOutOfRange // "-60 seconds": never 60 seconds
		}
	}
	if len(toks) > 1 && (toks[0] == "a" || toks[0] == "an") && isNumber(toks[1]) {
		toks = toks[1:] // "a 10 minute timer"
	}
	if len(toks) == 0 {
		return 0, durationUnknown
	}
	if len(toks) == 1 && isNumber(toks[0]) {
		return 0, durationUnknown // "a timer for 10": ten what? (typed calls say "600 seconds")
	}
	p := durationParser{toks: toks}
	total, ok := p.parse()
	if !ok {
		return 0, durationUnknown
	}
	return checkSeconds(total)
}

func checkSeconds(total float64) (int, durationOutcome) {
	if total < MinTimerSeconds || total > MaxTimerSeconds || math.IsNaN(total) {
		return 0, durationOutOfRange
	}
	return int(math.Round(total)), durationOK
}

// durationTokens splits glued units ("10min", "90s", "1.5h"), drops fillers and a trailing
// "from now".
func durationTokens(phrase string) []string {
	var out []string
	for _, t := range strings.Fields(phrase) {
		if durationFillers[t] {
			continue
		}
		i := 0
		for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
			i++
		}
		if i > 0 && i < len(t) {
			out = append(out, t[:i], t[i:])
			continue
		}
		out = append(out, t)
	}
	if n := len(out); n >= 2 && out[n-2] == "from" && out[n-1] == "now" {
		out = out[:n-2]
	}
	return out
}

type durationParser struct {
	toks []string
	i    int
}

func (p *durationParser) peek(k int) string {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return ""
}

func (p *durationParser) accept(words ...string) bool {
	for k, w := range words {
		if p.peek(k) != w {
			return false
		}
	}
	p.i += len(words)
	return true
}

func (p *durationParser) article() bool { return p.accept("a") || p.accept("an") }

func (p *durationParser) unit() (float64, bool) {
	if u, ok := durationUnits[p.peek(0)]; ok {
		p.i++
		return u, true
	}
	return 0, false
}

// parse reads components ("an hour", "and 20 minutes", "and a half") until the end.
func (p *durationParser) parse() (float64, bool) {
	var total, last float64 // last: the unit of the previous component, in seconds
	for p.i < len(p.toks) {
		if p.accept("and") && p.i == len(p.toks) {
			return 0, false
		}
		// "an hour and a half", "a minute and a half": half of the last unit.
		if last > 0 && (p.accept("a", "half") || p.accept("half")) {
			total += last / 2
			last = 0
			continue
		}
		q, ok := p.quantity()
		if !ok {
			return 0, false
		}
		u, ok := p.unit()
		if !ok {
			// "an hour and a quarter", "2 hours and 3 quarters": a fraction of the last unit.
			if p.i == len(p.toks) && last > 0 && q < 1 {
				total += q * last
				last = 0
				continue
			}
			// "1 hour 20", "3 minutes 30": a bare number after a unit is the next smaller one.
			if p.i == len(p.toks) && (last == 3600 || last == 60) {
				total += q * last / 60
				last = 0
				continue
			}
			return 0, false
		}
		total += q * u
		last = u
	}
	return total, true
}

// quantity reads how many units: "10", "1.5", "a", "an", "half a", "a quarter of an",
// "3 quarters of an", "2 and a half", "a couple of", "a hundred and 20". A unit with no
// quantity ("hour timer") counts one; a plural one ("ate minutes", "fif teen minutes": a
// number the recogniser garbled) is no quantity at all — the router asks how many.
func (p *durationParser) quantity() (float64, bool) {
	start := p.i
	if u := p.peek(0); pluralUnits[u] {
		return 0, false
	} else if _, ok := durationUnits[u]; ok {
		return 1, true
	}
	switch {
	case p.accept("half"): // "half an hour", "half a minute", "half hour"
		p.article()
		return 0.5, true
	case p.accept("a", "half") || p.accept("an", "half"): // "a half hour"
		return 0.5, true
	case p.accept("a", "quarter") || p.accept("quarter"): // "a quarter of an hour", "quarter hour"
		p.accept("of")
		p.article()
		return 0.25, true
	case p.accept("a", "couple", "of") || p.accept("couple", "of") || p.accept("a", "couple"):
		return 2, true
	case p.accept("a", "hundred"):
		return p.hundredAnd(100), true
	}
	if p.article() {
		if _, ok := durationUnits[p.peek(0)]; ok {
			return 1, true
		}
		p.i = start
		return 0, false
	}
	v, err := strconv.ParseFloat(p.peek(0), 64)
	if err != nil || !isNumber(p.peek(0)) {
		return 0, false
	}
	p.i++
	if p.accept("hundred") {
		v *= 100
	}
	if math.Mod(v, 100) == 0 && v >= 100 {
		v = p.hundredAnd(v)
	}
	switch {
	case p.accept("and", "a", "half") || p.accept("and", "half"): // "2 and a half minutes"
		v += 0.5
	case p.accept("and", "a", "quarter"): // "1 and a quarter hours"
		v += 0.25
	case p.accept("and", "3", "quarters"): // "1 and 3 quarters hours"
		v += 0.75
	case p.accept("quarters"), p.accept("quarter"): // "3 quarters of an hour"
		p.accept("of")
		p.article()
		v *= 0.25
	}
	return v, true
}

// hundredAnd reads "and 20" after "a hundred" when a unit follows: "a hundred and 20 seconds".
func (p *durationParser) hundredAnd(v float64) float64 {
	if p.peek(0) == "and" && isDigits(p.peek(1)) {
		if _, ok := durationUnits[p.peek(2)]; ok {
			n, _ := strconv.Atoi(p.peek(1))
			if n < 100 {
				p.i += 2
				return v + float64(n)
			}
		}
	}
	return v
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func isNumber(s string) bool {
	whole, frac, ok := strings.Cut(s, ".")
	return isDigits(whole) && len(whole) <= 9 && (!ok || isDigits(frac))
}

// spokenDuration says a number of seconds the way a person would: "10 minutes",
// "1 hour and 30 minutes", "90 seconds" stays "1 minute and 30 seconds".
func spokenDuration(secs int) string {
	h, m, s := secs/3600, secs%3600/60, secs%60
	var parts []string
	add := func(n int, unit string) {
		if n == 0 {
			return
		}
		if n != 1 {
			unit += "s"
		}
		parts = append(parts, strconv.Itoa(n)+" "+unit)
	}
	add(h, "hour")
	add(m, "minute")
	add(s, "second")
	return spokenList(parts, "and")
}
