// Package timers owns the family's kitchen timers: their durable rows in the broker's state
// database (and what each has left across a restart, on a stepped wall clock too), one
// scheduler that rings them at their due time over the robot link (a chime, "Your pasta timer
// is done", an expression; repeated until someone says "stop" or "okay") through one outbox
// per robot, late rings after a broker restart within a grace window, the copy of each room's
// pending timers the hub keeps so it can ring on its own, and the handlers of timer.start,
// timer.status and timer.cancel.
//
// It must never start a goroutine per timer, never let one robot's slowness delay another
// robot's ring, never count a ring the hub has not acked as played, never ring a timer twice
// (the hub's ack by ID and repeat decides who rang it), never ring without an audit record
// written first, never keep anything of a timer but its room, device, label (from a closed
// list) and times, and never act on free text.
package timers
