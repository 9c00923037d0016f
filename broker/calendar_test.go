package broker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/intents/calendar"
	"github.com/reachy-broker/reachy-broker/redact"
)

// TestIsDadBusyAnswersCoarsely: "is dad busy" against a calendar full of sensitive titles,
// places and people is answered with busy/until/whereabouts and nothing else.
func TestIsDadBusyAnswersCoarsely(t *testing.T) {
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" +
		"BEGIN:VEVENT\r\nUID:a\r\nSUMMARY:Custody hearing with Smith & Partners\r\nLOCATION:Family Court\\, Room 4\r\n" +
		"DESCRIPTION:Bring bank statements\r\nATTENDEE:mailto:judge@court.example\r\nCATEGORIES:out\r\n" +
		"DTSTART;TZID=Europe/London:20261130T140000\r\nDTEND;TZID=Europe/London:20261130T153000\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:b\r\nSUMMARY:Therapy\r\nDTSTART;TZID=Europe/London:20261130T153000\r\nDTEND;TZID=Europe/London:20261130T160000\r\nEND:VEVENT\r\n" +
		"END:VCALENDAR\r\n"
	path := filepath.Join(t.TempDir(), "dad.ics")
	os.WriteFile(path, []byte(ics), 0o600)
	london, _ := time.LoadLocation("Europe/London")
	now := func() time.Time { return time.Date(2026, 11, 30, 14, 30, 0, 0, london) }
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		d.Now = now
		d.Handlers["calendar"] = calendar.Handler{Now: now, Sources: map[string]calendar.Source{
			"dad": calendar.ICS{Location: path, Loc: london, Vocab: redact.Whereabouts}}}
	})
	tr := tb.say(t, tb.token(t, "robot", "text", "calendar:read"), "hey jeeves, is dad busy?").turn(t)
	if tr.Intent != "calendar.status" || tr.Reply != "Dad is busy until 4 PM, out." {
		t.Fatalf("%+v", tr)
	}
	for _, w := range []string{"Custody", "Smith", "Court", "bank", "judge", "Therapy"} {
		if strings.Contains(tr.Reply, w) {
			t.Fatalf("spoke %q", w)
		}
	}
	// A person without a calendar, and a calendar that cannot be read, say so.
	if tr := tb.say(t, tb.token(t, "robot", "text", "calendar:read"), "is mom busy").turn(t); !strings.Contains(tr.Reply, "don't have mom's calendar") {
		t.Fatalf("%+v", tr)
	}
	os.Remove(path)
	if tr := tb.say(t, tb.token(t, "robot", "text", "calendar:read"), "is dad busy").turn(t); !strings.Contains(tr.Reply, "can't reach dad's calendar") {
		t.Fatalf("%+v", tr)
	}
}
