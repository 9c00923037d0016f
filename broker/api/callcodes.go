package api

// Closed error codes of the console's call endpoint (POST /console/api/robots/{device}/call).
const (
	// CodeNotLive (409): the session's join has not been heard in the room yet (the hub
	// answered LinkErrNotLive), so no media may flow.
	CodeNotLive = "not_live"
	// CodeNoMedia (502): the hub cannot serve the call (no camera pipeline, a pipeline that
	// would not start, no usable codec in the offer), or its answer was unusable.
	CodeNoMedia = "no_media"
)
