package play

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
)

// zeroSource makes every draw the first choice: the robot always picks rock, the first
// animal (cat) is always the one in mind.
type zeroSource struct{}

func (zeroSource) Uint64() uint64 { return 1 } // IntN(n) is then 0 for every n, with no rejection

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) audit(_ context.Context, e Event) error {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
	return nil
}

func (r *recorder) all() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

func newGames(t *testing.T) (*Games, *fakeClock, *recorder) {
	t.Helper()
	table, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	c := &fakeClock{t: time.Date(2026, 12, 1, 16, 0, 0, 0, time.UTC)}
	r := &recorder{}
	g := New(Options{Table: table, Now: c.now, Rand: rand.New(zeroSource{}), Audit: r.audit, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(g.Close)
	return g, c, r
}

// say offers a sentence to the game as the broker does (normalized: lower case, no
// punctuation) and plays it when the game takes it.
func say(t *testing.T, g *Games, text string) (intents.Answer, bool) {
	t.Helper()
	c, ok := g.Claim("robot", intents.Normalized{Text: text})
	if !ok {
		return intents.Answer{}, false
	}
	return g.Answer(context.Background(), "robot", "", c), true
}

// TestRockPaperScissorsWinAndLoss: the robot picks at "shoot" and shows its pick with its
// gesture; the score is kept for the game, first to two wins, and the end is audited with the
// game's name and how it ended, never the hands played.
func TestRockPaperScissorsWinAndLoss(t *testing.T) {
	g, _, rec := newGames(t)
	a := g.Start(context.Background(), "robot", GameRPS)
	if !a.FollowUp || !strings.Contains(a.Reply, "shoot") {
		t.Fatalf("start: %+v", a)
	}
	a, ok := say(t, g, "paper")
	if !ok || !strings.Contains(a.Reply, "I picked rock") || !strings.Contains(a.Reply, "you win this one") ||
		!strings.Contains(a.Reply, "You lead 1 to 0") || a.Expression != "nod" || !a.FollowUp {
		t.Fatalf("round 1: %+v", a)
	}
	a, _ = say(t, g, "i pick rock")
	if !strings.Contains(a.Reply, "tie") || !strings.Contains(a.Reply, "You lead 1 to 0") {
		t.Fatalf("tie: %+v", a)
	}
	a, _ = say(t, g, "paper")
	if !strings.Contains(a.Reply, "You win the game, 2 to 0") || a.FollowUp || a.Expression != "celebrate" {
		t.Fatalf("win: %+v", a)
	}
	if _, ok := g.Active("robot"); ok {
		t.Fatal("the game did not end when it was won")
	}
	if _, ok := say(t, g, "rock"); ok {
		t.Fatal("a game that ended still took an answer")
	}
	// A loss.
	g.Start(context.Background(), "robot", GameRPS)
	say(t, g, "scissors")
	a, _ = say(t, g, "scissors")
	if !strings.Contains(a.Reply, "I win the game, 2 to 0") || a.FollowUp {
		t.Fatalf("loss: %+v", a)
	}
	ev := rec.all()
	if len(ev) != 2 || ev[0] != (Event{Time: ev[0].Time, Device: "robot", Game: GameRPS, Reason: EndFinished}) || ev[1].Reason != EndFinished {
		t.Fatalf("audit %+v", ev)
	}
}

// TestGuessTheAnimal: clues one at a time, synonyms and plurals count, a wrong guess of an
// animal the table does not know is never repeated back, "I give up" tells.
func TestGuessTheAnimal(t *testing.T) {
	g, _, rec := newGames(t)
	a := g.Start(context.Background(), "robot", GameAnimal)
	if !strings.Contains(a.Reply, "whiskers") || !a.FollowUp {
		t.Fatalf("start: %+v", a)
	}
	a, _ = say(t, g, "is it a dog")
	if !strings.Contains(a.Reply, "not a dog") || !strings.Contains(a.Reply, "purr") || !a.FollowUp {
		t.Fatalf("wrong guess: %+v", a)
	}
	a, ok := say(t, g, "is it a zebracorn")
	if !ok || strings.Contains(a.Reply, "zebracorn") || !strings.Contains(a.Reply, "meow") {
		t.Fatalf("unknown guess: %+v", a)
	}
	a, _ = say(t, g, "another clue")
	if !strings.Contains(a.Reply, "last clue") {
		t.Fatalf("out of clues: %+v", a)
	}
	if _, ok := say(t, g, "what is the capital of france"); ok {
		t.Fatal("the game took a sentence that is not its answer")
	}
	a, _ = say(t, g, "i think it is a kitten")
	if !strings.Contains(a.Reply, "Yes! I'm a cat") || !strings.Contains(a.Reply, "3 clues") || a.FollowUp {
		t.Fatalf("right guess by synonym: %+v", a)
	}
	g.Start(context.Background(), "robot", GameAnimal) // not the cat again
	a, _ = say(t, g, "i give up")
	if !strings.Contains(a.Reply, "I was a dog") || a.FollowUp {
		t.Fatalf("give up: %+v", a)
	}
	if ev := rec.all(); len(ev) != 2 || ev[0].Reason != EndFinished || ev[1].Reason != EndGaveUp || ev[1].Game != GameAnimal {
		t.Fatalf("audit %+v", ev)
	}
}

// TestGameStopsAndTimesOut: "stop the game" ends it; a minute without an answer ends it by
// itself (on the injected clock); a negated or unrelated sentence is never taken; a retried
// turn (same key) is not played twice.
func TestGameStopsAndTimesOut(t *testing.T) {
	g, clock, rec := newGames(t)
	g.Start(context.Background(), "robot", GameRPS)
	if _, ok := g.Claim("robot", intents.Normalized{Text: "stop the game", Negated: true}); ok {
		t.Fatal("a negated sentence was taken")
	}
	for _, s := range []string{"stop", "turn on the kitchen light", "rock and roll", "i played rock yesterday"} {
		if _, ok := g.Claim("robot", intents.Normalized{Text: s}); ok {
			t.Fatalf("%q was taken by the game", s)
		}
	}
	c, _ := g.Claim("robot", intents.Normalized{Text: "scissors"})
	a1 := g.Answer(context.Background(), "robot", "key-1", c)
	a2 := g.Answer(context.Background(), "robot", "key-1", c)
	if a1.Reply != a2.Reply || !strings.Contains(a2.Reply, "I lead 1 to 0") {
		t.Fatalf("a retried answer was played twice: %q then %q", a1.Reply, a2.Reply)
	}
	c, ok := g.Claim("robot", intents.Normalized{Text: "stop the game"})
	if !ok || c.Intent != IntentStop {
		t.Fatalf("stop the game: %+v %v", c, ok)
	}
	if a := g.Answer(context.Background(), "robot", "", c); a.Expression != intents.ExpressionStop || a.FollowUp {
		t.Fatalf("stop: %+v", a)
	}
	g.Start(context.Background(), "robot", GameAnimal)
	clock.add(59 * time.Second)
	if _, ok := g.Active("robot"); !ok {
		t.Fatal("the game ended before its minute")
	}
	clock.add(time.Second)
	if _, ok := say(t, g, "is it a cat"); ok {
		t.Fatal("a game took an answer after a minute without one")
	}
	ev := rec.all()
	if len(ev) != 2 || ev[0].Reason != EndStopped || ev[1].Reason != EndTimeout || ev[1].Game != GameAnimal {
		t.Fatalf("audit %+v", ev)
	}
}

// TestBrokenGameTableIsRefusedWithItsLine: a home's table that would make an animal
// unreachable, leave a clue empty or show an impossible move is refused, naming the file and
// line; a good one extends the built-in table.
func TestBrokenGameTableIsRefusedWithItsLine(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ yaml, want string }{
		{"animals:\n  - name: owl\n    clues: [I hoot at night., '']\n", "games.yaml:2: animal \"owl\": clue 2 is empty"},
		{"animals:\n  - name: owl\n    clues: [I hoot.]\n  - name: puppy dog\n    synonyms: [kitty]\n    clues: [Woof.]\n", "games.yaml:4: animal \"puppy dog\": \"kitty\" cannot reach it (it names \"cat\")"},
		{"animals:\n  - name: hare\n    synonyms: [i give up]\n    clues: [I hop.]\n", "games.yaml:2: animal \"hare\": \"i give up\" is one of the game's own phrases"},
		{"animals:\n  - name: bat\n", "games.yaml:2: animal \"bat\" has no clues"},
		{"simon_says:\n  moves:\n    - {say: spin around, look: {yaw_deg: 720}}\n", "games.yaml:3: move \"spin around\": the head turns at most"},
		{"simon_says:\n  moves:\n    - {say: jump, expression: backflip}\n", "games.yaml:3: move \"jump\": expression \"backflip\""},
		{"animals:\n  - name: owl\n    clue: [typo]\n", "games.yaml: unmarshal errors:\n  line 3: field clue not found"},
	} {
		p := filepath.Join(dir, "games.yaml")
		os.WriteFile(p, []byte(c.yaml), 0o644)
		_, err := LoadTable(p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.yaml, err, c.want)
		}
	}
	p := filepath.Join(dir, "games.yaml")
	os.WriteFile(p, []byte("animals:\n  - name: owl\n    synonyms: [barn owl]\n    clues: [I hoot at night.]\n"), 0o644)
	tb, err := LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	if i, ok := tb.animalNamed("barn owl"); !ok || tb.Animals[i].Name != "owl" {
		t.Fatal("the home's animal is not in the table")
	}
}

// TestDocumentedGameTableLoads: the family's example in docs/intents.md is a table that
// passes the self-test and adds what it says.
func TestDocumentedGameTableLoads(t *testing.T) {
	doc, err := os.ReadFile("../../docs/intents.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "# /etc/reachy-broker/games.yaml\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/intents.md has no games.yaml example")
	}
	p := filepath.Join(t.TempDir(), "games.yaml")
	os.WriteFile(p, []byte(block), 0o644)
	tb, err := LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tb.animalNamed("hoglet"); !ok || tb.RPS.Wins != 3 {
		t.Fatalf("the example's animals or settings are missing: wins %d", tb.RPS.Wins)
	}
}
