package broker

import (
	"context"
	"time"
)

// admitWait is how long an audio turn waits for a decode slot before it answers busy.
const admitWait = time.Second

// admission bounds how many audio turns hold their body and decoded samples in memory at
// once. A turn is admitted before its body is read, so a flood of uploads waits in the
// kernel's socket buffers instead of the broker's heap (200 concurrent 1.4 MB uploads once
// peaked at 3.8 GB RSS when every one was decoded at once).
type admission struct {
	slots chan struct{}
}

func newAdmission(n int) *admission {
	return &admission{slots: make(chan struct{}, max(n, 1))}
}

// admit waits up to admitWait for a slot. It returns a release func, or false when the
// broker is busy or ctx ended.
func (a *admission) admit(ctx context.Context) (func(), bool) {
	release := func() { <-a.slots }
	select {
	case a.slots <- struct{}{}:
		return release, true
	default:
	}
	timer := time.NewTimer(admitWait)
	defer timer.Stop()
	select {
	case a.slots <- struct{}{}:
		return release, true
	case <-timer.C:
	case <-ctx.Done():
	}
	return nil, false
}
