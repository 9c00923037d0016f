package redact

import (
	"slices"
	"strings"
	"time"
)

// Whereabouts is the default closed vocabulary for where someone is; the owner may configure
// another. Anything outside it is spoken as nothing at all.
var Whereabouts = []string{"home", "work", "school", "out", "travelling", "unknown"}

// CalendarStatus is everything a calendar answer may carry. It has no field for a title,
// location, attendee, organiser, description or company: coarseness is in the type.
type CalendarStatus struct {
	Person      string    // the configured short name ("dad")
	Busy        bool      // an event covers now
	Until       time.Time // when the current state ends (zero: not today / unknown)
	Whereabouts string    // from the closed vocabulary
}

// SayCalendar renders a status as one coarse sentence in loc ("Dad is busy until 3 PM, at
// work."). vocab is the owner's whereabouts vocabulary (Whereabouts when nil).
func SayCalendar(s CalendarStatus, loc *time.Location, now time.Time, vocab []string) string {
	if vocab == nil {
		vocab = Whereabouts
	}
	who := strings.ToUpper(s.Person[:1]) + s.Person[1:]
	var b strings.Builder
	b.WriteString(who)
	if s.Busy {
		b.WriteString(" is busy")
	} else {
		b.WriteString(" is free")
	}
	if !s.Until.IsZero() {
		u := s.Until.In(loc)
		n := now.In(loc)
		switch {
		case u.YearDay() == n.YearDay() && u.Year() == n.Year():
			b.WriteString(" until " + clock(u))
		case u.Sub(n) < 7*24*time.Hour:
			b.WriteString(" until " + u.Format("Monday") + " at " + clock(u))
		}
	}
	w := strings.ToLower(strings.TrimSpace(s.Whereabouts))
	if w != "" && w != "unknown" && slices.Contains(vocab, w) {
		switch w {
		case "home", "work", "school":
			b.WriteString(", at " + w)
		case "out", "travelling":
			b.WriteString(", " + w)
		default:
			b.WriteString(", " + w)
		}
	}
	b.WriteString(".")
	return b.String()
}

func clock(t time.Time) string {
	if t.Minute() == 0 {
		return t.Format("3 PM")
	}
	return t.Format("3:04 PM")
}
