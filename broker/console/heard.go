package console

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/link"
)

// What a session holds of the room's words, in memory only: a few utterances waiting for
// transcription (one transcription at a time per robot, so one robot cannot keep
// speech-to-text from the others), and the newest clips for the owner, bounded in number
// and bytes; the oldest clip goes first.
const (
	maxQueuedHeard = 2
	maxClips       = 40
	maxClipBytes   = 8 << 20
)

// Reasons a heard clip is dropped before it reaches the owner (Stats).
const (
	DropNotLive = "not_live" // no session, or its join announcement has not played yet
	DropQueue   = "queue"    // the robot's transcriptions are not keeping up
)

// Stats count what the console dropped since it started.
type Stats struct {
	HeardNotLive uint64 // heard clips with no live session to go to
	HeardQueue   uint64 // heard clips dropped because transcription was behind
}

// Stats returns what the console dropped since it started.
func (c *Console) Stats() Stats {
	return Stats{HeardNotLive: c.droppedNotLive.Load(), HeardQueue: c.droppedQueue.Load()}
}

// onLink follows the robots' links: a robot that comes back during a session gets its
// presence again; what it heard is queued for its session's transcription. It never waits
// on a transcription: one robot's clips do not hold up another robot's events.
func (c *Console) onLink(ctx context.Context, e link.Event) {
	c.mu.Lock()
	s := c.sessions[e.Device]
	var owner Person
	var live bool
	if s != nil {
		owner, live = s.owner, s.live
	}
	c.mu.Unlock()
	switch e.Kind {
	case link.EventUp:
		if s == nil {
			return
		}
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		// A live session was announced already; a join in progress announces it again itself.
		p := &api.LinkPresenceAction{Active: true, Who: displayName(owner), Resume: live}
		if err := c.send(sctx, e.Device, api.LinkMessage{Type: api.LinkPresence, Presence: p}); err != nil {
			c.log.Warn("console: presence not restored after the link came back", "device", e.Device, "err", err)
		}
	case link.EventHeard:
		c.queueHeard(s, live, e)
	case link.EventDown:
		// A call cannot outlive the robot's link: its media is gone. A session without a
		// call waits for the link to come back.
		c.mu.Lock()
		inCall := s != nil && c.sessions[e.Device] == s && s.call != nil
		c.mu.Unlock()
		if inCall {
			go c.end(ctx, e.Device, EndRobotOffline)
		}
	case link.EventCallEnded:
		go c.onCallEnded(ctx, e)
	}
}

// queueHeard hands a heard clip to its session's transcription, or drops and counts it:
// nothing from the room reaches the owner before the session is live.
func (c *Console) queueHeard(s *session, live bool, e link.Event) {
	if s != nil && c.answerHeard(s, e) {
		return // the room's answer to "may Dad join?": never the owner's
	}
	if s == nil || !live {
		c.droppedNotLive.Add(1)
		c.drops.Log(c.log, slog.LevelInfo, e.Device, "console: heard clip dropped: no live session")
		return
	}
	select {
	case s.heard <- e:
	default:
		c.droppedQueue.Add(1)
		c.drops.Log(c.log, slog.LevelWarn, e.Device, "console: heard clip dropped: transcription is behind")
	}
}

// hearLoop transcribes a live session's heard clips one at a time until the session ends.
func (c *Console) hearLoop(s *session) {
	for {
		select {
		case <-s.ctx.Done():
			return
		case e := <-s.heard:
			c.heard(s.ctx, s, e)
		}
	}
}

// heard makes a clip of an utterance, unless it was "stop" or "hang up".
func (c *Console) heard(ctx context.Context, s *session, e link.Event) {
	var h Heard
	if c.d.Hear != nil {
		hctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		var err error
		h, err = c.d.Hear(hctx, e.Device, e.WAV)
		cancel()
		if err != nil {
			c.drops.Log(c.log, slog.LevelWarn, e.Device, "console: a heard clip could not be transcribed", "err", err)
			h = Heard{Note: "not transcribed: speech-to-text failed"}
		}
	}
	switch {
	case h.Intent == "session.end" || hangUp(h.Text):
		c.end(ctx, e.Device, EndHangUp)
		return
	case h.Intent == "robot.stop":
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		c.d.Audit(sctx, Action{Owner: s.owner.Login, Device: e.Device, Kind: "teleport.stop", Arg: "room", OK: true})
		c.send(sctx, e.Device, api.LinkMessage{Type: api.LinkStop})
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sessions[e.Device] != s || !s.live {
		return
	}
	s.nextID++
	s.clips = append(s.clips, clip{ID: s.nextID, At: e.At, Text: h.Text, Note: h.Note, wav: e.WAV})
	s.clipBytes += len(e.WAV)
	drop := 0
	for len(s.clips)-drop > maxClips || (s.clipBytes > maxClipBytes && len(s.clips)-drop > 1) {
		s.clipBytes -= len(s.clips[drop].wav)
		drop++
	}
	s.clips = slices.Delete(s.clips, 0, drop)
	s.last = c.d.Now()
}
