package redact

import (
	"regexp"
	"strings"
)

// credentialRestRE reads a credential stated in words from its noun up to where its value
// starts: "password is …", "PIN: …", "code for the garage is …", "passcode's …", "PIN 1234". It is
// anchored: replaceCredentials tries it only where a noun starts a word. Group 1 is the noun.
var credentialRestRE = regexp.MustCompile(`^(?i)(pass\s?words?|passwd|pwd|pass\s?codes?|pass\s?phrases?|pin(?:\s+(?:codes?|numbers?))?|pins|codes?|combinations?|cvv2?|cvc|otp|secret\s+words?|security\s+answers?|login)\b` +
	`(?:\s+(?:for|of|to|on|at)\s+(?:[\w'’-]+\s+){1,4}?)?` +
	`\s*(?:(?:is|was|are|were|reads|equals|'s|’s|will\s+be|would\s+be|should\s+be|is\s+set\s+to|is\s+now|has\s+been\s+(?:set|changed)\s+to|is\s+still)\b|[:=]|,|\s-|\s*[—–]|\s)\s*`)

// credentialNouns start the nouns of credentialRestRE (lower case).
var credentialNouns = []string{"pass", "pwd", "pin", "code", "combination", "cvv", "cvc", "otp", "secret", "security", "login"}

// credentialQualifiers make a "code" a credential ("the door code"), not software.
var credentialQualifiers = map[string]bool{"wifi": true, "wi-fi": true, "wireless": true, "network": true, "router": true,
	"guest": true, "door": true, "gate": true, "garage": true, "alarm": true, "security": true, "access": true, "entry": true,
	"lock": true, "safe": true, "locker": true, "keypad": true, "verification": true, "confirmation": true, "one-time": true,
	"time": true, "login": true, "log-in": true, "sign-in": true, "account": true, "admin": true, "root": true, "master": true,
	"bank": true, "banking": true, "debit": true, "credit": true, "card": true, "atm": true, "sim": true, "phone": true,
	"voicemail": true, "email": true, "e-mail": true, "computer": true, "laptop": true, "tablet": true, "unlock": true,
	"backup": true, "recovery": true, "secret": true, "pin": true, "2fa": true, "mfa": true, "otp": true}

func mayCredential(lower string) bool { return containsAny(lower, credentialNouns) }

// replaceCredentials replaces the value of each credential stated in words. A password's
// value is the rest of its clause ("correct horse battery staple", "h u n t e r 2"), unless
// it starts like a description ("is too short", "is on the router"); a code's, PIN's or
// combination's value must hold digits ("4 8 2 1", "four eight two one", "X7K9P2").
func replaceCredentials(text string) (string, bool) {
	var b strings.Builder
	last, found := 0, false
	for i := 0; i < len(text); i++ {
		if i > 0 && isAlnum(text[i-1]) || !startsNoun(text[i:]) {
			continue
		}
		m := credentialRestRE.FindStringSubmatchIndex(text[i:])
		if m == nil {
			continue
		}
		noun := strings.ToLower(text[i+m[2] : i+m[3]])
		valueAt := i + m[1]
		noVerb := strings.TrimSpace(text[i+m[3]:valueAt]) == "" // "PIN 1234": only a number may follow
		var end int
		switch {
		case strings.HasPrefix(noun, "pass") || noun == "pwd" || strings.HasPrefix(noun, "secret") || strings.HasPrefix(noun, "security") || noun == "login":
			if noVerb {
				continue // "password manager", "password reset"
			}
			end = wordsValue(text, valueAt)
		default:
			bareCode := strings.HasPrefix(noun, "code") && !credentialQualifiers[strings.ToLower(wordBefore(text, i))]
			minDigits := 3
			if bareCode {
				minDigits = 4 // "the code is 200 lines long" is about software
			}
			end = digitsValue(text, valueAt, minDigits, bareCode)
		}
		if end <= valueAt {
			continue
		}
		b.WriteString(text[last:valueAt])
		b.WriteString(placeholder(KindSecret))
		last, found = end, true
		i = end - 1
	}
	if !found {
		return text, false
	}
	b.WriteString(text[last:])
	return b.String(), true
}

// startsNoun: s starts with one of credentialNouns, in any case.
func startsNoun(s string) bool {
	for _, n := range credentialNouns {
		if len(s) >= len(n) && strings.EqualFold(s[:len(n)], n) {
			return true
		}
	}
	return false
}

// wordBefore is the word (letters, digits, '-') before offset i, past spaces.
func wordBefore(text string, i int) string {
	j := i
	for j > 0 && text[j-1] == ' ' {
		j--
	}
	k := j
	for k > 0 && (isAlnum(text[k-1]) || text[k-1] == '-') {
		k--
	}
	return text[k:j]
}

// describing words start a description of a password, not the password.
var describing = map[string]bool{
	"a": true, "an": true, "the": true, "not": true, "never": true, "too": true, "very": true, "so": true, "quite": true,
	"case": true, "case-sensitive": true, "on": true, "in": true, "at": true, "under": true, "inside": true, "behind": true,
	"usually": true, "often": true, "always": true, "sometimes": true, "your": true, "my": true, "our": true, "their": true,
	"his": true, "her": true, "its": true, "this": true, "that": true, "these": true, "those": true, "something": true,
	"anything": true, "nothing": true, "what": true, "how": true, "where": true, "who": true, "which": true, "just": true,
	"still": true, "also": true, "only": true, "now": true, "one": true, "no": true, "none": true, "for": true, "to": true,
	"of": true, "being": true, "getting": true, "going": true, "probably": true, "likely": true, "actually": true,
	"really": true, "supposed": true, "meant": true, "part": true, "made": true, "given": true, "sent": true,
	"based": true, "generated": true, "included": true, "between": true, "more": true, "less": true, "like": true,
	"there": true, "here": true, "below": true, "above": true, "printed": true, "written": true, "stored": true,
	"saved": true, "shown": true, "listed": true, "displayed": true, "set": true, "reset": true, "changed": true,
	"expired": true, "hidden": true, "private": true, "secret": true, "required": true, "needed": true, "missing": true,
	"used": true, "entered": true, "typed": true, "shared": true, "known": true, "unknown": true, "encrypted": true,
	"hashed": true, "protected": true, "empty": true, "blank": true, "available": true, "different": true,
	"same": true, "optional": true, "important": true, "useful": true, "what's": true, "it": true, "it's": true,
	"should": true, "must": true, "can": true, "could": true, "will": true, "would": true, "may": true, "might": true,
	"and": true, "or": true, "but": true, "if": true, "because": true, "easy": true, "hard": true, "simple": true,
	"complicated": true, "complex": true, "sensitive": true, "up": true, "by": true, "with": true, "without": true,
	"about": true, "from": true, "into": true, "unique": true, "personal": true, "confidential": true, "ready": true,
}

// judging words describe a password when they are all of its clause ("is correct", "is strong enough").
var judging = map[string]bool{
	"correct": true, "incorrect": true, "wrong": true, "right": true, "valid": true, "invalid": true, "strong": true,
	"weak": true, "long": true, "short": true, "good": true, "bad": true, "great": true, "fine": true, "ok": true,
	"okay": true, "safe": true, "unsafe": true, "secure": true, "insecure": true, "accepted": true, "rejected": true,
	"working": true, "broken": true, "locked": true, "unlocked": true, "new": true, "old": true, "enough": true,
	"better": true, "worse": true, "stronger": true, "weaker": true, "longer": true, "shorter": true, "fine,": true,
}

// clauseEnders stop a password's value.
var clauseEnders = map[string]bool{"and": true, "but": true, "so": true, "or": true, "which": true, "because": true,
	"then": true, "if": true, "when": true, "while": true, "though": true, "although": true, "for": true, "to": true}

// wordsValue returns the end of a password's value starting at i, or i when there is none.
func wordsValue(text string, i int) int {
	j := skipSpaces(text, i)
	if j < len(text) && strings.ContainsRune("\"'“‘«(`*[", rune(text[j])) || strings.HasPrefix(text[j:], "“") || strings.HasPrefix(text[j:], "‘") {
		// A quoted value: up to the closing quote, at most 80 bytes.
		open := text[j:]
		_, size := firstRune(open)
		for k := j + size; k < len(text) && k-j <= 80; {
			r, sz := firstRune(text[k:])
			if k > j+size && strings.ContainsRune("\"'”’»)`*]", r) {
				return k + sz
			}
			k += sz
		}
	}
	words, end, single := 0, i, 0
	for k := j; k < len(text) && words < 8; {
		w := k
		for w < len(text) && text[w] != ' ' && text[w] != '\n' && text[w] != '\t' {
			w++
		}
		word := text[k:w]
		bare := strings.TrimRight(word, ".,;:!?)\"'")
		lw := strings.ToLower(bare)
		if words == 0 && (bare == "" || describing[lw]) {
			return i
		}
		if words > 0 && clauseEnders[lw] {
			break
		}
		if bare != "" {
			end = k + len(bare)
		}
		if len(bare) == 1 {
			single++ // a spelled-out value: its letters do not count as words
		} else {
			words++
		}
		if bare != word || single > 40 { // the clause ends with this word
			break
		}
		k = skipSpaces(text, w)
	}
	if end <= j {
		return i
	}
	if words <= 2 && single == 0 {
		first := strings.ToLower(strings.TrimRight(strings.Fields(text[j:end])[0], ".,;:!?"))
		if judging[first] {
			return i
		}
	}
	return end
}

// digitsValue returns the end of a code's value starting at i: a run of digits, number words
// and single characters holding at least minDigits digits; or i when there is none.
// With clauseOnly, the value must also end its clause ("the code is 1234." — not "the code
// is 2000 lines long").
func digitsValue(text string, i, minDigits int, clauseOnly bool) int {
	k := skipSpaces(text, i)
	digitsSeen, end := 0, i
	for k < len(text) {
		w := k
		for w < len(text) && (isAlnum(text[w]) || text[w] == '#' || text[w] == '*') {
			w++
		}
		if w == k {
			break
		}
		word := text[k:w]
		switch n := countDigits(word); {
		case n > 0 && (n == len(word) || n*2 >= len(word) || len(word) <= 12 && hasLetter(word)):
			digitsSeen += n
		case digitWordValue(strings.ToLower(word)) > 0:
			digitsSeen += digitWordValue(strings.ToLower(word))
		case len(word) == 1 || word == "#" || word == "*":
		default:
			w = -1
		}
		if w < 0 {
			break
		}
		end = w
		// A light separator continues the value: "12-34-56", "4 8 2 1", "4, 8, 2, 1".
		g := w
		for g < len(text) && g-w < 3 && strings.IndexByte(" -.,/", text[g]) >= 0 {
			g++
		}
		if g == w || g < len(text) && !isAlnum(text[g]) && text[g] != '#' && text[g] != '*' {
			break
		}
		k = g
	}
	if digitsSeen < minDigits {
		return i
	}
	if clauseOnly {
		rest := strings.TrimLeft(text[end:], " ")
		if rest != "" && isAlnum(rest[0]) {
			return i
		}
	}
	return end
}

func skipSpaces(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	return i
}

func firstRune(s string) (rune, int) {
	for _, r := range s {
		if r < 0x80 {
			return r, 1
		}
		return r, len(string(r))
	}
	return 0, 0
}

func countDigits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n
}

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
