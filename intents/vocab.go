package intents

import (
	"regexp"
	"sort"
	"strings"
)

// Words that can never name a room or a person: they mean something to the router.
var reservedRoomWords = map[string]bool{
	"here": true, "in here": true, "this room": true, "all": true, "every": true, "everywhere": true,
	"any": true, "the": true, "house": true, "whole house": true,
}

// Words that show a captured "room" or "person" is really part of a question or command.
var functionWords = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "did": true, "do": true, "does": true, "what": true,
	"why": true, "how": true, "who": true, "should": true, "can": true, "could": true, "would": true,
	"will": true, "if": true, "not": true, "never": true, "turn": true, "switch": true, "set": true,
	"and": true, "or": true, "then": true, "there": true, "it": true, "me": true, "we": true, "they": true, "but": true, "ignore": true, "i": true, "you": true,
}

// vocab is the home's closed vocabularies in lookup form.
type vocab struct {
	rooms       map[string]*Room  // normalized name or alias -> room
	roomStarts  map[string]bool   // first words of room names and aliases (and their joined forms)
	roomWords   int               // the most words a room's name, alias or owner's phrase has
	owners      map[string]*Room  // normalized owner word ("kids", "mom", "mum") -> the room it names
	people      map[string]string // normalized name, alias, or possessive -> person name
	expressions map[string]string // normalized phrase -> expression
	exprStarts  map[string]bool   // first words of the expression phrases of more than one word
	frameWords  map[string]bool   // first words of a home's own expressions that wordClasses does not know
	exprAlt     string
	labels      map[string]string // normalized timer label (and its plural) -> label
	wake        wakeMatcher
	deviceRoom  string
	lex         lexicon // the lexicons (lexicon.yaml and home.lexicon) the family frames read
	lexIx       lexIndex
	lexGate     lexGates
	words       map[string]wordInfo // what mentions reads of each word, in one lookup (word_index.go)
	personNames []string            // the names the word index refers to (wordInfo.person)
	// socialStarts are the lexicon sets of socialSets[:4] (socialStart reads them at every
	// sentence): a nil entry for a set the lexicon lacks.
	socialStarts [4]*phraseSet
}

func newVocab(h Home) vocab {
	v := vocab{rooms: map[string]*Room{}, people: map[string]string{}, expressions: map[string]string{}, labels: map[string]string{}}
	for _, l := range h.TimerLabels {
		n := normalizeVocab(l)
		v.labels[n] = n
		v.labels[strings.TrimSuffix(n, "s")] = n // "egg timer" for eggs
		v.labels[n+"s"] = n
	}
	for alias, l := range labelAliases {
		if _, ok := v.labels[l]; ok && v.labels[alias] == "" {
			v.labels[alias] = l // "the washing": the laundry timer
		}
	}
	for i := range h.Rooms {
		r := &h.Rooms[i]
		for _, w := range append([]string{r.Name}, r.Aliases...) {
			v.rooms[normalizeVocab(w)] = r
			v.rooms[strings.ReplaceAll(normalizeVocab(w), " ", "")] = r // "bed room" vs "bedroom"
		}
	}
	v.owners = ownerWords(h)
	for _, phrase := range ownerPhrases(h, v.owners) {
		if _, taken := v.rooms[phrase.words]; !taken { // a room's own name or alias wins
			v.rooms[phrase.words] = phrase.room
		}
	}
	v.roomStarts = map[string]bool{}
	for k := range v.rooms {
		v.roomWords = max(v.roomWords, strings.Count(k, " ")+1)
		first, _, _ := strings.Cut(k, " ")
		v.roomStarts[first] = true
		for i := 1; i < len(first); i++ { // "bed room" joins to "bedroom": its first word is a prefix
			v.roomStarts[first[:i]] = true
		}
	}
	for _, p := range h.People {
		for _, w := range append([]string{p.Name}, p.Aliases...) {
			n := normalizeVocab(w)
			v.people[n] = p.Name
			v.people[n+"s"] = p.Name // "mom's calendar" normalizes to "moms"
		}
	}
	var phrases []string
	for _, name := range sortedKeys(h.Expressions) {
		v.expressions[normalizeVocab(name)] = name
		for _, w := range h.Expressions[name] {
			v.expressions[normalizeVocab(w)] = name
		}
	}
	v.exprStarts = map[string]bool{}
	for p := range v.expressions {
		phrases = append(phrases, regexp.QuoteMeta(p))
		if first, _, ok := strings.Cut(p, " "); ok {
			v.exprStarts[first] = true
		}
	}
	sort.Slice(phrases, func(i, j int) bool { // longest first, then alphabetical: stable output
		if len(phrases[i]) != len(phrases[j]) {
			return len(phrases[i]) > len(phrases[j])
		}
		return phrases[i] < phrases[j]
	})
	v.exprAlt = strings.Join(phrases, "|")
	v.frameWords = frameWordsOf(v)
	v.wake = newWakeMatcher(h.WakePhrases, h.WakeSpellings, h.WakeFuzzy == nil || *h.WakeFuzzy)
	if r, ok := findRoom(h.Rooms, h.DeviceRoom); ok {
		v.deviceRoom = r.Name
	}
	return v
}

func (v vocab) expressionAlternation() string { return v.exprAlt }

// roomRef is what a captured room phrase turned out to be.
type roomRef int

const (
	roomNone roomRef = iota
	roomKnown
	roomHere
	roomAll
	roomUnknown
	roomNotARoom // the capture swallowed words of the sentence: the pattern does not apply
)

func (v vocab) resolveRoom(phrase string) (roomRef, *Room) {
	p := strings.TrimSpace(phrase)
	if p == "" {
		return roomNone, nil
	}
	for w := range strings.FieldsSeq(p) { // no slice built
		if functionWords[w] {
			return roomNotARoom, nil
		}
	}
	for _, lead := range []string{"the ", "my ", "our "} {
		p = strings.TrimPrefix(p, lead)
	}
	switch p {
	case "here", "in here", "this room", "this", "in this room":
		return roomHere, nil
	case "all", "all the", "every", "everywhere", "any", "all of the", "house", "whole house", "the whole house", "all my", "all our":
		return roomAll, nil
	}
	if r, ok := v.rooms[p]; ok {
		return roomKnown, r
	}
	if r, ok := v.rooms[strings.ReplaceAll(p, " ", "")]; ok {
		return roomKnown, r
	}
	return roomUnknown, nil
}

func (v vocab) resolvePerson(phrase string) (string, bool, bool) {
	p := strings.TrimSpace(phrase)
	for w := range strings.FieldsSeq(p) { // no slice built
		if functionWords[w] {
			return "", false, false // not a person: the pattern does not apply
		}
	}
	for _, lead := range []string{"my ", "our ", "the "} {
		p = strings.TrimPrefix(p, lead)
	}
	name, ok := v.people[p]
	return name, ok, true
}

// notLabelWords show a captured timer label is really part of the sentence.
var notLabelWords = map[string]bool{"on": true, "off": true, "in": true, "of": true, "to": true, "for": true, "at": true,
	"left": true, "remaining": true, "with": true, "from": true, "a": true, "an": true, "timer": true, "timers": true}

// labelRef is what a captured timer label turned out to be.
type labelRef int

const (
	labelKnown labelRef = iota
	labelAll
	labelUnknown
	labelNotALabel // the capture swallowed words of the sentence
)

// labelAliases name a timer label the home has in other words.
var labelAliases = map[string]string{"washing": "laundry"}

func (v vocab) resolveLabel(phrase string) (labelRef, string) {
	p := strings.TrimSpace(phrase)
	for _, lead := range []string{"the ", "my ", "our ", "that ", "this "} {
		p = strings.TrimPrefix(p, lead)
	}
	p = strings.TrimSuffix(strings.TrimSuffix(p, " timers"), " timer")
	switch p {
	case "all", "all the", "all my", "all our", "all of the", "all of my", "all of them", "all those", "all these", "every", "both", "both the", "both my", "both those", "them all", "everything":
		return labelAll, "all"
	}
	for w := range strings.FieldsSeq(p) { // no slice built
		if functionWords[w] || notLabelWords[w] {
			return labelNotALabel, ""
		}
	}
	if l, ok := v.labels[p]; ok {
		return labelKnown, l
	}
	// "for Ada's bath", "the kids' bath", "mum's eggs": whose it is, then a label the home
	// knows (the apostrophe is gone by now: "adas bath").
	if owner, last, ok := strings.Cut(p, " "); ok && !strings.Contains(last, " ") && (strings.HasSuffix(owner, "s") || v.people[owner] != "") {
		if l, ok := v.labels[last]; ok {
			return labelKnown, l
		}
	}
	// "to get the laundry out", "to take the eggs off": the label, and what is done with it
	if first, last, ok := strings.Cut(p, " "); ok && labelParticles[last] {
		if l, ok := v.labels[first]; ok {
			return labelKnown, l
		}
	}
	return labelUnknown, ""
}

// labelParticles may follow a label in a task: "get the laundry out", "take the eggs off".
var labelParticles = words2set("out in off on done ready up down")
