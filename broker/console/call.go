package console

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/link"
)

// A live call is the media part of a live session: the page posts its WebRTC offer, the
// broker forwards it down the robot link and returns the hub's answer. Only signalling
// passes here; the media flows between the browser and the hub inside the tailnet.

// Call states, as the page shows them.
const (
	CallConnecting = "connecting" // the offer went to the hub; no answer yet
	CallLive       = "live"       // the hub answered: its media is flowing
	CallEnded      = "ended"      // see the session's (or the robot's) last end
)

// Bounds of the signalling.
const (
	maxSDP         = 64 << 10         // an offer or answer larger than this is refused
	callAnswerWait = 10 * time.Second // the hub must answer an offer within this
	callEndWait    = 3 * time.Second  // telling the hub to stop a call's media
	callIDBytes    = 12
	lookAtYawDeg   = 35 // half the camera's horizontal field of view, roughly
	lookAtPitchDeg = 25 // half its vertical field of view
)

// call is a session's call; it lives in its session and dies with it.
type call struct {
	id    string
	state string // CallConnecting or CallLive
	since time.Time
}

// ended is how a robot's last call or session ended, kept (in memory) so its owner's page
// can say why.
type ended struct {
	owner  string // login
	reason string // one of the api.CallEnd values
	at     time.Time
}

// endReasons is the closed list an end reason must belong to.
var endReasons = api.CallEnds

// callOnly are the end reasons of a call's media alone: the call ends, the session stays
// (the owner may call again). Every other reason ends the session too.
var callOnly = []string{api.CallEndMediaFailed, api.CallEndICEFailed, api.CallEndNoTailnetRoute,
	api.CallEndNoRobotAddress, api.CallEndMediaStartSlow, api.CallEndDeviceBusy}

// refusals are the robot's closed refusals of an offer that name their cause, with what the
// owner is told: the page shows the end reason and this sentence.
var refusals = map[string]*consoleError{
	api.LinkErrNoTailnetRoute: {status: http.StatusBadGateway, code: api.CallEndNoTailnetRoute,
		msg: "the robot cannot reach this device on the tailnet: is Tailscale running on this device? Turn it on and call again"},
	api.LinkErrMediaStartSlow: {status: http.StatusBadGateway, code: api.CallEndMediaStartSlow,
		msg: "the robot's camera and microphone were too slow to start; call again in a moment"},
	api.LinkErrDeviceBusy: {status: http.StatusBadGateway, code: api.CallEndDeviceBusy,
		msg: "the robot's camera and microphone are in use by something else on the robot; call again in a moment"},
}

// refinedRefusal replaces the generic no_media error of an offer the robot refused with a
// closed cause, when the robot named one.
func refinedRefusal(ack api.LinkAckBody, sendErr, err error) error {
	if err == nil || sendErr != nil || ack.OK {
		return err
	}
	if r, ok := refusals[ack.Code]; ok {
		return r
	}
	return err
}

// callEndOf is the end reason audited and shown for an offer that failed with code.
func callEndOf(code string) string {
	switch {
	case slices.Contains(api.CallEnds, code):
		return code
	case code == api.CodeTimeout:
		return api.CallEndMediaStartSlow // the robot did not answer within callAnswerWait
	}
	return api.CallEndMediaFailed
}

// EndReasons is the closed list of reasons a session or call ends with.
func EndReasons() []string { return slices.Clone(endReasons) }

// CallAnswer is what the call endpoint returns: the hub's answer to the page's offer.
type CallAnswer struct {
	CallID string `json:"call_id"`
	SDP    string `json:"sdp"`
}

// serveCall handles POST …/call {"sdp": offer}: only the owner holding a live session,
// one call per session (a new offer replaces the old call: a reloaded page calls again).
func (c *Console) serveCall(w http.ResponseWriter, r *http.Request, p Person, device string) {
	var body struct {
		SDP string `json:"sdp"`
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		writeErr(w, &consoleError{status: http.StatusUnsupportedMediaType, code: api.CodeUnsupportedMediaType, msg: "send application/json"})
		return
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, maxSDP+1024))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		writeErr(w, &consoleError{status: http.StatusBadRequest, code: api.CodeInvalidArgs, msg: "the request body is not {\"sdp\": offer}"})
		return
	}
	if err := checkOffer(body.SDP); err != nil {
		writeErr(w, err)
		return
	}
	// The robot learns only the owner's tailnet host candidates (none at all is fine: ICE
	// learns the browser's address from its own checks), never its LAN, public or mDNS ones.
	offer, f := c.media.filterSDP(body.SDP)
	if f.dropped > 0 {
		c.log.Info("teleport call: candidates outside the tailnet removed from the offer", "device", device, "kept", f.kept, "removed", f.dropped)
	}
	ans, err := c.startCall(r.Context(), p, device, offer)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, ans)
}

// checkOffer refuses an offer that is not a session description, is too large, or would
// send the owner's camera (the robot has no screen). Its candidates are filtered, not
// judged, by filterSDP.
func checkOffer(sdp string) error {
	bad := func(msg string) error {
		return &consoleError{status: http.StatusBadRequest, code: api.CodeInvalidArgs, msg: msg}
	}
	if len(sdp) > maxSDP {
		return &consoleError{status: http.StatusRequestEntityTooLarge, code: api.CodeTooLarge, msg: "the offer is too large"}
	}
	if !strings.HasPrefix(sdp, "v=0") {
		return bad("the offer is not a session description")
	}
	// A video section must say it only receives: SDP's default direction is sendrecv, so a
	// section without recvonly (or inactive) would offer the owner's camera.
	camera := bad("the call never sends the owner's camera: offer video as receive-only")
	media, receiveOnly := "", false
	for line := range strings.Lines(sdp + "m=end\n") {
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.HasPrefix(line, "m="):
			if media == "video" && !receiveOnly {
				return camera
			}
			media, _, _ = strings.Cut(line[2:], " ")
			receiveOnly = false
		case media == "video" && (line == "a=recvonly" || line == "a=inactive"):
			receiveOnly = true
		case media == "video" && (line == "a=sendrecv" || line == "a=sendonly"):
			return camera
		}
	}
	return nil
}

func newCallID() string {
	b := make([]byte, callIDBytes)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// startCall audits the call's start, forwards the offer and waits (bounded) for the hub's
// answer. Any failure after the start is audited as the call's end with its closed code.
func (c *Console) startCall(ctx context.Context, p Person, device, offer string) (CallAnswer, error) {
	if err := c.mine(p, device); err != nil {
		return CallAnswer{}, err
	}
	if !c.d.Link.Status(device).Online {
		return CallAnswer{}, &consoleError{status: http.StatusServiceUnavailable, code: api.CodeRobotOffline, msg: "the robot is not connected right now"}
	}
	id := newCallID()
	now := c.d.Now()
	c.mu.Lock()
	s, err := c.heldBy(p, device)
	var old *call
	if err == nil {
		if !s.live {
			err = &consoleError{status: http.StatusConflict, code: api.CodeNoSession, msg: "the robot has not announced you yet"}
		} else {
			old, s.call = s.call, &call{id: id, state: CallConnecting, since: now}
			s.last = now
		}
	}
	c.mu.Unlock()
	if err != nil {
		return CallAnswer{}, err
	}
	if old != nil { // the page called again (reloaded): the old call's media stops first
		c.stopCall(ctx, p.Login, device, old.id, api.CallEndOwnerLeft, "")
	}
	if err := c.audit(ctx, Action{Owner: p.Login, Device: device, Kind: "teleport.call", Arg: "start", OK: true}); err != nil {
		c.clearCall(s, id)
		return CallAnswer{}, err
	}
	actx, cancel := context.WithTimeout(ctx, callAnswerWait)
	ack, serr := c.d.Link.Send(actx, device, api.LinkMessage{Type: api.LinkCallOffer, CallOffer: &api.LinkCallOfferAction{CallID: id, SDP: offer}})
	cancel()
	ans, cerr := c.callAnswer(ack, serr, id)
	cerr = refinedRefusal(ack, serr, cerr)
	if cerr != nil {
		var ce *consoleError
		errors.As(cerr, &ce)
		if c.clearCall(s, id) {
			reason := callEndOf(ce.code)
			c.mu.Lock()
			if c.sessions[device] == s {
				c.lastEnd[device] = ended{owner: p.Login, reason: reason, at: c.d.Now()}
			}
			c.mu.Unlock()
			// Bounded, and told even after a timeout: a late answer must not leave media on.
			c.stopCall(ctx, p.Login, device, id, reason, ce.code)
		}
		return CallAnswer{}, cerr
	}
	c.mu.Lock()
	ours := c.sessions[device] == s && s.call != nil && s.call.id == id
	if ours {
		s.call.state, s.call.since = CallLive, c.d.Now()
	}
	c.mu.Unlock()
	if !ours { // the session or call ended while the hub answered; that end is audited
		return CallAnswer{}, &consoleError{status: http.StatusConflict, code: api.CodeNoSession, msg: "the call ended before the robot answered"}
	}
	if c.d.CallLive != nil {
		c.d.CallLive(device, c.d.Now().Sub(now))
	}
	c.log.Info("teleport call live", "device", device, "owner", p.Login, "call", id)
	return ans, nil
}

// callAnswer turns the offer's ack into the answer, filtered like the offer, or an error
// with a closed code. An answer that keeps no tailnet host candidate cannot be reached
// inside the tailnet: the call ends (no_robot_address) rather than let the browser try
// an address the robot chose.
func (c *Console) callAnswer(ack api.LinkAckBody, err error, id string) (CallAnswer, error) {
	switch {
	case errors.Is(err, link.ErrOffline), errors.Is(err, link.ErrLinkDown):
		return CallAnswer{}, &consoleError{status: http.StatusServiceUnavailable, code: api.CodeRobotOffline, msg: "the robot is not connected right now"}
	case err != nil:
		return CallAnswer{}, &consoleError{status: http.StatusGatewayTimeout, code: api.CodeTimeout, msg: "the robot did not answer the call in time"}
	case !ack.OK && ack.Code == api.LinkErrNotLive:
		return CallAnswer{}, &consoleError{status: http.StatusConflict, code: api.CodeNotLive, msg: "the robot has not announced you in the room yet"}
	case !ack.OK && ack.Code == api.LinkErrNoMedia:
		return CallAnswer{}, &consoleError{status: http.StatusBadGateway, code: api.CodeNoMedia, msg: "the robot cannot send video and sound right now"}
	case !ack.OK && ack.Code == api.LinkErrBusy:
		return CallAnswer{}, &consoleError{status: http.StatusServiceUnavailable, code: api.CodeBusy, msg: "the robot is busy; try again in a moment"}
	case !ack.OK:
		return CallAnswer{}, &consoleError{status: http.StatusBadGateway, code: api.CodeRobotRefused, msg: "the robot refused the call"}
	case ack.Answer == nil || ack.Answer.CallID != id || !strings.HasPrefix(ack.Answer.SDP, "v=0") || len(ack.Answer.SDP) > maxSDP:
		return CallAnswer{}, &consoleError{status: http.StatusBadGateway, code: api.CodeNoMedia, msg: "the robot's answer to the call was unusable"}
	}
	answer, f := c.media.filterSDP(ack.Answer.SDP)
	if f.dropped > 0 {
		c.log.Warn("teleport call: the robot's answer named candidates outside the tailnet; removed", "call", id, "kept", f.kept, "removed", f.dropped)
	}
	if f.kept == 0 {
		return CallAnswer{}, &consoleError{status: http.StatusBadGateway, code: api.CodeNoRobotAddress,
			msg: "the robot offered no tailnet address for the call; check its call.interfaces setting"}
	}
	return CallAnswer{CallID: id, SDP: answer}, nil
}

// clearCall drops s's call if it is still id, and reports whether it did.
func (c *Console) clearCall(s *session, id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s.call == nil || s.call.id != id {
		return false
	}
	s.call = nil
	return true
}

// stopCall audits a call's end and tells the hub to stop its media (bounded). code is a
// closed code when the call failed.
func (c *Console) stopCall(ctx context.Context, owner, device, id, reason, code string) {
	ctx = context.WithoutCancel(ctx)
	c.d.Audit(ctx, Action{Owner: owner, Device: device, Kind: "teleport.call", Arg: reason, OK: code == "", Code: code})
	sctx, cancel := context.WithTimeout(ctx, callEndWait)
	defer cancel()
	if _, err := c.d.Link.Send(sctx, device, api.LinkMessage{Type: api.LinkCallEnd, CallEnd: &api.LinkCallEndAction{CallID: id, Reason: reason}}); err != nil {
		c.log.Warn("console: robot not told the call ended", "device", device, "call", id, "err", err)
	}
	c.log.Info("teleport call ended", "device", device, "owner", owner, "call", id, "reason", reason)
}

// onCallEnded follows the hub ending a call's media itself. A failure of the media ends
// the call and leaves the session (the owner may call again); the room ending it (hang up,
// privacy) ends the session with that reason. A stale or unknown call is ignored.
func (c *Console) onCallEnded(ctx context.Context, e link.Event) {
	reason := e.Reason
	if !slices.Contains(endReasons, reason) {
		reason = api.CallEndMediaFailed
	}
	media := slices.Contains(callOnly, reason)
	c.mu.Lock()
	s := c.sessions[e.Device]
	ours := s != nil && s.call != nil && s.call.id == e.CallID
	var owner string
	if ours {
		owner = s.owner.Login
		if media {
			s.call = nil
			c.lastEnd[e.Device] = ended{owner: owner, reason: reason, at: c.d.Now()}
		}
	}
	c.mu.Unlock()
	if !ours {
		return
	}
	if !media {
		c.end(ctx, e.Device, reason)
		return
	}
	c.d.Audit(context.WithoutCancel(ctx), Action{Owner: owner, Device: e.Device, Kind: "teleport.call", Arg: reason, OK: true})
	c.log.Warn("teleport call ended by the robot", "device", e.Device, "owner", owner, "reason", reason)
}

// lookAt turns the head toward a point of the video: x, y in [-1, 1] from the picture's
// centre (x to the right, y down), mapped to yaw and pitch within the camera's field of
// view. The hub clamps to the robot's limits.
func (c *Console) lookAt(ctx context.Context, p Person, device string, x, y float64) error {
	for _, v := range []float64{x, y} {
		if math.IsNaN(v) || v < -1 || v > 1 {
			return &consoleError{status: http.StatusBadRequest, code: api.CodeInvalidArgs, msg: "x and y must be between -1 and 1"}
		}
	}
	look := &api.LinkLookAction{YawDeg: -x * lookAtYawDeg, PitchDeg: y * lookAtPitchDeg}
	return c.act(ctx, p, device, "teleport.look", "point", api.LinkMessage{Type: api.LinkLook, Look: look})
}
