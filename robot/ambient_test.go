package robot

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/robot/ambient"
)

// ambientClock fires the scheduler's one timer when the test says so.
type ambientClock struct {
	mu  sync.Mutex
	now time.Time
	f   func()
}

func (c *ambientClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *ambientClock) AfterFunc(d time.Duration, f func()) ambient.Timer {
	c.mu.Lock()
	c.f = f
	c.mu.Unlock()
	return stopper{}
}

type stopper struct{}

func (stopper) Stop() bool { return true }

// tick fires the armed timer (the scheduler arms the next one as it fires).
func (c *ambientClock) tick() {
	c.mu.Lock()
	f := c.f
	c.now = c.now.Add(10 * time.Minute)
	c.mu.Unlock()
	f()
}

func gotos(f *FakeDaemon) int {
	n := 0
	for _, c := range f.Calls() {
		if strings.Contains(c.Path, "/api/move/goto") || strings.Contains(c.Path, "/api/move/play/") {
			n++
		}
	}
	return n
}

// TestHubAmbientMotion: the hub's body for ambient motion moves the robot (through the
// daemon, with no broker at all) when it is idle, and not while the room is talking, while
// the robot speaks, during a teleport session, or in the quiet time the broker answered.
func TestHubAmbientMotion(t *testing.T) {
	h, fake := linkTestHub(t) // no broker: ambient motion is the robot's own
	clk := &ambientClock{now: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	s, err := ambient.New(ambient.Config{Mean: time.Minute, Motions: []string{ambient.Twitch}}, h.AmbientBody(), clk, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	h.Ambient = s
	s.Start()
	defer s.Stop()
	clk.tick()
	if n := gotos(fake); n == 0 {
		t.Fatal("no ambient motion on an idle robot")
	}
	still := func(why string) {
		t.Helper()
		before := gotos(fake)
		clk.tick()
		if n := gotos(fake); n != before {
			t.Fatalf("moved %s", why)
		}
	}
	h.holdAmbient() // the room spoke
	still("just after the room spoke")
	h.mu.Lock()
	h.ambientHold = time.Time{}
	h.speakingUntil = time.Now().Add(time.Minute)
	h.mu.Unlock()
	still("while speaking")
	h.mu.Lock()
	h.speakingUntil = time.Time{}
	h.mu.Unlock()
	h.setPresence(context.Background(), true, "dad", false)
	base := gotos(fake) // the presence pose itself
	clk.tick()
	if gotos(fake) != base {
		t.Fatal("moved during a teleport session")
	}
	h.setPresence(context.Background(), false, "", false)
	h.noteQuiet(Reply{Intent: "robot.quiet", Outcome: "ok", Args: map[string]string{"state": "on", "duration": "3600"}})
	still("in quiet time")
	h.noteQuiet(Reply{Intent: "robot.quiet", Outcome: "ok", Args: map[string]string{"state": "off"}})
	before := gotos(fake)
	clk.tick()
	if gotos(fake) == before {
		t.Fatal("no motion after quiet time ended")
	}
}
