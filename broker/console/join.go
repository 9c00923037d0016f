package console

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/link"
	"github.com/reachy-broker/reachy-broker/speech"
)

// Join announcement retries: the robot answers busy while it speaks its own reply, so the
// chime is offered again, a little later each time, until the join times out.
const (
	joinFirstRetry = 250 * time.Millisecond
	joinMaxRetry   = 2 * time.Second
)

// EndNotAnnounced is the audited end of a join whose chime and announcement never played.
const EndNotAnnounced = "not_announced"

// join starts a session: the robot shows the "someone is here" pose for its whole length
// and announces who joined, with a chime. One session per robot. The session is live — the
// owner hears the room and may speak — only after the robot has acknowledged the
// announcement as played to its end; a robot that cannot play it before JoinTimeout (it
// keeps speaking, playback fails, the link is down) ends the join with not_announced.
func (c *Console) join(ctx context.Context, p Person, device string) error {
	now := c.d.Now()
	if err := c.quietTime(device, now); err != nil {
		return err // the room asked for quiet: nobody joins until it ends
	}
	if err := c.privacyMode(ctx, device); err != nil {
		c.d.Audit(context.WithoutCancel(ctx), Action{Owner: p.Login, Device: device, Kind: "teleport.start", Code: errCode(err)})
		return err // the room turned calls off
	}
	c.mu.Lock()
	if c.stopping {
		c.mu.Unlock()
		return &consoleError{status: http.StatusServiceUnavailable, code: api.CodeUnavailable, msg: "the broker is restarting; call again in a moment"}
	}
	if done := c.ending[device]; done != nil {
		// The robot's last session is still ending (its pose not yet dropped): a chime
		// played now would be followed by that session's "presence off".
		c.mu.Unlock()
		select {
		case <-done:
		case <-ctx.Done():
			return &consoleError{status: http.StatusServiceUnavailable, code: api.CodeBusy, msg: "the robot is still ending the last call; try again in a moment"}
		}
		return c.join(ctx, p, device)
	}
	if s := c.sessions[device]; s != nil {
		c.mu.Unlock()
		if !strings.EqualFold(s.owner.Login, p.Login) {
			return &consoleError{status: http.StatusConflict, code: api.CodeSessionBusy, msg: displayName(s.owner) + " is connected to this robot"}
		}
		if s.owner.Page != p.Page {
			// The owner's other tab or window (or a page since reloaded) holds it: this page
			// takes it over as a new session, announced again with its chime — a session never
			// passes to a page the room was not told of.
			c.end(ctx, device, EndPage)
			return c.join(ctx, p, device)
		}
		if !s.live {
			return &consoleError{status: http.StatusConflict, code: api.CodeSessionBusy, msg: "you are still joining: the robot has not announced you yet"}
		}
		return nil
	}
	sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	s := &session{device: device, owner: p, since: now, last: now, pageSeen: now, ctx: sctx, stop: stop, hear: make(chan struct{}, 1)}
	c.sessions[device] = s
	c.mu.Unlock()
	fail := func(err error) error {
		c.mu.Lock()
		if c.sessions[device] == s {
			delete(c.sessions, device)
		}
		c.mu.Unlock()
		s.stop()
		return err
	}
	// Privacy mode turned on between the check above and the session's registration ends
	// no session (there was none yet): look again now that a privacy switch would end this one.
	if err := c.privacyMode(ctx, device); err != nil {
		return fail(err)
	}
	// One record for the join: pending until the robot has announced it, then its outcome.
	start := Action{ID: newActionID(), Owner: p.Login, Device: device, Kind: "teleport.start", Pending: true}
	if err := c.audit(ctx, start); err != nil {
		return fail(err)
	}
	if err := c.send(ctx, device, api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: true, Who: displayName(p)}}); err != nil {
		c.settle(ctx, start, err)
		return fail(err)
	}

	jctx, cancel := context.WithTimeout(ctx, c.d.JoinTimeout)
	defer cancel()
	defer context.AfterFunc(s.ctx, cancel)() // the session ended (leave, hang up) while joining
	mode := c.consentOf(p)
	var answer chan link.Event
	if mode == ConsentAsk {
		answer = c.startAsking(s)
	}
	if err := c.announceJoin(jctx, device, joinSentence(p, mode)); err != nil {
		c.settle(ctx, start, err)
		return c.abortJoin(ctx, s, err)
	}
	if mode == ConsentAsk {
		if err := c.askRoom(s, answer); err != nil {
			c.settle(ctx, start, err)
			return c.declineJoin(ctx, s, err)
		}
	}
	c.mu.Lock()
	ours := c.sessions[device] == s
	pageGone := ours && c.d.Now().Sub(s.pageSeen) > c.d.PageTimeout
	if ours && !pageGone {
		s.live, s.last = true, c.d.Now()
	}
	c.mu.Unlock()
	if pageGone { // the page closed while the room was asked: a "yes" lets nobody in
		c.end(ctx, device, EndPageLost)
		ours = false
	}
	if !ours {
		err := c.endedWhileJoining(s)
		c.settle(ctx, start, err)
		return err
	}
	c.settle(ctx, start, nil)
	go c.hearLoop(s)
	c.answered(p.Login, device) // a ring or missed call from this robot is answered
	c.log.Info("teleport session started", "device", device, "owner", p.Login)
	return nil
}

// abortJoin ends a join whose announcement was not played: the robot drops the presence
// pose, the audit records the end with its closed code, and the owner is told why.
func (c *Console) abortJoin(ctx context.Context, s *session, why error) error {
	c.mu.Lock()
	ours := c.sessions[s.device] == s
	if ours {
		delete(c.sessions, s.device)
	}
	c.mu.Unlock()
	s.stop()
	if !ours { // ended meanwhile (leave, hang up, quiet time, offline): that end is already audited
		return c.endedWhileJoining(s)
	}
	ctx = context.WithoutCancel(ctx)
	code := api.CodeNotAnnounced
	var ce *consoleError
	if errors.As(why, &ce) {
		code = ce.code
	}
	arg := EndNotAnnounced
	if slices.Contains(api.CallEnds, code) { // quiet time began, the robot went offline: that reason
		arg = code
		c.mu.Lock()
		c.lastEnd[s.device] = ended{owner: s.owner.Login, reason: code, at: c.d.Now()}
		c.mu.Unlock()
	}
	c.d.Audit(ctx, Action{Owner: s.owner.Login, Device: s.device, Kind: "teleport.end", Arg: arg, Code: code})
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := c.send(pctx, s.device, api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: false}}); err != nil {
		c.log.Warn("console: robot not told the unannounced join ended", "device", s.device, "err", err)
	}
	c.log.Warn("teleport join ended: the robot did not play the announcement", "device", s.device, "owner", s.owner.Login, "code", code)
	return why
}

// endedWhileJoining is the owner's answer for a join whose session was ended before the
// robot announced it: the closed reason it ended with (quiet time, robot offline, …), so the
// page says why; no_session when it was the owner's own leave.
func (c *Console) endedWhileJoining(s *session) error {
	c.mu.Lock()
	e, ok := c.lastEnd[s.device]
	c.mu.Unlock()
	if ok && strings.EqualFold(e.owner, s.owner.Login) && e.reason != EndPage {
		return &consoleError{status: http.StatusConflict, code: e.reason, msg: "the call ended before the robot announced you: " + endWords(e.reason)}
	}
	return &consoleError{status: http.StatusConflict, code: api.CodeNoSession, msg: "the call ended before the robot announced you"}
}

// endWords says an end reason as the owner reads it (the page has the same sentences).
func endWords(reason string) string {
	switch reason {
	case api.CallEndQuietTime:
		return "the room asked for quiet time"
	case api.CallEndRobotOffline:
		return "the robot went offline"
	case api.CallEndPrivacy:
		return "the room turned privacy mode on"
	case api.CallEndHangUp:
		return "the room said hang up"
	case api.CallEndBrokerRestart:
		return "the broker restarted"
	}
	return reason
}

// announceJoin plays the join chime and announcement and returns once the robot has
// acknowledged it as played. Busy, interrupted, failed, unanswered or offline are retried
// with backoff until ctx ends; a refusal that a retry cannot change is returned at once.
func (c *Console) announceJoin(ctx context.Context, device, sentence string) error {
	m := api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: c.announcement(ctx, sentence), Chime: true, Join: true}}
	// The robot reports its state over the link: the moment it is idle again (its own reply
	// ended) or its link comes back, the chime is offered at once rather than at the next
	// backoff step.
	ready := make(chan struct{}, 1)
	unsub := c.d.Link.Subscribe(func(e link.Event) {
		if e.Device == device && (e.Kind == link.EventUp || e.Kind == link.EventState && e.State == api.HubIdle) {
			select {
			case ready <- struct{}{}:
			default:
			}
		}
	})
	defer unsub()
	wait := joinFirstRetry
	var last string
	for attempt := 1; ; attempt++ {
		if c.quiet(device) { // quiet time began while the join waited: no chime
			return c.quietTime(device, c.d.Now())
		}
		ack, err := c.d.Link.Send(ctx, device, m)
		switch {
		case err == nil && ack.OK:
			if attempt > 1 {
				c.log.Info("console: join announcement played", "device", device, "attempts", attempt)
			}
			return nil
		case err == nil && (ack.Code == api.LinkErrInvalid || ack.Code == api.LinkErrUnknownType):
			return &consoleError{status: http.StatusBadGateway, code: api.CodeRobotRefused, msg: "the robot refused the join announcement: " + ack.Code}
		case err == nil:
			last = ack.Code
		case errors.Is(err, link.ErrOffline), errors.Is(err, link.ErrLinkDown):
			last = "offline"
		default:
			last = "no answer"
		}
		if attempt == 1 {
			c.log.Info("console: join announcement not played yet; retrying", "device", device, "why", last)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return notAnnounced(last)
		case <-t.C:
		case <-ready:
			t.Stop()
		}
		wait = min(2*wait, joinMaxRetry)
	}
}

// errCode is an error's closed code (internal when it has none).
func errCode(err error) string {
	var ce *consoleError
	if errors.As(err, &ce) {
		return ce.code
	}
	return api.CodeInternal
}

func notAnnounced(last string) error {
	why := map[string]string{
		api.LinkErrBusy:        "it kept speaking its own reply",
		api.LinkErrInterrupted: "it was interrupted each time",
		api.LinkErrFailed:      "its speaker failed",
		"offline":              "it was not connected",
	}[last]
	if why == "" {
		why = "it did not answer"
	}
	return &consoleError{status: http.StatusServiceUnavailable, code: api.CodeNotAnnounced,
		msg: fmt.Sprintf("the robot could not announce you (%s), so the call did not start; try again in a moment", why)}
}

// announcement is the spoken sentence for the chime; if speech cannot be made, the chime
// alone still plays: the room always hears that someone joined or left.
func (c *Console) announcement(ctx context.Context, sentence string) []byte {
	var wav []byte
	if c.d.Synthesize != nil && sentence != "" {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		w, err := c.d.Synthesize(sctx, sentence)
		cancel()
		if err != nil {
			c.log.Warn("console: announcement not synthesized; chime only", "err", err)
		}
		wav = w
	}
	if len(wav) == 0 {
		wav, _ = speech.EncodeWAV(make([]float32, speech.SampleRate/10), speech.SampleRate)
	}
	return wav
}

// announce plays a sentence after the chime, once (who left); in quiet time the chime alone.
func (c *Console) announce(ctx context.Context, device, sentence string) {
	if c.quiet(device) {
		sentence = ""
	}
	if err := c.send(ctx, device, api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: c.announcement(ctx, sentence), Chime: true}}); err != nil {
		c.log.Warn("console: announcement not played", "device", device, "err", err)
	}
}
