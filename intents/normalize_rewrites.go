package intents

// Phrase rewrites: a few words as a transcript or a family says them, read as the words the
// router knows ("the a see" is "the ac", "put out the light" is "turn off the light", "I
// don't suppose you" is "I wonder if you"). rewritePhrases (normalize_passes.go) applies them
// in place, so a rewrite is never longer than what it replaces
// (TestPhraseRewritesNeverLengthen).

// Multi-word rewrites, longest first within each leading word.
var phraseRewrites = []struct {
	from []string
	to   []string
}{
	// whisper's homophones of a few words the router reads
	{[]string{"the", "a", "see"}, []string{"the", "ac"}}, {[]string{"the", "eh", "see"}, []string{"the", "ac"}},
	{[]string{"the", "ay", "see"}, []string{"the", "ac"}}, {[]string{"tie", "mer"}, []string{"timer"}},
	{[]string{"turn", "a", "see"}, []string{"turn", "ac"}}, {[]string{"switch", "a", "see"}, []string{"switch", "ac"}},
	// "no talking for a whole day": a day
	{[]string{"a", "whole", "day"}, []string{"a", "day"}}, {[]string{"a", "whole", "hour"}, []string{"an", "hour"}},
	{[]string{"a", "whole", "night"}, []string{"a", "night"}}, {[]string{"a", "whole", "week"}, []string{"a", "week"}},
	{[]string{"a", "whole", "afternoon"}, []string{"an", "afternoon"}}, {[]string{"a", "whole", "evening"}, []string{"an", "evening"}},
	{[]string{"time", "or", "for"}, []string{"timer", "for"}}, {[]string{"time", "er"}, []string{"timer"}},
	{[]string{"be", "quite"}, []string{"be", "quiet"}}, {[]string{"keep", "quite"}, []string{"keep", "quiet"}},
	{[]string{"stay", "quite"}, []string{"stay", "quiet"}},
	{[]string{"air", "conditioning"}, []string{"ac"}},
	{[]string{"air", "conditioner"}, []string{"ac"}},
	{[]string{"air", "conditioners"}, []string{"ac"}},
	{[]string{"air", "con"}, []string{"ac"}},
	{[]string{"ar", "ac"}, []string{"ac"}}, {[]string{"aire", "ac"}, []string{"ac"}}, // Portuguese and Spanish: "ar condicionado"
	{[]string{"air", "condition"}, []string{"ac"}},              // "open the air condition in bedroom"
	{[]string{"the", "air", "on"}, []string{"the", "ac", "on"}}, // "put the air on in the bedroom"
	{[]string{"the", "air", "off"}, []string{"the", "ac", "off"}},
	{[]string{"the", "air", "of"}, []string{"the", "ac", "of"}}, // a learner's "the air of living room at 18"
	{[]string{"the", "air", "in"}, []string{"the", "ac", "in"}},
	{[]string{"the", "air", "to"}, []string{"the", "ac", "to"}},
	{[]string{"the", "air", "at"}, []string{"the", "ac", "at"}},
	{[]string{"air", "conditions"}, []string{"ac"}},
	{[]string{"air", "conditioned"}, []string{"ac"}},
	{[]string{"air", "cons"}, []string{"ac"}},
	{[]string{"you", "time", "it"}, []string{"you", "start", "timer"}}, // "can you time it": a timer
	{[]string{"you", "time", "that"}, []string{"you", "start", "timer"}},
	{[]string{"time", "it", "for", "me"}, []string{"start", "a", "timer"}},
	{[]string{"time", "that", "for", "me"}, []string{"start", "a", "timer"}},
	{[]string{"can", "ye", "no"}, []string{"can", "you"}}, // Scots "can ye no be quiet": a request
	{[]string{"can", "you", "no", "be"}, []string{"can", "you", "be"}}, {[]string{"will", "you", "no", "be"}, []string{"will", "you", "be"}},
	{[]string{"can", "you", "no", "stop"}, []string{"can", "you", "stop"}}, {[]string{"will", "you", "no", "stop"}, []string{"will", "you", "stop"}},
	{[]string{"un", "muted"}, []string{"unmuted"}}, // "un-muted" as a transcript splits it
	{[]string{"un", "mute"}, []string{"unmute"}},
	{[]string{"thank", "u"}, []string{"thank", "you"}},                           // typed thanks
	{[]string{"o", "clock"}, []string{"oclock"}},                                 // "how many o clock": a learner's question of the time
	{[]string{"is", "sleep"}, []string{"is", "asleep"}},                          // a learner's "the baby is sleep"
	{[]string{"get", "the", "air", "going"}, []string{"get", "the", "ac", "on"}}, // "get the air going"
	{[]string{"get", "the", "ac", "going"}, []string{"get", "the", "ac", "on"}},
	{[]string{"triple", "zero"}, []string{"000"}}, // emergency numbers as people say them
	{[]string{"triple", "0"}, []string{"000"}},
	{[]string{"triple", "nine"}, []string{"999"}},
	{[]string{"triple", "9"}, []string{"999"}},
	{[]string{"nine", "one", "one"}, []string{"911"}},
	{[]string{"9", "1", "1"}, []string{"911"}},
	{[]string{"are", "sleep"}, []string{"are", "asleep"}},
	{[]string{"air", "thing"}, []string{"ac"}}, // a child's "the air thing", "the air fing"
	{[]string{"air", "fing"}, []string{"ac"}},
	{[]string{"leaving", "room"}, []string{"living", "room"}}, // whisper's and a learner's homophone
	{[]string{"a", "our"}, []string{"an", "hour"}},            // "for a our": the homophone
	{[]string{"an", "our"}, []string{"an", "hour"}},
	{[]string{"tin", "minutes"}, []string{"10", "minutes"}}, // an accent's "ten" as whisper writes it
	{[]string{"a", "c"}, []string{"ac"}},
	{[]string{"never", "mind"}, []string{"nevermind"}},
	{[]string{"each", "and", "every"}, []string{"every"}},
	{[]string{"turn", "of"}, []string{"turn", "off"}}, // whisper writes "off" as "of"
	{[]string{"switch", "of"}, []string{"switch", "off"}},
	{[]string{"go", "ahead", "and"}, nil},
	{[]string{"i", "do", "not", "suppose", "you"}, []string{"i", "wonder", "if", "you"}}, // a grandparent's polite request
	{[]string{"i", "dont", "suppose", "you"}, []string{"i", "wonder", "if", "you"}},
	{[]string{"lights", "of", "in"}, []string{"lights", "off", "in"}}, // whisper's "of" before a room
	{[]string{"light", "of", "in"}, []string{"light", "off", "in"}},
	{[]string{"lights", "of", "i"}, []string{"lights", "off", "i"}}, // "... lights of i mean off"
	{[]string{"light", "of", "i"}, []string{"light", "off", "i"}},
	{[]string{"do", "not", "let", "the", "bed", "bugs", "bite"}, []string{"sleep", "tight"}}, // a good night's rhyme
	{[]string{"do", "not", "let", "the", "bedbugs", "bite"}, []string{"sleep", "tight"}},
	{[]string{"i", "will", "say", "goodnight"}, []string{"goodnight"}},
	{[]string{"i", "will", "say", "good", "night"}, []string{"good", "night"}},
	{[]string{"what", "sort", "of", "games"}, []string{"what", "games"}},
	{[]string{"what", "kind", "of", "games"}, []string{"what", "games"}},
	{[]string{"what", "sorts", "of", "games"}, []string{"what", "games"}},
	{[]string{"what", "kinds", "of", "games"}, []string{"what", "games"}},
	{[]string{"aminal"}, []string{"animal"}}, // a child's "animal"
	{[]string{"aminals"}, []string{"animals"}},
	{[]string{"amimal"}, []string{"animal"}},
	{[]string{"put", "out", "the", "light"}, []string{"turn", "off", "the", "light"}}, // a grandparent's "put out the light"
	// "could you like turn the AC down": a filler between a request's "you" and its verb
	{[]string{"could", "you", "like", "turn"}, []string{"could", "you", "turn"}}, {[]string{"can", "you", "like", "turn"}, []string{"can", "you", "turn"}},
	{[]string{"could", "you", "like", "switch"}, []string{"could", "you", "switch"}}, {[]string{"can", "you", "like", "switch"}, []string{"can", "you", "switch"}},
	{[]string{"could", "you", "like", "put"}, []string{"could", "you", "put"}}, {[]string{"can", "you", "like", "put"}, []string{"can", "you", "put"}},
	// Yorkshire's "t'" before what it names: "what's t' time", "put t' air conditioner on"
	{[]string{"t", "time"}, []string{"the", "time"}}, {[]string{"t", "ac"}, []string{"the", "ac"}}, {[]string{"t", "air"}, []string{"the", "air"}},
	{[]string{"t", "oven"}, []string{"the", "oven"}}, {[]string{"t", "light"}, []string{"the", "light"}}, {[]string{"t", "lights"}, []string{"the", "lights"}},
	{[]string{"t", "big"}, []string{"the", "big"}}, {[]string{"t", "kitchen"}, []string{"the", "kitchen"}},
	// a learner's hang-up: "end the video with sir"
	{[]string{"end", "the", "video", "with"}, []string{"end", "the", "call", "with"}},
	{[]string{"close", "the", "video", "call"}, []string{"end", "the", "video", "call"}},
	// quiet as learners say it: "speak low", "keep down the voice"
	{[]string{"speak", "low"}, []string{"be", "quiet"}}, {[]string{"talk", "low"}, []string{"be", "quiet"}},
	{[]string{"keep", "down", "the", "voice"}, []string{"keep", "your", "voice", "down"}},
	{[]string{"not", "want", "to", "play", "more"}, []string{"not", "want", "to", "play", "anymore"}}, // "I don't want to play more"
	{[]string{"put", "out", "the", "lights"}, []string{"turn", "off", "the", "lights"}},
	{[]string{"put", "out", "all", "the", "lights"}, []string{"turn", "off", "all", "the", "lights"}},
	{[]string{"put", "out", "all", "lights"}, []string{"turn", "off", "all", "lights"}},
	{[]string{"kids", "groom"}, []string{"kids", "room"}}, // whisper's "room" after a room's first word
	{[]string{"living", "groom"}, []string{"living", "room"}},
	{[]string{"bed", "groom"}, []string{"bedroom"}},
	{[]string{"the", "lie", "on"}, []string{"the", "light", "on"}}, // whisper's "light"
	{[]string{"the", "lie", "off"}, []string{"the", "light", "off"}},
	{[]string{"simple", "says"}, []string{"simon", "says"}}, // a child's "Simon says"
	{[]string{"hiden", "seek"}, []string{"hide", "seek"}},
	{[]string{"rock", "scissor", "paper"}, []string{"rock", "paper", "scissors"}},
	{[]string{"rock", "scissors", "paper"}, []string{"rock", "paper", "scissors"}},
	{[]string{"remind", "me", "what"}, []string{"what"}}, // "remind me what day it is": the question
	{[]string{"remind", "us", "what"}, []string{"what"}},
	{[]string{"remind", "an", "old", "man", "what"}, []string{"what"}},
	{[]string{"remind", "an", "old", "woman", "what"}, []string{"what"}},
	{[]string{"minutes", "still", "for"}, []string{"minutes", "left", "for"}}, // a learner's "how many minutes still for the laundry"
	{[]string{"minute", "still", "for"}, []string{"minutes", "left", "for"}},
	{[]string{"the", "cold", "air", "thing"}, []string{"the", "ac"}}, // a grandparent's names for the AC
	{[]string{"the", "cold", "air", "machine"}, []string{"the", "ac"}},
	{[]string{"off", "the", "cold", "air", "machine"}, []string{"off", "the", "ac"}},
	{[]string{"on", "the", "cold", "air", "machine"}, []string{"on", "the", "ac"}},
	{[]string{"off", "the", "cold", "air"}, []string{"off", "the", "ac"}},
	{[]string{"on", "the", "cold", "air"}, []string{"on", "the", "ac"}},
	{[]string{"the", "air", "machine"}, []string{"the", "ac"}},
	{[]string{"that", "air", "machine"}, []string{"the", "ac"}},
	{[]string{"the", "cooling", "apparatus"}, []string{"the", "ac"}},
	{[]string{"ac", "apparatus"}, []string{"ac"}}, // "the cooling apparatus" ("cooling" is read as "ac" first)
	{[]string{"ac", "machine"}, []string{"ac"}},
	{[]string{"the", "air", "thing"}, []string{"the", "ac"}},
	{[]string{"make", "alarm", "in"}, []string{"set", "alarm", "in"}}, // a learner's "please make alarm in 2 hours"
	{[]string{"make", "an", "alarm", "in"}, []string{"set", "an", "alarm", "in"}},
	{[]string{"time", "her", "for"}, []string{"timer", "for"}}, // whisper's "timer"
	{[]string{"simons", "says"}, []string{"simon", "says"}},
	{[]string{"free", "stance"}, []string{"freeze", "dance"}}, // whisper's "freeze dance"
	{[]string{"before", "i", "forget"}, nil},                  // an aside before a request weighs nothing
	{[]string{"while", "i", "remember"}, nil},
	{[]string{"by", "the", "way"}, nil},
	{[]string{"while", "you", "are", "at", "it"}, nil},
	{[]string{"degrees", "celsius"}, []string{"degrees"}},
	{[]string{"degrees", "c"}, []string{"degrees"}},
	{[]string{"degree", "celsius"}, []string{"degrees"}},
	{[]string{"do", "not", "disturb"}, []string{"do-not-disturb"}},
	{[]string{"quite", "mode"}, []string{"quiet", "mode"}}, // whisper's "quite" for "quiet"
	{[]string{"quite", "time"}, []string{"quiet", "time"}},
	{[]string{"hang", "op"}, []string{"hang", "up"}},
	{[]string{"cut", "it", "out"}, []string{"stop", "it"}}, // the idiom is a stop
	{[]string{"to", "day"}, []string{"today"}},
	{[]string{"put", "the", "receiver", "down"}, []string{"hang", "up"}}, // the handset put back
	{[]string{"put", "the", "phone", "down"}, []string{"hang", "up"}},
	{[]string{"put", "down", "the", "phone"}, []string{"hang", "up"}},
	{[]string{"put", "down", "the", "receiver"}, []string{"hang", "up"}},
	{[]string{"keep", "mum"}, []string{"keep", "quiet"}}, // the idiom: say nothing
	{[]string{"keeping", "mum"}, []string{"keeping", "quiet"}},
	{[]string{"stay", "mum"}, []string{"stay", "quiet"}},
}

// rewriteStarts are the first words of phraseRewrites: most words start none.
var rewriteStarts = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range phraseRewrites {
		m[r.from[0]] = true
	}
	return m
}()
