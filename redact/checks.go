package redact

// The checks a candidate match must pass before it is replaced: a card's Luhn digit, an
// IBAN's mod-97, an SSN's ranges, a phone's digit count, and whether a run of token
// characters looks random (a key) rather than counted or already a placeholder.

import (
	"strings"
)

func digits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func luhn(m string) bool {
	d := digits(m)
	if len(d) < 13 || len(d) > 19 {
		return false
	}
	sum := 0
	for i := 0; i < len(d); i++ {
		n := int(d[len(d)-1-i] - '0')
		if i%2 == 1 {
			n *= 2
			if n > 9 {
				n -= 9
			}
		}
		sum += n
	}
	return sum%10 == 0
}

func validIBAN(m string) bool {
	// Spaces and dashes go, letters are read in upper case; the match is ASCII (ibanRE's
	// classes, after canonical), so this is done in place of a Replacer and ToUpper.
	var buf [34]byte
	n := 0
	for i := 0; i < len(m); i++ {
		c := m[i]
		switch {
		case c == ' ' || c == '-':
			continue
		case c >= 0x80:
			return validIBANSlow(m)
		case c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		}
		if n == len(buf) {
			return false
		}
		buf[n] = c
		n++
	}
	if n < 15 {
		return false
	}
	rem := 0
	for k := 0; k < n; k++ {
		var ok bool
		if rem, ok = ibanStep(rem, rune(buf[(k+4)%n])); !ok {
			return false
		}
	}
	return rem == 1
}

// ibanStep folds one character of a rearranged IBAN into its remainder mod 97 (a letter
// counts as two digits, A = 10); ok is false for any other character.
func ibanStep(rem int, c rune) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return (rem*10 + int(c-'0')) % 97, true
	case c >= 'A' && c <= 'Z':
		return (rem*100 + int(c-'A'+10)) % 97, true
	}
	return rem, false
}

// validIBANSlow is validIBAN for text that is not ASCII.
func validIBANSlow(m string) bool {
	s := strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(m))
	if len(s) < 15 || len(s) > 34 {
		return false
	}
	s = s[4:] + s[:4]
	rem := 0
	for _, c := range s {
		var ok bool
		if rem, ok = ibanStep(rem, c); !ok {
			return false
		}
	}
	return rem == 1
}

func validSSN(m string) bool {
	d := digits(m)
	return len(d) == 9 && d[:3] != "000" && d[:3] != "666" && d[0] != '9' && d[3:5] != "00" && d[5:] != "0000"
}

// plausiblePhone keeps years, times and measurements: it needs 7 to 15 digits and not a
// plain run of a year range.
func plausiblePhone(m string) bool {
	d := digits(m)
	return len(d) >= 7 && len(d) <= 15
}

// minTokenRun is the shortest run of token characters checked for looking random.
const minTokenRun = 24

func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '+' || c == '/' || c == '='
}

// replaceTokenRuns replaces every long run of token characters that looks random (a secret
// without a known prefix) with the secret placeholder. A hand-written scan: it runs on
// every reply, and most replies have no run long enough to check.
func replaceTokenRuns(text string) (string, bool) {
	var b strings.Builder
	found, last := false, 0
	for i := 0; i < len(text); {
		if !isTokenByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isTokenByte(text[j]) {
			j++
		}
		if j-i >= minTokenRun && randomLooking(text[i:j]) {
			if !found {
				b.Grow(len(text))
			}
			found = true
			b.WriteString(text[last:i])
			b.WriteString(placeholder(KindSecret))
			last = j
		}
		i = j
	}
	if !found {
		return text, false
	}
	b.WriteString(text[last:])
	return b.String(), true
}

// randomLooking tells a random token (an API key without a known prefix, a session id, a
// password) from long words, hyphenated phrases and identifiers: it must hold a digit and
// switch between lower case, upper case and digits at least once every three characters —
// random base64 switches about two times in three, "PascalCaseWords" or
// "state-of-the-art-2024" far less.
func randomLooking(m string) bool {
	n, switches, hasDigit, prev := 0, 0, false, 0
	for i := 0; i < len(m); i++ {
		c := charClass(m[i])
		if c == 0 {
			continue
		}
		n++
		hasDigit = hasDigit || c == 3
		if prev != 0 && c != prev {
			switches++
		}
		prev = c
	}
	return n >= 20 && hasDigit && switches*3 >= n
}

// notCounting: number words that do not count up or down by one ("one, two, three …" is
// counting, not a phone number read out).
func notCounting(m string) bool {
	var units []numberUnit
	for _, w := range strings.FieldsFunc(strings.ToLower(m), func(r rune) bool { return r < 'a' || r > 'z' }) {
		v, ok := digitWordNumber[w]
		if !ok {
			return true
		}
		units = append(units, numberUnit{value: v})
	}
	return !counting(units)
}

// notAPlaceholder: "token: something private" is what an earlier pass left, not a token.
func notAPlaceholder(m string) bool {
	m = strings.ToLower(m)
	return !strings.HasSuffix(m, placeholder(KindSecret)[:9]) && !strings.HasSuffix(m, placeholder(KindTerm))
}
