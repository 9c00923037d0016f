package intents

import (
	"strings"
	"testing"
)

func TestZZProbeHouse(t *testing.T) {
	tb := demo(t)
	rooms := []string{"kitchen", "bedroom", "office", "kids room", "living room"}
	shapes := map[string]string{"turn on the {r} light": "on", "{r} light on": "on", "lights on in the {r}": "on", "switch the {r} lights off": "off", "can you turn off the light in the {r}": "off", "{r} lights off please": "off", "kill the {r} light": "off", "put the light on in the {r}": "on", "could you switch the {r} light on for me": "on", "the {r} light, off": "off", "light in {r} on": "on", "make the {r} dark": "off", "i need the {r} light on": "on", "i want the {r} lights off": "off", "{r} lamp on": "on", "turn the {r} light off its too bright": "off", "lights off in the {r} we are going out": "off", "please turn the lights on in the {r} i cant see": "on", "open the light in the {r}": "on", "close the light in the {r}": "off", "on the {r} light": "on", "off the {r} light": "off", "shut off the {r} light": "off", "flick the {r} light on": "on", "get the {r} light on": "on", "{r} light off now": "off", "lights out in the {r}": "off", "turn the light on in the {r} please i am reading": "on"}
	bad, total := 0, 0
	for sh, st := range shapes {
		for _, r := range rooms {
			s := strings.Replace(sh, "{r}", r, 1)
			total++
			dd := tb.Route(s, Context{})
			if dd.Intent != "house.light.set" || dd.Args["state"] != st || dd.Args["room"] != r {
				bad++
				t.Logf("MISS %q -> %s %v want %s", s, dd.Intent, dd.Args, st)
			}
		}
	}
	t.Logf("bad=%d of %d", bad, total)
}
