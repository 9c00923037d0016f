// Package ambient owns the robot's ambient life: now and then, when nobody is talking, a
// small motion from a closed, configurable set (a slow look around, a glance toward a sound,
// an antenna twitch, a stretch, an evening yawn, a startle after a sudden loud sound, a
// peekaboo), at random intervals around a configured mean.
//
// It runs on the robot, in the hub, with one timer and no polling loop, so it keeps going
// when the broker is unreachable. It must never move while the robot speaks or listens,
// during a teleport session, in quiet time or in the home's quiet hours; never name a move
// outside its closed set (the Body performs them, clamped to the daemon's limits); and never
// record or send anything.
package ambient

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The closed set of ambient motions.
const (
	LookAround = "look_around" // a slow look left and right
	Glance     = "glance"      // toward the last sound's direction of arrival
	Twitch     = "twitch"      // a quick antenna twitch
	Stretch    = "stretch"     // head up, antennas high, and back
	Yawn       = "yawn"        // in the evening only
	Startle    = "startle"     // after a sudden loud sound, never on the timer
	Peekaboo   = "peekaboo"    // head down behind the antennas, then up
)

// All lists every ambient motion.
var All = []string{LookAround, Glance, Twitch, Stretch, Yawn, Startle, Peekaboo}

// Config is the hub's `ambient:` section.
type Config struct {
	Off         bool          `yaml:"off"`          // no ambient motion at all
	Mean        time.Duration `yaml:"mean"`         // mean time between motions; default 4m
	Motions     []string      `yaml:"motions"`      // which of All; default all
	QuietHours  string        `yaml:"quiet_hours"`  // e.g. "21:00-07:00": no motion then; default none
	EveningFrom string        `yaml:"evening_from"` // yawns only from this time until quiet hours; default 19:00
}

// Defaults fills what the file left out.
func (c *Config) Defaults() {
	if c.Mean == 0 {
		c.Mean = 4 * time.Minute
	}
	if len(c.Motions) == 0 {
		c.Motions = slices.Clone(All)
	}
	if c.EveningFrom == "" {
		c.EveningFrom = "19:00"
	}
}

// Validate checks the values.
func (c *Config) Validate() error {
	if c.Mean < 10*time.Second || c.Mean > 24*time.Hour {
		return fmt.Errorf("ambient.mean must be between 10s and 24h")
	}
	for _, m := range c.Motions {
		if !slices.Contains(All, m) {
			return fmt.Errorf("ambient.motions: %q is not one of %s", m, strings.Join(All, ", "))
		}
	}
	if _, _, err := parseSpan(c.QuietHours); c.QuietHours != "" && err != nil {
		return fmt.Errorf("ambient.quiet_hours: %v", err)
	}
	if _, err := parseClock(c.EveningFrom); err != nil {
		return fmt.Errorf("ambient.evening_from: %v", err)
	}
	return nil
}

// Body is the robot as the scheduler sees it.
type Body interface {
	// Busy reports whether the robot is speaking, listening, thinking or playing something.
	Busy() bool
	// SessionActive reports whether a teleport session (a call) is on.
	SessionActive() bool
	// Do performs one motion of the closed set, clamped to the daemon's limits; doa is the
	// last sound's direction (radians, 0 left, π/2 front, π right) for Glance, or nil.
	Do(ctx context.Context, motion string, doa *float64) error
}

// Clock is time for the scheduler: the real one, or a test's.
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc.
type Timer interface{ Stop() bool }

// RealClock is the wall clock.
type RealClock struct{}

// Now is time.Now.
func (RealClock) Now() time.Time { return time.Now() }

// AfterFunc is time.AfterFunc.
func (RealClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// moveTimeout bounds one motion.
const moveTimeout = 10 * time.Second

// startleGap is the least time between two startles.
const startleGap = time.Minute

// Scheduler makes the motions. Create it with New, then Start it.
type Scheduler struct {
	cfg   Config
	body  Body
	clock Clock
	quiet [2]int // quiet hours as minutes of the day [from, to); from == to: none
	eve   int
	log   func(msg string, args ...any)

	mu          sync.Mutex
	rng         *rand.Rand
	timer       Timer
	stopped     bool
	quietUntil  time.Time
	lastDOA     *float64
	lastStartle time.Time
	done        []string // motions made, for Made
}

// New returns a scheduler over body, drawing its intervals and choices from seed.
func New(cfg Config, body Body, clock Clock, seed uint64, log func(msg string, args ...any)) (*Scheduler, error) {
	cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if clock == nil {
		clock = RealClock{}
	}
	if log == nil {
		log = func(string, ...any) {}
	}
	s := &Scheduler{cfg: cfg, body: body, clock: clock, log: log, rng: rand.New(rand.NewPCG(seed, seed^0xa3b1e47))}
	if cfg.QuietHours != "" {
		s.quiet[0], s.quiet[1], _ = parseSpan(cfg.QuietHours)
	}
	s.eve, _ = parseClock(cfg.EveningFrom)
	return s, nil
}

// Start arms the one timer.
func (s *Scheduler) Start() {
	if s.cfg.Off {
		return
	}
	s.mu.Lock()
	s.stopped = false
	s.arm()
	s.mu.Unlock()
}

// Stop disarms it; no motion starts after Stop returns.
func (s *Scheduler) Stop() {
	s.mu.Lock()
	s.stopped = true
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.mu.Unlock()
}

// arm schedules the next motion after an exponential interval around the mean (clamped to
// a quarter and three times the mean). It is called with s.mu held.
func (s *Scheduler) arm() {
	d := time.Duration(s.rng.ExpFloat64() * float64(s.cfg.Mean))
	d = min(max(d, s.cfg.Mean/4), 3*s.cfg.Mean)
	s.timer = s.clock.AfterFunc(d, s.fire)
}

// QuietUntil sets the room's quiet time ("be quiet for an hour"), as the hub heard it
// answered; a zero time ends it.
func (s *Scheduler) QuietUntil(t time.Time) {
	s.mu.Lock()
	s.quietUntil = t
	s.mu.Unlock()
}

// Heard tells the scheduler about a sound: its direction of arrival (nil when unknown), and
// whether it was sudden and loud — then the robot startles at once, when it may move.
func (s *Scheduler) Heard(doa *float64, loud bool) {
	s.mu.Lock()
	if doa != nil {
		v := *doa
		s.lastDOA = &v
	}
	startle := loud && !s.stopped && !s.cfg.Off && slices.Contains(s.cfg.Motions, Startle) &&
		!s.clock.Now().Before(s.lastStartle.Add(startleGap))
	if startle {
		s.lastStartle = s.clock.Now()
	}
	s.mu.Unlock()
	if startle {
		go s.perform(Startle) // never on the caller's (the audio loop's) time
	}
}

// fire is the timer: make one motion if the robot may move now, then arm again.
func (s *Scheduler) fire() {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return
	}
	motion := s.choose()
	s.arm()
	s.mu.Unlock()
	if motion != "" {
		s.perform(motion)
	}
}

// choose picks a motion for now from the configured set ("" when none fits). It is called
// with s.mu held.
func (s *Scheduler) choose() string {
	now := s.clock.Now()
	var fits []string
	for _, m := range s.cfg.Motions {
		switch m {
		case Startle:
			continue // only after a loud sound
		case Glance:
			if s.lastDOA == nil {
				continue
			}
		case Yawn:
			if !s.evening(now) {
				continue
			}
		}
		fits = append(fits, m)
	}
	if len(fits) == 0 {
		return ""
	}
	return fits[s.rng.IntN(len(fits))]
}

// perform makes motion if nothing forbids it now.
func (s *Scheduler) perform(motion string) {
	if why := s.forbidden(); why != "" {
		s.log("ambient motion skipped", "motion", motion, "why", why)
		return
	}
	s.mu.Lock()
	var doa *float64
	if s.lastDOA != nil {
		v := *s.lastDOA
		doa = &v
	}
	s.done = append(s.done, motion)
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), moveTimeout)
	defer cancel()
	if err := s.body.Do(ctx, motion, doa); err != nil {
		s.log("ambient motion failed", "motion", motion, "err", err)
	}
}

// forbidden says why the robot must not move now ("" when it may).
func (s *Scheduler) forbidden() string {
	now := s.clock.Now()
	s.mu.Lock()
	quiet := now.Before(s.quietUntil)
	s.mu.Unlock()
	switch {
	case quiet:
		return "quiet time"
	case s.inQuietHours(now):
		return "quiet hours"
	case s.body.SessionActive():
		return "teleport session"
	case s.body.Busy():
		return "speaking or listening"
	}
	return ""
}

// Made lists the motions made so far, in order.
func (s *Scheduler) Made() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.done)
}

func minuteOfDay(t time.Time) int { return t.Hour()*60 + t.Minute() }

func (s *Scheduler) inQuietHours(t time.Time) bool {
	return within(minuteOfDay(t), s.quiet[0], s.quiet[1])
}

// evening: from evening_from until the quiet hours begin (or midnight without them).
func (s *Scheduler) evening(t time.Time) bool {
	end := 24 * 60
	if s.quiet[0] != s.quiet[1] && s.quiet[0] > s.eve {
		end = s.quiet[0]
	}
	return within(minuteOfDay(t), s.eve, end)
}

// within reports whether minute m is in [from, to), across midnight when to < from.
func within(m, from, to int) bool {
	switch {
	case from == to:
		return false
	case from < to:
		return m >= from && m < to
	}
	return m >= from || m < to
}

// parseSpan reads "21:00-07:00".
func parseSpan(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return 0, 0, fmt.Errorf("%q: want HH:MM-HH:MM", s)
	}
	from, err := parseClock(strings.TrimSpace(a))
	if err != nil {
		return 0, 0, err
	}
	to, err := parseClock(strings.TrimSpace(b))
	if err != nil {
		return 0, 0, err
	}
	if from == to {
		return 0, 0, fmt.Errorf("%q: an empty span", s)
	}
	return from, to, nil
}

// parseClock reads "HH:MM" as minutes of the day.
func parseClock(s string) (int, error) {
	h, m, ok := strings.Cut(s, ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return 0, fmt.Errorf("%q: want HH:MM", s)
	}
	return hh*60 + mm, nil
}

// Loud reports whether a 20 ms chunk is a sudden loud sound: its RMS level above -12 dBFS
// and at least 20 dB above the floor the caller keeps (an exponential average of quiet
// chunks). It updates floor.
func Loud(chunk []float32, floor *float64) bool {
	if len(chunk) == 0 {
		return false
	}
	var sum float64
	for _, v := range chunk {
		sum += float64(v) * float64(v)
	}
	rms := math.Sqrt(sum / float64(len(chunk)))
	f := *floor
	if f <= 0 {
		f = 1e-3
	}
	loud := rms > 0.25 && rms > 10*f
	if !loud {
		*floor = 0.95*f + 0.05*max(rms, 1e-4)
	}
	return loud
}
