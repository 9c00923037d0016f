package broker

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"slices"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/console"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/speech"
)

// PersonIdentifier names the person behind a connection (tsnet WhoIs: the user's login,
// display name and the node's tags).
type PersonIdentifier interface {
	Person(ctx context.Context, remoteAddr string) (console.Person, error)
}

// identify is the console's identity source: the tailnet, or in dev mode the --dev-owner
// login for loopback connections only.
func (b *Broker) identify(ctx context.Context, remoteAddr string) (console.Person, error) {
	if b.d.People != nil {
		return b.d.People.Person(ctx, remoteAddr)
	}
	if b.d.DevOwner == "" {
		return console.Person{}, console.ErrNoDevOwner
	}
	ap, err := netip.ParseAddrPort(remoteAddr)
	if err != nil || !ap.Addr().Unmap().IsLoopback() {
		return console.Person{}, fmt.Errorf("dev owner: %s is not a loopback connection", remoteAddr)
	}
	return console.Person{Login: b.d.DevOwner, Node: "localhost"}, nil
}

func (b *Broker) newConsole() (*console.Console, error) {
	cfg := b.d.Config
	owners := slices.Clone(cfg.Teleport.Owners)
	if b.d.DevOwner != "" {
		owners = append(owners, b.d.DevOwner)
	}
	var synth func(context.Context, string) ([]byte, error)
	if b.d.Synthesizer != nil {
		synth = b.d.Synthesizer.Synthesize
	}
	return console.New(console.Deps{
		Owners:   owners,
		Identify: b.identify,
		Link:     b.link,
		Robots:   b.robots,
		Expressions: func() []string {
			var out []string
			for name := range b.d.Table().Home.Expressions {
				out = append(out, name)
			}
			slices.Sort(out)
			return out
		},
		Synthesize: synth,
		Hear:       b.hear,
		Audit:      b.auditConsole,
		LastTurn: func(ctx context.Context, device string) time.Time {
			t, err := b.d.State.LastTurn(ctx, device)
			if err != nil {
				b.log.Warn("last turn", "err", err)
			}
			return t
		},
		QuietUntil:  b.d.Quiet.Until,
		HTTPSOff:    b.d.ConsoleHTTPS.Off,
		Privacy:     b.d.State.Privacy,
		Consent:     cfg.Teleport.consentOf,
		AskTimeout:  cfg.Teleport.AskTimeout,
		Notify:      b.notifyMissedCall,
		RingTimeout: cfg.Teleport.RingTimeout,
		Missed:      missedCalls{b.d.State},
		IdleTimeout: cfg.Teleport.IdleTimeout,
		PageTimeout: b.d.PageTimeout,
		JoinTimeout: cfg.Teleport.JoinTimeout,
		MaxTalk:     cfg.Teleport.MaxTalk,
		// Loopback media only where the broker itself is on loopback (dev mode): on the
		// tailnet a loopback candidate would be the owner's or the robot's own machine.
		LoopbackMedia: b.d.Identifier == nil,
		CallLive:      b.ops.noteCallLive,
		Logger:        b.log,
		Now:           b.d.Now,
	})
}

// robots are the configured devices and any other device that has linked since start.
func (b *Broker) robots() []console.Robot {
	var out []console.Robot
	seen := map[string]bool{}
	room := func(device string) string {
		if r := b.d.Config.DeviceRoom(device); r != "" {
			return r
		}
		return b.d.Table().Home.DeviceRoom
	}
	for _, d := range b.d.Config.Devices {
		out = append(out, console.Robot{Device: d.Name, Room: room(d.Name)})
		seen[d.Name] = true
	}
	for _, st := range b.link.Statuses() {
		if !seen[st.Device] {
			out = append(out, console.Robot{Device: st.Device, Room: room(st.Device)})
		}
	}
	return out
}

// hear transcribes and routes an utterance heard during a session. The transcript goes to
// the owner's page only; it is never logged or stored.
func (b *Broker) hear(ctx context.Context, device string, wav []byte) (console.Heard, error) {
	var text string
	if b.d.Transcriber == nil {
		said, ok := speech.SpokenText(wav)
		if !b.d.DevClipText || !ok {
			return console.Heard{Note: console.NoteNoSTT}, nil // the clip still plays; the page says why it has no words
		}
		// A dev broker without a model: the clip's own words (reachyctl speak) stand in.
		b.log.Info("dev mode, no speech model: a heard clip's own words (reachyctl speak) taken as its transcript", "device", device,
			"label", CodeDevClipText)
		text = said
	} else {
		clip, err := speech.DecodeWAV(wav, b.d.Config.Turn.MaxAudio)
		if err != nil {
			return console.Heard{}, err
		}
		speech.RemoveDC(clip.Samples) // as a turn's audio (decodeAudio)
		if text, err = b.d.Transcriber.Transcribe(ctx, clip.Samples); err != nil {
			return console.Heard{}, err
		}
	}
	d := b.d.Table().Route(text, intents.Context{DeviceRoom: b.d.Config.DeviceRoom(device)})
	switch d.Intent {
	case "privacy.set":
		b.privacyHeard(ctx, device, d) // the room's voice, heard in the call
	case "robot.quiet":
		b.quietHeard(ctx, device, d) // "be quiet for an hour", said in the call: it ends
	}
	return console.Heard{Text: text, Intent: d.Intent}, nil
}

// auditConsole writes one console action: who (the owner's login), which robot, what kind,
// and a closed argument — never words or audio. An action audited before it is carried out
// is one record: pending, then updated in place to its outcome.
func (b *Broker) auditConsole(ctx context.Context, a console.Action) error {
	args := map[string]string{"owner": a.Owner}
	// Only closed values are written; anything else (which the console refuses before it
	// gets here) is recorded as "unknown", never as the text it was.
	closed := func(ok bool) string {
		if ok {
			return a.Arg
		}
		return "unknown"
	}
	switch a.Kind {
	case "teleport.expression":
		_, ok := b.d.Table().Home.Expressions[a.Arg]
		args["expression"] = closed(ok)
	case "teleport.look":
		args["direction"] = closed(slices.Contains([]string{"left", "right", "up", "down", "centre", "point"}, a.Arg))
	case "teleport.end", "teleport.stop", "teleport.call":
		if a.Arg != "" {
			args["reason"] = closed(slices.Contains(api.CallEnds, a.Arg) ||
				slices.Contains([]string{console.EndNotAnnounced, "failed", "room", "start"}, a.Arg))
		}
	}
	b.ops.noteConsole(a, b.d.Now())
	outcome := store.OutcomeOK
	switch {
	case a.Pending:
		outcome = store.OutcomePending
	case !a.OK:
		outcome = store.OutcomeFailed
	}
	rec := store.AuditRecord{Time: b.d.Now().UTC(), TurnID: a.ID, Device: a.Device, Route: "console", Intent: a.Kind, Args: args,
		Outcome: outcome, Code: a.Code}
	if a.ID != "" && !a.Pending {
		// The outcome of an action audited before it was carried out: its record takes it.
		return b.d.State.SettleAudit(ctx, rec)
	}
	if rec.TurnID == "" {
		rec.TurnID = newTurnID()
	}
	return b.d.State.AppendAudit(ctx, rec)
}

// RunConsole ends idle teleport sessions and follows the robots' links until ctx ends.
func (b *Broker) RunConsole(ctx context.Context) { b.console.Run(ctx) }

// handleConsole serves the console page and its calls.
func (b *Broker) consoleHandler() http.Handler { return b.console.Handler() }

// Person names the tailnet user behind a connection: login, display name, node and tags.
func (t *Tailnet) Person(ctx context.Context, remoteAddr string) (console.Person, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	who, err := t.client.WhoIs(ctx, remoteAddr)
	if err != nil {
		return console.Person{}, fmt.Errorf("whois %s: %w", remoteAddr, err)
	}
	if who.Node == nil || who.UserProfile == nil {
		return console.Person{}, fmt.Errorf("whois %s: no node or user", remoteAddr)
	}
	p := console.Person{Login: who.UserProfile.LoginName, Display: who.UserProfile.DisplayName,
		Node: nodeName(who.Node.ComputedName, who.Node.Name)}
	if who.Node.IsTagged() {
		p.Tags = slices.Clone(who.Node.Tags)
	}
	return p, nil
}

// sessionEnd is the handler of the session.end intent ("hang up") when it arrives as a turn
// rather than over a session's link: it ends the calling robot's teleport session.
type sessionEnd struct{ b *Broker }

func (h sessionEnd) Handle(ctx context.Context, c intents.Call) (intents.Answer, error) {
	if h.b.console.EndSession(ctx, c.Device, console.EndHangUp) {
		return intents.Answer{Expression: intents.ExpressionNeutral}, nil // the console announces who left
	}
	return intents.Answer{Reply: "There is no call to hang up."}, nil
}

// TeleportLastEnds is how each robot's last teleport session or call ended (for the
// operator's status: the last call's outcome and its closed reason).
func (b *Broker) TeleportLastEnds() []console.LastEnd { return b.console.LastEnds() }
