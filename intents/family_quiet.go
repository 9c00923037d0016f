package intents

import "strings"

// Quiet time asked in the family frames' words (quietWords, quietUntil in family_frames.go):
// what they share.

// quietVerbOpeners open quiet's own words as a request ("stay silent ...", "keep it down ...");
// "staying quiet ..." speaks of it.
var quietVerbOpeners = words2set("stay keep be go hold pipe zip")

// lengthSaidBy come before a length said in a clause of its own after the request: "be
// quiet while I'm on this call, it's like 45 minutes", "it'll take about an hour".
var lengthSaidBy = words2set("is be take takes last lasts")

// lengthClause: view[i] is a length with its unit said after lengthSaidBy ("it's ~like_45_minutes");
// a bare number ("she is 90") or an age ("the baby is 3 months old") is none.
func lengthClause(view []string, i int) bool {
	w := view[i]
	return i > 0 && strings.HasPrefix(w, "~") && strings.Contains(w, "_") && lengthSaidBy[view[i-1]] &&
		!(i+1 < len(view) && (view[i+1] == "old" || view[i+1] == "ago"))
}

// agreementTag: a request closed by a tag that asks for agreement — "no speak during the film,
// ok?", "keep it down for an hour, alright?" — is still a request: the "?" belongs to the
// tag. A sentence that opens as a question ("are you quiet during the film, ok?") is not
// one.
func agreementTag(n Normalized, toks []string) bool {
	if !n.Question || len(toks) == 0 || questionOpeners[toks[0]] {
		return false
	}
	raw := strings.ToLower(strings.TrimSpace(n.raw))
	for _, tag := range []string{", ok?", ", okay?", ", alright?", ", all right?", ", yeah?", ", right?", ", yes?"} {
		if strings.HasSuffix(raw, tag) {
			return true
		}
	}
	return false
}

var questionOpeners = words2set("is are am was were do does did can could will would shall should have has had " +
	"what when where who whom whose why how which may might must")
