package broker

import (
	"context"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
)

// Quiet time and teleport: the room asking for quiet ("be quiet for an hour") ends the
// robot's session — a call in progress, or a join still waiting to play its chime — with
// the reason quiet_time, whether it was said as a turn or heard during the call; while it
// lasts no join is let in (console.quietTime) and the owner's typed and push-to-talk speech
// is refused (console.quietSpeech).

// quietEnds wraps the robot.quiet handler: quiet time that is on once it has run ends the
// robot's session.
type quietEnds struct {
	b    *Broker
	next intents.Handler
}

func (h quietEnds) Handle(ctx context.Context, c intents.Call) (intents.Answer, error) {
	a, err := h.next.Handle(ctx, c)
	if err == nil && h.b.d.Quiet.Quiet(c.Device) {
		h.b.console.EndSession(ctx, c.Device, api.CallEndQuietTime)
	}
	return a, err
}

// quietHeard acts on quiet time asked for during a call (the room's voice through the
// hub's open microphone), as the same sentence would act as a turn: it is audited like a
// turn's (route heard: the intent and its closed arguments, never the words), then the
// robot.quiet handler runs — which ends the session.
func (b *Broker) quietHeard(ctx context.Context, device string, d intents.Decision) {
	h, ok := b.d.Handlers["robot.quiet"]
	in, known := b.d.Table().Lookup(d.Intent)
	if !ok || !known {
		return
	}
	outcome := store.OutcomeOK
	_, err := h.Handle(ctx, intents.Call{Intent: in, Args: d.Args, Device: device, Room: b.d.Config.DeviceRoom(device), Table: b.d.Table()})
	if err != nil {
		outcome = store.OutcomeFailed
		b.log.Warn("quiet time heard in a call could not be set", "device", device, "err", err)
	}
	rec := store.AuditRecord{Time: b.d.Now().UTC(), TurnID: newTurnID(), Device: device, Route: "heard", Intent: d.Intent,
		Args: store.AllowlistArgs(d.Args), Outcome: outcome}
	if err := b.d.State.AppendAudit(ctx, rec); err != nil {
		b.log.Error("quiet time heard in a call: audit failed", "device", device, "err", err)
	}
}
