package redact

import (
	"strings"
)

// This file catches a secret said in part: a known prefix with only the start of its body
// ("ghp_abcd", "sk_live_4eC3", a device token's "rbk_<id>" without its secret), an id alone
// (sixteen or more hex digits, a UUID), and the rest of a secret said apart from its start —
// after a space ("ghp_… KLMNOPQRSTUV12"), in the next sentence ("The rest is yjWDarjt…"), or
// anywhere in a reply that speaks of a key, token, password or secret.

// partialSecretRE: a prefix only a secret has, with the start of a body (written, or with its
// separators stripped as markup).
var partialSecretRE = mustStartRE(`(?i)\b(?:sk|pk|rk)[_-](?:live|test|proj|ant)[_-]?[a-z0-9]{2,}|\b(?:sk|pk|rk)[_-](?:live|test|proj|ant)\b` +
	`|\bgh[pousr]_[a-z0-9]{3,}|\bgithub_pat_[a-z0-9_]{3,}|\bxox[abposr]-[a-z0-9]{3,}|\bglpat-[a-z0-9_\-]{3,}|\bwhsec_[a-z0-9]{3,}` +
	`|\brbk_[0-9a-f]{4,}|\bAKIA[0-9A-Z]{4,}|\bAIza[0-9a-z_\-]{6,}` +
	`|\b(?:sk|pk|rk)(?:live|test)[a-z0-9]{3,}|\brbk[0-9a-f]{8,}|\bgithubpat[a-z0-9]{3,}`)

// joinedPartialRE: a GitHub prefix run into its body ("ghpabcd1234"), which only counts with a
// digit in the body ("ghostly" is a word).
var joinedPartialRE = mustStartRE(`(?i)\bgh[pousr][a-z0-9]{4,}\b|\bxox[abposr][0-9][a-z0-9]{3,}\b|\bglpat[a-z0-9]{6,}\b`)

// partialHints: every alternative of the two patterns holds one of these (lower case).
var partialHints = []string{"k_", "k-", "klive", "ktest", "ghp", "gho", "ghu", "ghs", "ghr", "github", "xox", "glpat", "whsec",
	"rbk", "akia", "aiza"}

// minHexID is the fewest hex digits an id said alone has (a device token's id has 16).
const minHexID = 12

// secretWords make a reply one that speaks of a secret: there, a fragment that looks random
// is taken as part of one.
var secretWords = []string{"key", "token", "secret", "password", "passcode", "credential", "bearer", "something private"}

// replacePartialSecrets replaces known prefixes with the start of a body, and ids said alone.
// The two patterns run only at the words sc found their prefixes at.
func replacePartialSecrets(text string, sc *textScan) (string, bool) {
	found := false
	text = partialSecretRE.replaceAt(text, sc.of(text).hits[setPartial], func(m string) string {
		found = true
		return placeholder(KindSecret)
	})
	text = joinedPartialRE.replaceAt(text, sc.of(text).hits[setJoinedPartial], func(m string) string {
		if countDigits(m) == 0 {
			return m
		}
		found = true
		return placeholder(KindSecret)
	})
	if t, ok := replaceHexIDs(text); ok {
		text, found = t, true
	}
	return text, found
}

// replaceHexIDs replaces ids said alone: a run of twelve or more hex digits holding both
// digits and letters (a word of hex letters, "deadbeef", or a plain number is no id), or a
// UUID (its groups joined by '-').
func replaceHexIDs(text string) (string, bool) {
	var b strings.Builder
	last, found := 0, false
	for i := 0; i < len(text); {
		if !isHexByte(text[i]) || i > 0 && isAlnum(text[i-1]) {
			i++
			continue
		}
		// A run of hex digits and '-' between them, ending at a non-alnum.
		j, letters, digits, groups, glen, uuid := i, 0, 0, []int{}, 0, true
		for ; j < len(text) && (isHexByte(text[j]) || text[j] == '-' && glen > 0 && j+1 < len(text) && isHexByte(text[j+1])); j++ {
			switch c := text[j]; {
			case c == '-':
				groups, glen = append(groups, glen), 0
				continue
			case c >= '0' && c <= '9':
				digits++
			default:
				letters++
			}
			glen++
		}
		groups = append(groups, glen)
		if j < len(text) && isAlnum(text[j]) {
			i = j + 1 // part of a longer word
			continue
		}
		uuid = len(groups) == 5 && groups[0] == 8 && groups[1] == 4 && groups[2] == 4 && groups[3] == 4 && groups[4] == 12
		long := len(groups) == 1 && glen >= minHexID
		if (uuid || long) && letters > 0 && digits > 0 {
			b.WriteString(text[last:i])
			b.WriteString(placeholder(KindSecret))
			last, found = j, true
		}
		i = j
	}
	if !found {
		return text, false
	}
	b.WriteString(text[last:])
	return b.String(), true
}

func isHexByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// tokenLike: a run that cannot be a word or a number: letters and digits mixed, or upper and
// lower case switching inside it (beyond a capital first letter).
func tokenLike(w string) bool {
	letters, digits, switches, prev := 0, 0, 0, 0
	for i := 0; i < len(w); i++ {
		c := charClass(w[i])
		switch c {
		case 0:
			continue
		case 3:
			digits++
		default:
			letters++
		}
		if prev != 0 && c != prev && !(i == 1 && prev == 2 && c == 1) {
			switches++
		}
		prev = c
	}
	return letters > 0 && digits > 0 || switches >= 3
}

// replaceSecretFragments replaces the rest of a secret said apart from its start: a token-like
// run right after a secret's placeholder (a space or a sentence's end between them), and —
// when the reply speaks of a key, a token, a password or a secret — every token-like run of
// eight or more characters.
func replaceSecretFragments(text string) (string, bool) {
	lower := strings.ToLower(text)
	context := containsAny(lower, secretWords)
	const ph = "something private"
	var b strings.Builder
	last, found := 0, false
	runs := alnumRuns(text)
	for k, r := range runs {
		w := text[r.s:r.e]
		if len(w) < 4 {
			continue
		}
		after := false
		if k > 0 && (countDigits(w) > 0 || innerCapital(w)) {
			// Right after a secret (one already replaced, or one this pass just replaced), a
			// run with a digit or a capital inside it is its rest.
			before := strings.TrimRight(text[:r.s], " .,;:-_/!?")
			near := r.s-len(before) <= 4
			after = near && (strings.HasSuffix(strings.ToLower(before), ph) || found && last == len(before))
		}
		if !after && !tokenLike(w) {
			continue
		}
		if !after && !(context && len(w) >= 8 && !knownWordish(w)) {
			continue
		}
		if after {
			// Its placeholder is already there: the fragment and what stands between go.
			before := strings.TrimRight(text[last:r.s], " .,;:-_/!?")
			b.WriteString(before)
			last = r.e
			found = true
			continue
		}
		b.WriteString(text[last:r.s])
		b.WriteString(ph)
		last, found = r.e, true
	}
	if !found {
		return text, false
	}
	b.WriteString(text[last:])
	return b.String(), true
}

// innerCapital: a capital letter after a lower-case one ("yjWDarjt", "iPhone").
func innerCapital(w string) bool {
	for i := 1; i < len(w); i++ {
		if charClass(w[i]) == 2 && charClass(w[i-1]) == 1 {
			return true
		}
	}
	return false
}

// knownWordish: runs that are token-like but ordinary — ordinals and units stuck to a number
// ("21st", "4K", "120Hz", "80GB", "2x"), versions ("v2"), and model names of one letter
// group and one digit group ("RTX4090", "iPhone15", "HDR10", "H100").
func knownWordish(w string) bool {
	groups, prev, caps := 0, 0, 0
	for i := 0; i < len(w); i++ {
		c := charClass(w[i])
		if c == 2 && i > 0 && charClass(w[i-1]) == 1 {
			caps++ // a capital inside a word: "iPhone", "MacBook"
		}
		if c == 2 {
			c = 1
		}
		if c != prev {
			groups++
		}
		prev = c
	}
	return groups <= 2 && caps <= 1 && countDigits(w) < 8
}
