package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/robot"
	"github.com/reachy-broker/reachy-broker/speech"
)

// The simulator's record of what the robot played: every sound that reaches its speaker —
// a turn's reply, the fallback, a teleport join announcement, typed speech and push-to-talk,
// a timer's chime and sentence (the broker's ring or the hub's own), an announcement — is
// written to --out as it plays, as a numbered WAV (001-reply.wav, 002-join_announcement.wav,
// ...) with an entry in sounds.json saying what kind it was, where it came from and when,
// and one log line.

// soundsIndex is the index file's name in --out.
const soundsIndex = "sounds.json"

// Sound kinds in sounds.json.
const (
	soundReply        = "reply"             // the broker's answer to a turn
	soundFallback     = "fallback"          // the hub's "can't reach home" for a turn the broker did not answer
	soundJoin         = "join_announcement" // a teleport session's chime and "Dad is joining"
	soundAnnouncement = "announcement"      // an owner's announcement, or a session's "who left", with the chime
	soundTimerChime   = "timer_chime"       // the chime before the broker's ring sentence
	soundTimerRing    = "timer_ring"        // the broker's ring sentence ("Your pasta timer is done.")
	soundTimerLocal   = "timer_local"       // a ring the hub made itself (the broker did not ring in time)
	soundOther        = "sound"             // anything else the speaker was given
)

// Where a sound came from.
const (
	fromTurn = "turn" // the reply to an utterance the hub sent
	fromLink = "link" // an action the broker sent over the robot link
	fromHub  = "hub"  // the hub on its own
)

// playedSound is one entry of sounds.json.
type playedSound struct {
	N       int       `json:"n"`
	File    string    `json:"file"` // in --out
	Kind    string    `json:"kind"`
	From    string    `json:"from"`
	At      time.Time `json:"at"`
	Name    string    `json:"name"` // the name the hub gave the daemon for it
	Seconds float64   `json:"seconds"`
}

// soundLog writes the played sounds to dir (none when dir is empty: then it only logs).
type soundLog struct {
	dir string
	log *slog.Logger

	mu    sync.Mutex
	index []playedSound
}

// linkActionKey carries the link action being run to the speaker, so the sound it plays is
// recorded as what it is.
type linkActionKey struct{}

// watchLink wraps l's action handler (set by Hub.AttachLink) so that the sounds an action
// plays are recorded with its kind, and every action that plays nothing is logged.
func (s *soundLog) watchLink(l *robot.Link) {
	inner := l.Handle
	l.Handle = func(ctx context.Context, m api.LinkMessage) api.LinkAckBody {
		ack := inner(context.WithValue(ctx, linkActionKey{}, m), m)
		played := ack.OK && (m.Type == api.LinkPlay || m.Type == api.LinkRing)
		if !played {
			s.log.Info("sim: link action", "type", m.Type, "ok", ack.OK, "code", ack.Code)
		}
		return ack
	}
}

// kindOf names a sound by the link action that plays it, else by the name the hub gave it.
func kindOf(ctx context.Context, name string) (kind, from string) {
	if m, ok := ctx.Value(linkActionKey{}).(api.LinkMessage); ok {
		switch {
		case m.Type == api.LinkRing && name == "timer-chime.wav":
			return soundTimerChime, fromLink
		case m.Type == api.LinkRing:
			return soundTimerRing, fromLink
		case m.Type == api.LinkPlay && m.Play != nil && m.Play.Join:
			return soundJoin, fromLink
		case m.Type == api.LinkPlay && m.Play != nil && m.Play.Kind != "":
			return m.Play.Kind, fromLink
		case m.Type == api.LinkPlay && m.Play != nil && m.Play.Chime:
			return soundAnnouncement, fromLink
		}
		return soundOther, fromLink
	}
	switch {
	case strings.HasPrefix(name, "reply-"):
		return soundReply, fromTurn
	case name == "fallback.wav":
		return soundFallback, fromHub
	case name == "timer-local.wav":
		return soundTimerLocal, fromHub
	case name == "timer-chime.wav":
		return soundTimerChime, fromLink
	case strings.HasPrefix(name, "timer-"):
		return soundTimerRing, fromLink
	}
	return soundOther, fromHub
}

// record writes one played sound and rewrites the index (whole, by rename: a reader never
// sees half of it).
func (s *soundLog) record(ctx context.Context, name string, wav []byte) {
	kind, from := kindOf(ctx, name)
	secs := 0.0
	if clip, err := speech.DecodeWAV(wav, 10*time.Minute); err == nil {
		secs = float64(int(clip.Duration().Seconds()*100)) / 100
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := playedSound{N: len(s.index) + 1, Kind: kind, From: from, At: time.Now().UTC(), Name: name, Seconds: secs}
	if s.dir != "" {
		e.File = fmt.Sprintf("%03d-%s.wav", e.N, kind)
		if err := os.WriteFile(filepath.Join(s.dir, e.File), wav, 0o644); err != nil {
			s.log.Warn("sim: writing a played sound to --out", "err", err)
			e.File = ""
		}
	}
	s.index = append(s.index, e)
	s.log.Info("sim: played", "n", e.N, "kind", kind, "from", from, "seconds", secs, "file", e.File)
	if s.dir == "" {
		return
	}
	b, _ := json.MarshalIndent(s.index, "", "  ")
	tmp := filepath.Join(s.dir, "."+soundsIndex+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		s.log.Warn("sim: writing "+soundsIndex, "err", err)
		return
	}
	if err := os.Rename(tmp, filepath.Join(s.dir, soundsIndex)); err != nil {
		s.log.Warn("sim: writing "+soundsIndex, "err", err)
	}
}

// recordingSpeaker is the sim's speaker: it plays through inner and records what played.
type recordingSpeaker struct {
	inner  robot.Speaker
	sounds *soundLog
}

func (r recordingSpeaker) Play(ctx context.Context, name string, wav []byte) error {
	if err := r.inner.Play(ctx, name, wav); err != nil {
		kind, from := kindOf(ctx, name)
		r.sounds.log.Warn("sim: playback failed", "kind", kind, "from", from, "err", err)
		return err
	}
	r.sounds.record(ctx, name, wav)
	return nil
}

// Stage uploads a sound ahead through inner (robot.DaemonSpeaker) and returns the call that
// plays and records it: a timer ring is noted as played just before its chime starts, as on
// the robot, not before its upload.
func (r recordingSpeaker) Stage(ctx context.Context, name string, wav []byte) (func(context.Context) error, error) {
	st, ok := r.inner.(interface {
		Stage(context.Context, string, []byte) (func(context.Context) error, error)
	})
	if !ok {
		return func(ctx context.Context) error { return r.Play(ctx, name, wav) }, nil
	}
	play, err := st.Stage(ctx, name, wav)
	if err != nil {
		kind, from := kindOf(ctx, name)
		r.sounds.log.Warn("sim: playback failed", "kind", kind, "from", from, "err", err)
		return nil, err
	}
	return func(ctx context.Context) error {
		if err := play(ctx); err != nil {
			kind, from := kindOf(ctx, name)
			r.sounds.log.Warn("sim: playback failed", "kind", kind, "from", from, "err", err)
			return err
		}
		r.sounds.record(ctx, name, wav)
		return nil
	}, nil
}

func (r recordingSpeaker) Stop(ctx context.Context) error {
	r.sounds.log.Info("sim: playback stopped")
	return r.inner.Stop(ctx)
}
