package calendar

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/emersion/go-ical"
	"github.com/emersion/go-webdav"
	"github.com/emersion/go-webdav/caldav"
)

// maxICS bounds what is read from a calendar file or URL.
const maxICS = 8 << 20

// ICS reads an iCalendar file or http(s) URL on every call (calendars change).
type ICS struct {
	Location   string // a path, or an http(s) URL (e.g. a secret "private address" feed)
	Loc        *time.Location
	Vocab      []string
	Rules      []Rule
	HTTPClient *http.Client
}

// Occurrences reads and expands the calendar.
func (s ICS) Occurrences(ctx context.Context, from, to time.Time) ([]Occurrence, error) {
	var r io.ReadCloser
	if strings.HasPrefix(s.Location, "http://") || strings.HasPrefix(s.Location, "https://") {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.Location, nil)
		if err != nil {
			return nil, err
		}
		resp, err := noRedirects(s.HTTPClient).Do(req)
		if err != nil {
			return nil, fmt.Errorf("calendar feed: %w", err)
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return nil, fmt.Errorf("calendar feed: HTTP %d", resp.StatusCode)
		}
		r = resp.Body
	} else {
		f, err := os.Open(s.Location)
		if err != nil {
			return nil, fmt.Errorf("calendar file: %w", err)
		}
		r = f
	}
	defer r.Close()
	cal, err := ical.NewDecoder(io.LimitReader(r, maxICS)).Decode()
	if err != nil {
		return nil, fmt.Errorf("calendar: %w", err)
	}
	return Expand(cal, from, to, s.loc(), s.Vocab, s.Rules)
}

func (s ICS) loc() *time.Location {
	if s.Loc != nil {
		return s.Loc
	}
	return time.Local
}

// noRedirects copies a client and makes it refuse redirects: a feed URL carries a secret.
func noRedirects(c *http.Client) *http.Client {
	out := &http.Client{Timeout: 10 * time.Second}
	if c != nil {
		copied := *c
		out = &copied
	}
	out.CheckRedirect = func(*http.Request, []*http.Request) error { return errors.New("calendar: redirect refused") }
	return out
}

// CalDAV reads one calendar collection from a CalDAV server.
type CalDAV struct {
	Endpoint   string // server root, e.g. http://radicale.home:5232/
	Calendar   string // collection path, e.g. /dad/calendar/
	Username   string
	Password   string // from a file or the environment
	Loc        *time.Location
	Vocab      []string
	Rules      []Rule
	HTTPClient *http.Client
}

// Occurrences queries events in the window and expands them.
func (s CalDAV) Occurrences(ctx context.Context, from, to time.Time) ([]Occurrence, error) {
	var hc webdav.HTTPClient = noRedirects(s.HTTPClient)
	if s.Username != "" {
		hc = webdav.HTTPClientWithBasicAuth(hc, s.Username, s.Password)
	}
	c, err := caldav.NewClient(hc, s.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("caldav: %w", err)
	}
	q := &caldav.CalendarQuery{
		CompRequest: caldav.CalendarCompRequest{Name: "VCALENDAR", AllProps: true, AllComps: true},
		CompFilter: caldav.CompFilter{Name: "VCALENDAR", Comps: []caldav.CompFilter{{
			Name: "VEVENT", Start: from.UTC(), End: to.UTC(),
		}}},
	}
	objs, err := c.QueryCalendar(ctx, s.Calendar, q)
	if err != nil {
		return nil, fmt.Errorf("caldav query: %w", err)
	}
	loc := s.Loc
	if loc == nil {
		loc = time.Local
	}
	var out []Occurrence
	for _, o := range objs {
		occ, err := Expand(o.Data, from, to, loc, s.Vocab, s.Rules)
		if err != nil {
			return nil, err
		}
		out = append(out, occ...)
	}
	return out, nil
}
