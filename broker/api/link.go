package api

import "time"

// The robot link (GET /v1/link) is one WebSocket the hub keeps open to the broker. Every
// frame is one JSON LinkMessage. Down (broker → hub) travel only the closed set of typed
// robot actions below — sound and typed actions, never text or data for the robot to act
// on. Up (hub → broker) travel acks, the hub's state, and what the hub hears during a
// teleport session or rang on its own.
//
// A message of a type the receiver does not know is answered with an ack carrying
// LinkErrUnknownType; the link stays up.

// Link message types, broker → hub.
const (
	LinkPlay       = "play"       // Play: WAV bytes to play, optionally after a chime
	LinkExpression = "expression" // Expression: one of the closed list of expressions
	LinkLook       = "look"       // Look: yaw/pitch in degrees, clamped by the hub to the daemon's limits
	LinkStop       = "stop"       // stop whatever the robot is saying or doing
	LinkPresence   = "presence"   // Presence: a teleport session started or ended, and by whom
	LinkTimers     = "timers"     // Timers: the full list of this robot's pending timers (replaces the hub's copy)
	LinkRing       = "ring"       // Ring: a timer is due; play its chime and announcement
)

// Link message types, hub → broker.
const (
	LinkAck        = "ack"     // Ack: the outcome of the action with the same ID
	LinkState      = "state"   // State: the hub's state changed
	LinkHeard      = "heard"   // Heard: an utterance the hub cut during a teleport session
	LinkRangLocal  = "rang"    // Rang: the hub rang a timer itself (the broker was unreachable)
	LinkPing       = "ping"    // keepalive, either direction (answered with LinkPong)
	LinkPong       = "pong"    // answer to LinkPing
	LinkHello      = "hello"   // Hello: first message of the hub after connecting
	LinkHubStopped = "stopped" // someone in the room said "stop": the hub stopped a link action
)

// Heartbeat of the link, the same on both ends: each side pings this often, and a link
// silent for LinkDeadAfter is dropped (the hub then reconnects).
const (
	LinkPingInterval = 5 * time.Second
	LinkDeadAfter    = 15 * time.Second
)

// Closed error codes of a link ack.
const (
	LinkErrUnknownType = "unknown_type"
	LinkErrInvalid     = "invalid"
	LinkErrBusy        = "busy" // the robot is speaking its own reply; the action was not started
	LinkErrFailed      = "failed"
	// LinkErrInterrupted answers a join announcement (LinkPlayAction.Join) that was cut
	// short (a voice in the room, a stop): the room has not heard it, so it is not played.
	LinkErrInterrupted = "interrupted"
	// LinkErrAlreadyRang answers a LinkRing for a timer the hub already rang itself: the
	// broker must not ring it again (and counts it as rung).
	LinkErrAlreadyRang = "already_rang"
)

// Hub states reported with LinkState.
const (
	HubIdle      = "idle"
	HubListening = "listening"
	HubThinking  = "thinking"
	HubSpeaking  = "speaking"
)

// LinkMessage is one frame of the robot link. Type says which one of the optional fields is
// set; ID identifies an action (down) and the ack that answers it (up).
type LinkMessage struct {
	Type string `json:"type"`
	ID   string `json:"id,omitempty"`

	Play       *LinkPlayAction      `json:"play,omitempty"`
	Expression string               `json:"expression,omitempty"`
	Look       *LinkLookAction      `json:"look,omitempty"`
	Presence   *LinkPresenceAction  `json:"presence,omitempty"`
	Timers     []LinkTimer          `json:"timers,omitempty"`
	Ring       *LinkRingAction      `json:"ring,omitempty"`
	CallOffer  *LinkCallOfferAction `json:"call_offer,omitempty"`
	CallEnd    *LinkCallEndAction   `json:"call_end,omitempty"`

	Ack       *LinkAckBody       `json:"ack,omitempty"`
	State     string             `json:"state,omitempty"`
	Heard     *LinkHeardBody     `json:"heard,omitempty"`
	Rang      []string           `json:"rang,omitempty"` // timer IDs the hub rang itself
	Hello     *LinkHelloBody     `json:"hello,omitempty"`
	CallEnded *LinkCallEndedBody `json:"call_ended,omitempty"`
}

// LinkPlayAction is sound for the robot's speaker. The hub acks a play once it has started
// it — except the join announcement of a teleport session (Join), which it acks only after
// it has played to its end: until then the session is not live and the room's words do
// not go to the owner.
type LinkPlayAction struct {
	WAV   []byte `json:"wav"`             // base64 in JSON; PCM16 WAV
	Chime bool   `json:"chime,omitempty"` // play the attention chime first
	Join  bool   `json:"join,omitempty"`  // the session's join announcement: ack when played, then pass the room's words
	// Kind says what the sound is, for the hub's log and the simulator's record: one of the
	// PlayKind values, or empty (the hub then infers it from Join and Chime). It never
	// changes how the sound is played.
	Kind string `json:"kind,omitempty"`
}

// What a LinkPlayAction is (LinkPlayAction.Kind).
const (
	PlayTeleportSay  = "teleport_say"  // a sentence the owner typed in the console, synthesized
	PlayTeleportTalk = "teleport_talk" // the owner's push-to-talk clip
	PlayAnnouncement = "announcement"  // an owner's announcement (reachyctl announce, the console's button)
)

// LinkLookAction turns the head. The hub clamps both angles to the daemon's limits.
type LinkLookAction struct {
	YawDeg   float64 `json:"yaw_deg"`
	PitchDeg float64 `json:"pitch_deg"`
}

// LinkPresenceAction tells the hub a teleport session started (Active) or ended, and the
// display name of who is connected, for the antennas and the announcement. A new session's
// room words reach the owner only after its join announcement has played. Resume (the room
// already heard the announcement) is no longer sent: a session ends with its robot's link,
// and every new one begins with its chime; hubs still accept it from an older broker.
type LinkPresenceAction struct {
	Active bool   `json:"active"`
	Who    string `json:"who,omitempty"`
	Resume bool   `json:"resume,omitempty"`
}

// LinkTimer is all the hub keeps of a pending timer: enough to ring it locally. The hub
// counts LeftMS from the moment the copy arrives, on its own clock, so the broker's and the
// hub's wall clocks need not agree; Due is the broker's wall-clock reading of the same
// moment (the hub falls back to it only when LeftMS is absent, from an older broker).
type LinkTimer struct {
	ID     string    `json:"id"`
	Label  string    `json:"label,omitempty"` // from the closed label list, or empty
	Due    time.Time `json:"due"`
	LeftMS *int64    `json:"left_ms,omitempty"` // milliseconds until due when the broker sent it; negative when overdue
}

// LinkRingAction is a due timer: the announcement audio and which timer it is. The hub acks
// it OK only once it has played it; the broker counts a ring as rung only on that ack and
// sends it again (same TimerID and Repeat) when the ack does not come — after a dropped link
// or a broker restart — so the hub plays each (TimerID, Repeat) at most once and acks a ring
// it already played without playing it again.
type LinkRingAction struct {
	TimerID string `json:"timer_id"`
	WAV     []byte `json:"wav"`
	Repeat  int    `json:"repeat"` // 1 for the first ring, 2, 3 for the repeats
}

// LinkAckBody answers the action with the same ID.
type LinkAckBody struct {
	OK   bool   `json:"ok"`
	Code string `json:"code,omitempty"` // one of the LinkErr codes when !OK
	// Answer is the hub's answer to a LinkCallOffer (OK only).
	Answer *LinkCallAnswer `json:"answer,omitempty"`
}

// LinkHeardBody is one utterance heard during a teleport session (memory only, never stored).
type LinkHeardBody struct {
	WAV []byte `json:"wav"`
}

// LinkHelloBody opens the link: what the hub can do.
type LinkHelloBody struct {
	Version string `json:"version,omitempty"`
}
