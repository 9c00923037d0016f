// Package call owns the hub's side of a live call (teleport, round 2), without WebRTC: the
// consent gate (Manager.Live gates every offer), one call at a time, the daemon's devices
// handed over for the call's length (Prepare, Finish), the antennas showing the camera, and
// the call's media process. That process, reachy-call (robot/call/media), holds the pion
// peer and the GStreamer pipelines; the hub starts it for one call, speaks JSON lines with
// it (MediaRequest, MediaStart, MediaEvent) and ends it when the call ends. Keeping pion out
// of the hub keeps the listening process within its memory budget.
//
// It must never import pion (TestHubDoesNotLinkWebRTC), never let the media process start
// capturing before the session's join announcement was played and the devices were handed
// over, never leave a media process running past its call or the hub (its stdin closes, it
// is killed after a bound, and the kernel kills it if the hub dies: Pdeathsig), and never
// report a call's failure twice. Every wait is bounded.
package call
