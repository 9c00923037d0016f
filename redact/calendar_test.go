package redact

import (
	"testing"
	"time"
)

func TestSayCalendarIsCoarse(t *testing.T) {
	loc, _ := time.LoadLocation("Europe/London")
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, loc)
	for _, tc := range []struct {
		s    CalendarStatus
		want string
	}{
		{CalendarStatus{Person: "dad", Busy: true, Until: now.Add(5 * time.Hour), Whereabouts: "work"}, "Dad is busy until 3 PM, at work."},
		{CalendarStatus{Person: "mom", Busy: false}, "Mom is free."},
		{CalendarStatus{Person: "mom", Busy: false, Until: now.Add(90 * time.Minute)}, "Mom is free until 11:30 AM."},
		{CalendarStatus{Person: "dad", Busy: true, Until: now.Add(50 * time.Hour), Whereabouts: "travelling"}, "Dad is busy until Wednesday at 12 PM, travelling."},
		{CalendarStatus{Person: "dad", Busy: true, Whereabouts: "Acme Corp HQ, Room 4"}, "Dad is busy."},
		{CalendarStatus{Person: "dad", Busy: true, Whereabouts: "unknown"}, "Dad is busy."},
	} {
		if got := SayCalendar(tc.s, loc, now, nil); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, got, tc.want)
		}
	}
}
