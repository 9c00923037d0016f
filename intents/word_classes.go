package intents

import "strings"

// The word classes mentions reads a sentence with: one lookup a word gives every list it is
// on (wordClasses), built once from the lists when the package is loaded.

// explained reports whether a word belongs to one of the lists a house sentence is read with.
func explained(w string) bool {
	return wordClasses[w]&wcExplained != 0 || isDigits(w)
}

// wordClass is a set of the lists a word is on; wordClasses holds it for every listed word,
// so reading a sentence costs one lookup per word instead of one per list (the lists are
// never changed after the package is loaded).
type wordClass uint32

const (
	wcAll wordClass = 1 << iota
	wcOnVerb
	wcOffVerb
	wcAction
	wcCalendar
	wcWarmth
	wcDefer
	wcExplained   // on a list explained reads
	wcRoomPrep    // in roomPrepositions
	wcHouseDevice // a deviceWords word for a light or the AC
	wcDevice      // any deviceWords word
	wcTimerFrame  // a word that can make the timer frame apply
	wcStopCore    // stopCore: quiet, hush, mute, enough ...
	wcStopTalk    // stopTalk: talk, speak, respond ... (a negation of them asks for quiet)
	wcDateCore    // date, day, month, a weekday ...
	wcTimeCore    // time, clock, hour
	wcHelpCore    // do, help, able, capable ...
	wcHangCore    // hang, and the verbs that end a call
	wcExpression  // a built-in expression (or the first word of one)
	wcSound       // the robot's sound: sound, speakers, audio, volume ... ("turn off the speakers")
	wcPlay        // play, playing: the game frame reads a sentence about playing
)

// wcBuiltinFrame: any word that can make stop, time, date, help, hang-up or an expression apply.
const wcBuiltinFrame = wcStopCore | wcStopTalk | wcDateCore | wcTimeCore | wcHelpCore | wcHangCore | wcExpression | wcSound

var wordClasses = func() map[string]wordClass {
	out := map[string]wordClass{"or": wcExplained, "either": wcExplained}
	add := func(list map[string]bool, c wordClass) {
		for w, ok := range list {
			if ok {
				out[w] |= c
			}
		}
	}
	add(allWords, wcAll|wcExplained)
	add(onVerbs, wcOnVerb|wcExplained)
	add(offVerbs, wcOffVerb|wcExplained)
	add(actionVerbs, wcAction|wcExplained)
	add(calendarWords, wcCalendar|wcExplained)
	add(warmthWords, wcWarmth|wcExplained)
	add(deferWords, wcDefer)
	for _, list := range []map[string]bool{plainWords, fixtureWords, functionWords, ignorableWords, placeStop} {
		add(list, wcExplained)
	}
	add(roomPrepositions, wcRoomPrep)
	add(stopCore, wcStopCore)
	add(stopTalk, wcStopTalk)
	add(soundThings, wcSound)
	add(dateCore, wcDateCore)
	add(timeCore, wcTimeCore)
	add(helpCore, wcHelpCore)
	add(wordSet{"work": true, "use": true, "using": true, "operate": true}, wcHelpCore) // "how does this thing work"
	add(hangVerbs, wcHangCore)
	add(wordSet{"hang": true, "late": true}, wcHangCore|wcTimeCore)
	add(wordSet{"ring": true, "sign": true, "done": true, "finished": true}, wcHangCore) // "ring off", "sign off", "done with the call"
	add(wordSet{"play": true, "playing": true}, wcPlay)
	for name, phrases := range defaultExpressions {
		for _, p := range append([]string{name}, phrases...) {
			first, _, _ := strings.Cut(p, " ")
			out[first] |= wcExpression
		}
	}
	for _, w := range timerFrameWords {
		out[w] |= wcTimerFrame
	}
	for w, d := range deviceWords {
		if d != "" {
			out[w] |= wcExplained
		}
		if d == "light" || d == "ac" {
			out[w] |= wcHouseDevice
		}
		out[w] |= wcDevice
	}
	return out
}()
