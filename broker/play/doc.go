// Package play owns the robot's games — rock, paper, scissors; guess the animal; Simon says;
// freeze dance; hide and seek — as small state machines, one game at a time per robot, with
// their content (clues, animals and their synonyms, moves, lines) in a table the home can
// extend in YAML. The table tests itself when it loads and a broken one is refused with the
// line that is wrong.
//
// While a game runs on a robot, the broker offers each sentence to it first (Claim): only the
// game's own closed answers ("rock", "is it a cat", "I give up") and "stop the game" are taken;
// everything else is routed as always. A game ends when it is won or lost, when it is stopped,
// or by itself after a minute without an answer.
//
// It must never cause anything but the closed robot actions (play, expression, look, stop)
// and the table's own lines; never keep, log, audit or pass on what a child answered (a
// claimed answer lives in memory for one turn — the audit hears which game started and how it
// ended, nothing more); never call a model; and never start a game by itself.
package play
