package timers

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
)

// Handler types of the timer intents (the intent table binds them by these names).
const (
	HandlerStart  = "timer.start"
	HandlerStatus = "timer.status"
	HandlerCancel = "timer.cancel"
)

// MaxDuration is the longest timer; the shortest is one second.
const MaxDuration = 24 * time.Hour

// LabelAll is the label argument of "cancel all timers".
const LabelAll = "all"

// Handlers returns the timer intents' handlers by handler type. Spoken turns and typed calls
// (and any later tool call) reach the same handlers.
func (s *Service) Handlers() map[string]intents.Handler {
	return map[string]intents.Handler{
		HandlerStart:  intents.HandlerFunc(s.handleStart),
		HandlerStatus: intents.HandlerFunc(s.handleStatus),
		HandlerCancel: intents.HandlerFunc(s.handleCancel),
	}
}

// Register adds the timer handlers to a handler map and wraps its robot.stop handler so that
// "stop" (and "okay") also silences a ringing timer.
func (s *Service) Register(handlers map[string]intents.Handler) {
	for name, h := range s.Handlers() {
		handlers[name] = h
	}
	handlers[HandlerRobotStop] = StopRinging{Timers: s, Next: handlers[HandlerRobotStop]}
}

// HandlerRobotStop is the handler type of robot.stop, which Register wraps.
const HandlerRobotStop = "robot.stop"

func (s *Service) roomOf(c intents.Call) string {
	if c.Room != "" {
		return c.Room
	}
	return s.d.RoomOf(c.Device)
}

func say(reply, expression string) intents.Answer {
	return intents.Answer{Reply: reply, Expression: expression}
}

func (s *Service) handleStart(ctx context.Context, c intents.Call) (intents.Answer, error) {
	secs, err := strconv.Atoi(c.Args["duration"])
	if err != nil || secs < 1 || time.Duration(secs)*time.Second > MaxDuration {
		return say("I can set a timer from one second to twenty-four hours.", intents.ExpressionSorry), nil
	}
	label := c.Args["label"]
	if label == LabelAll {
		label = ""
	}
	d := time.Duration(secs) * time.Second
	room := s.roomOf(c)
	t, err := s.Start(ctx, c.Device, room, label, d)
	if err != nil {
		if errors.Is(err, ErrFull) {
			return say("There are already "+Number(s.set.MaxPerRoom)+" timers running here. Cancel one first.", intents.ExpressionSorry), nil
		}
		return intents.Answer{}, err
	}
	name := "Timer"
	if label != "" {
		name = capitalize(label) + " timer"
	}
	reply := "Okay. " + name + " set for " + SayDuration(d) + "."
	if s.nobodyToRing(t) {
		where := "here"
		if room != "" {
			where = "in the " + room
		}
		s.log.Warn("a timer was set where no robot can ring it: none is configured or linked in its room", "room", room,
			"label", label, "set_by", c.Device, "due_in", d.String())
		return say(reply+" But no robot is linked "+where+" to ring it.", intents.ExpressionSorry), nil
	}
	return say(reply, intents.ExpressionHappy), nil
}

// nobodyToRing reports whether no robot the broker knows (configured, or linked since
// start) is in the timer's place: unless one links there before it is due, it rings
// nowhere. Without a robot link at all (a tool, a test) it says nothing.
func (s *Service) nobodyToRing(t *Timer) bool {
	s.mu.Lock()
	l := s.link
	s.mu.Unlock()
	return l != nil && len(s.targets(t)) == 0 && len(s.knownRobots(t.place())) == 0
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	b := []byte(s)
	if b[0] >= 'a' && b[0] <= 'z' {
		b[0] -= 'a' - 'A'
	}
	return string(b)
}

// nameOf is how a timer is called in a sentence: "the pasta timer", "the ten-minute timer",
// "the timer for one hour and twenty minutes".
func nameOf(t Timer) string {
	if t.Label != "" {
		return "the " + t.Label + " timer"
	}
	secs := int(t.Duration / time.Second)
	for _, u := range []struct {
		secs int
		word string
	}{{3600, "hour"}, {60, "minute"}, {1, "second"}} {
		if secs%u.secs == 0 && secs/u.secs < 100 {
			return "the " + Number(secs/u.secs) + "-" + u.word + " timer"
		}
	}
	return "the timer for " + SayDuration(t.Duration)
}

func (s *Service) describe(t Timer, now time.Time) string {
	if t.Rings > 0 || !t.Due.After(now) {
		return nameOf(t) + " is done"
	}
	return nameOf(t) + " has " + SayLeft(t.Due.Sub(now)) + " left"
}

func withLabel(ts []Timer, label string) []Timer {
	var out []Timer
	for _, t := range ts {
		if t.Label == label {
			out = append(out, t)
		}
	}
	return out
}

func sentence(s string) string { return capitalize(s) + "." }

func (s *Service) handleStatus(ctx context.Context, c intents.Call) (intents.Answer, error) {
	ts := s.List(c.Device, s.roomOf(c))
	now := s.clock.Now()
	label := c.Args["label"]
	if label != "" && label != LabelAll {
		ts = withLabel(ts, label)
		if len(ts) == 0 {
			return say("There's no "+label+" timer running.", intents.ExpressionNeutral), nil
		}
	}
	switch len(ts) {
	case 0:
		return say("There are no timers running.", intents.ExpressionNeutral), nil
	case 1:
		return say(sentence(s.describe(ts[0], now)), intents.ExpressionNeutral), nil
	}
	var parts []string
	for _, t := range ts {
		parts = append(parts, s.describe(t, now))
	}
	return say("You have "+Number(len(ts))+" timers: "+joinAnd(parts)+".", intents.ExpressionNeutral), nil
}

func (s *Service) handleCancel(ctx context.Context, c intents.Call) (intents.Answer, error) {
	ts := s.List(c.Device, s.roomOf(c))
	label := c.Args["label"]
	if len(ts) == 0 {
		return say("There are no timers running.", intents.ExpressionNeutral), nil
	}
	var pick []Timer
	switch {
	case label == LabelAll:
		pick = ts
	case label != "":
		if pick = withLabel(ts, label); len(pick) == 0 {
			return say("There's no "+label+" timer running.", intents.ExpressionNeutral), nil
		}
	case len(ts) == 1:
		pick = ts
	default:
		// "Cancel the timer" with several running: the one ringing is meant, if exactly one
		// rings; otherwise ask which.
		var ringing []Timer
		for _, t := range ts {
			if t.Rings > 0 {
				ringing = append(ringing, t)
			}
		}
		if len(ringing) != 1 {
			var names []string
			for _, t := range ts {
				names = append(names, nameOf(t))
			}
			return intents.Answer{Reply: "You have " + Number(len(ts)) + " timers: " + joinOr(names) + ". Which one should I cancel?",
				Expression: intents.ExpressionCurious, FollowUp: true}, nil
		}
		pick = ringing
	}
	ids := make([]string, len(pick))
	for i, t := range pick {
		ids[i] = t.ID
	}
	n, err := s.Cancel(ctx, ids...)
	if err != nil {
		return intents.Answer{}, err
	}
	switch {
	case n == 0:
		return say("That timer has already finished.", intents.ExpressionNeutral), nil
	case n == 1:
		return say("Okay, I cancelled "+nameOf(pick[0])+".", intents.ExpressionNeutral), nil
	}
	return say("Okay, I cancelled "+Number(n)+" timers.", intents.ExpressionNeutral), nil
}

func joinOr(parts []string) string {
	if len(parts) < 2 {
		return joinAnd(parts)
	}
	return joinAnd(parts[:len(parts)-1]) + " or " + parts[len(parts)-1]
}

// StopRinging wraps the robot.stop handler: "stop" (or "okay", when the table routes it
// there) while a timer rings silences the timer as well as the robot.
type StopRinging struct {
	Timers *Service
	Next   intents.Handler
}

// Handle silences the caller's ringing timers, then stops the robot as Next does.
func (h StopRinging) Handle(ctx context.Context, c intents.Call) (intents.Answer, error) {
	n, err := h.Timers.Silence(ctx, c.Device)
	if err != nil {
		return intents.Answer{}, err
	}
	if h.Next == nil {
		return intents.Answer{Expression: intents.ExpressionStop}, nil
	}
	a, err := h.Next.Handle(ctx, c)
	if err == nil && n > 0 && a.Reply == "" {
		a.Reply = "Okay."
	}
	return a, err
}
