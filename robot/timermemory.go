package robot

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The hub's memory of who rang each timer, kept on disk when LocalTimers.Memory names a file:
// a hub killed between playing a broker's ring and the broker's re-sending of it (its ack
// was lost with the process) answers the re-sent ring "played" after its restart instead of
// playing it a second time, and a timer it rang itself and had not yet reported is reported
// by the next process. The file holds timer IDs, who rang them, the highest repeat played
// and when — nothing else.

// memoryKeep is how long the hub remembers who rang a timer: far longer than the broker
// ever re-sends a ring (its grace window).
const memoryKeep = 24 * time.Hour

// maxMemory bounds the remembered timers.
const maxMemory = 1024

type memoryFile struct {
	Rings []memoryRing `json:"rings"`
	// Unreported are timers rung here that the broker has not been told of.
	Unreported []string `json:"unreported,omitempty"`
}

type memoryRing struct {
	ID     string    `json:"id"`
	By     string    `json:"by"` // broker or hub
	Played int       `json:"played,omitempty"`
	At     time.Time `json:"at"`
}

// loadMemory reads the memory file into the maps (l.mu held, after init). A missing file is
// an empty memory; an unreadable one is logged and ignored (the hub still rings).
func (l *LocalTimers) loadMemory() {
	if l.Memory == "" || l.memLoaded {
		return
	}
	l.memLoaded = true
	b, err := os.ReadFile(l.Memory)
	if os.IsNotExist(err) {
		return
	}
	var m memoryFile
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		l.log().Warn("the hub's timer memory is unreadable; starting without it", "file", l.Memory, "err", err)
		return
	}
	now := l.now()
	for _, r := range m.Rings {
		if r.ID == "" || len(r.ID) > 128 || now.Sub(r.At) > memoryKeep || len(l.owner) >= maxMemory {
			continue
		}
		switch r.By {
		case "broker":
			l.owner[r.ID] = byBroker
		case "hub":
			l.owner[r.ID] = byHub
		default:
			continue
		}
		l.ownedAt[r.ID] = r.At
		if r.Played > 0 {
			l.played[r.ID] = r.Played
		}
	}
	for _, id := range m.Unreported {
		if l.owner[id] == byHub && len(l.rang) < maxMemory {
			l.rang = append(l.rang, id)
		}
	}
}

// saveMemory writes the memory file (l.mu held). It is written whole to a temporary file and
// renamed over the old one, so a kill at any moment leaves the old memory or the new one.
func (l *LocalTimers) saveMemory() {
	if l.Memory == "" {
		return
	}
	l.init() // never overwrite a memory not read yet
	m := memoryFile{Rings: []memoryRing{}, Unreported: l.rang}
	for id, by := range l.owner {
		r := memoryRing{ID: id, By: "broker", Played: l.played[id], At: l.ownedAt[id].UTC().Round(0)}
		if by == byHub {
			r.By = "hub"
		}
		m.Rings = append(m.Rings, r)
	}
	if err := writeFileAtomic(l.Memory, m); err != nil {
		l.log().Warn("the hub's timer memory was not saved: a ring may play twice if the hub restarts now", "err", err)
	}
}

func writeFileAtomic(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("timer memory: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("timer memory: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("timer memory: %w", err)
	}
	return nil
}

// stager is a Speaker that can upload a sound ahead and start it later (DaemonSpeaker): the
// hub notes a ring as played just before its chime starts, not before a slow upload.
type stager interface {
	Stage(ctx context.Context, name string, wav []byte) (play func(context.Context) error, err error)
}

// Stage uploads a sound and returns the call that starts it.
func (s DaemonSpeaker) Stage(ctx context.Context, name string, wav []byte) (func(context.Context) error, error) {
	file, err := s.D.UploadSound(ctx, name, wav)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) error { return s.D.PlaySound(ctx, file) }, nil
}

// DefaultTimerMemory is where the hub keeps its timer memory when the config names no file:
// systemd's StateDirectory, else $XDG_STATE_HOME/reachy-hub, else ~/.local/state/reachy-hub.
func DefaultTimerMemory() string {
	if d := os.Getenv("STATE_DIRECTORY"); d != "" {
		return filepath.Join(d, "timers.json")
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "reachy-hub", "timers.json")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "state", "reachy-hub", "timers.json")
	}
	return ""
}
