package intents

import (
	"strings"
	"testing"
)

func TestZZProbeAC(t *testing.T) {
	tb := demo(t)
	rooms := []string{"bedroom", "living room"}
	shapes := map[string]string{"turn on the {r} ac": "state=on", "{r} ac on": "state=on", "ac on in the {r}": "state=on", "switch the {r} air con off": "state=off", "set the {r} ac to 21": "temperature=21", "{r} ac 22 please": "temperature=22", "put the {r} air conditioning on 23": "temperature=23", "make the {r} 20 degrees": "temperature=20", "cool the {r} down to 19": "temperature=19", "can you set the ac in the {r} to twenty two": "temperature=22", "{r} aircon to 24": "temperature=24", "its hot in the {r} turn the ac on": "state=on", "change the {r} ac to 25": "temperature=25", "i want the {r} at 21": "temperature=21", "turn the air on in the {r}": "state=on", "{r} air off": "state=off", "ac in the {r} off please": "state=off", "could you put the {r} ac on for me please": "state=on", "set {r} temperature to 18": "temperature=18", "the {r} ac, 21 degrees": "temperature=21"}
	bad, total := 0, 0
	for sh, want := range shapes {
		k, v, _ := strings.Cut(want, "=")
		for _, r := range rooms {
			s := strings.Replace(sh, "{r}", r, 1)
			total++
			dd := tb.Route(s, Context{})
			if dd.Intent != "house.ac.set" || dd.Args[k] != v || dd.Args["room"] != r {
				bad++
				t.Logf("MISS %q -> %s %v want %s", s, dd.Intent, dd.Args, want)
			}
		}
	}
	t.Logf("bad=%d of %d", bad, total)
}
