package intents

import "strings"

// personOff: a child ends a call by turning the person off — "turn mommy off", "byeee
// mommy love you reachy turn mommy off", "switch off grandpa now": the call ends
// (session.end). Before it may stand only a farewell and the words said with one (hangLeads,
// the people of the home, the robot's name); "mommy turned the tv off", "don't turn daddy
// off", "turn mommy's light off" end nothing.
func (t *Table) personOff(n Normalized, toks []string, m Mentions) (Decision, bool) {
	if n.Negated || n.Question || m.named || len(toks) < 3 || len(toks) > 14 {
		return Decision{}, false
	}
	for i := 0; i+2 < len(toks); i++ {
		if toks[i] != "turn" && toks[i] != "switch" && toks[i] != "shut" {
			continue
		}
		tail := toks[i+1:]
		if tail[0] == "off" {
			tail = tail[1:] // "switch off grandpa"
		} else if len(tail) < 2 || tail[1] != "off" && !(len(tail) > 2 && tail[2] == "off" && personOwners[tail[0]]) {
			return Decision{}, false
		}
		if len(tail) > 0 && personOwners[tail[0]] {
			tail = tail[1:]
		}
		if len(tail) == 0 || t.vocab.people[tail[0]] == "" && !kinWords[tail[0]] {
			return Decision{}, false
		}
		if !only(tail[1:], wordSet{"off": true, "now": true, "please": true}) {
			return Decision{}, false
		}
		farewell := i == 0
		for _, w := range toks[:i] {
			switch {
			case strings.HasPrefix(w, "bye") || hangFarewell[w] || nightFarewell[w]:
				farewell = true
			case hangLeads[w] || t.vocab.people[w] != "" || kinWords[w] || t.vocab.wake.isName(w) || familyFill[w]:
			default:
				return Decision{}, false
			}
		}
		if !farewell {
			return Decision{}, false // "mommy turn daddy off": said to someone
		}
		return t.familyDecision("session.end", map[string]string{}, n, m, FormImperative, "a person turned off: the call ends")
	}
	return Decision{}, false
}

// nightFarewell say goodbye at bedtime: "night night mommy, turn mommy off".
var nightFarewell = words2set("night nighty nite goodnight")
