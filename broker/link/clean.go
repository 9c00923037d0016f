package link

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

// What the robot says is not trusted: every string a hub sends up the link is bounded and
// cleaned here, before the registry keeps it, logs it or hands it on — so that nothing a
// robot sends reaches a log line, the status (`reachyctl status --json`, the console) or the
// audit log raw. A code that should come from a closed list is replaced when it does not.

// Bounds of the strings a hub sends.
const (
	maxVersion = 64  // the hello's version
	maxID      = 64  // a timer ID, a call ID
	maxRang    = 256 // timer IDs in one report of local rings
)

// Clean bounds s to max runes and strips it of what a terminal or a reader would not show as
// text: control characters (C0, C1, DEL), terminal escape sequences whole (CSI, OSC and the
// rest), invisible format characters (bidi overrides, zero-width characters) and invalid
// UTF-8. White space becomes single spaces; the result is trimmed.
func Clean(s string, max int) string {
	if len(s) > 4*max+64 {
		s = s[:4*max+64] // what can survive the rune bound, and a margin for what is stripped
	}
	var b strings.Builder
	n := 0
	space := false
	for i := 0; i < len(s) && n < max; {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b: // ESC: skip the whole sequence
			i += size + escapeLen(s[i+size:])
			continue
		case r == 0x9b: // CSI in one character
			i += size + csiLen(s[i+size:])
			continue
		case r == utf8.RuneError && size <= 1:
			i += size
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			i += size
			continue
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.In(r, unicode.Co, unicode.Cs):
			i += size
			continue
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
			if n >= max {
				break
			}
		}
		b.WriteRune(r)
		n++
		i += size
	}
	return b.String()
}

// escapeLen is the length of an escape sequence's rest after ESC: CSI ("[" parameters, then a
// final byte), OSC, DCS, SOS, PM and APC (up to BEL or ST), or one character.
func escapeLen(s string) int {
	if s == "" {
		return 0
	}
	switch s[0] {
	case '[':
		return 1 + csiLen(s[1:])
	case ']', 'P', 'X', '^', '_':
		for i := 1; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	return 1
}

// csiLen is the length of a CSI sequence's parameters and final byte (0x40-0x7e).
func csiLen(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x40 && s[i] <= 0x7e {
			return i + 1
		}
		if s[i] < 0x20 || s[i] > 0x3f {
			return i // not a CSI parameter: the sequence ends here
		}
	}
	return len(s)
}

// cleanAck keeps an ack's code only when it is one of the closed codes; any other (or one
// on an OK ack) is "failed" — nothing the hub made up reaches an audit record or a log.
func cleanAck(a api.LinkAckBody) (api.LinkAckBody, bool) {
	if a.Code == "" || ClosedAckCode(a.Code) == a.Code {
		return a, true
	}
	a.Code = api.LinkErrFailed
	if a.OK {
		a.Code = ""
	}
	return a, false
}

// cleanIDs bounds a list of IDs from the hub and drops the ones that are not plain tokens.
func cleanIDs(ids []string) []string {
	out := make([]string, 0, min(len(ids), maxRang))
	for _, id := range ids {
		if len(out) == maxRang {
			break
		}
		if id != "" && len(id) <= maxID && plainToken(id) {
			out = append(out, id)
		}
	}
	return out
}

// plainToken: ASCII letters, digits, '-' and '_' only (the IDs the broker makes).
func plainToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
