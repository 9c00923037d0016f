package play

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/speech"
)

// linkRecorder is the robot link: it records each action (a play as the line it says) and
// acks busy the first time, as a robot still speaking the turn's reply does.
type linkRecorder struct {
	mu     sync.Mutex
	busy   bool
	lines  map[int]string // by WAV length: what Say made
	got    []string
	block  chan struct{} // when set, plays wait on it (a game in the middle of its music)
	played chan struct{}
}

func (l *linkRecorder) Send(ctx context.Context, device string, m api.LinkMessage) (api.LinkAckBody, error) {
	l.mu.Lock()
	if l.busy {
		l.busy = false
		l.mu.Unlock()
		return api.LinkAckBody{Code: api.LinkErrBusy}, nil
	}
	var s string
	switch m.Type {
	case api.LinkPlay:
		if line, ok := l.lines[len(m.Play.WAV)]; ok {
			s = "say:" + line
		} else {
			s = "tune"
		}
	case api.LinkExpression:
		s = "expression:" + m.Expression
	case api.LinkLook:
		s = fmt.Sprintf("look:%g,%g", m.Look.YawDeg, m.Look.PitchDeg)
	case api.LinkStop:
		s = "stop"
	}
	l.got = append(l.got, s)
	l.mu.Unlock()
	return api.LinkAckBody{OK: true}, nil
}

func (l *linkRecorder) actions() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.got...)
}

// say stands in for synthesis: a WAV whose length says which line it is.
func (l *linkRecorder) say(_ context.Context, text string) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := speech.SampleRate/10 + len(l.lines)*7
	wav, err := speech.EncodeWAV(make([]float32, n), speech.SampleRate)
	if err == nil {
		l.lines[len(wav)] = text
	}
	return wav, err
}

func scriptedGames(t *testing.T) (*Games, *linkRecorder, *recorder) {
	t.Helper()
	table, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	l := &linkRecorder{busy: true, lines: map[int]string{}}
	r := &recorder{}
	g := New(Options{Table: table, Rand: rand.New(rand.NewPCG(3, 4)), Robot: l, Say: l.say, Audit: r.audit,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	g.pause = func(ctx context.Context, d time.Duration) bool { return ctx.Err() == nil }
	t.Cleanup(g.Close)
	return g, l, r
}

func waitEnd(t *testing.T, g *Games, r *recorder) Event {
	t.Helper()
	for i := 0; i < 500; i++ {
		if ev := r.all(); len(ev) > 0 {
			return ev[0]
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the game never ended")
	return Event{}
}

// TestHideAndSeek: head down, the count to twenty and "ready or not", then a look around —
// after the robot has finished its own reply (the first action is refused busy and retried).
func TestHideAndSeek(t *testing.T) {
	g, l, r := scriptedGames(t)
	a := g.Start(context.Background(), "robot", GameHide)
	if !strings.Contains(a.Reply, "count to 20") || !a.FollowUp {
		t.Fatalf("start: %+v", a)
	}
	if ev := waitEnd(t, g, r); ev.Reason != EndFinished || ev.Game != GameHide {
		t.Fatalf("end %+v", ev)
	}
	got := strings.Join(l.actions(), " | ")
	want := "look:0,30 | say:1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20! Ready or not, here I come! | look:45,0 | look:-45,0 | look:0,0"
	if !strings.HasPrefix(got, want) {
		t.Fatalf("actions\n got %s\nwant %s ...", got, want)
	}
}

// TestFreezeDance: each round the robot dances to its own tune, then stops everything and
// says "Freeze!"; a few rounds, then the game ends.
func TestFreezeDance(t *testing.T) {
	g, l, r := scriptedGames(t)
	g.Start(context.Background(), "robot", GameFreeze)
	waitEnd(t, g, r)
	got := strings.Join(l.actions(), " | ")
	round := "expression:dance | tune | stop | say:Freeze!"
	if strings.Count(got, round) != 3 || !strings.HasSuffix(got, "expression:celebrate") {
		t.Fatalf("actions %s", got)
	}
}

// TestSimonSays: six calls, two of them without "Simon says" (never the first), each shown
// with the head or an expression; "stop the game" in the middle stops the script.
func TestSimonSays(t *testing.T) {
	g, l, r := scriptedGames(t)
	g.Start(context.Background(), "robot", GameSimon)
	waitEnd(t, g, r)
	var with, without int
	acts := l.actions()
	for i, a := range acts {
		line, ok := strings.CutPrefix(a, "say:")
		if !ok || strings.Contains(line, "Oops") || strings.Contains(line, "end of Simon") {
			continue
		}
		if strings.HasPrefix(line, "Simon says, ") {
			with++
		} else {
			without++
			if with == 0 {
				t.Fatal("the first call came without Simon says")
			}
		}
		if next := acts[i+1]; !strings.HasPrefix(next, "look:") && !strings.HasPrefix(next, "expression:") {
			t.Fatalf("a call not shown: %s then %s", a, next)
		}
	}
	if with != 4 || without != 2 {
		t.Fatalf("%d with and %d without Simon says: %v", with, without, acts)
	}

	// Stopped half-way: nothing more is sent, the end is audited as stopped.
	g2, l2, r2 := scriptedGames(t)
	gate, entered := make(chan struct{}), make(chan struct{}, 10)
	g2.pause = func(ctx context.Context, d time.Duration) bool {
		entered <- struct{}{}
		select {
		case <-ctx.Done():
			return false
		case <-gate:
			return true
		}
	}
	g2.Start(context.Background(), "robot", GameSimon)
	<-entered // after the first call
	gate <- struct{}{}
	<-entered // after its move: the script is waiting
	c, ok := g2.Claim("robot", intents.Normalized{Text: "stop the game"})
	if !ok {
		t.Fatal("stop the game was not taken during Simon says")
	}
	if _, ok := g2.Claim("robot", intents.Normalized{Text: "paper"}); ok {
		t.Fatal("Simon says took an answer")
	}
	g2.Answer(context.Background(), "robot", "", c)
	n := len(l2.actions())
	close(gate)
	time.Sleep(50 * time.Millisecond)
	if len(l2.actions()) != n {
		t.Fatalf("the script went on after stop: %v", l2.actions())
	}
	if ev := r2.all(); len(ev) != 1 || ev[0].Reason != EndStopped {
		t.Fatalf("end %+v", ev)
	}
}

// TestTuneIsTheProjectsOwn: the freeze-dance music is synthesized here — the asked length,
// never clipping, not silence, the same for the same seed and different for another.
func TestTuneIsTheProjectsOwn(t *testing.T) {
	a, b, c := Tune(1, 5*time.Second), Tune(1, 5*time.Second), Tune(2, 5*time.Second)
	if len(a) != 5*speech.SampleRate {
		t.Fatalf("%d samples", len(a))
	}
	var energy float64
	same, differs := true, false
	for i := range a {
		if a[i] > 1 || a[i] < -1 {
			t.Fatalf("clips at %d: %v", i, a[i])
		}
		energy += float64(a[i] * a[i])
		same = same && a[i] == b[i]
		differs = differs || a[i] != c[i]
	}
	if rms := math.Sqrt(energy / float64(len(a))); rms < 0.02 {
		t.Fatalf("too quiet: rms %.3f", rms)
	}
	if !same || !differs {
		t.Fatalf("same seed same tune %v, other seed other tune %v", same, differs)
	}
}
