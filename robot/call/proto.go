package call

// The hub and a call's media process (reachy-call, robot/call/media) speak JSON lines: the
// hub writes a MediaRequest, then — once the process is Ready and the session's consent and
// the daemon's devices allow it — a MediaStart; the process answers on stdout with
// MediaEvents. The hub closing the process's stdin ends the call.

// MediaProcessEnv is set (to "1") in the environment of every media process the hub starts;
// reachy-call refuses to run without it (it is not a program for a shell), and test binaries
// that find it serve the call's media instead of running their tests.
const MediaProcessEnv = "REACHY_CALL_MEDIA"

// MediaRequest is the first line the hub writes: everything the process needs for one call.
type MediaRequest struct {
	Config Config `json:"config"`
	CallID string `json:"call_id"`
	// N numbers the hub's calls since it started; the simulator writes what the owner said to
	// OutDir/call-owner-N.wav.
	N      int    `json:"n"`
	Offer  string `json:"offer"`
	OutDir string `json:"out_dir,omitempty"`
}

// MediaStart is the hub's second line: the devices are the call's, start capturing.
type MediaStart struct {
	Start bool `json:"start"`
}

// MediaEvent is one line the media process writes.
type MediaEvent struct {
	Kind string `json:"kind"`
	// Refused, Failed: why, for the log.
	Why string `json:"why,omitempty"`
	// Refused, Failed: which cause it was, one of the Cause values ("" is CauseMedia): the
	// hub reports it to the broker, which shows the owner what to do.
	Cause string `json:"cause,omitempty"`
	// Capturing: whether the camera is on.
	Video bool `json:"video,omitempty"`
	// Answer: the hub's complete answer and its candidate counts.
	SDP              string `json:"sdp,omitempty"`
	Candidates       int    `json:"candidates,omitempty"`
	RemoteCandidates int    `json:"remote_candidates,omitempty"`
	// Stats: packets so far.
	VideoPackets int64 `json:"video_packets,omitempty"`
	AudioPackets int64 `json:"audio_packets,omitempty"`
	OwnerPackets int64 `json:"owner_packets,omitempty"`
}

// The kinds of MediaEvent, in the order a call sees them.
const (
	EventReady     = "ready"     // the offer is usable: waiting for MediaStart
	EventCapturing = "capturing" // the pipelines run
	EventAnswer    = "answer"    // the answer, ICE gathered and checked
	EventStats     = "stats"     // now and then, and last
	EventRefused   = "refused"   // the offer cannot be served (the hub answers no_media)
	EventFailed    = "failed"    // the call's media failed after the answer
)

// Causes of a refused or failed call, as the media process reports them (MediaEvent.Cause);
// each is the api.CallEnd value of the same name.
const (
	CauseMedia          = "media_failed"     // a pipeline failed, or anything else
	CauseNoTailnetRoute = "no_tailnet_route" // the browser offered no address the robot can reach
	CauseICEFailed      = "ice_failed"       // the browser and the robot never connected, or lost it
	CauseMediaStartSlow = "media_start_slow" // a pipeline sent nothing within its start timeout
	CauseDeviceBusy     = "device_busy"      // the daemon would not release the camera and microphone
)
