package timers

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

const childEnv = "REACHY_TIMERS_CHILD"

func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		runChild(dir, os.Getenv("REACHY_TIMERS_START"))
		return
	}
	os.Exit(m.Run())
}

// printLink is the child's robot link: every ring is printed as a line the parent reads.
type printLink struct{}

func (printLink) Send(ctx context.Context, dev string, m api.LinkMessage) (api.LinkAckBody, error) {
	if m.Type == api.LinkRing {
		fmt.Printf("ring %s %d %s\n", m.Ring.TimerID, m.Ring.Repeat, m.Ring.WAV)
	}
	return api.LinkAckBody{OK: true}, nil
}

func (printLink) Connected() []string { return []string{"kitchen-robot"} }

// runChild is a broker process as far as timers go: the state database, the scheduler on the
// wall clock, a link that prints. With start set ("1500ms pasta") it sets that timer first.
func runChild(dir, start string) {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "state.db")+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)")
	if err != nil {
		panic(err)
	}
	svc, err := Open(context.Background(), Deps{DB: db, Link: printLink{}, Synth: textSynth{},
		Audit:    func(context.Context, Record) error { return nil },
		RoomOf:   func(string) string { return "kitchen" },
		Settings: Settings{LateAfter: 300 * time.Millisecond}})
	if err != nil {
		panic(err)
	}
	if start != "" {
		d, label, _ := strings.Cut(start, " ")
		dur, err := time.ParseDuration(d)
		if err != nil {
			panic(err)
		}
		t, err := svc.Start(context.Background(), "laptop", "kitchen", label, dur)
		if err != nil {
			panic(err)
		}
		fmt.Printf("started %s %d\n", t.ID, t.Due.UnixMilli())
	}
	fmt.Println("running")
	svc.Run(context.Background())
}

type timerChild struct {
	cmd   *exec.Cmd
	lines chan string
}

func startTimerChild(t *testing.T, dir, start string) *timerChild {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+dir, "REACHY_TIMERS_START="+start)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &timerChild{cmd: cmd, lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() { c.cmd.Process.Kill(); c.cmd.Wait() })
	return c
}

// expect waits (bounded) for a line with the prefix.
func (c *timerChild) expect(t *testing.T, prefix string, within time.Duration) string {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				t.Fatalf("child exited before %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-deadline:
			t.Fatalf("no %q from the child within %v", prefix, within)
		}
	}
}

func (c *timerChild) kill9(t *testing.T) {
	t.Helper()
	c.cmd.Process.Kill() // SIGKILL: no shutdown code runs
	c.cmd.Wait()
}

// A timer set just before the broker is killed -9 is kept and rings at its time in the next
// broker process.
func TestBrokerKilledAndRestartedKeepsAndRingsATimer(t *testing.T) {
	dir := t.TempDir()
	a := startTimerChild(t, dir, "2s pasta")
	started := a.expect(t, "started ", 10*time.Second)
	a.kill9(t)
	var id string
	var dueMS int64
	fmt.Sscanf(started, "started %s %d", &id, &dueMS)
	b := startTimerChild(t, dir, "")
	ring := b.expect(t, "ring "+id+" 1 ", 15*time.Second)
	late := time.Since(time.UnixMilli(dueMS))
	if !strings.HasSuffix(ring, "Your pasta timer is done.") {
		t.Fatalf("ring %q", ring)
	}
	t.Logf("rang in the restarted broker %v after its due time", late)
}

// A timer that came due while the broker was down rings when it is back, saying so.
func TestTimerDueWhileBrokerWasDownRingsLate(t *testing.T) {
	dir := t.TempDir()
	a := startTimerChild(t, dir, "1s eggs")
	started := a.expect(t, "started ", 10*time.Second)
	a.kill9(t)
	var id string
	var dueMS int64
	fmt.Sscanf(started, "started %s %d", &id, &dueMS)
	for time.Since(time.UnixMilli(dueMS)) < time.Second {
		time.Sleep(20 * time.Millisecond) // a poll: the broker stays down past the due time
	}
	b := startTimerChild(t, dir, "")
	ring := b.expect(t, "ring "+id+" 1 ", 15*time.Second)
	if !strings.Contains(ring, "Your eggs timer went off ") || !strings.HasSuffix(ring, " ago.") {
		t.Fatalf("ring %q", ring)
	}
}
