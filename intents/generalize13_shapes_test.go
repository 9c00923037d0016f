package intents

import (
	"strings"
	"testing"
)

// Round 8: families of shapes routed whole — every request in every wrapping, every acting
// request in every speech-act shape, every game in everyday shapes — so a class is held, not
// the sentences written for it.

// TestNegatedRequestsWithAReasonNeverAct: every acting request said with "don't", "never",
// "no need to" and a reason after it — said with or without a pause — does nothing (the
// "don't set a timer for ten minutes, I'm making tea" that started a timer).
func TestNegatedRequestsWithAReasonNeverAct(t *testing.T) {
	tb := demo(t)
	cmds := []string{"set a timer for 10 minutes", "turn off the kitchen light", "put the bedroom ac on", "call dad",
		"turn privacy off", "start simon says", "hang up", "cancel the pasta timer", "mute yourself for an hour"}
	leads := []string{"don't ", "dont ", "please don't ", "never ", "no need to ", "you don't need to "}
	reasons := []string{"", " i am making tea", ", i'm still here", " because we are eating out", " the baby is asleep",
		" so they can sleep", " my head hurts", " we dont need it"}
	for _, c := range cmds {
		for _, l := range leads {
			for _, r := range reasons {
				s := l + c + r
				if d := tb.Route(s, Context{}); tb.wouldAct(d) && d.Intent != "robot.stop" && !(d.Intent == IntentClarify && d.Pending == nil) {
					t.Errorf("%q acts: %s %v", s, d.Intent, d.Args)
				}
			}
		}
	}
}

// TestWrappersLeaveTheRequestAsItIs: what people say before and after a request — the name,
// "hey robot", "excuse me", "alright then", "oi", fillers, "please", "mate", "if you can" —
// never changes what it asks: every request of every family, in every wrapping, routes as
// it does bare.
func TestWrappersLeaveTheRequestAsItIs(t *testing.T) {
	tb := demo(t)
	requests := []string{"set a timer for 10 minutes", "turn off the kitchen light", "put the bedroom ac on", "call dad",
		"turn privacy on", "play simon says", "cancel the pasta timer", "be quiet for an hour", "what time is it",
		"is mom busy", "stop", "hang up", "is the office light on", "what's the date", "dance", "let's play hide and seek",
		"how long is left on the rice timer", "good night", "thank you", "what can you do", "end the game", "you can talk again"}
	leads := []string{"", "reachy ", "hey reachy ", "um ", "uh reachy ", "ok so ", "richie ", "oi ", "right ", "excuse me reachy ",
		"hey robot ", "so um ", "alright then "}
	tails := []string{"", " please", " thanks", " now", " reachy", " would you", " mate", " love", " right now", " ok",
		" thank you reachy", " if you can", " cheers"}
	for _, r := range requests {
		want := tb.Route(r, Context{})
		for _, l := range leads {
			for _, tail := range tails {
				s := l + r + tail
				d := tb.Route(s, Context{})
				if d.Intent != want.Intent || d.Args["state"] != want.Args["state"] || d.Args["room"] != want.Args["room"] {
					t.Errorf("%q: %s %v, want %s %v as said bare", s, d.Intent, d.Args, want.Intent, want.Args)
				}
			}
		}
	}
}

// TestARequestPutOffIsNotDoneNow: "next time ...", "... tomorrow", "in the morning ..." put
// the request off; nothing is done now (an alarm for tomorrow is still answered as a clock
// time).
func TestARequestPutOffIsNotDoneNow(t *testing.T) {
	tb := demo(t)
	for _, s := range []string{"next time switch the office light off", "call mom tomorrow", "in the morning put the bedroom ac on",
		"another time play rock paper scissors", "cancel the rice timer next week"} {
		if d := tb.Route(s, Context{}); tb.wouldAct(d) && !(d.Intent == IntentClarify && d.Pending == nil) {
			t.Errorf("%q acts now: %s %v", s, d.Intent, d.Args)
		}
	}
	if d := tb.Route("set an alarm for seven tomorrow", Context{}); d.Intent != IntentUnclear {
		t.Errorf("an alarm for tomorrow: %s, want unclear", d.Intent)
	}
}

// TestSpeechActsInManyShapesNeverAct: every acting request said inside a report, a wish, a
// question about it, a condition, a story, a quotation or a time gone by does nothing.
func TestSpeechActsInManyShapesNeverAct(t *testing.T) {
	tb := demo(t)
	requests := []string{"set a timer for 10 minutes", "turn off the kitchen light", "put the bedroom ac on", "call dad",
		"turn privacy off", "play simon says", "hang up", "cancel the pasta timer", "be quiet for an hour", "switch on all the lights"}
	shapes := []string{"mom said {}", "dad wants you to {}", "if it gets late {}", "when i get home {}", "did you {}", "should i {}",
		"i might {} later", "the teacher told us to {}", "say {}", "repeat after me {}", "{} is what grandma always says",
		"on tv they said {}", "my brother keeps telling me to {}", "i wish i could {}", "remember when you {} yesterday",
		"what happens if you {}", "the robot in the film said {}", "grandpa will {} tomorrow", "i was going to {} but never mind",
		"why did you {}", "how do i {}", "dont {} until i say so", "next time {} ok", "in the story the girl says {}"}
	for _, r := range requests {
		for _, sh := range shapes {
			s := strings.Replace(sh, "{}", r, 1)
			if d := tb.Route(s, Context{}); tb.wouldAct(d) && d.Intent != "robot.stop" && !(d.Intent == IntentClarify && d.Pending == nil) {
				t.Errorf("%q acts: %s %v", s, d.Intent, d.Args)
			}
		}
	}
}

// TestGamesAskedInManyShapes: every game asked for in 25 everyday shapes — "come on, let's
// play ...", "we're bored, let's play ...", "fancy a game of ...", "... again", "one round of
// ..." — starts it (or is answered with how to start it).
func TestGamesAskedInManyShapes(t *testing.T) {
	tb := demo(t)
	games := map[string]string{"rock paper scissors": "play.rps", "simon says": "play.simon", "freeze dance": "play.freeze",
		"hide and seek": "play.hide", "guess the animal": "play.animal"}
	shapes := []string{"let's play {g}", "play {g}", "can we play {g} now please", "i want to play {g}", "start {g}", "{g}!",
		"{g} please", "how about {g}", "lets do {g}", "time for {g}", "we wanna play {g}", "play {g} with me", "play {g} with us",
		"fancy a game of {g}", "let's have a game of {g}", "one round of {g}", "come on let's play {g}", "{g} time", "{g} again",
		"another round of {g}", "let's do {g} reachy", "we are bored let's play {g}", "ok {g} go", "i'm bored, {g}?"}
	for _, sh := range shapes {
		for g, want := range games {
			s := strings.Replace(sh, "{g}", g, 1)
			if d := tb.Route(s, Context{}); d.Intent != want && d.Intent != "play.invite" {
				t.Errorf("%q: %s, want %s", s, d.Intent, want)
			}
		}
	}
}
