// Package call owns the hub's side of a live call (teleport, round 2): one pion WebRTC peer
// that answers the owner's browser, and the GStreamer subprocesses that capture the room
// (camera as H.264, microphone as Opus) and play the owner's voice on the robot's speaker.
// RTP crosses between them unchanged over pipes (RFC 4571 framing), so Go only forwards
// packets.
//
// It must never transcode in Go, never gather or accept anything but host candidates on the
// configured interfaces (no STUN, no TURN, no relay, no mDNS), never accept the owner's
// video, and never start a pipeline before the session's join announcement was played
// (Manager.Live gates every offer). Every call it starts it stops: pipelines are killed,
// the peer is closed, and every wait is bounded.
package call
