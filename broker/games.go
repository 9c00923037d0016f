package broker

import (
	"context"
	"fmt"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/play"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
)

// setupGames builds the broker's games when the caller gave none (from Config.Play: the
// home's game table over the built-in one, refused with its wrong line) and binds the play
// intents' handlers.
func (b *Broker) setupGames() error {
	if b.d.Games == nil {
		table, err := play.LoadTable(b.d.Config.Play.Table)
		if err != nil {
			return err
		}
		b.d.Games = play.New(play.Options{Table: table, Now: b.d.Now, Timeout: b.d.Config.Play.Timeout,
			Robot: b.link, Say: b.sayLine, Audit: GameAudit(b.d.State), Log: b.log})
	}
	for k, h := range b.d.Games.Handlers() {
		if _, ok := b.d.Handlers[k]; !ok {
			b.d.Handlers[k] = h
		}
	}
	return nil
}

// sayLine speaks a game's line over the link: through the reply's boundary, then synthesis.
func (b *Broker) sayLine(ctx context.Context, text string) ([]byte, error) {
	if b.d.Synthesizer == nil {
		return nil, fmt.Errorf("no speech synthesis configured")
	}
	res, err := b.speakable(text)
	if err != nil {
		return nil, err
	}
	return b.d.Synthesizer.Synthesize(ctx, res.Text)
}

// GameAudit writes a game's end to the audit log: which game, on which robot, how it ended —
// never anything said in it. (Its start is the turn that started it: intent play.<game>.)
func GameAudit(s *store.Store) func(context.Context, play.Event) error {
	return func(ctx context.Context, e play.Event) error {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		return s.AppendAudit(ctx, store.AuditRecord{Time: e.Time, TurnID: newTurnID(), Device: e.Device, Route: "play", Intent: "play.end",
			Args: map[string]string{"game": e.Game, "reason": e.Reason}, Outcome: store.OutcomeOK})
	}
}

// claimForGame offers a routed sentence to the game in play on the caller's robot: the
// game's own answers and "stop the game" become play.answer / play.stop (recorded with the
// game's name only); anything else keeps its route.
func (b *Broker) claimForGame(device string, d intents.Decision) (intents.Decision, play.Claim, bool) {
	if d.Intent == intents.IntentNone {
		return d, play.Claim{}, false
	}
	c, ok := b.d.Games.Claim(device, d.Normalized)
	if !ok {
		return d, play.Claim{}, false
	}
	return intents.Decision{Intent: c.Intent, Kind: intents.KindRobot, Scope: intents.ScopePlay,
		Args: map[string]string{"game": c.Game}, Normalized: d.Normalized}, c, true
}

// Close ends what the broker keeps only in memory and owes an audit record: every game in
// play is ended and audited as play.end "shutdown". Call it after the listeners stopped
// and before the state store closes.
func (b *Broker) Close() {
	// Every teleport session and call ends as broker_restart (audited; each robot told while
	// its link is up). RunConsole does it when its context ends; this waits for that, or does
	// it when the console was not run.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	b.console.Shutdown(ctx)
	cancel()
	if b.d.Games != nil {
		b.d.Games.Close()
	}
}
