package redact

import (
	"regexp"
	"strings"
)

// This file finds a secret split into short runs or spaced out letter by letter ("4eC3 9HqL
// yjWD …", "s k - l i v e - …"), which no pattern matches whole: a hand-written scan that
// runs on every reply.

// prefixWords start a secret whose pieces may be plain words ("sk - live - …"), spelled as
// the issuers write them.
var prefixWords = map[string]bool{"sk": true, "pk": true, "rk": true, "ghp": true, "gho": true, "ghu": true, "ghs": true,
	"ghr": true, "github": true, "xoxb": true, "xoxa": true, "xoxp": true, "xoxo": true, "xoxs": true, "xoxr": true,
	"glpat": true, "whsec": true, "rbk": true}

// piece is one element of a possibly split token: an alnum run, or several one-character
// runs spelled out ("s k l i v e") taken together.
type piece struct {
	span
	text    string // its characters (a spelled-out piece without its separators)
	spelled bool
	word    bool // a plain word: lower case, or capitalised
}

// replaceSplitSecrets replaces a secret said in short runs or spaced out: a chain of pieces
// joined by light separators that, taken together, matches a secret pattern or looks random
// inside its pieces (the joins between pieces are not counted, so a list of product names
// does not look random).
func replaceSplitSecrets(text string, runs []span) (string, []string) {
	pieces := spellPieces(text, runs)
	var b strings.Builder
	last, kinds := 0, []string(nil)
	for i := 0; i < len(pieces); {
		j := chainEnd(text, pieces, i)
		if j-i >= 2 || j-i == 1 && pieces[i].spelled {
			if k, n := splitSecret(text, pieces[i:j]); k != "" {
				b.WriteString(text[last:pieces[i].s])
				b.WriteString(placeholder(k))
				last, kinds = pieces[i+n-1].e, append(kinds, k)
				j = i + n
			}
		}
		i = j
	}
	if kinds == nil {
		return text, nil
	}
	b.WriteString(text[last:])
	return b.String(), kinds
}

// spellPieces turns runs into pieces, taking three or more one-character runs in a row as
// one spelled-out piece.
func spellPieces(text string, runs []span) []piece {
	out := make([]piece, 0, len(runs))
	for i := 0; i < len(runs); {
		j := i
		// In "it's" or "we'd" the letter belongs to the word before it: it starts no spelling.
		for j < len(runs) && runs[j].e-runs[j].s == 1 && !contraction(text, runs[j]) && (j == i || lightTokenGap(text[runs[j-1].e:runs[j].s])) {
			j++
		}
		if j-i >= 3 {
			var t strings.Builder
			for k := i; k < j; k++ {
				if k > i {
					t.WriteString(keptSpelledSeparator(text[runs[k-1].e:runs[k].s]))
				}
				t.WriteString(text[runs[k].s:runs[k].e])
			}
			out = append(out, piece{span: span{runs[i].s, runs[j-1].e}, text: t.String(), spelled: true})
			i = j
			continue
		}
		w := text[runs[i].s:runs[i].e]
		out = append(out, piece{span: runs[i], text: w, word: plainWord(w)})
		i++
	}
	return out
}

// contraction: a one-letter run right after an apostrophe ("it's", "we'd").
func contraction(text string, r span) bool {
	return r.e-r.s == 1 && (r.s > 0 && text[r.s-1] == '\'' || strings.HasSuffix(text[:r.s], "’"))
}

// plainWord: lower-case letters, or a capital and lower-case letters ("kitchen", "Paris").
func plainWord(w string) bool {
	if len(w) < 2 {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= 'a' && c <= 'z' || i == 0 && c >= 'A' && c <= 'Z' {
			continue
		}
		return false
	}
	return true
}

// lightTokenGap: what may stand between the pieces of one split token — up to four spaces
// and separator or markup characters.
func lightTokenGap(g string) bool {
	if len(g) == 0 || len(g) > 4 {
		return false
	}
	for i := 0; i < len(g); i++ {
		if strings.IndexByte(" \t\n-._,/:|*`~+=@", g[i]) < 0 {
			return false
		}
	}
	return true
}

// keptSeparator is what of a gap a secret pattern needs: a lone '-' or '_' (spaces around
// it or not), nothing else.
func keptSeparator(g string) string {
	t := strings.Trim(g, " \t\n*`~")
	switch t {
	case "-", "--", "- -":
		return "-"
	case "_", "__", "_ _":
		return "_"
	}
	return ""
}

// keptSpelledSeparator also keeps the '@' and '.' of an address spelled out ("j a n e @ …").
func keptSpelledSeparator(g string) string {
	if t := strings.Trim(g, " \t\n"); t == "@" || t == "." {
		return t
	}
	return keptSeparator(g)
}

// chainEnd returns the end (exclusive) of the chain of pieces starting at i. A plain word
// joins a chain only as its first piece when it is a known secret prefix ("sk", "ghp"), when
// it is glued on by a '-' or '_' or markup with no space, or once per chain as a short word
// between two other pieces (a random run can look like a word: "arjt").
func chainEnd(text string, p []piece, i int) int {
	if i+1 < len(p) && prefixWords[p[i].text] && keptSeparator(text[p[i].e:p[i+1].s]) != "" {
		// A known prefix with its separator ("ghp_", "sk - "): its pieces may look like words
		// ("abcd efgh"), so any piece but a long word or one after a sentence's end continues
		// it; splitSecret still wants the pattern to match and a digit, and replaces only the
		// pieces the pattern covers.
		j := i + 1
		for ; j < len(p) && j-i <= 16 && lightTokenGap(text[p[j-1].e:p[j].s]); j++ {
			if p[j].word && (len(p[j].text) > 6 || strings.ContainsAny(text[p[j-1].e:p[j].s], ".!?")) {
				break // a long word, or a word that starts the next sentence
			}
		}
		for j > i+2 && p[j-1].word {
			j-- // a chain does not end on a plain word
		}
		return j
	}
	if p[i].word {
		return i + 1
	}
	words := 0
	j := i + 1
	for ; j < len(p); j++ {
		gap := text[p[j-1].e:p[j].s]
		if !lightTokenGap(gap) {
			break
		}
		if !p[j].word {
			continue
		}
		if glued := !strings.ContainsAny(gap, " \t\n"); glued {
			continue
		}
		if words == 0 && len(p[j].text) <= 5 && j+1 < len(p) && !p[j+1].word && lightTokenGap(text[p[j].e:p[j+1].s]) {
			words++
			continue
		}
		break
	}
	return j
}

// splitSecret decides a chain: it is a secret when its joined text matches a secret pattern
// over most of its length, or when it is at least 20 letters and digits long, holds both,
// and switches between lower case, upper case and digits at least once every three
// characters inside its pieces; or when it is spelled out and mixes eight or more letters
// and digits ("h u n t e r 2 …").
//
// It returns the kind and how many of the chain's pieces it covers (a pattern's match may end
// before the chain does), or "".
func splitSecret(text string, chain []piece) (string, int) {
	var joined strings.Builder
	n, switches, letters, digits := 0, 0, 0, 0
	starts := make([]int, len(chain))
	for k, p := range chain {
		if k > 0 {
			joined.WriteString(keptSeparator(text[chain[k-1].e:p.s]))
		}
		starts[k] = joined.Len()
		joined.WriteString(p.text)
		prev := 0
		for i := 0; i < len(p.text); i++ {
			c := charClass(p.text[i])
			if c == 0 {
				continue
			}
			n++
			if c == 3 {
				digits++
			} else {
				letters++
			}
			// A capital that starts a piece ("Paris") is not a switch.
			if prev != 0 && c != prev && !(i == 1 && prev == 2 && c == 1) {
				switches++
			}
			prev = c
		}
	}
	j := joined.String()
	covered := func(end int) int {
		k := 1
		for k < len(starts) && starts[k] < end {
			k++
		}
		return k
	}
	// A pattern must start at the chain's start and cover at least two pieces (or a spelled one).
	if strings.IndexByte(j, '@') > 0 {
		if loc := emailRE.re.FindStringIndex(j); loc != nil && loc[0] == 0 && (covered(loc[1]) > 1 || chain[0].spelled) {
			return KindEmail, covered(loc[1])
		}
	}
	if lower := strings.ToLower(j); n >= 12 && letters > 0 && digits > 0 && (maySecret(lower) || mayJoinedSecret(lower)) {
		for _, re := range []*regexp.Regexp{secretRE, joinedSecretRE.re} {
			if loc := re.FindStringIndex(j); loc != nil && loc[0] == 0 && (covered(loc[1]) > 1 || chain[0].spelled) {
				return KindSecret, covered(loc[1])
			}
		}
	}
	if n >= 20 && letters > 0 && digits > 0 && switches*3 >= n {
		return KindSecret, len(chain)
	}
	if len(chain) == 1 && chain[0].spelled && n >= 8 && letters > 0 && digits > 0 {
		return KindSecret, 1
	}
	return "", 0
}

func charClass(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return 1
	case c >= 'A' && c <= 'Z':
		return 2
	case c >= '0' && c <= '9':
		return 3
	}
	return 0
}
