package intents

import "strings"

// Passes over the raw transcript before it is split into words: letters spelled out with full
// stops closed up, words cut off and said again taken off.

// dropCutOffs takes off a word the speaker cut off and said again whole ("for the p- pasta",
// "the kit- kitchen light"): the recogniser writes the cut-off part with a dash.
func dropCutOffs(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "- ")
		if i < 0 {
			break
		}
		start := strings.LastIndexByte(s[:i], ' ') + 1
		part, next := s[start:i], s[i+2:]
		if part != "" && !numberWords[part] && strings.HasPrefix(next, part) && len(next) > len(part) && next[len(part)] >= 'a' && next[len(part)] <= 'z' {
			b.WriteString(s[:start]) // the part and its dash dropped: the word said whole follows
		} else {
			b.WriteString(s[:i+2])
		}
		s = next
	}
	b.WriteString(s)
	return b.String()
}

// joinSpelled closes up letters spelled out one by one ("u. s. d.", "i.b.m.", "p. m."): the
// recogniser's way of writing an acronym, one word, never a run of sentences to split at
// their full stops. A single letter with a full stop ("plan b.") is left alone.
func joinSpelled(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	var b strings.Builder
	done := 0 // s[:done] is in b
	for i := 0; i < len(s); i++ {
		if !spelledLetterAt(s, i) || i > 0 && wordByte(s[i-1]) {
			continue
		}
		// a run: letter '.' (spaces) letter '.' ...
		var letters []byte
		j := i
		for spelledLetterAt(s, j) {
			letters = append(letters, s[j])
			j += 2 // the letter and its full stop
			k := j
			for k < len(s) && s[k] == ' ' {
				k++
			}
			if !spelledLetterAt(s, k) {
				break
			}
			j = k
		}
		if len(letters) < 2 {
			i = j - 1
			continue
		}
		if done == 0 && b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[done:i])
		b.Write(letters)
		b.WriteByte(' ')
		done, i = j, j-1
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// wordByte: c may be part of a word (a spelled run starts after none: "plan b." ends one).
func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '\'' || c == '.'
}

// spelledLetterAt: s[i] is one ASCII letter before a full stop, and after that stop comes a
// space, a letter, a mark or the end (not a decimal point).
func spelledLetterAt(s string, i int) bool {
	if i+1 >= len(s) || s[i+1] != '.' || s[i] < 'a' || s[i] > 'z' {
		return false
	}
	return i+2 >= len(s) || s[i+2] == ' ' || s[i+2] >= 'a' && s[i+2] <= 'z' || s[i+2] == ',' || s[i+2] == '?' || s[i+2] == '!'
}
