// Package api holds the wire types shared by the broker, the hub on the robot and the
// operator CLI: the turn response, the error body and its closed codes, and the view of the
// intent list. It is types and constants only: it must never do I/O, hold state, or import
// another package of this module.
package api

// TurnResponse is the 200 answer of every turn-shaped route (POST /v1/turns,
// /v1/utterances, /v1/intents/{name}).
type TurnResponse struct {
	TurnID     string            `json:"turn_id"`
	Intent     string            `json:"intent"`
	Args       map[string]string `json:"args"`
	Kind       string            `json:"kind"`
	Outcome    string            `json:"outcome"`
	Reply      string            `json:"reply"`
	Audio      string            `json:"audio,omitempty"` // base64 WAV, when asked for
	Expression string            `json:"expression"`
	FollowUp   bool              `json:"follow_up"`
	LatencyMS  map[string]int64  `json:"latency_ms"`
}

// ErrorBody is the body of every error answer.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail names the problem with a closed code and a human sentence. The message never
// echoes secrets or request bytes.
type ErrorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Closed error codes of the wire contract (DESIGN.md §4).
const (
	CodeUnauthenticated      = "unauthenticated"
	CodeInsufficientScope    = "insufficient_scope"
	CodeIntentDenied         = "intent_denied"
	CodeUnknownIntent        = "unknown_intent"
	CodeInvalidArgs          = "invalid_args"
	CodeInvalidAudio         = "invalid_audio"
	CodeUnsupportedMediaType = "unsupported_media_type"
	CodeTooLarge             = "too_large"
	CodeIdempotencyConflict  = "idempotency_conflict"
	CodeRateLimited          = "rate_limited"
	CodeBusy                 = "busy"
	CodeUnavailable          = "unavailable"
	CodeTimeout              = "timeout"
	CodeInternal             = "internal"
	// CodeNotFound answers a path that is not a route of the API at all.
	CodeNotFound = "not_found"
	// CodeUnknownHost (421) answers a request whose Host is not one of the broker's own
	// names (a DNS-rebinding page, a misconfigured proxy), before any route runs.
	CodeUnknownHost = "unknown_host"
	// CodeUnknownRobot (404) answers an announcement to a robot name the broker does not
	// know: none is configured by that name, and none by that name has linked since start.
	CodeUnknownRobot = "unknown_robot"

	// Codes of the teleport console's calls.
	CodeNotOwner     = "not_owner"     // 403: the tailnet identity is not one of teleport.owners, or is a tagged node
	CodeCrossOrigin  = "cross_origin"  // 403: another origin, or no valid page token
	CodeRobotOffline = "robot_offline" // 503: the robot's link is not connected
	CodeSessionBusy  = "session_busy"  // 409: another owner is connected to this robot
	CodeNoSession    = "no_session"    // 409: join first
	CodeRobotRefused = "robot_refused" // 502: the robot answered the action with an error
	CodeNotAnnounced = "not_announced" // 503: the robot did not play the join chime and announcement in time; no session
	CodeQuietTime    = "quiet_time"    // 409: the robot's room asked for quiet ("be quiet for an hour"); join later
	CodePrivacyMode  = "privacy_mode"  // 409: the robot's room turned privacy mode on; no call until "privacy mode off"
	CodeDeclined     = "declined"      // 409: ask mode: the room did not say yes to the join in time
)

// IntentView is one entry of GET /v1/intents: an intent this caller may call.
type IntentView struct {
	Name     string    `json:"name"`
	Kind     string    `json:"kind"`
	Scope    string    `json:"scope,omitempty"`
	Args     []ArgView `json:"args"`
	Examples []string  `json:"examples"`
}

// ArgView is an argument and its allowed values.
type ArgView struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Required bool     `json:"required"`
	Allowed  []string `json:"allowed,omitempty"`
}

// IntentList is the body of GET /v1/intents.
type IntentList struct {
	Device  string       `json:"device"`
	Scopes  []string     `json:"scopes"`
	Intents []IntentView `json:"intents"`
}

// AnnounceRequest is the body of POST /v1/announcements (operator scope announce): speak
// Text on one robot (Robot) or on every connected robot (All).
type AnnounceRequest struct {
	Robot string `json:"robot,omitempty"`
	All   bool   `json:"all,omitempty"`
	Text  string `json:"text"`
}

// AnnounceResult says which robots played the announcement.
type AnnounceResult struct {
	Delivered    []string `json:"delivered"`
	NotDelivered []string `json:"not_delivered"`
}
