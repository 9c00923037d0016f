package api

// A live call (teleport, round 2) is a WebRTC session between the owner's browser and the
// hub. The broker carries its signalling only — never media: the page posts its offer to
// the console, the broker sends it down the robot link as LinkCallOffer, and the hub
// answers in the offer's ack (LinkAckBody.Answer). Both descriptions are complete (ICE
// gathering finished, host candidates only; no trickle, no STUN, no TURN), so one round
// trip sets the call up. Media then flows peer to peer inside the tailnet.
//
// Consent comes first: the hub refuses an offer (LinkErrNotLive) until it has played the
// session's join chime and announcement, and the broker does not forward one before the
// hub acknowledged that join (and, in ask mode, the room said yes).

// Link message types of a live call.
const (
	LinkCallOffer = "call_offer" // broker → hub, CallOffer: the browser's offer; the hub acks with its answer
	LinkCallEnd   = "call_end"   // broker → hub, CallEnd: stop every track of the call now
	LinkCallEnded = "call_ended" // hub → broker, CallEnded: the hub ended the call's media on its own
)

// Closed ack codes of a call offer.
const (
	// LinkErrNotLive answers an offer for a session whose join the room has not heard yet.
	LinkErrNotLive = "not_live"
	// LinkErrNoMedia answers an offer the hub cannot serve (no camera pipeline, a pipeline
	// that would not start, an offer with no usable codec).
	LinkErrNoMedia = "no_media"
)

// Why a call (or a teleport session) ended: a closed list, shown to the owner in words and
// recorded in the audit log. Never what was said.
const (
	CallEndOwnerLeft    = "owner_left"    // the owner pressed "End" or closed the page
	CallEndHangUp       = "hang_up"       // the room said "hang up" / "end the call"
	CallEndIdle         = "idle"          // nothing happened for the idle timeout
	CallEndRobotOffline = "robot_offline" // the robot's link dropped
	CallEndDeclined     = "declined"      // ask mode: the room did not say yes in time
	CallEndPrivacy      = "privacy"       // the room turned privacy mode on
	CallEndQuietTime    = "quiet_time"    // the room asked for quiet time
	CallEndMediaFailed  = "media_failed"  // the hub's media pipelines failed or the peer connection broke
	// CallEndPageLost: the owner's page stopped answering (tab closed, laptop asleep, network
	// gone): its heartbeat was not heard for the page timeout.
	CallEndPageLost = "page_lost"
	// CallEndBrokerRestart: the broker stopped (or died) while the session was open; a
	// session never survives a restart.
	CallEndBrokerRestart = "broker_restart"
	// CallEndNoTailnetRoute: the browser's offer named no address the robot can reach on the
	// tailnet (no tailnet host candidate: Tailscale is not running on the owner's device, or
	// the browser hid its addresses).
	CallEndNoTailnetRoute = "no_tailnet_route"
	// CallEndNoRobotAddress: the robot's answer named no address the browser may use (no
	// tailnet host candidate survived the broker's check).
	CallEndNoRobotAddress = "no_robot_address"
	// CallEndICEFailed: the browser and the robot exchanged descriptions but never connected
	// (or lost the connection): no packets got through between their tailnet addresses.
	CallEndICEFailed = "ice_failed"
	// CallEndMediaStartSlow: the robot's camera or microphone pipeline did not send its first
	// packet in time (a slow or overloaded robot).
	CallEndMediaStartSlow = "media_start_slow"
	// CallEndDeviceBusy: the robot's daemon would not hand over its camera and microphone.
	CallEndDeviceBusy = "device_busy"
)

// CallEnds is the closed list of end reasons, in the order of the constants above. A reason
// from the robot that is not on it is read as CallEndMediaFailed.
var CallEnds = []string{CallEndOwnerLeft, CallEndHangUp, CallEndIdle, CallEndRobotOffline, CallEndDeclined,
	CallEndPrivacy, CallEndQuietTime, CallEndMediaFailed, CallEndPageLost, CallEndBrokerRestart,
	CallEndNoTailnetRoute, CallEndNoRobotAddress, CallEndICEFailed, CallEndMediaStartSlow, CallEndDeviceBusy}

// Closed ack codes of a refused call offer that say which cause it was (LinkErrNoMedia is the
// rest): the broker maps each to the end reason of the same name.
const (
	LinkErrNoTailnetRoute = CallEndNoTailnetRoute // the offer has no tailnet host candidate
	LinkErrMediaStartSlow = CallEndMediaStartSlow // a pipeline sent nothing within its start timeout
	LinkErrDeviceBusy     = CallEndDeviceBusy     // the daemon would not release the camera and microphone
)

// LinkCallOfferAction carries the browser's SDP offer for the session's call.
type LinkCallOfferAction struct {
	CallID string `json:"call_id"`
	SDP    string `json:"sdp"`
}

// LinkCallAnswer is the hub's SDP answer, sent in the offer's ack.
type LinkCallAnswer struct {
	CallID string `json:"call_id"`
	SDP    string `json:"sdp"`
}

// LinkCallEndAction stops the call's media; Reason is one of the CallEnd values.
type LinkCallEndAction struct {
	CallID string `json:"call_id"`
	Reason string `json:"reason"`
}

// LinkCallEndedBody tells the broker the hub ended a call's media by itself; Reason is one
// of the CallEnd values (usually CallEndMediaFailed).
type LinkCallEndedBody struct {
	CallID string `json:"call_id"`
	Reason string `json:"reason"`
}
