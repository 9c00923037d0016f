// Package quiet owns each robot's quiet time ("mute", "be quiet for an hour", "don't talk
// until I say so"): the robot.quiet intent's handler sets and ends it, it is held in memory
// per robot with an expiry read from an injected clock, and whatever would make a robot speak
// on its own asks it first — announcements and a timer's repeated rings become a short chime,
// a teleport join is refused.
//
// It must never silence an answer to a question asked directly (a turn is not asked here),
// never keep quiet time past its expiry or past the longest (twelve hours), and never write
// to disk: a restart ends quiet time, which errs towards the robot being heard.
package quiet

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
)

// HandlerType is the handler type of the robot.quiet intent.
const HandlerType = "robot.quiet"

// The shortest and longest quiet time; without a length, quiet time lasts the longest or
// until "you can talk again".
const (
	MinDuration = intents.MinQuietSeconds * time.Second
	MaxDuration = intents.MaxQuietSeconds * time.Second
)

// Times holds the robots' quiet times. The zero value is not usable: create it with New.
type Times struct {
	now   func() time.Time
	mu    sync.Mutex
	until map[string]time.Time // by device
}

// New returns an empty set of quiet times read on the clock now (time.Now in production).
func New(now func() time.Time) *Times {
	if now == nil {
		now = time.Now
	}
	return &Times{now: now, until: map[string]time.Time{}}
}

// Start makes device quiet for d (clamped to MinDuration..MaxDuration) from now and returns
// when it ends.
func (q *Times) Start(device string, d time.Duration) time.Time {
	d = min(max(d, MinDuration), MaxDuration)
	end := q.now().Add(d)
	q.mu.Lock()
	q.until[device] = end
	q.mu.Unlock()
	return end
}

// End ends device's quiet time; it reports whether the device was quiet.
func (q *Times) End(device string) bool {
	_, was := q.Until(device)
	q.mu.Lock()
	delete(q.until, device)
	q.mu.Unlock()
	return was
}

// Until reports whether device is quiet now, and until when.
func (q *Times) Until(device string) (time.Time, bool) {
	now := q.now()
	q.mu.Lock()
	defer q.mu.Unlock()
	end, ok := q.until[device]
	if ok && !now.Before(end) {
		delete(q.until, device) // over
		return time.Time{}, false
	}
	return end, ok
}

// Quiet reports whether device is quiet now.
func (q *Times) Quiet(device string) bool {
	_, ok := q.Until(device)
	return ok
}

// Handler is the robot.quiet handler. Starting quiet time first stops whatever the robot is
// saying as Stop does (the robot.stop handler: it silences a ringing timer too), and says
// nothing; ending it says so.
func (q *Times) Handler(stop intents.Handler) intents.Handler {
	return handler{q: q, stop: stop}
}

type handler struct {
	q    *Times
	stop intents.Handler
}

// Refusal is what the robot says to a length it cannot be quiet for.
const Refusal = "I can be quiet for one minute to twelve hours."

func (h handler) Handle(ctx context.Context, c intents.Call) (intents.Answer, error) {
	if c.Args["state"] == "off" {
		if h.q.End(c.Device) {
			return intents.Answer{Reply: "Okay, I can talk again.", Expression: intents.ExpressionHappy}, nil
		}
		return intents.Answer{Reply: "Okay.", Expression: intents.ExpressionNeutral}, nil
	}
	d := MaxDuration
	if s, ok := c.Args["duration"]; ok {
		secs, err := strconv.Atoi(s)
		if err != nil || secs < intents.MinQuietSeconds || secs > intents.MaxQuietSeconds {
			return intents.Answer{Reply: Refusal, Expression: intents.ExpressionSorry, Outcome: intents.OutcomeFailed}, nil
		}
		d = time.Duration(secs) * time.Second
	}
	a := intents.Answer{Expression: intents.ExpressionStop}
	if h.stop != nil {
		var err error
		if a, err = h.stop.Handle(ctx, c); err != nil {
			return intents.Answer{}, err
		}
	}
	h.q.Start(c.Device, d)
	a.Reply = "" // quiet now: the robot stops and says nothing
	return a, nil
}
