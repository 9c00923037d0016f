package broker

import (
	"context"
	"slices"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
)

// Privacy mode ("Reachy, privacy mode on") refuses every teleport call to a robot and ends
// the one in progress, until the room says "privacy mode off". It is the room's switch
// alone: the privacy.set intent is room-voice-only (a robot's spoken turn, or a clip it
// heard during a call), and it is kept in the state store, so a restart does not lift it.

const (
	replyPrivacyOn     = "Privacy mode is on. Nobody can call in until you say privacy mode off."
	replyPrivacyOff    = "Privacy mode is off. Calls can come in again."
	replyRoomVoiceOnly = "Sorry, only someone in the room can switch that, by voice."
)

// roomVoice reports whether a turn is the room's own voice: audio spoken to a robot (a
// configured device or one holding the robot link), not typed text, a typed call or MCP.
func (b *Broker) roomVoice(t *turn) bool {
	if t.route != "turn" {
		return false
	}
	return t.c.Has("link") || slices.ContainsFunc(b.d.Config.Devices, func(d DeviceConfig) bool { return d.Name == t.c.Name })
}

// privacySet is the handler of privacy.set: it records the mode and, when it is turned on,
// ends the robot's call at once.
type privacySet struct{ b *Broker }

func (h privacySet) Handle(ctx context.Context, c intents.Call) (intents.Answer, error) {
	on := c.Args["state"] != "off"
	if err := h.b.setPrivacy(ctx, c.Device, on); err != nil {
		return intents.Answer{}, err
	}
	if on {
		return intents.Answer{Reply: replyPrivacyOn, Expression: intents.ExpressionNeutral}, nil
	}
	return intents.Answer{Reply: replyPrivacyOff, Expression: intents.ExpressionNeutral}, nil
}

// setPrivacy records device's privacy mode, then, when on, ends its session or call with
// the reason privacy. The record comes first: a join that starts meanwhile sees it.
func (b *Broker) setPrivacy(ctx context.Context, device string, on bool) error {
	if err := b.d.State.SetPrivacy(ctx, device, on, b.d.Now()); err != nil {
		return err
	}
	if on {
		b.console.EndSession(ctx, device, api.CallEndPrivacy)
	}
	b.log.Info("privacy mode", "device", device, "on", on)
	return nil
}

// privacyHeard acts on "privacy mode on" heard during a call (the room's voice through the
// hub's open microphone). The switch is audited like a turn's, before it is made; nothing
// of what was said is kept.
func (b *Broker) privacyHeard(ctx context.Context, device string, d intents.Decision) {
	on := d.Args["state"] != "off"
	state := "off"
	if on {
		state = "on"
	}
	rec := store.AuditRecord{Time: b.d.Now().UTC(), TurnID: newTurnID(), Device: device, Route: "heard", Intent: "privacy.set",
		Args: map[string]string{"state": state}, Outcome: store.OutcomeOK}
	if err := b.d.State.AppendAudit(ctx, rec); err != nil {
		b.log.Error("privacy mode heard in a call: audit failed; the call ends anyway", "device", device, "err", err)
		// The room asked for privacy: ending the call is always safe, even unrecorded.
		if on {
			b.console.EndSession(ctx, device, api.CallEndPrivacy)
		}
		return
	}
	if err := b.setPrivacy(ctx, device, on); err != nil {
		b.log.Error("privacy mode heard in a call could not be recorded; the call ends", "device", device, "err", err)
		if on {
			b.console.EndSession(ctx, device, api.CallEndPrivacy)
		}
	}
}

// roomVoiceOnly reports whether the named intent may be caused only by the room's voice.
func roomVoiceOnly(table *intents.Table, name string) bool {
	in, ok := table.Lookup(name)
	return ok && in.RoomVoiceOnly
}
