package api

// Closed error codes of the console's call endpoint (POST /console/api/robots/{device}/call).
const (
	// CodeNotLive (409): the session's join has not been heard in the room yet (the hub
	// answered LinkErrNotLive), so no media may flow.
	CodeNotLive = "not_live"
	// CodeNoMedia (502): the hub cannot serve the call (no camera pipeline, a pipeline that
	// would not start, no usable codec in the offer), or its answer was unusable.
	CodeNoMedia = "no_media"
	// CodeNoRobotAddress (502): the hub's answer kept no host candidate on a tailnet
	// address once the broker removed every other (a misconfigured or compromised robot
	// naming a LAN, public, relay or mDNS address): the call ends rather than leave the
	// tailnet.
	CodeNoRobotAddress = "no_robot_address"
)
