package intents

// The word lists normalisation reads, built once: what is replaced in the raw text,
// contractions, phrase and single-word rewrites and their shapes, fillers and stutters,
// polite leads and courtesy tails, negation leads, question words, "think hard" phrases and
// number words.

import (
	"slices"
	"strings"
)

// Replacements done on the raw lower-case text, before punctuation goes.
var rawReplacer = strings.NewReplacer(
	"a.c.", " ac ", "a. c.", " ac ", "a/c", " ac ", "a.c", " ac ",
	"’", "'", "‘", "'", // typographic apostrophes
	"°", " degrees ",
	// a half written as a fraction: "1 1/2 hours" is one and a half, "1/2 an hour" half an hour
	"1/2 an ", " half an ", "1/2 a ", " half a ", "½ an ", " half an ", "½ a ", " half a ", "1/2", " and a half ", "½", " and a half ",
	"\u2212", "-", "\u2013", "-", "\ufe63", "-", "\uff0d", "-", // minus signs and dashes: a sign is kept (scanTokens)
)

var contractions = map[string][]string{
	"don't": {"do", "not"}, "dont": {"do", "not"}, "doesn't": {"does", "not"}, "didn't": {"did", "not"},
	"isn't": {"is", "not"}, "aren't": {"are", "not"}, "wasn't": {"was", "not"}, "won't": {"will", "not"},
	"can't": {"cannot"}, "cant": {"cannot"}, "shouldn't": {"should", "not"}, "wouldn't": {"would", "not"},
	"what's": {"what", "is"}, "whats": {"what", "is"}, "where's": {"where", "is"}, "who's": {"who", "is"},
	"how's": {"how", "is"}, "it's": {"it", "is"}, "that's": {"that", "is"}, "there's": {"there", "is"},
	"let's": {"let", "us"}, "i'm": {"i", "am"}, "i'd": {"i", "would"}, "you're": {"you", "are"},
	"they're": {"they", "are"}, "we're": {"we", "are"}, "he's": {"he", "is"}, "she's": {"she", "is"},
	// The future and the perfect: "I'll turn it off later" is not "ill turn it off".
	"i'll": {"i", "will"}, "we'll": {"we", "will"}, "you'll": {"you", "will"}, "he'll": {"he", "will"},
	"she'll": {"she", "will"}, "they'll": {"they", "will"}, "it'll": {"it", "will"}, "that'll": {"that", "will"},
	"i've": {"i", "have"}, "we've": {"we", "have"}, "you've": {"you", "have"}, "they've": {"they", "have"},
	"we'd": {"we", "would"}, "you'd": {"you", "would"}, "he'd": {"he", "would"}, "she'd": {"she", "would"},
	"they'd": {"they", "would"}, "hasn't": {"has", "not"}, "haven't": {"have", "not"}, "hadn't": {"had", "not"},
	"everyone's": {"everyone", "is"}, "everyones": {"everyone", "is"}, "everybody's": {"everybody", "is"},
	"everybodys": {"everybody", "is"}, "somebody's": {"somebody", "is"}, "someone's": {"someone", "is"},
	// a transcript's spelling of words said run together: "wat time izzit", "wassat"
	// Scots: "dinnae switch it off", "cannae see a thing", "it isnae working"
	"dinnae": {"do", "not"}, "dinna": {"do", "not"}, "divnae": {"do", "not"}, "dinnay": {"do", "not"}, "didnae": {"did", "not"},
	"cannae": {"cannot"}, "canna": {"cannot"}, "isnae": {"is", "not"}, "wasnae": {"was", "not"}, "wouldnae": {"would", "not"},
	"couldnae": {"could", "not"}, "shouldnae": {"should", "not"}, "willnae": {"will", "not"}, "winnae": {"will", "not"},
	"havenae": {"have", "not"}, "hasnae": {"has", "not"}, "doesnae": {"does", "not"}, "arenae": {"are", "not"},
	"bizzy": {"busy"}, "bisy": {"busy"}, // whisper's spelling of a child's "busy"
	"rn": {"right", "now"}, "whit's": {"what", "is"}, "whits": {"what", "is"}, "izzit": {"is", "it"}, "issit": {"is", "it"}, "wassat": {"what", "is", "that"}, "wotsit": {"what", "is", "it"},
}

var singleRewrites = map[string]string{
	"aircon": "ac", "airconditioning": "ac", "airconditioner": "ac", "cooling": "ac", "acs": "ac",
	"lites": "lights", "lite": "light", "aircondition": "ac",
	// a learner's word for the AC from their own language: French "clim", Dutch "airco"
	"airco": "ac", "clim": "ac", "climatisation": "ac", "climatization": "ac", "climatizador": "ac",
	"condicionado": "ac", "acondicionado": "ac", "klimaanlage": "ac", "condizionatore": "ac", // "the ar condicionado", "el aire acondicionado"
	"wat": "what", "wot": "what", // a transcript's spelling
	"aff": "off", "whit": "what", // Scots: "shut the air con aff", "whit's the time"
	// a dropped g, as a transcript writes it: "mornin richie", "is the air con goin"
	"mornin": "morning", "evenin": "evening", "goin": "going", "doin": "doing", "daein": "doing", "nothin": "nothing",
	"somethin": "something", "comin": "coming", "talkin": "talking", "playin": "playing", "runnin": "running",
	"workin": "working", "sleepin": "sleeping", "nappin": "napping", "freezin": "freezing", "boilin": "boiling",
	"roastin": "roasting", "stinkin": "stinking", "blastin": "blasting", "flippin": "flipping", "bloomin": "blooming",
	"burnin": "burning", "guessin": "guessing", "puttin": "putting", "gettin": "getting", "fixin": "fixing", "makin": "making",
	"ye": "you", // Scots and Irish: "would ye switch it off", "ye can start talking again"
	// Scots' children: "the bairns' room", "the weans' daddy"
	"bairns": "kids", "weans": "kids", "bairn": "kid", "wean": "kid",
	// small children's words: "let's do fweeze dance", "turn the lightie on"
	"fweeze": "freeze", "lightie": "light", "lighty": "light", "lighties": "lights",
}

// wordExpansions are contractions and singleRewrites in one map, for words without an
// apostrophe; a contraction wins, as in the apostrophe path.
var wordExpansions = func() map[string][]string {
	out := map[string][]string{}
	for w, to := range singleRewrites {
		out[w] = []string{to}
	}
	for w, to := range contractions {
		out[w] = to
	}
	return out
}()

// wordShapes holds, by a word's first byte, a bit for its length (63: longer), and by its
// last byte the same (31: longer): a word of a shape none of a set's words has is not in the
// set, which four loads tell without hashing it.
type wordShapes struct {
	first [256]uint64
	last  [256]uint32
}

func (s *wordShapes) add(w string) {
	if w != "" {
		s.first[w[0]] |= 1 << min(len(w), 63)
		s.last[w[len(w)-1]] |= 1 << min(len(w), 31)
	}
}

// may reports whether w can be one of the words: false means it is not.
func (s *wordShapes) may(w string) bool {
	return w != "" && s.first[w[0]]&(1<<min(len(w), 63)) != 0 && s.last[w[len(w)-1]]&(1<<min(len(w), 31)) != 0
}

// expansionShapes are the shapes of the words of wordExpansions without an apostrophe (the
// only ones a word without one can be).
var expansionShapes = func() (out wordShapes) {
	for w := range wordExpansions {
		if !strings.Contains(w, "'") {
			out.add(w)
		}
	}
	return out
}()

// rewriteWords are the words a stage after expandTokens may change: number words and
// fillers (rewriteChanges), and the first words of phraseRewrites (with the rewrites that
// start with the word).
var rewriteWords = func() map[string]rewriteWord {
	out := map[string]rewriteWord{}
	mark := func(w string, flag uint8) {
		r := out[w]
		r.flags |= flag
		out[w] = r
	}
	for _, r := range phraseRewrites {
		e := out[r.from[0]]
		e.phrases = append(e.phrases, r.from)
		out[r.from[0]] = e
	}
	for w := range fillers {
		mark(w, rewriteChanges)
	}
	for _, list := range []map[string]int{units, tens} {
		for w := range list {
			mark(w, rewriteChanges)
		}
	}
	for w := range signWords {
		mark(w, rewriteChanges)
	}
	for w := range numberFragments { // "20 fi 26": a number broken off and said again
		mark(w, rewriteChanges)
	}
	return out
}()

// rewriteWord is what rewriteWords knows of a word.
type rewriteWord struct {
	flags   uint8
	phrases [][]string // the from of each phrase rewrite that starts with the word
}

// rewriteShapes are the shapes of the words of rewriteWords.
var rewriteShapes = func() (out wordShapes) {
	for w := range rewriteWords {
		out.add(w)
	}
	return out
}()

// signWords say that the number after them is negative: "set the AC to minus 20" is -20,
// never 20.
var signWords = map[string]bool{"minus": true, "negative": true}

// rewriteChanges marks a word the number and filler passes change.
const rewriteChanges uint8 = 1

// rewriteTokens runs the passes after expandTokens (phrases, numbers, fillers and
// stutters), skipping those that would change nothing. It rewrites toks in place.
func rewriteTokens(toks []string) []string {
	switch {
	case mayRewrite(toks):
		return dropFillersAndStutters(numberRestarts(numbersToDigits(rewritePhrases(toks))))
	case hasRepeat(toks):
		return dropFillersAndStutters(toks) // only a stutter to take out
	}
	return toks
}

// mayRewrite reports whether rewritePhrases, numbersToDigits or dropFillersAndStutters
// could change anything but a stutter: a phrase rewrite that applies, a number word or a
// filler. Most sentences have none, and skip those passes with one lookup per word.
func mayRewrite(toks []string) bool {
	for i, t := range toks {
		if !rewriteShapes.may(t) {
			continue
		}
		c := rewriteWords[t]
		if c.flags&rewriteChanges != 0 {
			return true // a number word or a filler
		}
		for _, from := range c.phrases {
			if hasPrefix(toks[i:], from) {
				return true
			}
		}
	}
	return false
}

// hasRepeat reports whether a word follows itself (a stutter may need taking out).
func hasRepeat(toks []string) bool {
	for i := 1; i < len(toks); i++ {
		if toks[i] == toks[i-1] {
			return true
		}
	}
	return false
}

// stutterWords are the short words whisper doubles when a speaker hesitates.
var stutterWords = map[string]bool{"the": true, "a": true, "an": true, "to": true, "on": true, "off": true, "in": true,
	"i": true, "is": true, "it": true, "and": true, "of": true, "my": true, "turn": true, "switch": true, "what": true,
	"set": true, "can": true, "you": true, "please": true, "light": true, "lights": true, "stop": true, "okay": true, "ok": true,
	"hello": true, "hi": true, "hey": true, "help": false}

var fillers = map[string]bool{"um": true, "uh": true, "umm": true, "uhh": true, "erm": true, "er": true, "hmm": true, "hm": true, "ah": true, "uhm": true, "mm": true}

var politeLeads = [][]string{
	{"but", "would", "you"}, {"but", "could", "you"}, {"but", "can", "you"}, {"but", "will", "you"}, // "..., but would you ...": a request after an apology
	{"would", "you", "be", "ever", "so", "kind", "as", "to"}, {"would", "you", "be", "so", "kind", "as", "to"},
	{"could", "you", "be", "so", "kind", "as", "to"}, {"would", "you", "be", "kind", "enough", "to"},
	{"would", "you", "be", "so", "good", "as", "to"}, {"be", "ever", "so", "kind", "as", "to"}, {"would", "you", "kindly"},
	{"would", "you", "mind"}, {"would", "you", "please"}, {"could", "you", "please"}, {"can", "you", "please"},
	{"will", "you", "please"}, {"i", "would", "like", "you", "to"}, {"i", "want", "you", "to"}, {"i", "need", "you", "to"},
	{"can", "you"}, {"could", "you"}, {"would", "you"}, {"will", "you"}, {"please"}, {"kindly"},
}

var courtesyTails = [][]string{
	{"thank", "you", "very", "much"}, {"thank", "you"}, {"thanks", "a", "lot"}, {"thanks"}, {"cheers"}, {"please"}, {"for", "me", "please"},
	{"for", "me"}, {"if", "you", "can"}, {"if", "you", "could"}, {"if", "possible"}, {"if", "you", "would"}, {"pretty", "please"},
	{"real", "quick"}, {"quickly"}, {"right", "now"}, {"right", "away"}, {"now"}, {"ok"}, {"okay"}, {"alright"},
	{"if", "you", "do", "not", "mind"}, {"if", "you", "would", "not", "mind"}, {"if", "that", "is", "ok"},
	{"if", "that", "is", "okay"}, {"if", "you", "please"}, {"dear"}, {"darling"}, {"love"}, {"sweetheart"},
	{"would", "you"}, {"will", "you"}, {"could", "you"}, // "ring mum for me would you": a tag, not a question
	{"would", "ya"}, {"will", "ya"}, {"could", "ya"},
	{"if", "you", "can", "hear", "me"}, {"if", "you", "hear", "me"},
	{"maybe"}, {"or", "so"}, {"ish"}, // "cool the bedroom down, like 20 maybe"
	{"abeg"}, {"abeg", "o"}, // Nigerian Pidgin's please: "hang up the call abeg"
	{"hen"}, {"lovey"}, // a grandparent's "dear": "ye can talk again, hen"
	{"na", "po"}, {"po"}, {"ji"}, // Tagalog's and Hindi's respect: "what's the date today po", "what time na po", "lights off ji"
	{"thx"}, {"ty"}, {"pls"}, {"plz"}, {"then"}, {"actually"}, {"mate"}, {"hon"}, {"honey"}, {"sugar"}, {"pal"}, {"buddy"}, {"chatterbox"}, // "what's the time then", "lights on mate"
}

// courtesyTailsByLast are courtesyTails by their last word, each word's in their order.
var courtesyTailsByLast = func() map[string][][]string {
	out := map[string][][]string{}
	for _, c := range courtesyTails {
		out[c[len(c)-1]] = append(out[c[len(c)-1]], c)
	}
	return out
}()

// tailEnds are the last words of the courtesy tails: a quick test before trying them.
var tailEnds = map[string]bool{"much": true, "you": true, "lot": true, "thanks": true, "cheers": true, "please": true,
	"me": true, "can": true, "could": true, "possible": true, "would": true, "quick": true, "quickly": true, "now": true,
	"away": true, "ok": true, "okay": true, "alright": true, "mind": true, "dear": true, "darling": true, "love": true,
	"sweetheart": true, "maybe": true, "so": true, "ish": true, "then": true, "actually": true, "mate": true, "hon": true,
	"honey": true, "sugar": true, "pal": true, "buddy": true, "chatterbox": true, "ya": true,
	"thx": true, "ty": true, "pls": true, "plz": true, "abeg": true, "o": true, "po": true, "ji": true,
	"hen": true, "lovey": true}

// leadFillers open a sentence without meaning anything: "okay, okay, stop", "so, what time is it".
var leadFillers = map[string]bool{"okay": true, "ok": true, "alright": true, "so": true, "well": true, "oh": true,
	"right": true, "now": true, "and": true, "yes": true, "yeah": true, "hmm": true, "um": true, "listen": true,
	"dear": true, "darling": true, "sweetie": true, "sweetheart": true, "honey": true, // "Reachy dear, would you ..."
	"psst": true, "pssst": true, "pst": true, // a whisper for attention: "psst reachy go silent"
	"abeg": true, "oya": true, // Nigerian Pidgin: "abeg keep quiet", "oya, lights off"
	"then": true, "oi": true, // "alright then, what time is it", "oi, thank you"
	"ugh": true, "urgh": true, "argh": true, "phew": true, "brr": true, "brrr": true, "ooh": true, "oof": true, "yikes": true,
	"gosh": true, "blimey": true, "jeez": true, "yo": true, "chatterbox": true} // a sigh or a shiver before the words: "ugh it's pitch black in here"

// likeFillerNext: an opening "like" before one of these is a filler ("like can you turn
// the light on"), never the verb ("like the song").
var likeFillerNext = words2set("can could would will turn switch put set what whats how is are do please stop call start")

// noVerbs, straight after an opening "no" with no pause between, make it a learner's "don't":
// "no call mama now, she is working", "no turn off the light". With a pause ("no, call
// dad") the "no" answers something else and the command stands. Not "stop", "speak",
// "talk": "no talking", "no speak for 30 minutes" ask for quiet.
var noVerbs = words2set("call ring phone facetime turn switch put play set start open close shut dim cancel make begin end hang")

// pauseAfterNo reports whether the first "no" of the raw sentence is followed by a pause
// (a comma, a full stop, a dash ...) rather than straight by the next word.
func pauseAfterNo(raw string) bool {
	for i := 0; i+2 <= len(raw); i++ {
		if raw[i] != 'n' || raw[i+1] != 'o' || i > 0 && isWordByte(raw[i-1]) || i+2 < len(raw) && isWordByte(raw[i+2]) {
			continue
		}
		rest := raw[i+2:]
		return rest != "" && rest[0] != ' '
	}
	return false
}

var negationLeads = [][]string{{"do", "not"}, {"never"}, {"please", "do", "not"}, {"dont"}, {"you", "should", "not"}}

// formLeadStarts are the first words of politeLeads and negationLeads: a sentence opening
// with none of them has neither lead to take off.
var formLeadStarts = func() map[string]bool {
	out := map[string]bool{}
	for _, p := range append(slices.Clone(politeLeads), negationLeads...) {
		out[p[0]] = true
	}
	return out
}()

var questionWords = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "am": true, "did": true, "does": true,
	"should": true, "shall": true, "why": true, "who": true, "whom": true, "whose": true, "how": true,
	"what": true, "when": true, "where": true, "which": true, "has": true, "have": true, "had": true,
	"can": true, "could": true, "would": true, "will": true, "may": true, "might": true, "must": true,
	"cannot": true, "if": true, "whether": true,
}

var deepPhrases = [][]string{
	{"have", "a", "proper", "think"}, {"have", "a", "long", "think"}, {"have", "a", "good", "think"}, {"have", "a", "real", "think"},
	{"put", "your", "thinking", "cap", "on"}, {"thinking", "cap"},
	{"think", "very", "carefully", "about", "this"}, {"think", "carefully", "about", "this"}, {"think", "hard", "about", "this"},
	{"think", "very", "carefully"}, {"think", "carefully", "about"}, {"think", "carefully"}, {"think", "hard"}, {"think", "deeply"},
	{"think", "step", "by", "step"}, {"think", "it", "through"}, {"think", "this", "through"}, {"think", "it", "over"},
	{"really", "think", "about"}, {"really", "think"}, {"take", "your", "time", "and"}, {"take", "your", "time"},
	{"step", "by", "step"}, {"reason", "carefully"}, {"carefully", "consider"}, {"consider", "carefully"},
	{"give", "it", "some", "thought"}, {"in", "depth"}, {"in", "detail"}, {"thoroughly"},
	{"i", "want", "a", "deep", "answer"}, {"give", "me", "a", "deep", "answer"}, {"a", "deep", "answer"}, {"deep", "answer"},
	{"think", "very", "good", "about", "this"}, {"think", "good", "about", "this"}, {"consider", "this", "very", "carefully"}, {"consider", "this", "carefully"}, {"consider", "it", "carefully"},
	{"think", "really", "really", "hard", "about"}, {"think", "really", "really", "hard"}, {"think", "very", "very", "hard"},
	{"think", "super", "hard"}, {"think", "extra", "hard"}, {"give", "it", "a", "proper", "think"}, {"give", "it", "a", "good", "think"},
	{"give", "it", "a", "real", "think"}, {"reflect", "carefully", "and"}, {"reflect", "carefully"}, {"reflect", "deeply"},
	{"think", "really", "hard", "about"}, {"think", "really", "hard"}, {"think", "really", "carefully"}, {"think", "long", "and", "hard"},
	{"use", "your", "big", "brain"}, {"use", "your", "brain"}, {"ponder", "this", "deeply"}, {"ponder", "this"},
	{"ponder", "deeply"}, {"ponder"}, {"deeply"}, {"think", "deep"},
	{"give", "it", "some", "proper", "thought"}, {"some", "proper", "thought"}, {"proper", "thought"}, {"properly", "thought", "through"},
	{"think", "very", "deep", "about", "this"}, {"think", "very", "deep", "about"}, {"think", "very", "deep"}, {"think", "deep", "about", "this"},
	{"really", "concentrate", "now"}, {"really", "concentrate"}, {"concentrate", "hard"}, {"big", "brain", "mode"},
	{"think", "very", "hard", "about"}, {"think", "very", "hard"}, {"thinking", "hat"}, {"deep", "thinking"}, {"give", "it", "some", "deep", "thought"}, {"some", "deep", "thought"}, {"deep", "thought"}, {"deep", "think"},
	{"a", "careful", "answer"}, {"careful", "answer"}, {"reason", "it", "through"}, {"reason", "it", "out"}, {"think", "it", "all", "through"}, {"mull", "it", "over"}, {"mull", "over"},
}

// deepStarts are the shapes of the first words of deepPhrases (hasPrefix then decides).
var deepStarts = func() (out wordShapes) {
	for _, d := range deepPhrases {
		out.add(d[0])
	}
	return out
}()

// deepByFirst holds deepPhrases by their first word, in their order: the only ones that can
// start at a word.
var deepByFirst = func() map[string][][]string {
	out := map[string][][]string{}
	for _, d := range deepPhrases {
		out[d[0]] = append(out[d[0]], d)
	}
	return out
}()

// numberWords are the words numbersToDigits reads (signWords, tens, units), in one set.
var numberWords = func() map[string]bool {
	out := map[string]bool{}
	for _, list := range []map[string]int{units, tens} {
		for w := range list {
			out[w] = true
		}
	}
	for w, ok := range signWords {
		out[w] = out[w] || ok
	}
	return out
}()

// fragmentShapes and fillerShapes are the shapes of numberFragments and fillers, and
// rewriteStartShapes those of rewriteStarts: a word of another shape is on none of them.
var fragmentShapes, fillerShapes, rewriteStartShapes = func() (f, fl, r wordShapes) {
	for w := range numberFragments {
		f.add(w)
	}
	for w := range fillers {
		fl.add(w)
	}
	for w := range rewriteStarts {
		r.add(w)
	}
	return f, fl, r
}()

// numberShapes are the shapes of the words numbersToDigits reads (signWords, tens, units): a
// word of another shape is none of them, and is kept as it is.
var numberShapes = func() (out wordShapes) {
	for _, list := range []map[string]int{units, tens} {
		for w := range list {
			out.add(w)
		}
	}
	for w := range signWords {
		out.add(w)
	}
	return out
}()

var units = map[string]int{"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
	"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
var tens = map[string]int{"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
