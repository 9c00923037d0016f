package timers

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// The ring sentences. They are built from the closed label list and numbers only.
func (s *Service) sentence(t *Timer, now time.Time) string {
	name := "timer"
	if t.Label != "" {
		name = t.Label + " timer"
	}
	late := now.Sub(t.Due)
	if t.Rings == 0 && late > s.set.LateAfter {
		return "Your " + name + " went off " + SayAgo(late) + "."
	}
	return "Your " + name + " is done."
}

// maxVoices bounds the cache of synthesized ring sentences (labels are a closed list, so the
// usual sentences all fit).
const maxVoices = 64

// voice returns the spoken sentence, from the cache when it was made before.
func (s *Service) voice(ctx context.Context, text string) []byte {
	if s.d.Synth == nil {
		return nil
	}
	if s.d.Redact != nil {
		red, err := s.d.Redact(text)
		if err != nil || red != text {
			// The sentence is ours and closed; anything the redactor changes is not spoken.
			s.log.Warn("ring sentence did not pass the redactor; ringing with the chime only")
			return nil
		}
	}
	s.mu.Lock()
	wav, ok := s.voices[text]
	s.mu.Unlock()
	if ok {
		return wav
	}
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	wav, err := s.d.Synth.Synthesize(sctx, text)
	if err != nil {
		s.log.Warn("ring sentence not synthesized; ringing with the chime only", "err", err)
		return nil
	}
	s.mu.Lock()
	if len(s.voices) >= maxVoices {
		clear(s.voices)
	}
	s.voices[text] = wav
	s.mu.Unlock()
	return wav
}

// warm synthesizes the on-time sentences of pending timers ahead of their due time, so a
// ring costs no synthesis when it is due.
func (s *Service) warm(ctx context.Context) {
	if s.d.Synth == nil {
		return
	}
	s.mu.Lock()
	var want []string
	seen := map[string]bool{}
	for _, t := range s.live {
		if t.Rings > 0 {
			continue
		}
		text := s.sentence(t, t.Due)
		if _, ok := s.voices[text]; !ok && !seen[text] {
			seen[text] = true
			want = append(want, text)
		}
	}
	s.mu.Unlock()
	for _, text := range want {
		if ctx.Err() != nil {
			return
		}
		s.voice(ctx, text)
	}
}

var small = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
	"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}
var tens = []string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}

// Number says n in words below a hundred, in digits above.
func Number(n int) string {
	switch {
	case n < 0 || n >= 100:
		return strconv.Itoa(n)
	case n < 20:
		return small[n]
	case n%10 == 0:
		return tens[n/10]
	}
	return tens[n/10] + "-" + small[n%10]
}

func unit(n int, word string) string {
	if n == 1 {
		return "one " + word
	}
	return Number(n) + " " + word + "s"
}

// SayDuration says a timer's length exactly: "three seconds", "one hour and twenty
// minutes", "two minutes and thirty seconds".
func SayDuration(d time.Duration) string {
	secs := int(d.Round(time.Second) / time.Second)
	h, m, sec := secs/3600, secs%3600/60, secs%60
	var parts []string
	if h > 0 {
		parts = append(parts, unit(h, "hour"))
	}
	if m > 0 {
		parts = append(parts, unit(m, "minute"))
	}
	if sec > 0 || len(parts) == 0 {
		parts = append(parts, unit(sec, "second"))
	}
	return joinAnd(parts)
}

// SayLeft says what is left of a timer, as precisely as a person would want it: seconds
// under a minute, minutes and seconds under ten minutes, whole minutes above.
func SayLeft(d time.Duration) string {
	if d < time.Second {
		return "less than a second"
	}
	if d < 10*time.Minute {
		return SayDuration(d.Round(time.Second))
	}
	return SayDuration(d.Round(time.Minute))
}

// SayAgo says how long ago a timer went off: "twenty seconds ago", "two minutes ago".
func SayAgo(d time.Duration) string {
	if d < time.Minute {
		return SayDuration(d.Round(time.Second)) + " ago"
	}
	if d < time.Hour {
		return unit(int(d.Round(time.Minute)/time.Minute), "minute") + " ago"
	}
	return SayDuration(d.Round(time.Minute)) + " ago"
}

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
