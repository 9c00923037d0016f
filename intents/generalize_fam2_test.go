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
	)
}
