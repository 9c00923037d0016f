package intents

import (
	"strings"
	"testing"
)

func TestZZProbeCall(t *testing.T) {
	tb := demo(t)
	people := map[string]string{"mom": "mom", "dad": "dad", "mummy": "mom", "daddy": "dad", "my mum": "mom", "papa": "dad"}
	shapes := []string{"call {p}", "ring {p}", "can you call {p}", "phone {p} please", "i want to talk to {p}", "i need to speak to {p}", "get {p} on the phone", "video call {p}", "facetime {p}", "call {p} for me", "can we call {p}", "ask {p} to call us", "tell {p} to ring me", "give {p} a ring", "i miss {p} can we call", "put me through to {p}", "connect me to {p}", "{p} please call", "i wanna see {p}", "call {p} now it's urgent", "call {p} i need help with homework", "please get {p} on video"}
	bad, total := 0, 0
	for _, sh := range shapes {
		for p, want := range people {
			s := strings.Replace(sh, "{p}", p, 1)
			total++
			dd := tb.Route(s, Context{})
			if dd.Intent != "teleport.call" || dd.Args["person"] != want {
				bad++
				t.Logf("MISS %q -> %s %v want %s", s, dd.Intent, dd.Args, want)
			}
		}
	}
	t.Logf("bad=%d of %d", bad, total)
}
