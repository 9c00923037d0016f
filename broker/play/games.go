package play

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/intents"
)

// The games, by the name the audit records; each is started by the intent "play."+name.
const (
	GameRPS    = "rps"
	GameAnimal = "animal"
	GameSimon  = "simon"
	GameFreeze = "freeze"
	GameHide   = "hide"
)

// Handler types of the play intents (intents/builtin.yaml).
const (
	HandlerStart  = "play"        // play.rps, play.animal, ...: start that game
	HandlerStop   = "play.stop"   // "stop the game" outside a game
	HandlerInvite = "play.invite" // a question about a game: how to start one
)

// IntentStop is the intent of "stop the game".
const IntentStop = "play.stop"

// DefaultTimeout is how long a game waits for an answer before it ends by itself.
const DefaultTimeout = time.Minute

// End reasons, as the audit records them.
const (
	EndFinished = "finished" // won, lost, guessed, or the script played to its end
	EndGaveUp   = "gave_up"
	EndStopped  = "stopped" // "stop the game"
	EndTimeout  = "timeout" // no answer for the timeout
	EndReplaced = "replaced"
	EndShutdown = "shutdown" // the broker stopped (Close)
)

// Event is what the audit hears of a game: which one, on which robot, and how it ended.
type Event struct {
	Time   time.Time
	Device string
	Game   string
	Reason string
}

// Robot sends a game's closed robot actions (play, expression, look, stop) over the robot
// link; the broker's link registry implements it.
type Robot interface {
	Send(ctx context.Context, device string, m api.LinkMessage) (api.LinkAckBody, error)
}

// Options configure Games. Table is required.
type Options struct {
	Table   *Table
	Now     func() time.Time // default time.Now
	Rand    *rand.Rand       // default: seeded from the clock
	Timeout time.Duration    // default DefaultTimeout
	// Robot and Say carry the games played out over time (Simon says, freeze dance, hide and
	// seek): their moves and lines go over the robot link after the turn that started them.
	// Without them those games say they need the robot link.
	Robot Robot
	Say   func(ctx context.Context, text string) ([]byte, error) // a line of the game -> WAV
	Audit func(ctx context.Context, e Event) error               // a game's end
	Log   *slog.Logger
}

// Games holds the game in play on each robot, in memory only.
type Games struct {
	o        Options
	mu       sync.Mutex
	rng      *rand.Rand
	sessions map[string]*session
	last     map[string]int                                  // the animal each robot last chose, not chosen twice in a row
	wg       sync.WaitGroup                                  // scripts in flight
	pause    func(ctx context.Context, d time.Duration) bool // a script's waits (tests: none)
}

// session is one game on one robot.
type session struct {
	game    string
	last    time.Time // the last answer (or the start)
	timer   *time.Timer
	lastKey string         // the Idempotency-Key of the last answer: a retry is not played twice
	lastAns intents.Answer // and what it was answered
	cancel  context.CancelFunc

	// rock, paper, scissors
	pick, robotWins, childWins int
	// guess the animal
	animal, clues int
}

// New returns the games over o.
func New(o Options) *Games {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Rand == nil {
		seed := uint64(time.Now().UnixNano())
		o.Rand = rand.New(rand.NewPCG(seed, seed>>1|1))
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return &Games{o: o, rng: o.Rand, sessions: map[string]*session{}, last: map[string]int{}, pause: sleep}
}

// Claim is a sentence a game took: which game, and the intent the turn is recorded as
// (play.answer or play.stop). What was said is not in it.
type Claim struct {
	Game   string
	Intent string
	move   move
}

// Active reports the game in play on device, if any (a game past its timeout ends here).
func (g *Games) Active(device string) (string, bool) {
	s := g.current(device)
	if s == nil {
		return "", false
	}
	return s.game, true
}

// current returns device's session, ending it first when it has timed out.
func (g *Games) current(device string) *session {
	g.mu.Lock()
	s := g.sessions[device]
	if s == nil {
		g.mu.Unlock()
		return nil
	}
	if s.cancel == nil && !g.o.Now().Before(s.last.Add(g.o.Timeout)) {
		g.mu.Unlock()
		g.end(device, s, EndTimeout)
		return nil
	}
	g.mu.Unlock()
	return s
}

// Claim offers a normalized sentence to the game in play on device: it takes the game's own
// answers and "stop the game", and nothing else. A negated sentence is never taken.
func (g *Games) Claim(device string, n intents.Normalized) (Claim, bool) {
	s := g.current(device)
	if s == nil || n.Negated || n.Text == "" {
		return Claim{}, false
	}
	if stopRE.MatchString(n.Text) {
		return Claim{Game: s.game, Intent: IntentStop, move: move{kind: moveStop}}, true
	}
	var m move
	ok := false
	switch s.game {
	case GameRPS:
		m, ok = parseRPS(n.Text)
	case GameAnimal:
		m, ok = g.o.Table.parseAnimal(n.Text)
	}
	if !ok {
		return Claim{}, false
	}
	return Claim{Game: s.game, Intent: intents.IntentPlayAnswer, move: m}, true
}

// Answer plays a claimed sentence in the game and says what the robot answers. key is the
// turn's Idempotency-Key: a retried turn is answered as before and never played twice.
func (g *Games) Answer(ctx context.Context, device, key string, c Claim) intents.Answer {
	g.mu.Lock()
	s := g.sessions[device]
	if s == nil || s.game != c.Game {
		g.mu.Unlock()
		return intents.Answer{Reply: "We're not playing that game any more.", Expression: intents.ExpressionNeutral}
	}
	if key != "" && key == s.lastKey {
		a := s.lastAns
		g.mu.Unlock()
		return a
	}
	s.last = g.o.Now()
	if s.timer != nil {
		s.timer.Reset(g.o.Timeout)
	}
	var a intents.Answer
	reason := ""
	switch {
	case c.move.kind == moveStop:
		a, reason = intents.Answer{Reply: "Okay, game over. That was fun!", Expression: intents.ExpressionStop}, EndStopped
	case s.game == GameRPS:
		a, reason = g.rpsAnswer(s, c.move)
	case s.game == GameAnimal:
		a, reason = g.animalAnswer(device, s, c.move)
	}
	s.lastKey, s.lastAns = key, a
	g.mu.Unlock()
	if reason != "" {
		g.end(device, s, reason)
		a.FollowUp = false
	}
	return a
}

// Start begins game on device (ending any other game there) and says its opening.
func (g *Games) Start(ctx context.Context, device, game string) intents.Answer {
	if s := g.current(device); s != nil {
		g.end(device, s, EndReplaced)
	}
	switch game {
	case GameSimon, GameFreeze, GameHide:
		if g.o.Robot == nil || g.o.Say == nil {
			return intents.Answer{Reply: "Sorry, I can't play that game without my robot link.", Expression: intents.ExpressionSorry,
				Outcome: intents.OutcomeFailed}
		}
	}
	s := &session{game: game, last: g.o.Now()}
	var a intents.Answer
	g.mu.Lock()
	switch game {
	case GameRPS:
		a = g.rpsStart(s)
	case GameAnimal:
		a = g.animalStart(device, s)
	case GameSimon, GameFreeze, GameHide:
		var steps []step
		a, steps = g.script(s, game)
		sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		s.cancel = cancel
		g.wg.Add(1)
		go func() {
			defer g.wg.Done()
			if g.run(sctx, device, steps) {
				g.end(device, s, EndFinished)
			}
		}()
	default:
		g.mu.Unlock()
		return intents.Answer{Reply: "I don't know that game.", Expression: intents.ExpressionConfused, Outcome: intents.OutcomeFailed}
	}
	if s.cancel == nil {
		s.timer = time.AfterFunc(g.o.Timeout, func() { g.current(device) })
	}
	g.sessions[device] = s
	g.mu.Unlock()
	a.FollowUp = true
	return a
}

// end ends s on device (if it is still the one in play) and audits how.
func (g *Games) end(device string, s *session, reason string) {
	g.mu.Lock()
	if g.sessions[device] != s {
		g.mu.Unlock()
		return
	}
	delete(g.sessions, device)
	if s.timer != nil {
		s.timer.Stop()
	}
	cancel := s.cancel
	g.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	g.o.Log.Info("game ended", "device", device, "game", s.game, "reason", reason)
	if g.o.Audit != nil {
		ctx, done := context.WithTimeout(context.Background(), 2*time.Second)
		defer done()
		if err := g.o.Audit(ctx, Event{Time: g.o.Now().UTC(), Device: device, Game: s.game, Reason: reason}); err != nil {
			g.o.Log.Error("the end of a game could not be audited", "device", device, "game", s.game, "err", err)
		}
	}
}

// Close ends every game (audited as EndShutdown) and waits for the scripts in flight.
func (g *Games) Close() {
	g.mu.Lock()
	var ds []string
	for d := range g.sessions {
		ds = append(ds, d)
	}
	g.mu.Unlock()
	for _, d := range ds {
		g.mu.Lock()
		s := g.sessions[d]
		g.mu.Unlock()
		if s != nil {
			g.end(d, s, EndShutdown)
		}
	}
	g.wg.Wait()
}

// Handlers are the play intents' handlers, by handler type.
func (g *Games) Handlers() map[string]intents.Handler {
	return map[string]intents.Handler{
		HandlerStart: intents.HandlerFunc(func(ctx context.Context, c intents.Call) (intents.Answer, error) {
			return g.Start(ctx, c.Device, strings.TrimPrefix(c.Intent.Name, "play.")), nil
		}),
		HandlerStop: intents.HandlerFunc(func(ctx context.Context, c intents.Call) (intents.Answer, error) {
			if s := g.current(c.Device); s != nil {
				return g.Answer(ctx, c.Device, "", Claim{Game: s.game, Intent: IntentStop, move: move{kind: moveStop}}), nil
			}
			return intents.Answer{Reply: "We aren't playing a game right now.", Expression: intents.ExpressionNeutral}, nil
		}),
		HandlerInvite: intents.HandlerFunc(func(ctx context.Context, c intents.Call) (intents.Answer, error) {
			if c.Table != nil { // the games this caller may play (intents.Table.GamesGuide)
				o := intents.GuideOptions{Scopes: c.Scopes, Available: c.Available, Callable: c.Callable, MaxChars: c.MaxReply}
				return intents.Answer{Reply: c.Table.GamesGuide(o), Expression: intents.ExpressionHappy, FollowUp: true}, nil
			}
			return intents.Answer{Reply: "I'd love to play! Say: let's play rock paper scissors, guess the animal, Simon says, freeze dance, or hide and seek.",
				Expression: intents.ExpressionHappy}, nil
		}),
	}
}
