package play

import (
	"fmt"
	"strings"

	"github.com/reachy-broker/reachy-broker/intents"
)

// animalStart chooses an animal (not the one this robot had last) and gives the first clue.
func (g *Games) animalStart(device string, s *session) intents.Answer {
	n := len(g.o.Table.Animals)
	s.animal = g.rng.IntN(n)
	if last, ok := g.last[device]; ok && n > 1 && s.animal == last {
		s.animal = (s.animal + 1 + g.rng.IntN(n-1)) % n
	}
	g.last[device] = s.animal
	s.clues = 1
	a := g.o.Table.Animals[s.animal]
	return intents.Answer{Reply: "I'm thinking of an animal. Here's a clue: " + a.Clues[0] + " What animal am I?",
		Expression: intents.ExpressionCurious}
}

// animalAnswer answers a guess, a request for a clue or "I give up".
func (g *Games) animalAnswer(device string, s *session, m move) (intents.Answer, string) {
	a := g.o.Table.Animals[s.animal]
	name := article(a.Name)
	switch m.kind {
	case moveGiveUp:
		return intents.Answer{Reply: fmt.Sprintf("I was %s! Good try. Let's play again soon.", name), Expression: intents.ExpressionHappy}, EndGaveUp
	case moveGuess:
		if m.value == s.animal {
			return intents.Answer{Reply: fmt.Sprintf("Yes! I'm %s! You got it with %s.", name, clueCount(s.clues)),
				Expression: "celebrate"}, EndFinished
		}
		no := "No, that's not me."
		if m.value >= 0 {
			// A word of the table, never one it does not know: nothing unrecognised is echoed.
			no = fmt.Sprintf("No, I'm not %s.", article(g.o.Table.Animals[m.value].Name))
		}
		return g.nextClue(s, no), ""
	case moveClue:
		return g.nextClue(s, ""), ""
	}
	return intents.Answer{Reply: "What animal am I?", Expression: intents.ExpressionCurious, FollowUp: true}, ""
}

// nextClue gives the next clue, or asks for a guess once the clues are used up.
func (g *Games) nextClue(s *session, lead string) intents.Answer {
	a := g.o.Table.Animals[s.animal]
	var say string
	if s.clues < len(a.Clues) {
		say = "Here's another clue: " + a.Clues[s.clues]
		s.clues++
	} else {
		say = "That was my last clue. Guess again, or say I give up."
	}
	return intents.Answer{Reply: strings.TrimSpace(lead + " " + say), Expression: intents.ExpressionCurious, FollowUp: true}
}

func clueCount(n int) string {
	if n == 1 {
		return "just one clue"
	}
	return fmt.Sprintf("%d clues", n)
}

// article puts "a" or "an" before an animal's name.
func article(name string) string {
	if name == "" {
		return name
	}
	switch name[0] {
	case 'a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U':
		return "an " + name
	}
	return "a " + name
}
