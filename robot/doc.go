// Package robot owns the hub's side, on the Reachy Mini: a typed client for a closed subset
// of the robot daemon's HTTP API (and an in-process fake of it with the daemon's quirks),
// audio capture and playback (PortAudio, or WAV files in sim mode), the listen/send/speak
// loop with its motion policy, and the broker client that holds the robot's one token.
//
// The robot is untrusted, so this package must never hold anything but that token: no model,
// no calendar, no credentials; it must never write captured audio to disk, never follow a
// redirect to another origin with the token, and never send the daemon a pose outside the
// limits in limits.go.
package robot
