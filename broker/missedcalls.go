package broker

import (
	"context"

	"github.com/reachy-broker/reachy-broker/broker/console"
	"github.com/reachy-broker/reachy-broker/broker/store"
)

// missedCalls keeps the console's missed call-backs in the state store (store.AddMissed), so
// a broker restart loses none.
type missedCalls struct{ s *store.Store }

func (m missedCalls) AddMissed(ctx context.Context, owner string, r console.Ring) error {
	return m.s.AddMissed(ctx, owner, store.MissedCall{Device: r.Device, Room: r.Room, Wanted: r.Wanted, At: r.At})
}

func (m missedCalls) Missed(ctx context.Context, owner string) ([]console.Ring, error) {
	ms, err := m.s.Missed(ctx, owner)
	out := make([]console.Ring, 0, len(ms))
	for _, c := range ms {
		out = append(out, console.Ring{ID: c.ID, Device: c.Device, Room: c.Room, Wanted: c.Wanted, At: c.At})
	}
	return out, err
}

func (m missedCalls) DismissMissed(ctx context.Context, owner string, id int) error {
	return m.s.DismissMissed(ctx, owner, id)
}

func (m missedCalls) ClearMissed(ctx context.Context, owner, device string) error {
	return m.s.ClearMissed(ctx, owner, device)
}
