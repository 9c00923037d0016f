package intents
import ("testing";"strings";"os";"encoding/json")
func TestZZDbg2(t *testing.T) {
	tb := demo(t)
	for _, s := range strings.Split(os.Getenv("S"), "|") {
		d := tb.Route(s, Context{})
		j, _ := json.Marshal(d.Mentions)
		t.Logf("%q => %s %v | %s | %s | %s", s, d.Intent, d.Args, d.NotActed, strings.Join(d.Doctrine, "; "), j)
	}
}
