package play

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// check is the table's self-test: every animal can be named (its name and each synonym reach
// it, and it alone), no clue or line is empty, every move shows something the robot can do.
// The first problem found is returned with where it is.
func (t *Table) check() error {
	var errs []string
	bad := func(where, format string, args ...any) {
		errs = append(errs, where+": "+fmt.Sprintf(format, args...))
	}
	if t.RPS.Wins < 1 || t.RPS.Wins > 5 {
		bad("rock_paper_scissors", "wins must be 1 to 5")
	}
	for _, p := range []string{"rock", "paper", "scissors"} {
		if g := t.RPS.Gestures[p]; !slices.Contains(Expressions, g) {
			bad("rock_paper_scissors", "gesture for %s must be one of %s", p, strings.Join(Expressions, ", "))
		}
	}
	for k := range t.RPS.Gestures {
		if _, ok := rpsWords[k]; !ok || k == "stone" || k == "scissor" {
			bad("rock_paper_scissors", "gestures: %q is not rock, paper or scissors", k)
		}
	}
	if len(t.Animals) == 0 {
		bad("animals", "at least one animal is needed")
	}
	for i, a := range t.Animals {
		if words(a.Name) == "" {
			bad(a.where, "an animal needs a name")
			continue
		}
		if len(a.Clues) == 0 {
			bad(a.where, "animal %q has no clues", a.Name)
		}
		for j, c := range a.Clues {
			if words(c) == "" {
				bad(a.where, "animal %q: clue %d is empty", a.Name, j+1)
			}
		}
		for _, w := range append([]string{a.Name}, a.Synonyms...) {
			n := words(w)
			if n == "" {
				bad(a.where, "animal %q: an empty synonym", a.Name)
				continue
			}
			for _, said := range []string{n, "is it a " + n} {
				m, ok := t.parseAnimal(said)
				switch {
				case ok && m.kind != moveGuess:
					bad(a.where, "animal %q: %q is one of the game's own phrases, so it cannot name the animal", a.Name, w)
				case !ok || m.value != i:
					other := "nothing"
					if ok && m.value >= 0 {
						other = fmt.Sprintf("%q", t.Animals[m.value].Name)
					}
					bad(a.where, "animal %q: %q cannot reach it (it names %s)", a.Name, w, other)
				}
			}
			if stopRE.MatchString(n) {
				bad(a.where, "animal %q: %q is the phrase that stops the game", a.Name, w)
			}
		}
	}
	s := t.Simon
	if len(s.Moves) < 2 {
		bad("simon_says", "at least two moves are needed")
	}
	if s.Rounds < 1 || s.Rounds > 20 {
		bad("simon_says", "rounds must be 1 to 20")
	}
	if s.WithoutSimon < 0 || s.WithoutSimon >= s.Rounds {
		bad("simon_says", "without_simon must be 0 to rounds-1")
	}
	for _, m := range s.Moves {
		switch {
		case words(m.Say) == "":
			bad(m.where, "a move needs something to say")
		case (m.Look == nil) == (m.Expression == ""):
			bad(m.where, "move %q must show either a look or an expression", m.Say)
		case m.Expression != "" && !slices.Contains(Expressions, m.Expression):
			bad(m.where, "move %q: expression %q is not one of %s", m.Say, m.Expression, strings.Join(Expressions, ", "))
		case m.Look != nil && (abs(m.Look.YawDeg) > maxYawDeg || abs(m.Look.PitchDeg) > maxPitchDeg):
			bad(m.where, "move %q: the head turns at most %d° left or right and %d° up or down", m.Say, maxYawDeg, maxPitchDeg)
		}
	}
	f := t.Freeze
	if f.Rounds < 1 || f.Rounds > 10 {
		bad("freeze_dance", "rounds must be 1 to 10")
	}
	if f.MinSeconds < 1 || f.MaxSeconds < f.MinSeconds || f.MaxSeconds > 30 {
		bad("freeze_dance", "need 1 <= min_seconds <= max_seconds <= 30")
	}
	if t.Hide.CountTo < 5 || t.Hide.CountTo > 50 {
		bad("hide_and_seek", "count_to must be 5 to 50")
	}
	if len(errs) > 0 {
		return errors.New("game table: " + strings.Join(errs, "; "))
	}
	return nil
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
