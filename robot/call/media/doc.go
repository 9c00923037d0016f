// Package media is a live call's media, run in its own process (cmd/reachy-call) that the
// hub starts for the length of one call: one pion WebRTC peer that answers the owner's
// browser, and the GStreamer subprocesses that capture the room (camera as H.264,
// microphone as Opus) and play the owner's voice on the robot's speaker. RTP crosses between
// them unchanged over pipes (RFC 4571 framing), so Go only forwards packets. It speaks to
// the hub in JSON lines on stdin and stdout (robot/call's MediaRequest and MediaEvent).
//
// Only this package and cmd/reachy-call import pion: the hub, which listens all day, must not
// carry WebRTC's memory (docs/architecture.md).
//
// It must never transcode in Go, never gather anything but host candidates on the
// configured interfaces (no STUN, no TURN, no relay, no mDNS), never use a remote address
// outside the allowed networks — whether the offer named it or the browser's connectivity
// checks came from it (a peer-reflexive candidate: how the browser's tailnet address is
// usually learned, since browsers hide theirs behind mDNS names) — never accept the owner's
// video, and never start a pipeline before the hub said so (the hub says so only after the
// session's join announcement was played and the daemon handed the devices over). Every
// call it starts it stops — when its stdin ends, when it is told to stop, or when the hub
// dies (it dies with it, and its pipelines with it) — and every wait is bounded.
package media
