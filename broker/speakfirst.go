package broker

import (
	"context"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/link"
	"github.com/reachy-broker/reachy-broker/broker/timers"
)

// Robots is the robot link as timers and announcements use it: send an action to a robot by
// name, and which robots are connected.
type Robots struct{ R *link.Registry }

// Send delivers one action and waits for its ack.
func (r Robots) Send(ctx context.Context, device string, m api.LinkMessage) (api.LinkAckBody, error) {
	return r.R.Send(ctx, device, m)
}

// Connected lists the robots whose link is up.
func (r Robots) Connected() []string {
	var out []string
	for _, s := range r.R.Statuses() {
		if s.Online {
			out = append(out, s.Device)
		}
	}
	return out
}

// Robots is the broker's robot link for timers and announcements.
func (b *Broker) Robots() Robots { return Robots{R: b.link} }

// ConnectTimers feeds the timer service what the robots say over the link (give the service
// b.Robots() to ring over): a robot that connects gets its room's pending timers, a robot's
// report of timers it rang itself ends them, and "stop" said to a link action silences a
// ringing timer. It returns when ctx ends.
func (b *Broker) ConnectTimers(ctx context.Context, t *timers.Service) {
	unsubscribe := b.link.Subscribe(func(e link.Event) {
		ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		switch e.Kind {
		case link.EventUp:
			t.HubConnected(ectx, e.Device)
		case link.EventRang:
			if err := t.HubRang(ectx, e.Device, e.Rang); err != nil {
				b.log.Warn("timers rung on the hub not recorded", "device", e.Device, "err", err)
			}
		case link.EventStopped:
			t.HubStopped(ectx, e.Device)
		}
	})
	<-ctx.Done()
	unsubscribe()
}
