package calendar

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/redact"
)

// A calendar full of things a robot must never say.
const sensitiveICS = `BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//EN
BEGIN:VEVENT
UID:1
SUMMARY:Divorce lawyer - Smith & Partners re: custody
LOCATION:Acme Corp HQ, 1 Secret Road, Room 404
DESCRIPTION:Bring the bank statements. PIN 4321.
ATTENDEE:mailto:lawyer@smith.example
ORGANIZER:mailto:dad@family.example
CATEGORIES:work
DTSTART;TZID=Europe/London:20261130T090000
DTEND;TZID=Europe/London:20261130T110000
END:VEVENT
BEGIN:VEVENT
UID:2
SUMMARY:Oncology follow-up with Dr. House
LOCATION:St. Mary's Hospital
DTSTART;TZID=Europe/London:20261130T110000
DTEND;TZID=Europe/London:20261130T120000
END:VEVENT
BEGIN:VEVENT
UID:3
SUMMARY:Weekly standup (Project Nightingale)
RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=20
EXDATE;TZID=America/New_York:20261202T090000
DTSTART;TZID=America/New_York:20261125T090000
DTEND;TZID=America/New_York:20261125T093000
END:VEVENT
BEGIN:VEVENT
UID:4
SUMMARY:Holiday in Lisbon
DTSTART;VALUE=DATE:20261130
DTEND;VALUE=DATE:20261203
CATEGORIES:travelling
END:VEVENT
BEGIN:VEVENT
UID:5
SUMMARY:Cancelled thing
STATUS:CANCELLED
DTSTART:20261130T130000Z
DTEND:20261130T150000Z
END:VEVENT
END:VCALENDAR
`

func writeICS(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "dad.ics")
	os.WriteFile(p, []byte(strings.ReplaceAll(sensitiveICS, "\n", "\r\n")), 0o600)
	return p
}

func status(t *testing.T, at time.Time) redact.CalendarStatus {
	t.Helper()
	london, _ := time.LoadLocation("Europe/London")
	src := ICS{Location: writeICS(t), Loc: london, Vocab: redact.Whereabouts}
	occ, err := src.Occurrences(context.Background(), at.Add(-24*time.Hour), at.Add(7*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	return Status("dad", occ, at)
}

func TestBusyUntilTheEndOfBackToBackEvents(t *testing.T) {
	london, _ := time.LoadLocation("Europe/London")
	st := status(t, time.Date(2026, 11, 30, 9, 30, 0, 0, london))
	// 9-11 then 11-12 back to back: busy until 12, at work (from CATEGORIES).
	if !st.Busy || !st.Until.Equal(time.Date(2026, 11, 30, 12, 0, 0, 0, london)) || st.Whereabouts != "work" {
		t.Fatalf("%+v", st)
	}
}

func TestFreeUntilTheNextEventAcrossTimeZonesAndRecurrence(t *testing.T) {
	london, _ := time.LoadLocation("Europe/London")
	// 12:30 London: free; the weekly 09:00 New York standup on Monday is 14:00 London.
	st := status(t, time.Date(2026, 11, 30, 12, 30, 0, 0, london))
	if st.Busy || !st.Until.Equal(time.Date(2026, 11, 30, 14, 0, 0, 0, london)) {
		t.Fatalf("%+v", st)
	}
	// The all-day holiday (transparent by default) gives the whereabouts but not "busy".
	if st.Whereabouts != "travelling" {
		t.Fatalf("whereabouts %q", st.Whereabouts)
	}
	// Wednesday 2 December is an EXDATE: 14:10 London is free; the cancelled event never counts.
	st = status(t, time.Date(2026, 12, 2, 14, 10, 0, 0, london))
	if st.Busy {
		t.Fatalf("EXDATE ignored: %+v", st)
	}
	st = status(t, time.Date(2026, 11, 30, 14, 10, 0, 0, london))
	if !st.Busy || !st.Until.Equal(time.Date(2026, 11, 30, 14, 30, 0, 0, london)) {
		t.Fatalf("recurring standup: %+v", st)
	}
}

func TestSpokenAnswerCarriesNothingFromTheEvents(t *testing.T) {
	london, _ := time.LoadLocation("Europe/London")
	at := time.Date(2026, 11, 30, 9, 30, 0, 0, london)
	said := redact.SayCalendar(status(t, at), london, at, nil)
	if said != "Dad is busy until 12 PM, at work." {
		t.Fatalf("%q", said)
	}
	for _, w := range []string{"lawyer", "Smith", "custody", "Acme", "Secret", "404", "Oncology", "House", "Mary", "Nightingale", "Lisbon", "4321"} {
		if strings.Contains(said, w) {
			t.Fatalf("spoke %q", w)
		}
	}
}

func TestKeywordRulesMapToTheVocabularyOnly(t *testing.T) {
	london, _ := time.LoadLocation("Europe/London")
	src := ICS{Location: writeICS(t), Loc: london, Vocab: redact.Whereabouts,
		Rules: []Rule{{Keyword: "hospital", Whereabouts: "out"}, {Keyword: "standup", Whereabouts: "Project Nightingale"}}}
	at := time.Date(2026, 11, 30, 11, 30, 0, 0, london)
	occ, err := src.Occurrences(context.Background(), at.Add(-time.Hour), at.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if st := Status("dad", occ, at); st.Whereabouts != "out" {
		t.Fatalf("%+v", st)
	}
	at = time.Date(2026, 11, 30, 14, 10, 0, 0, london)
	occ, _ = src.Occurrences(context.Background(), at.Add(-time.Hour), at.Add(time.Hour))
	if st := Status("dad", occ, at); st.Whereabouts == "Project Nightingale" {
		t.Fatal("a rule smuggled a word outside the vocabulary")
	}
}

func TestBrokenCalendarFileIsAnError(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.ics")
	os.WriteFile(p, []byte("BEGIN:VCALENDAR\r\nthis is not\r\n"), 0o600)
	if _, err := (ICS{Location: p}).Occurrences(context.Background(), time.Now(), time.Now().Add(time.Hour)); err == nil {
		t.Fatal("broken file accepted")
	}
}
