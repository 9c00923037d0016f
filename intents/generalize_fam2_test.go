package intents

import "testing"

// TestPrivacyByItsEffect: privacy mode asked for by what it does to callers ("make it so
// grandpa can't ring in"), or named with its purpose after "so"; the same effect said as
// a statement, reported, past or asked about sets nothing.
func TestPrivacyByItsEffect(t *testing.T) {
	tb := demo(t)
	on := map[string]string{"state": "on"}
	off := map[string]string{"state": "off"}
	checkRoutes(t, tb, []routeCase{
		{"switch privacy mode on so my sister can't spy on my homework", "privacy.set", on},
		{"please turn the privacy off so that grandpa can ring us", "privacy.set", off},
		{"make it so nobody can phone the robot during dinner", "privacy.set", on},
		{"make it so that my cousins can't video in this weekend", "privacy.set", on},
		{"I'd rather no one could look in on us tonight", "privacy.set", on},
		{"no one is to call the robot until I say so", "privacy.set", on},
		{"okay, the family can video call again", "privacy.set", off},
		{"alright people can ring through now", "privacy.set", off},
	})
	mustNotAct(t, tb,
		"nobody can phone the robot anyway",
		"grandma can video call on sundays",
		"people can ring through whenever they like",
		"I made it so nobody could call",
		"she said to make it so nobody can phone in",
		"can people call the robot again",
		"I turned privacy on so the kids couldn't see",
		"nobody rang through this morning",
		"I'd rather you could ring grandma",
	)
}

// TestQuietLengthInItsOwnClause: the length of quiet time said in a clause after the
// request ("..., it'll take about an hour"), "while" as the conjunction (never "a while"),
// someone asleep said with no verb before a ban, and a request closed by "ok?".
func TestQuietLengthInItsOwnClause(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"please stay silent while I'm in this meeting, it's about 30 minutes", "robot.quiet", map[string]string{"state": "on", "duration": "1800"}},
		{"keep it down while the exam's on, it takes like two hours", "robot.quiet", map[string]string{"state": "on", "duration": "7200"}},
		{"could you be quiet whilst I read, it'll last about an hour", "robot.quiet", map[string]string{"state": "on", "duration": "3600"}},
		{"grandma asleep no talking for an hour", "robot.quiet", map[string]string{"state": "on", "duration": "3600"}},
		{"twins napping no noise for 40 minutes", "robot.quiet", map[string]string{"state": "on", "duration": "2400"}},
		{"no talking during dinner, okay?", "robot.quiet", map[string]string{"state": "on"}},
		{"stay silent till the baby wakes, alright?", "robot.quiet", map[string]string{"state": "on"}},
	})
	mustNotAct(t, tb,
		"were you quiet during the film, ok?",
		"you stayed silent during dinner, right?",
		"she said be quiet while she's on the call, it's about an hour",
		"the meeting is about 30 minutes",
		"grandma was asleep no noise for an hour",
		"staying quiet while I'm on a call is hard, it's like 45 minutes",
		"I kept quiet while he was on the call, it was like 45 minutes",
	)
}

// TestSomeonesTimeInOtherShapes: a question about someone's time opened by a particle
// ("abeg", "so"), with the person said first and taken up by a pronoun, asked after another
// question joined by "or", with its calls or meetings as what someone has ("has mum got any
// meetings"), "every one" for everyone, and someone the home does not list (a grandchild, an
// "oga") asked about, never sent to the agent.
func TestSomeonesTimeInOtherShapes(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"has mom got any meetings tomorrow morning", "calendar.status", map[string]string{"person": "mom"}},
		{"does dad have any calls later", "calendar.status", map[string]string{"person": "dad"}},
		{"should I knock or is dad in the meeting", "calendar.status", map[string]string{"person": "dad"}},
		{"biko is mom on the phone", "calendar.status", map[string]string{"person": "mom"}},
		{"my dad, is he still on the call?", "calendar.status", nil},
		{"is every one busy this evening", "clarify", nil},
		{"is my granddaughter free on saturday", "clarify", nil},
		{"is the oga busy today", "clarify", nil},
		{"my wife, she is in a meeting still?", "clarify", nil},
	})
	for _, s := range []string{"is my nephew available tonight", "abeg is your oga free now", "is every one free tonight"} {
		if d := tb.Route(s, Context{}); d.Intent == "general.ask" {
			t.Errorf("%q went to the agent", s)
		}
	}
	mustNotAct(t, tb,
		"dad was on a call all morning",
		"my husband, he was in the meeting",
		"abeg dad is busy",
	)
}

// TestCallsInOtherWords: someone brought onto the screen ("make daddy come on the video"),
// after a longing ("I miss grandma, make her come on the tv"), named by whose they are in a
// guest's words ("the kids' dad"), and someone called where they are ("ring my cousin in
// toronto": someone the home does not list is asked about, never sent to the agent).
func TestCallsInOtherWords(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"make daddy come on the video please", "teleport.call", map[string]string{"person": "dad"}},
		{"we miss mummy make her come on the tv", "teleport.call", map[string]string{"person": "mom"}},
		{"I'd like to speak to the kids' dad on the video", "teleport.call", map[string]string{"person": "dad"}},
		{"make it so I can call mum", "teleport.call", map[string]string{"person": "mom"}},
		{"ring my cousin in toronto", "clarify", nil},
		{"phone uncle femi over in accra", "clarify", nil},
		{"video call my auntie at the hospital", "clarify", nil},
	})
	mustNotAct(t, tb,
		"she made daddy come on the video yesterday",
		"don't make mummy come on the screen",
		"make dad a cup of tea",
		"call dad in five minutes",
		"I called my cousin in toronto",
	)
}

// TestAPersonTurnedOffEndsTheCall: a child ends a call by turning the person off, alone or
// after a farewell; said of the past, negated, or said to someone, nothing ends.
func TestAPersonTurnedOffEndsTheCall(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"turn daddy off", "session.end", nil},
		{"bye bye grandma love you turn grandma off", "session.end", nil},
		{"night night mommy switch mommy off now", "session.end", nil},
		{"okay goodbye now turn daddy off please", "session.end", nil},
	})
	mustNotAct(t, tb,
		"daddy turned grandma off",
		"don't turn mommy off",
		"mommy switch daddy off",
		"did you turn grandpa off",
		"I turned daddy off by mistake",
	)
}
