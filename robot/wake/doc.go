// Package wake owns the hub's wake-phrase spotter: it decides, on the robot, whether a stretch
// of speech the VAD heard addresses the robot ("hey reachy, ..."), so that nothing else ever
// leaves the robot. Spotter is the engine interface (PocketSphinx keyphrase search through
// cgo is the one shipped, with a second listen to a denoised copy when a steady noise sits
// close under the voice); Guard runs an engine with a deadline, one call at a time, so a
// crashing or stalled engine degrades to "not addressed" instead of wedging the hub; the
// evaluation set and its scoring (recall per SNR, false accepts per hour) live here too.
//
// It must never write captured audio anywhere (the evaluation set is synthetic speech the
// tests generate), never talk to the network, and never answer "addressed" when the engine
// failed: a fault is a quiet robot, not an open microphone.
package wake
