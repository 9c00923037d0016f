package play

import (
	"regexp"
	"strings"
)

// What a heard sentence is, inside a game. Only these are ever taken from the room; the words
// themselves are dropped once the kind (and the table entry it names) is known.
type moveKind int

const (
	moveNone   moveKind = iota
	moveStop            // "stop the game"
	moveRPS             // rock (0), paper (1) or scissors (2)
	moveGuess           // an animal of the table (value), or -1: a guess the table does not know
	moveClue            // "another clue"
	moveGiveUp          // "I give up"
)

type move struct {
	kind  moveKind
	value int
}

var (
	stopRE = regexp.MustCompile(`^(?:(?:stop|end|finish|quit|cancel|leave) (?:the |this |our |that )?game(?: now)?|game over|stop playing(?: now)?|no more games?|(?:i|we) (?:do not want to|want to stop|am done|are done) play(?:ing)?(?: anymore| any more| now)?)$`)
	rpsRE  = regexp.MustCompile(`^(?:i (?:pick|choose|chose|picked|say|go with|will go with|will pick|will choose|want|pick a|choose a) |my (?:pick|choice) is |i am |it is |its )?(?:a |the )?(rock|stone|paper|scissors|scissor)(?: again| then| for me| this time)?$`)
	// rpsWords index a pick: 0 rock, 1 paper, 2 scissors.
	rpsWords = map[string]int{"rock": 0, "stone": 0, "paper": 1, "scissors": 2, "scissor": 2}

	giveUpRE = regexp.MustCompile(`^(?:(?:i|we|ok i|okay i|okay we|ok we) give up(?: tell me| tell us)?|give up|i do not know|we do not know|i have no idea|tell me(?: the answer| what it is)?|tell us(?: the answer| what it is)?|what is it|what was it)$`)
	clueRE   = regexp.MustCompile(`^(?:(?:give me|give us|can i have|can we have|i want|we want|i need|we need|tell me|say) )?(?:another|one more|a|the next|next|more|a different|a new) (?:clue|hint)s?$|^(?:clue|hint|more clues|more hints)$`)
	// A guess: an optional lead-in, an optional article, then the animal.
	guessLeadRE = regexp.MustCompile(`^(?:is it|it is|its|is that|that is|i think it is|i think its|i think|maybe it is|maybe its|maybe|could it be|it must be|it could be|are you|you are|my guess is|i guess|i guess it is|i know it is|i know)(?: (?:a|an|the|some))? `)
	articleRE   = regexp.MustCompile(`^(?:a|an|the|some) `)
)

// parseRPS reads a pick.
func parseRPS(text string) (move, bool) {
	m := rpsRE.FindStringSubmatch(text)
	if m == nil {
		return move{}, false
	}
	return move{kind: moveRPS, value: rpsWords[m[1]]}, true
}

// parseAnimal reads a guess, "another clue" or "I give up" against the table's animals.
func (t *Table) parseAnimal(text string) (move, bool) {
	switch {
	case giveUpRE.MatchString(text):
		return move{kind: moveGiveUp}, true
	case clueRE.MatchString(text):
		return move{kind: moveClue}, true
	}
	rest, lead := text, false
	if m := guessLeadRE.FindString(text); m != "" {
		rest, lead = text[len(m):], true
	} else if m := articleRE.FindString(text); m != "" {
		rest = text[len(m):]
	}
	if i, ok := t.animalNamed(rest); ok {
		return move{kind: moveGuess, value: i}, true
	}
	// "is it a zebra": a guess, though not of an animal the table knows. Only with a lead-in,
	// and short: anything else is routed as always.
	if lead && rest != "" && len(strings.Fields(rest)) <= 3 {
		return move{kind: moveGuess, value: -1}, true
	}
	return move{}, false
}

// animalNamed finds the animal whose name or synonym (or its plural) is words.
func (t *Table) animalNamed(w string) (int, bool) {
	if w == "" {
		return 0, false
	}
	for _, cand := range []string{w, strings.TrimSuffix(w, "s"), strings.TrimSuffix(w, "es")} {
		for i, a := range t.Animals {
			if words(a.Name) == cand {
				return i, true
			}
			for _, s := range a.Synonyms {
				if words(s) == cand {
					return i, true
				}
			}
		}
	}
	return 0, false
}
