package robot

import (
	"context"
	"errors"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/robot/call"
)

// maxOfferSDP bounds a call offer's SDP (a browser's complete offer is a few KB).
const maxOfferSDP = 64 << 10

// attachCall connects the hub's call manager to the session, the daemon, the antennas and
// the link: an offer is served only once the session's join has played, the daemon hands
// over camera and audio for the call's length, the antennas show the camera, and a call the
// hub ends itself is reported up.
func (h *Hub) attachCall(l *Link) {
	c := h.Call
	if c.Log == nil {
		c.Log = h.Log
	}
	c.Live = h.SessionLive
	if c.Prepare == nil && h.Daemon != nil {
		c.Prepare = h.Daemon.ReleaseMedia
	}
	if c.Finish == nil && h.Daemon != nil {
		c.Finish = func(ctx context.Context) {
			if err := h.Daemon.AcquireMedia(ctx); err != nil {
				h.Log.Warn("call: the daemon did not take the media devices back", "err", err)
			}
		}
	}
	c.Camera = func(on bool) {
		h.Motion.SetCamera(on)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), moveTimeout)
			defer cancel()
			h.Motion.Idle(ctx) // the rest pose shows the camera (motion.go, CameraAntennas)
		}()
	}
	c.Ended = func(id, reason string) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		l.Send(ctx, api.LinkMessage{Type: api.LinkCallEnded, CallEnded: &api.LinkCallEndedBody{CallID: id, Reason: reason}})
	}
}

// callOffer answers a call offer with the hub's SDP answer, or a closed code.
func (h *Hub) callOffer(ctx context.Context, o *api.LinkCallOfferAction) api.LinkAckBody {
	if h.Call == nil {
		return api.LinkAckBody{Code: api.LinkErrNoMedia}
	}
	if o == nil || o.CallID == "" || len(o.CallID) > 64 || o.SDP == "" || len(o.SDP) > maxOfferSDP {
		return api.LinkAckBody{Code: api.LinkErrInvalid}
	}
	if !h.SessionLive() {
		return api.LinkAckBody{Code: api.LinkErrNotLive}
	}
	answer, err := h.Call.Offer(ctx, o.CallID, o.SDP)
	switch {
	case errors.Is(err, call.ErrNotLive):
		return api.LinkAckBody{Code: api.LinkErrNotLive}
	case errors.Is(err, call.ErrBusy):
		return api.LinkAckBody{Code: api.LinkErrBusy}
	case err != nil:
		// The closed cause, so the owner is told what to do; the details stay in the hub's log.
		switch call.Cause(err) {
		case call.CauseNoTailnetRoute:
			return api.LinkAckBody{Code: api.LinkErrNoTailnetRoute}
		case call.CauseMediaStartSlow:
			return api.LinkAckBody{Code: api.LinkErrMediaStartSlow}
		case call.CauseDeviceBusy:
			return api.LinkAckBody{Code: api.LinkErrDeviceBusy}
		}
		return api.LinkAckBody{Code: api.LinkErrNoMedia}
	}
	return api.LinkAckBody{OK: true, Answer: &api.LinkCallAnswer{CallID: o.CallID, SDP: answer}}
}

// callEnd stops the call's media (within a second) and acks.
func (h *Hub) callEnd(e *api.LinkCallEndAction) api.LinkAckBody {
	if e == nil || e.CallID == "" {
		return api.LinkAckBody{Code: api.LinkErrInvalid}
	}
	if h.Call != nil {
		h.Call.End(e.CallID, e.Reason)
	}
	return api.LinkAckBody{OK: true}
}

// endCall stops whatever call is on (the session ended, the link dropped, the hub stops).
func (h *Hub) endCall(reason string) {
	if h.Call != nil {
		h.Call.End("", reason)
	}
}
