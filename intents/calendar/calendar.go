// Package calendar answers calendar.status: is a person busy or free now, until when, and a
// whereabouts word from the owner's closed vocabulary. It reads an ICS file or URL, or a
// CalDAV calendar, expands recurring events (RRULE, RDATE, EXDATE) in their time zones, and
// hands the broker a redact.CalendarStatus — a type with no room for a title, location,
// attendee, organiser, description or company.
//
// It must never return event text of any kind: only busy/free, a time and a vocabulary word.
package calendar

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/emersion/go-ical"
	"github.com/teambition/rrule-go"

	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/redact"
)

// Occurrence is one instance of an event: times and the little the answer may use.
type Occurrence struct {
	Start, End  time.Time
	AllDay      bool
	Busy        bool   // OPAQUE (timed events default to busy, all-day events to free)
	Whereabouts string // a vocabulary word derived from CATEGORIES or the owner's keyword rules, or ""
}

// Source lists the occurrences of one person's calendar overlapping [from, to).
type Source interface {
	Occurrences(ctx context.Context, from, to time.Time) ([]Occurrence, error)
}

// Rule maps a keyword found in an event's categories, location or summary to a whereabouts
// word ("office" -> work). The keyword never leaves this package.
type Rule struct {
	Keyword     string `yaml:"keyword"`
	Whereabouts string `yaml:"whereabouts"`
}

// Handler is the intents.Handler for calendar.status.
type Handler struct {
	Sources map[string]Source // by person (canonical name)
	Now     func() time.Time
}

// Handle computes the person's status now.
func (h Handler) Handle(ctx context.Context, c intents.Call) (intents.Answer, error) {
	person := c.Args["person"]
	src, ok := h.Sources[person]
	if !ok {
		return intents.Answer{Reply: "I don't have " + person + "'s calendar.", Expression: intents.ExpressionSorry}, nil
	}
	now := time.Now()
	if h.Now != nil {
		now = h.Now()
	}
	occ, err := src.Occurrences(ctx, now.Add(-24*time.Hour), now.Add(7*24*time.Hour))
	if err != nil {
		if ctx.Err() != nil {
			return intents.Answer{}, ctx.Err()
		}
		return intents.Answer{Reply: "I can't reach " + person + "'s calendar right now.", Expression: intents.ExpressionSorry}, nil
	}
	st := Status(person, occ, now)
	return intents.Answer{Calendar: &st, Expression: intents.ExpressionNeutral}, nil
}

// Status reduces occurrences to the coarse answer at now.
func Status(person string, occ []Occurrence, now time.Time) redact.CalendarStatus {
	st := redact.CalendarStatus{Person: person}
	sort.Slice(occ, func(i, j int) bool { return occ[i].Start.Before(occ[j].Start) })
	covers := func(o Occurrence, t time.Time) bool { return !o.Start.After(t) && o.End.After(t) }
	for _, o := range occ {
		if covers(o, now) && o.Whereabouts != "" && (st.Whereabouts == "" || o.Busy) {
			st.Whereabouts = o.Whereabouts
		}
	}
	// Busy: follow the chain of busy events that overlap or touch, to when it ends.
	for _, o := range occ {
		if o.Busy && covers(o, now) {
			st.Busy = true
			if o.End.After(st.Until) {
				st.Until = o.End
			}
		}
	}
	if st.Busy {
		for changed := true; changed; {
			changed = false
			for _, o := range occ {
				if o.Busy && !o.Start.After(st.Until) && o.End.After(st.Until) {
					st.Until, changed = o.End, true
				}
			}
		}
		return st
	}
	for _, o := range occ {
		if o.Busy && o.Start.After(now) {
			st.Until = o.Start // free until the next busy event
			break
		}
	}
	return st
}

// Expand turns a parsed calendar into occurrences within [from, to), in loc for floating times.
func Expand(cal *ical.Calendar, from, to time.Time, loc *time.Location, vocab []string, rules []Rule) ([]Occurrence, error) {
	var out []Occurrence
	for _, ev := range cal.Events() {
		if st, _ := ev.Props.Text(ical.PropStatus); strings.EqualFold(st, "CANCELLED") {
			continue
		}
		if ev.Props.Get(ical.PropRecurrenceID) != nil {
			continue // a modified instance; the series still covers the slot
		}
		startProp := ev.Props.Get(ical.PropDateTimeStart)
		if startProp == nil {
			continue
		}
		allDay := startProp.ValueType() == ical.ValueDate || len(startProp.Value) == 8
		start, err := startProp.DateTime(loc)
		if err != nil {
			return nil, fmt.Errorf("event start: %w", err)
		}
		dur, err := duration(ev, start, allDay, loc)
		if err != nil {
			return nil, err
		}
		busy := !allDay
		if tr, _ := ev.Props.Text(ical.PropTransparency); tr != "" {
			busy = strings.EqualFold(tr, "OPAQUE")
		}
		where := whereabouts(ev, vocab, rules)
		add := func(s time.Time) {
			e := s.Add(dur)
			if e.After(from) && s.Before(to) {
				out = append(out, Occurrence{Start: s, End: e, AllDay: allDay, Busy: busy, Whereabouts: where})
			}
		}
		set, err := recurrence(ev, start, loc)
		if err != nil {
			return nil, err
		}
		if set == nil {
			add(start)
			continue
		}
		for _, s := range set.Between(from.Add(-dur), to, true) {
			add(s)
		}
	}
	return out, nil
}

func duration(ev ical.Event, start time.Time, allDay bool, loc *time.Location) (time.Duration, error) {
	if p := ev.Props.Get(ical.PropDateTimeEnd); p != nil {
		end, err := p.DateTime(loc)
		if err != nil {
			return 0, fmt.Errorf("event end: %w", err)
		}
		if end.Before(start) {
			return 0, errors.New("event ends before it starts")
		}
		return end.Sub(start), nil
	}
	if p := ev.Props.Get(ical.PropDuration); p != nil {
		d, err := p.Duration()
		if err != nil {
			return 0, fmt.Errorf("event duration: %w", err)
		}
		return d, nil
	}
	if allDay {
		return 24 * time.Hour, nil
	}
	return 0, nil
}

// recurrence builds the rule set: RRULE, RDATE and EXDATE (each may list several values).
func recurrence(ev ical.Event, start time.Time, loc *time.Location) (*rrule.Set, error) {
	opt, err := ev.Props.RecurrenceRule()
	if err != nil {
		return nil, fmt.Errorf("recurrence rule: %w", err)
	}
	rdates, err := dateList(ev.Props.Values(ical.PropRecurrenceDates), loc)
	if err != nil {
		return nil, err
	}
	if opt == nil && len(rdates) == 0 {
		return nil, nil
	}
	set := &rrule.Set{}
	set.DTStart(start)
	if opt != nil {
		opt.Dtstart = start
		r, err := rrule.NewRRule(*opt)
		if err != nil {
			return nil, fmt.Errorf("recurrence rule: %w", err)
		}
		set.RRule(r)
	} else {
		set.RDate(start)
	}
	for _, d := range rdates {
		set.RDate(d)
	}
	exdates, err := dateList(ev.Props.Values(ical.PropExceptionDates), loc)
	if err != nil {
		return nil, err
	}
	for _, d := range exdates {
		set.ExDate(d)
	}
	return set, nil
}

func dateList(props []ical.Prop, loc *time.Location) ([]time.Time, error) {
	var out []time.Time
	for _, p := range props {
		for _, v := range strings.Split(p.Value, ",") {
			one := p
			one.Value = strings.TrimSpace(v)
			t, err := one.DateTime(loc)
			if err != nil {
				return nil, fmt.Errorf("date list: %w", err)
			}
			out = append(out, t)
		}
	}
	return out, nil
}

func whereabouts(ev ical.Event, vocab []string, rules []Rule) string {
	var hay []string
	for _, p := range ev.Props.Values(ical.PropCategories) {
		for _, c := range strings.Split(p.Value, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			if slices.Contains(vocab, c) {
				return c
			}
			hay = append(hay, c)
		}
	}
	if loc, _ := ev.Props.Text(ical.PropLocation); loc != "" {
		hay = append(hay, strings.ToLower(loc))
	}
	if sum, _ := ev.Props.Text(ical.PropSummary); sum != "" {
		hay = append(hay, strings.ToLower(sum))
	}
	for _, r := range rules {
		for _, h := range hay {
			if r.Keyword != "" && strings.Contains(h, strings.ToLower(r.Keyword)) && slices.Contains(vocab, r.Whereabouts) {
				return r.Whereabouts
			}
		}
	}
	return ""
}
