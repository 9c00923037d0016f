package intents

import (
	"fmt"
	"testing"
)

// TestTeleportCallRoutes: the ways the family asks for an owner to call back, and the
// sentences about calls that must never ring anyone.
func TestTeleportCallRoutes(t *testing.T) {
	dad := map[string]string{"person": "dad"}
	mom := map[string]string{"person": "mom"}
	checkRoutes(t, demo(t), []routeCase{
		{"call dad", "teleport.call", dad},
		{"Call Dad.", "teleport.call", dad},
		{"Reachy, ask mum to call us", "teleport.call", mom},
		{"can you call mom", "teleport.call", mom},
		{"could you call daddy for me please", "teleport.call", dad},
		{"hey reachy, ring mum", "teleport.call", mom},
		{"tell dad to call us back", "teleport.call", dad},
		{"get mommy to call home", "teleport.call", mom},
		{"we want to talk to dad", "teleport.call", dad},
		{"I'd like to speak to mum", "teleport.call", mom},
		{"video call father", "teleport.call", dad},
		// Questions about someone stay calendar questions.
		{"can I call dad now", "calendar.status", dad},
		{"is mum busy", "calendar.status", mom},
	})
}

// TestOnlyACommandCalls: statements, reports, the past, wishes, conditions and negations
// about calling never ring an owner.
func TestOnlyACommandCalls(t *testing.T) {
	tb := demo(t)
	for _, s := range []string{"I called dad yesterday", "dad called", "dad called us this morning", "mum said call dad",
		"did you call dad", "did dad call", "should we call mum?", "don't call dad", "no need to call mum",
		"I'll call dad later", "I wish dad would call", "if dad calls, tell him hi", "we called mom last night",
		"mum is going to call us", "why didn't dad call", "who called", "call me maybe", "what do you call a dad",
		"my brother told me to call dad", "never call mum", "do not call dad", "dad calls every sunday",
		"calling dad is hard", "has dad called"} {
		if d := tb.Route(s, Context{}); d.Intent == "teleport.call" {
			t.Errorf("%q rings: %v (%v)", s, d.Args, d.Doctrine)
		}
	}
}

// TestPrivacyModeRoutes: "privacy mode on/off" and its close paraphrases switch it; talk
// about privacy never does.
func TestPrivacyModeRoutes(t *testing.T) {
	on := map[string]string{"state": "on"}
	off := map[string]string{"state": "off"}
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"Reachy, privacy mode on", "privacy.set", on},
		{"privacy mode off", "privacy.set", off},
		{"turn on privacy mode", "privacy.set", on},
		{"switch privacy mode off please", "privacy.set", off},
		{"hey reachy go into privacy mode", "privacy.set", on},
		{"privacy on", "privacy.set", on},
		{"turn the privacy mode off", "privacy.set", off},
	})
	for _, form := range []string{"I wish you'd %s", "she said %s", "don't %s", "no need to %s", "yesterday I said %s",
		"if dad calls, %s", "should I %s?", "I'll %s later", "the kids said %s"} {
		for _, a := range []string{"turn on privacy mode", "turn privacy mode off", "go into privacy mode"} {
			s := fmt.Sprintf(form, a)
			if d := tb.Route(s, Context{}); d.Intent == "privacy.set" {
				t.Errorf("%q switches privacy mode: %v (%v)", s, d.Args, d.Doctrine)
			}
		}
	}
	for _, s := range []string{"is privacy mode on?", "what is privacy mode", "privacy mode was on yesterday",
		"I turned privacy mode on", "privacy is important"} {
		if d := tb.Route(s, Context{}); d.Intent == "privacy.set" {
			t.Errorf("%q switches privacy mode: %v", s, d.Args)
		}
	}
	if in, _ := tb.Lookup("privacy.set"); !in.RoomVoiceOnly {
		t.Fatal("privacy.set is not marked room-voice-only")
	}
}

// TestHangUpParaphrases: the ways the room ends a call, said without the wake phrase during
// it, all reach session.end; talk about calls does not.
func TestHangUpParaphrases(t *testing.T) {
	tb := demo(t)
	for _, s := range []string{"hang up", "hang up now", "end the call", "please end the call", "let's end the call",
		"end call", "stop the call", "end the video call", "finish the call", "disconnect", "you can hang up now",
		"we're done, hang up", "ok, hang up the call please", "cut the call", "close the call", "that's enough, end the call",
		"end the call now please", "can you end the call", "okay bye, hang up"} {
		if d := tb.Route(s, Context{}); d.Intent != "session.end" {
			t.Errorf("%q: %s %v (%v), want session.end", s, d.Intent, d.Args, d.Doctrine)
		}
	}
	for _, s := range []string{"don't hang up", "did dad hang up", "he hung up on me", "I ended the call", "why did the call end"} {
		if d := tb.Route(s, Context{}); d.Intent == "session.end" {
			t.Errorf("%q ends the call", s)
		}
	}
}
