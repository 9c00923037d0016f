package intents

import (
	"slices"
	"sort"
	"strings"
)

// Rooms named by whose they are (Room.Whose): "mum's room", "mom and dad's bedroom", "the
// twins' room", and "their light" of the owners a sentence names.

// ownerWords maps each word that names a room's owners (Room.Whose, a person's name standing
// for all their aliases) to that room. A word two rooms claim names neither.
func ownerWords(h Home) map[string]*Room {
	aliases := map[string][]string{}
	for _, p := range h.People {
		for _, w := range append([]string{p.Name}, p.Aliases...) {
			aliases[normalizeVocab(p.Name)] = append(aliases[normalizeVocab(p.Name)], normalizeVocab(w))
		}
	}
	out, shared := map[string]*Room{}, map[string]bool{}
	for i := range h.Rooms {
		r := &h.Rooms[i]
		for _, o := range r.Whose {
			forms := aliases[normalizeVocab(o)]
			if forms == nil {
				forms = []string{normalizeVocab(o)}
			}
			for _, f := range forms {
				if prev, ok := out[f]; ok && prev != r {
					shared[f] = true
				}
				out[f] = r
			}
		}
	}
	for f := range shared {
		delete(out, f)
	}
	return out
}

// ownerPhrase is a way of naming a room by whose it is.
type ownerPhrase struct {
	words string
	room  *Room
}

// ownerPhrases are the ways a room is named by whose it is, as normalizing leaves them (the
// apostrophe gone): "mums room", "mum room", "mom and dads bedroom", "the kids bedroom" is
// "kids bedroom".
func ownerPhrases(h Home, owners map[string]*Room) []ownerPhrase {
	var out []ownerPhrase
	nouns := []string{"room", "bedroom"}
	for o, r := range owners {
		for _, n := range nouns {
			out = append(out, ownerPhrase{o + "s " + n, r}, ownerPhrase{o + " " + n, r},
				// a learner's "room of children", "the bedroom of the parents"
				ownerPhrase{n + " of " + o, r}, ownerPhrase{n + " of the " + o, r}, ownerPhrase{n + " of my " + o, r})
			if strings.HasSuffix(o, "s") {
				out = append(out, ownerPhrase{o + "es " + n, r}) // as a recogniser may write "bosses"
			}
			for o2, r2 := range owners {
				if r2 == r && o2 != o && !sameOwner(h, o, o2) {
					out = append(out, ownerPhrase{o + " and " + o2 + "s " + n, r}, ownerPhrase{o + " and " + o2 + " " + n, r})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].words < out[j].words }) // the same table every load
	return out
}

// sameOwner: a and b name the same person of the home ("mom", "mum").
func sameOwner(h Home, a, b string) bool {
	for _, p := range h.People {
		names := append([]string{p.Name}, p.Aliases...)
		if slices.ContainsFunc(names, func(w string) bool { return normalizeVocab(w) == a }) &&
			slices.ContainsFunc(names, func(w string) bool { return normalizeVocab(w) == b }) {
			return true
		}
	}
	return false
}

// ownersRoom is the room "their", "his" or "her" points to when it stands before a device
// or a room ("switch their light off", "in her room") and the sentence names the owners of
// exactly one room ("the kids are asleep", Room.Whose); "" otherwise.
func (t *Table) ownersRoom(toks []string, classes []wordClass) string {
	if len(t.vocab.owners) == 0 {
		return ""
	}
	pronoun := ""
	for i, w := range toks {
		if (w == "their" || w == "his" || w == "her") && i+1 < len(toks) &&
			(classes[i+1]&wcDevice != 0 || toks[i+1] == "room" || toks[i+1] == "bedroom" ||
				i+2 < len(toks) && fixtureWords[toks[i+1]] && classes[i+2]&wcDevice != 0) {
			if pronoun != "" && pronoun != w {
				return "" // "her light and his": two owners
			}
			pronoun = w
		}
	}
	if pronoun == "" {
		return ""
	}
	var room *Room
	for i, w := range toks {
		r, ok := t.vocab.owners[w]
		if !ok || !ownerSpokenOf(toks, i) || !agrees(pronoun, w) {
			continue
		}
		if room != nil && room != r {
			return "" // two rooms' owners: which one is not said
		}
		room = r
	}
	if room == nil {
		return ""
	}
	return room.Name
}

// ownerSpokenOf: toks[i], an owner word, names the owners themselves ("the kids are asleep",
// "mum is in bed"), not someone else's ("the neighbours' kids", "the other kids") nor a
// thing of theirs ("the kids' teacher is asleep").
func ownerSpokenOf(toks []string, i int) bool {
	if i > 0 {
		switch prev := toks[i-1]; prev {
		case "other", "those", "these", "neighbours", "neighbors", "friends", "friend", "next", "some", "a", "an":
			return false
		default:
			if strings.HasSuffix(prev, "s") && prev != "the" && prev != "his" && prev != "as" && prev != "is" && prev != "its" {
				return false // "my friends kids", "the neighbours kids"
			}
		}
	}
	if i+1 == len(toks) {
		return true
	}
	switch next := toks[i+1]; next {
	case "asleep", "sleeping", "in", "and", "just", "still", "finally", "already", "now", "gone", "napping", "resting",
		"turn", "switch", "put":
		return true
	default:
		return finiteWords[next] || pastWords[next] || strings.HasSuffix(next, "ed") // "the girls left", "mum has gone"
	}
}

// femaleKin and maleKin say which of "her" and "his" a kin word may be; other owners (kids,
// parents, the twins) are "their".
var (
	femaleKin = words2set("mom mum mommy mummy mother mama ma mam")
	maleKin   = words2set("dad daddy father papa pa da")
)

// agrees: the pronoun may stand for the owner word ("her" for mum, "their" for the kids).
func agrees(pronoun, owner string) bool {
	switch {
	case femaleKin[owner]:
		return pronoun == "her"
	case maleKin[owner]:
		return pronoun == "his"
	case pronoun == "their":
		return true
	}
	return !strings.HasSuffix(owner, "s") && owner != "children" // "his"/"her" is one person, never "the kids"
}

// someoneElses: the person word at toks[i] is someone else's ("sophies mum", "my friends
// dad", "jacks dad"): a possessive the home does not know before it — never this home's
// person ("the kids mum", "the twins dad" are the home's: their owner words are the home's).
func (t *Table) someoneElses(toks []string, i int) bool {
	if i == 0 {
		return false
	}
	prev := toks[i-1]
	if prev == "the" && i+2 < len(toks) && toks[i+1] == "of" && !homeGroups[toks[i+2]] && !(toks[i+2] == "the" && i+3 < len(toks) && homeGroups[toks[i+3]]) &&
		toks[i+2] != "house" && toks[i+2] != "home" && toks[i+2] != "family" {
		return true // "the wife of obama", "the mother of the bride": someone else's, said the other way round
	}
	if len(prev) < 4 || prev[len(prev)-1] != 's' || functionWords[prev] || t.vocab.owners[prev] != nil ||
		t.vocab.owners[prev[:len(prev)-1]] != nil || t.vocab.people[prev] != "" || t.vocab.people[prev[:len(prev)-1]] != "" ||
		homeGroups[prev] || wordClasses[prev] != 0 || notPossessive[prev] || t.sound.known[prev] && !possessiveNouns[prev] {
		return false
	}
	return true
}

// notPossessive are words ending in s that own nothing: "whens dad free", "mom says dad ...".
var notPossessive = words2set("whens whats wheres hows whos thats lets heres theres says wants needs thinks knows likes " +
	"tells asks calls sends gets makes thanks yes plus always sometimes perhaps tonights todays")

// possessiveNouns are words the table knows that still own a person: "my friends dad".
var possessiveNouns = words2set("friends neighbours neighbors teachers cousins boss bosses")

// homeGroups name the home's own children together: "the kids mum" is this home's mum.
var homeGroups = words2set("kids childrens children twins boys girls babys littluns little ones ours")
