package timers

import (
	"context"
	"fmt"
	"time"
)

// What a timer has left, across a restart and a stepped wall clock.
//
// The rows hold wall-clock times, written in the frame of the clock checkpoint beside them
// (wall time, boot ID, time since boot). What is trusted, in order:
//
//   - The boot clock, when the machine has not rebooted since the checkpoint: the time that
//     passed while the broker was down is exactly the boot clock's difference, whatever the
//     wall clock did. A timer keeps what it had left, minus that.
//   - Across a reboot only the wall clock is left. It is trusted forward (a machine that was
//     really off for two days lets its timers go as missed), never backward: a wall clock
//     behind the checkpoint counts as no more time having passed than the machine has been
//     up, so a timer never rings early.
//   - No checkpoint yet (a database from before it existed): the wall clock, as before.
//
// While the broker runs, every time it keeps carries Go's monotonic reading, so a wall-clock
// step does not move a timer; the checkpoint is saved every checkpointEvery, and when the
// wall clock is found to have been stepped since the last one every row is written again in
// the new frame, in the same transaction as the new checkpoint.

// checkpointEvery is how often the clock checkpoint is saved while the broker runs.
const checkpointEvery = time.Minute

// stepTolerance is how far the wall clock may drift from the boot clock between two
// checkpoints before it counts as stepped.
const stepTolerance = time.Second

// resume moves the loaded timers from the frame they were saved in to the clock as it reads
// now, and saves them and a fresh checkpoint.
func (s *Service) resume(ctx context.Context, ts []*Timer) error {
	cp, ok, err := s.st.loadCheckpoint(ctx)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	boot, up, bootErr := s.clock.Boot()
	then, trusted := resumeAt(cp, ok, now, boot, up, bootErr)
	if shift := now.Round(0).Sub(then); len(ts) > 0 && (shift > stepTolerance || shift < -stepTolerance) {
		s.log.Warn("the wall clock moved while the broker was down; timers keep the time they had left",
			"wall_clock_moved", shift.Round(time.Second), "measured_on", trusted)
	}
	for _, t := range ts {
		// A timer due before the last checkpoint came due while the broker ran, and nobody
		// played it: its wait for a robot counts from its due time, not from this start, so
		// a restart never lets it ring long after on a robot that links now.
		dueWhileUp := ok && t.Rings == 0 && t.Due.Before(cp.Wall)
		// now.Add keeps now's monotonic reading: from here on a wall-clock step does not move them.
		t.Created, t.Due = now.Add(t.Created.Sub(then)), now.Add(t.Due.Sub(then))
		t.NextRing, t.sched = now.Add(t.NextRing.Sub(then)), now.Add(t.sched.Sub(then))
		if dueWhileUp {
			s.noRobot[t.ID] = t.Due
		}
	}
	next := checkpoint{Wall: now, Up: up}
	if bootErr == nil {
		next.Boot = boot
	}
	if err := s.st.rebase(ctx, next, ts); err != nil {
		return fmt.Errorf("timers: %w", err)
	}
	s.cp = next
	return nil
}

// resumeAt is the wall-clock time, in the frame of checkpoint cp, that it is now; trusted
// names the clock that measured the time since cp.
func resumeAt(cp checkpoint, ok bool, now time.Time, boot string, up time.Duration, bootErr error) (time.Time, string) {
	switch {
	case !ok:
		return now.Round(0), "wall clock (no checkpoint)"
	case bootErr == nil && cp.Boot != "" && cp.Boot == boot && up >= cp.Up:
		return cp.Wall.Add(up - cp.Up), "boot clock"
	}
	elapsed := now.Round(0).Sub(cp.Wall)
	floor := time.Duration(0)
	if bootErr == nil && cp.Boot != "" && cp.Boot != boot {
		floor = up // the machine rebooted after the checkpoint: at least its uptime has passed
	}
	if elapsed < floor {
		return cp.Wall.Add(floor), "boot clock (the wall clock is behind the last checkpoint)"
	}
	return cp.Wall.Add(elapsed), "wall clock (the machine rebooted)"
}

// checkpoint saves the clock checkpoint; if the wall clock was stepped since the last one,
// every live timer's times are written again in the new frame with it.
func (s *Service) checkpoint(ctx context.Context) {
	now := s.clock.Now()
	boot, up, bootErr := s.clock.Boot()
	s.mu.Lock()
	defer s.mu.Unlock()
	last := s.cp
	var passed time.Duration
	if bootErr == nil && last.Boot == boot {
		passed = up - last.Up
	} else {
		passed = now.Sub(last.Wall) // monotonic when both readings carry it
	}
	next := checkpoint{Wall: now, Up: up}
	if bootErr == nil {
		next.Boot = boot
	}
	var ts []*Timer
	if drift := now.Round(0).Sub(last.Wall.Round(0)) - passed; drift > stepTolerance || drift < -stepTolerance {
		s.log.Warn("the wall clock was stepped; timers keep the time they had left", "stepped_by", drift.Round(time.Second))
		for _, t := range s.live {
			ts = append(ts, t)
		}
	}
	// Under s.mu: no ring's state is saved in between in the old frame.
	if err := s.st.rebase(ctx, next, ts); err != nil {
		s.log.Warn("timers' clock checkpoint not saved", "err", err)
		return
	}
	s.cp = next
}
