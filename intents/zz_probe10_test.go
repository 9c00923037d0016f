package intents

import "testing"

func TestZZProbePriv(t *testing.T) {
	tb := demo(t)
	cases := map[string]string{"privacy mode on": "on", "turn on privacy": "on", "go private": "on", "privacy please": "on", "no video calls right now": "on", "block calls for an hour": "on", "i need some privacy": "on", "don't let anyone call in": "on", "nobody should call in now": "on", "switch privacy off": "off", "privacy off please": "off", "you can let calls through again": "off", "turn off private mode": "off", "end privacy mode": "off", "unblock the calls": "off", "calls are ok again": "off", "enable privacy mode": "on", "disable privacy mode": "off", "i'm getting changed privacy mode please": "on", "camera off please": "on", "no cameras right now i'm in my pyjamas": "on", "stop privacy": "off", "take privacy off": "off", "privacy on, grandma is here": "on", "put privacy mode on for the night": "on", "activate privacy": "on", "privacy mode, on": "on", "let people call again": "off", "allow calls again": "off", "mum can call now, privacy off": "off"}
	bad := 0
	for s, st := range cases {
		dd := tb.Route(s, Context{})
		if dd.Intent != "privacy.set" || dd.Args["state"] != st {
			bad++
			t.Logf("MISS %q -> %s %v want %s", s, dd.Intent, dd.Args, st)
		}
	}
	t.Logf("bad=%d of %d", bad, len(cases))
}
