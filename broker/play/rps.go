package play

import (
	"fmt"

	"github.com/reachy-broker/reachy-broker/intents"
)

var rpsNames = [3]string{"rock", "paper", "scissors"}

// beats[a] is what a beats: rock blunts scissors, paper covers rock, scissors cut paper.
var beats = [3]int{2, 0, 1}

var rpsHow = map[[2]int]string{{0, 2}: "Rock blunts scissors", {1, 0}: "Paper covers rock", {2, 1}: "Scissors cut paper"}

const shoot = "Rock, paper, scissors... shoot!"

// rpsStart opens a game: the robot picks its first hand at "shoot", before it hears yours.
func (g *Games) rpsStart(s *session) intents.Answer {
	s.pick = g.rng.IntN(3)
	return intents.Answer{Reply: fmt.Sprintf("Let's play! First to %d wins. %s", g.o.Table.RPS.Wins, shoot),
		Expression: intents.ExpressionHappy}
}

// rpsAnswer plays one round: the robot shows the hand it picked with a gesture, says who won
// and the score, and either shoots again or ends the game.
func (g *Games) rpsAnswer(s *session, m move) (intents.Answer, string) {
	robot, child := s.pick, m.value
	gesture := g.o.Table.RPS.Gestures[rpsNames[robot]]
	var round string
	switch {
	case robot == child:
		round = fmt.Sprintf("I picked %s too! It's a tie.", rpsNames[robot])
	case beats[child] == robot:
		s.childWins++
		round = fmt.Sprintf("I picked %s. %s: you win this one!", rpsNames[robot], rpsHow[[2]int{child, robot}])
	default:
		s.robotWins++
		round = fmt.Sprintf("I picked %s. %s: I win this one!", rpsNames[robot], rpsHow[[2]int{robot, child}])
	}
	wins := g.o.Table.RPS.Wins
	switch {
	case s.childWins >= wins:
		return intents.Answer{Reply: fmt.Sprintf("%s You win the game, %d to %d! Well played!", round, s.childWins, s.robotWins),
			Expression: "celebrate"}, EndFinished
	case s.robotWins >= wins:
		return intents.Answer{Reply: fmt.Sprintf("%s I win the game, %d to %d! Good game!", round, s.robotWins, s.childWins),
			Expression: gesture}, EndFinished
	}
	s.pick = g.rng.IntN(3)
	return intents.Answer{Reply: fmt.Sprintf("%s %s. %s", round, score(s), shoot), Expression: gesture, FollowUp: true}, ""
}

func score(s *session) string {
	switch {
	case s.childWins == s.robotWins:
		return fmt.Sprintf("It's %d all", s.childWins)
	case s.childWins > s.robotWins:
		return fmt.Sprintf("You lead %d to %d", s.childWins, s.robotWins)
	}
	return fmt.Sprintf("I lead %d to %d", s.robotWins, s.childWins)
}
