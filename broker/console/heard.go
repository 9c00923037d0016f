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
//
// The room's control words ("hang up", "privacy mode on", "be quiet for an hour") are short
// utterances; they must never wait behind chatter or be dropped for it. So a short clip
// (at most controlClipBytes of audio) is transcribed before any longer one that waits, and
// when the queue is full the oldest long clip is dropped (the oldest short one only when
// every waiting clip is short) — never the newest. The owner is told that some speech was
// not transcribed; the dropped audio itself is not passed on unheard.
const (
	maxQueuedHeard   = 4
	controlClipBytes = 4*2*16000 + 44 // four seconds of the hub's 16 kHz PCM16 mono WAV
	maxClips         = 40
	maxClipBytes     = 8 << 20
)

// NoteSkipped stands in the owner's timeline for speech dropped before transcription.
const NoteSkipped = "(some speech was not transcribed)"

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

// onLink follows the robots' links. A session never outlives its robot's link: the link
// going down (the heartbeat notices a silent one within api.LinkDeadAfter) ends it as
// robot_offline, and a robot that links again — also one whose new link replaced a
// half-dead one the broker never saw go down — starts with no session: any new one begins
// with its chime. What a robot heard is queued for its session's transcription. It never
// waits on a transcription: one robot's clips do not hold up another robot's events.
func (c *Console) onLink(ctx context.Context, e link.Event) {
	c.mu.Lock()
	if c.stopping {
		c.mu.Unlock()
		return
	}
	s := c.sessions[e.Device]
	var live bool
	if s != nil {
		live = s.live
	}
	c.mu.Unlock()
	switch e.Kind {
	case link.EventUp, link.EventDown:
		if s != nil {
			c.endIfCurrent(ctx, s, EndRobotOffline)
		}
	case link.EventHeard:
		c.queueHeard(s, live, e)
	case link.EventCallEnded:
		go c.onCallEnded(ctx, e)
	}
}

// endIfCurrent ends s for reason if it is still its robot's session.
func (c *Console) endIfCurrent(ctx context.Context, s *session, reason string) {
	c.mu.Lock()
	current := c.sessions[s.device] == s
	c.mu.Unlock()
	if current {
		go c.end(ctx, s.device, reason)
	}
}

// queueHeard hands a heard clip to its session's transcription: nothing from the room
// reaches the owner before the session is live. A full queue drops its oldest chatter,
// never the clip that just came (it may be "hang up").
func (c *Console) queueHeard(s *session, live bool, e link.Event) {
	if s != nil && c.answerHeard(s, e) {
		return // the room's answer to "may Dad join?": never the owner's
	}
	if s == nil || !live {
		c.droppedNotLive.Add(1)
		c.drops.Log(c.log, slog.LevelInfo, e.Device, "console: heard clip dropped: no live session")
		return
	}
	c.mu.Lock()
	if c.sessions[e.Device] != s {
		c.mu.Unlock()
		c.droppedNotLive.Add(1)
		return
	}
	s.queue = append(s.queue, e)
	dropped := false
	if len(s.queue) > maxQueuedHeard {
		victim := 0 // the oldest, unless a long one waits: the oldest long one
		for i, q := range s.queue[:len(s.queue)-1] {
			if len(q.WAV) > controlClipBytes {
				victim = i
				break
			}
		}
		s.queue = slices.Delete(s.queue, victim, victim+1)
		c.noteSkipped(s)
		dropped = true
	}
	c.mu.Unlock()
	if dropped {
		c.droppedQueue.Add(1)
		c.drops.Log(c.log, slog.LevelWarn, e.Device, "console: a waiting heard clip dropped: transcription is behind")
	}
	select {
	case s.hear <- struct{}{}:
	default:
	}
}

// noteSkipped tells the owner some speech was dropped untranscribed (once for a run of
// drops); c.mu is held.
func (c *Console) noteSkipped(s *session) {
	if n := len(s.clips); n > 0 && s.clips[n-1].Note == NoteSkipped {
		return
	}
	s.nextID++
	s.clips = append(s.clips, clip{ID: s.nextID, At: c.d.Now(), Note: NoteSkipped, NoAudio: true})
}

// nextHeard takes the clip to transcribe next: the oldest short one (the room's control
// words), else the oldest.
func (c *Console) nextHeard(s *session) (link.Event, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(s.queue) == 0 {
		return link.Event{}, false
	}
	i := slices.IndexFunc(s.queue, func(e link.Event) bool { return len(e.WAV) <= controlClipBytes })
	if i < 0 {
		i = 0
	}
	e := s.queue[i]
	s.queue = slices.Delete(s.queue, i, i+1)
	return e, true
}

// hearLoop transcribes a live session's heard clips one at a time until the session ends.
func (c *Console) hearLoop(s *session) {
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-s.hear:
		}
		for s.ctx.Err() == nil {
			e, ok := c.nextHeard(s)
			if !ok {
				break
			}
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
