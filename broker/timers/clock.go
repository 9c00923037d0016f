package timers

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Clock is the scheduler's time source. Production uses SystemClock; tests inject a
// ManualClock so that no test sleeps until a timer is due.
//
// Two clocks are read. Now is the wall clock: it names due times to people and to the hub,
// and it can be stepped (NTP, an operator, a board without a real-time clock booting with a
// stale date). Boot is the machine's boot clock: it only moves forward, at the rate time
// passes, and is the same across a restart of the broker (not of the machine). What a timer
// has left across a restart is measured on the boot clock whenever the machine did not
// reboot; see Open.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives once d has passed, and a function that releases
	// it early.
	After(d time.Duration) (<-chan time.Time, func())
	// Boot returns which boot of the machine this is and how long ago it started; an error
	// means the boot clock cannot be read here (the wall clock is all there is).
	Boot() (id string, up time.Duration, err error)
}

// SystemClock is the wall clock, and Linux's boot clock (/proc/uptime, which counts through
// suspend and is not moved by setting the date) with the kernel's boot ID.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// After wraps time.NewTimer.
func (SystemClock) After(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}

// Boot reads /proc/sys/kernel/random/boot_id and /proc/uptime.
func (SystemClock) Boot() (string, time.Duration, error) {
	id, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return "", 0, fmt.Errorf("boot id: %w", err)
	}
	up, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return "", 0, fmt.Errorf("uptime: %w", err)
	}
	field, _, _ := strings.Cut(strings.TrimSpace(string(up)), " ")
	secs, err := strconv.ParseFloat(field, 64)
	if err != nil || secs < 0 {
		return "", 0, fmt.Errorf("uptime %q: not a number of seconds", field)
	}
	bootID := strings.TrimSpace(string(id))
	if bootID == "" {
		return "", 0, errors.New("boot id: empty")
	}
	return bootID, time.Duration(secs * float64(time.Second)), nil
}

// ManualClock is a clock that moves only when told to. Advance and Set are time passing
// (both clocks move); Jump steps the wall clock alone (as NTP or an operator would); Reboot
// starts a new boot. Waiters whose time has come are released by the move; they count time
// passing, not the wall clock, as a real timer does.
type ManualClock struct {
	mu      sync.Mutex
	now     time.Time
	boot    string
	boots   int
	up      time.Duration
	waiters []manualWaiter
}

type manualWaiter struct {
	at time.Duration // on the boot clock
	ch chan time.Time
}

// NewManualClock starts at t, an hour into its first boot.
func NewManualClock(t time.Time) *ManualClock {
	return &ManualClock{now: t, boot: "manual-boot-1", boots: 1, up: time.Hour}
}

// Now returns the clock's wall time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Boot returns the clock's boot and how long since it started.
func (c *ManualClock) Boot() (string, time.Duration, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.boot, c.up, nil
}

// After releases its channel when d has passed (Advance, Set; not Jump).
func (c *ManualClock) After(d time.Duration) (<-chan time.Time, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch, func() {}
	}
	c.waiters = append(c.waiters, manualWaiter{at: c.up + d, ch: ch})
	return ch, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, w := range c.waiters {
			if w.ch == ch {
				c.waiters = append(c.waiters[:i], c.waiters[i+1:]...)
				return
			}
		}
	}
}

// Advance lets d pass.
func (c *ManualClock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// Set lets time pass until the wall clock reads t (a t before now moves the wall clock back
// without time passing).
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d := t.Sub(c.now); d > 0 {
		c.up += d
	}
	c.now = t
	c.release()
}

// Jump steps the wall clock by d; no time passes.
func (c *ManualClock) Jump(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Reboot starts a new boot of the machine, up for the given time; no time passes on the wall
// clock (Set or Jump it as the test needs).
func (c *ManualClock) Reboot(up time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.boots++
	c.boot = "manual-boot-" + strconv.Itoa(c.boots)
	c.up = up
	c.waiters = nil
}

func (c *ManualClock) release() {
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at <= c.up {
			w.ch <- c.now
			continue
		}
		kept = append(kept, w)
	}
	c.waiters = kept
}

// Waiters is how many After channels are pending (tests wait for the scheduler to sleep).
func (c *ManualClock) Waiters() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}
