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
