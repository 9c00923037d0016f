package intents

import (
	"strings"
	"testing"
)

// The talk classes of the eleventh and twelfth fresh sets: time, quiet, stop, calls,
// emergencies and hang-up said in the ways people say them. Every sentence here is this
// file's own; the counterexamples (reported, negated, past, about someone else) never act.

// checkNeverActs: none of these sentences acts, nor would act on a yes.
func checkNeverActs(t *testing.T, tb *Table, said []string) {
	t.Helper()
	for _, s := range said {
		if d := tb.Route(s, Context{}); actsOrWouldAct(tb, d) {
			t.Errorf("%q acts: %s %v (why: %s)", s, d.Intent, Comparable(d), strings.Join(d.Doctrine, "; "))
		}
	}
}

// TestTalkStopIdioms: a stop said as an idiom or a dialect word ("wheesht", "cut it out"),
// or the robot's moving stopped ("stop moving your arms").
func TestTalkStopIdioms(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"whisht now", "robot.stop", nil},
		{"wheesht reachy", "robot.stop", nil},
		{"oh cut it out", "robot.stop", nil},
		{"cut it out, would you", "robot.stop", nil},
		{"stop moving your arms", "robot.stop", nil},
		{"stop moving your head around please", "robot.stop", nil},
	})
	checkNeverActs(t, tb, []string{"she cut it out of the magazine", "he never cuts it out",
		"the dog will not stop moving its head"})
}

// TestTalkQuietIdioms: quiet asked for in other words ("keep the noise down", "keep mum",
// "keep your voice down") with how long it should last.
func TestTalkQuietIdioms(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"keep the noise down for twenty minutes", "robot.quiet", map[string]string{"state": "on", "duration": "1200"}},
		{"could you keep your voice down for a while the twins are napping", "robot.quiet", map[string]string{"state": "on"}},
		{"keep mum till the guests go", "robot.quiet", map[string]string{"state": "on"}},
		{"would you mind keeping mum for half an hour", "robot.quiet", map[string]string{"state": "on", "duration": "1800"}},
		{"go silent for the rest of the evening", "robot.quiet", map[string]string{"state": "on"}},
	})
	checkNeverActs(t, tb, []string{"the neighbours never keep the noise down", "he told me to keep mum about the party",
		"I kept mum for an hour yesterday", "mum is asleep for an hour", "grandma can't hear the tv"})
}

// TestTalkWhisperSpellings: the recogniser's spellings of quiet, hang up and today ("quite
// mode", "hang op", "to day").
func TestTalkWhisperSpellings(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"quite mode on", "robot.quiet", map[string]string{"state": "on"}},
		{"turn quite mode off please", "robot.quiet", map[string]string{"state": "off"}},
		{"quite time is over", "robot.quiet", map[string]string{"state": "off"}},
		{"hang op now", "session.end", nil},
		{"you can hang op", "session.end", nil},
		{"what is the date to day", "date.today", nil},
		{"what day is it to day", "date.today", nil},
	})
	checkNeverActs(t, tb, []string{"it was quite quiet", "she did not hang op", "did you hang op on grandma"})
}

// TestTalkEmergencyNumberMixed: an emergency number said half in words ("nine 11").
func TestTalkEmergencyNumberMixed(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"call nine 11", "help.emergency", nil},
		{"ring nine one one now", "help.emergency", nil},
		{"dial nine 11 grandpa fell", "help.emergency", nil},
	})
	checkNeverActs(t, tb, []string{"he called nine 11 last week", "don't call nine 11"})
}

// TestTalkPersonOnTheScreen: a person of the home wanted on a screen ("I want daddy on the
// video set", "get mum on the video set") is a call.
func TestTalkPersonOnTheScreen(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"I want daddy on the video set", "teleport.call", map[string]string{"person": "dad"}},
		{"i want mum on the screen please", "teleport.call", map[string]string{"person": "mom"}},
		{"i want dad on the ipad now", "teleport.call", map[string]string{"person": "dad"}},
		{"could you get mum on the video set", "teleport.call", map[string]string{"person": "mom"}},
		{"put dad on the picture phone", "teleport.call", map[string]string{"person": "dad"}},
	})
	checkNeverActs(t, tb, []string{"dad was on the video set all morning", "i want dad on the phone with the bank",
		"i want dad on", "mum is on the robot tv", "I don't want mum on the screen", "dad was on a call all morning"})
}

// TestTalkTimeAskedWithMore: the time or the date asked with more talk around it — a part of
// the day asked after it ("what time is it is it lunchtime"), "did you say", "would it be", a
// pidgin "wetin", an "it" not heard ("is already six o'clock").
func TestTalkTimeAskedWithMore(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"what time is it is it lunchtime yet", "time.now", nil},
		{"what's the time is it evening already", "time.now", nil},
		{"is it afternoon or is it evening time", "time.now", nil},
		{"what time did you say it was again", "time.now", nil},
		{"what day would it be today", "date.today", nil},
		{"wetin be the date today", "date.today", nil},
		{"wetin be the time now", "time.now", nil},
		{"is already six o'clock", "time.now", nil},
	})
	checkNeverActs(t, tb, []string{"what time did you say the film starts", "is it bedtime for the cat"})
	for _, s := range []string{"what time did you say the film starts", "is it bedtime for the cat", "what day would be best for the party"} {
		if d := tb.Route(s, Context{}); d.Intent == "time.now" || d.Intent == "date.today" {
			t.Errorf("%q: %s, not a question about the time now", s, d.Intent)
		}
	}
}

// TestTalkHangUpSaidOtherwise: a hang-up said as the handset put down ("put the phone down"),
// as "end it" after the call was named ("enough video for today, end it"), or with a
// learner's "finish" / "is enough" after it.
func TestTalkHangUpSaidOtherwise(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"put the phone down please", "session.end", nil},
		{"you can put the receiver down now, we're all done", "session.end", nil},
		{"that's enough video calls for tonight, end it", "session.end", nil},
		{"ok that's enough video now stop it", "session.end", nil},
		{"end the call, finish", "session.end", nil},
		{"hang up now, is enough", "session.end", nil},
		{"stop talking please, it is enough", "robot.stop", nil},
	})
	checkNeverActs(t, tb, []string{"she put the phone down on me", "did you put the receiver down",
		"put the phone down on the table", "mum put the phone down", "that's enough video, dad will end it",
		"grandma put the phone down after an hour"})
}

// TestTalkStopForSomeoneBusy: a stop word said before someone of the home busy or asleep
// ("shh dad's on a call", "hush mum's in a meeting") stops the robot and never calls nor
// reads the calendar; the same news reported, negated or in the past stops nothing.
func TestTalkStopForSomeoneBusy(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"shh mum's on a call", "robot.stop", nil},
		{"hush dad is on the phone", "robot.stop", nil},
		{"quiet please mum's in a meeting", "robot.stop", nil},
		{"shush grandpa has a headache", "robot.stop", nil},
		{"stop it mum's on a work call", "robot.stop", nil},
	})
	for _, s := range []string{"shh mum's on a call", "hush dad is on the phone", "dad was on a call all morning"} {
		if d := tb.Route(s, Context{}); d.Intent == "teleport.call" || d.Intent == "session.end" || d.Intent == "privacy.set" {
			t.Errorf("%q: %s, a call word about someone is no call", s, d.Intent)
		}
	}
	checkNeverActs(t, tb, []string{"dad said shh he is on a call", "shh dad was on a call", "shh mum is not on a call",
		"don't shush me mum's on a call", "I told him shh dad's on a call", "dad was on a call all morning"})
}

// TestTalkQuietSaidOtherwise: quiet time ended by "you're unmuted", asked with a fraction
// ("mute 1 1/2 hours", "for 1/2 an hour") or a length straight after the verb ("keep quiet
// 20 minutes"), a verbless ban to an event ("no talking during the film"), after a whisper
// for attention ("psst").
func TestTalkQuietSaidOtherwise(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"you're unmuted now", "robot.quiet", map[string]string{"state": "off"}},
		{"okay you are unmuted", "robot.quiet", map[string]string{"state": "off"}},
		{"mute 2 1/2 hours", "robot.quiet", map[string]string{"state": "on", "duration": "9000"}},
		{"be quiet for 1/2 an hour", "robot.quiet", map[string]string{"state": "on", "duration": "1800"}},
		{"keep quiet 20 minutes", "robot.quiet", map[string]string{"state": "on", "duration": "1200"}},
		{"no talking during the match", "robot.quiet", map[string]string{"state": "on"}},
		{"psst reachy keep it down till the film ends", "robot.quiet", map[string]string{"state": "on"}},
	})
	checkNeverActs(t, tb, []string{"you are not unmuted", "mum is unmuted", "be unmuted", "mute 5 minutes ago",
		"there was no talking during the match", "I was muted 20 minutes"})
}

// TestTalkTimerSaidOtherwise: a timer asked as "give me a (little) ring in ...", "put (an)
// alarm in ...", whisper's "set a time for 45 seconds", a label in other words ("the
// washing" is the laundry timer).
func TestTalkTimerSaidOtherwise(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"give me a ring in ten minutes", "timer.start", map[string]string{"duration": "600"}},
		{"could you give me a little shout in half an hour", "timer.start", map[string]string{"duration": "1800"}},
		{"put an alarm in 25 minutes", "timer.start", map[string]string{"duration": "1500"}},
		{"put alarm in an hour for the washing", "timer.start", map[string]string{"duration": "3600", "label": "laundry"}},
		{"set a time for 90 seconds", "timer.start", map[string]string{"duration": "90"}},
		{"can you start a time for twelve minutes", "timer.start", map[string]string{"duration": "720"}},
		{"how long is left on the washing timer", "timer.status", map[string]string{"label": "laundry"}},
	})
	checkNeverActs(t, tb, []string{"we set a time for 5 o'clock", "set a time for the meeting", "give me a ring",
		"dad said give me a ring in 10 minutes", "she put an alarm in 20 minutes yesterday", "don't give me a ring in an hour"})
}

// TestTalkCallAskedAsLonging: the person missed asked to call ("I miss daddy can he ring"),
// or a word wanted with them ("I'd like a word with dad on the video phone").
func TestTalkCallAskedAsLonging(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"I miss daddy can he ring", "teleport.call", map[string]string{"person": "dad"}},
		{"I miss mum so much could she phone", "teleport.call", map[string]string{"person": "mom"}},
		{"I'd like a word with dad on the video phone", "teleport.call", map[string]string{"person": "dad"}},
		{"could I have a word with mum on the picture phone", "teleport.call", map[string]string{"person": "mom"}},
	})
	checkNeverActs(t, tb, []string{"I miss mommy she called", "I miss mommy but she can't call", "grandma misses mommy can she call",
		"I had a word with dad on the phone yesterday", "mum wants a word with dad on the video", "I miss mommy she can call"})
}

// TestTalkQuietAfterItsReason: "<reason> so <quiet request>" asks for quiet time, the length
// said in either part; a reason reported, past or conditional asks nothing.
func TestTalkQuietAfterItsReason(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"mum has a meeting so keep it down for an hour", "robot.quiet", map[string]string{"state": "on", "duration": "3600"}},
		{"dad's got calls for the next two hours so keep it down", "robot.quiet", map[string]string{"state": "on", "duration": "7200"}},
		{"I'm on a call so keep quiet for half an hour", "robot.quiet", map[string]string{"state": "on", "duration": "1800"}},
	})
	checkNeverActs(t, tb, []string{"dad said he has calls so keep it down for an hour", "mum kept it down for an hour so she could work",
		"dad was on calls all day so we kept it down for an hour", "if the baby sleeps so keep it down for an hour"})
}

// TestTalkClockTimeWrittenTogether: an alarm or a wake-up at a clock time written together
// ("7am", "6:30pm") is said not to be a timer, never asked how long.
func TestTalkClockTimeWrittenTogether(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"set an alarm for 6am", "unclear", nil},
		{"set an alarm for 6:45am", "unclear", nil},
		{"wake me up at 8am please", "unclear", nil},
		{"put an alarm on for 10pm", "unclear", nil},
	})
	checkNeverActs(t, tb, []string{"set an alarm for 6am", "set an alarm for 6:45am", "wake me up at 8am please", "remind me at 5pm"})
}

// TestTalkThanksAndSleepersAroundQuiet: thanks said after leave to talk ("..., thank you for
// being so patient") asks nothing; someone asleep said before a verbless ban ("grandpa is
// sleeping no noise for an hour") is its reason.
func TestTalkThanksAndSleepersAroundQuiet(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"you may talk again now, thank you for waiting", "robot.quiet", map[string]string{"state": "off"}},
		{"you can speak again, thanks for being so quiet", "robot.quiet", map[string]string{"state": "off"}},
		{"hang up now, thank you for the lovely chat", "session.end", nil},
		{"the baby's asleep no talking for an hour", "robot.quiet", map[string]string{"state": "on", "duration": "3600"}},
		{"grandpa is sleeping no noise for twenty minutes", "robot.quiet", map[string]string{"state": "on", "duration": "1200"}},
	})
	checkNeverActs(t, tb, []string{"the baby was asleep no noise for an hour", "thanks for turning the light off",
		"thank you for being so patient"})
}

// TestTalkCallSomeoneNextDoor: someone the home does not list, said with where they live
// ("call mr fraser next door"), is asked about, never guessed.
func TestTalkCallSomeoneNextDoor(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"call mrs brown next door", "clarify", nil},
		{"ring sarah next door", "clarify", nil},
		{"phone mr singh across the road", "clarify", nil},
	})
	for _, s := range []string{"call mrs brown next door", "ring sarah next door"} {
		if d := tb.Route(s, Context{}); d.Intent == "teleport.call" || d.Intent == "general.ask" {
			t.Errorf("%q: %s, want it asked about", s, d.Intent)
		}
	}
	checkNeverActs(t, tb, []string{"mrs brown next door called", "did you call mr singh across the road", "don't ring sarah next door"})
}

// TestTalkCorrectedToAFraction: a length corrected to a number with its fraction ("2 hours
// for the oven, no make it two and a half") keeps the unit and the label said before.
func TestTalkCorrectedToAFraction(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"a timer for 3 hours for the oven, no, make it three and a half", "timer.start", map[string]string{"duration": "12600", "label": "oven"}},
		{"set a timer for 1 minute no 1 and a half", "timer.start", map[string]string{"duration": "90"}},
		{"timer for the pasta 8 minutes no wait 8 and a half", "timer.start", map[string]string{"duration": "510", "label": "pasta"}},
	})
	checkNeverActs(t, tb, []string{"I set a timer for 2 hours no 2 and a half yesterday"})
}
