package robot

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/speech"
)

// FolderMic is the simulator's microphone while its robot link is on (reachy-hub --sim
// --link): it waits until Ready says the link is up, then plays the WAV files it was given
// and every .wav file that appears in its folders afterwards, each once, in name order, with
// silence around each — so a file dropped into the folder mid-session is heard then.
//
// The folders are watched by a bounded stat loop (one listing every Poll; no inotify): a
// new file is read once its size has held still for one poll, so a file still being written
// is not read half-way. It ends (io.EOF) only when its context does.
type FolderMic struct {
	Inputs []string                        // WAV files (read once) and folders (watched)
	Ready  func(ctx context.Context) error // blocks until the microphone may be read; nil: at once
	Poll   time.Duration                   // between listings of the folders; default 200 ms
	Log    *slog.Logger

	spans   // the words each file says, when it carries them (SpokenTexts)
	started bool
	base    int // the stream position of buf[0]
	seen    map[string]bool
	sizes   map[string]int64 // a new file's size at the last listing
	buf     []float32
	pos     int
}

// NewFolderMic checks that each input exists and returns the microphone; an empty list is
// allowed (a folder can be named later only by restarting, but the link works without one).
func NewFolderMic(inputs []string, ready func(context.Context) error, log *slog.Logger) (*FolderMic, error) {
	for _, in := range inputs {
		if _, err := os.Stat(in); err != nil {
			return nil, fmt.Errorf("sim microphone: %w", err)
		}
	}
	if log == nil {
		log = slog.Default()
	}
	return &FolderMic{Inputs: inputs, Ready: ready, Log: log, seen: map[string]bool{}, sizes: map[string]int64{}}, nil
}

func (m *FolderMic) poll() time.Duration {
	if m.Poll > 0 {
		return m.Poll
	}
	return 200 * time.Millisecond
}

// Read returns the next 20 ms of the files read so far, waiting (one listing per Poll) for
// new files when they are used up. It returns io.EOF when ctx ends.
func (m *FolderMic) Read(ctx context.Context) ([]float32, error) {
	if !m.started {
		if m.Ready != nil {
			if err := m.Ready(ctx); err != nil {
				return nil, io.EOF
			}
		}
		m.started = true
		m.scan(true)
	}
	const chunk = speech.SampleRate / 50
	for m.pos >= len(m.buf) {
		m.base += len(m.buf)
		m.buf, m.pos = m.buf[:0], 0
		if m.scan(false) {
			break
		}
		t := time.NewTimer(m.poll())
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, io.EOF
		case <-t.C:
		}
	}
	if ctx.Err() != nil {
		return nil, io.EOF
	}
	end := min(m.pos+chunk, len(m.buf))
	out := m.buf[m.pos:end]
	m.pos = end
	return out, nil
}

// scan reads the files not read yet (first: also the files named directly) into the
// buffer; it reports whether it added any.
func (m *FolderMic) scan(first bool) bool {
	var ready []string
	for _, in := range m.Inputs {
		st, err := os.Stat(in)
		if err != nil {
			m.Log.Warn("sim microphone: input gone", "path", in, "err", err)
			continue
		}
		if !st.IsDir() {
			if first && !m.seen[in] {
				ready = append(ready, in)
			}
			continue
		}
		entries, err := os.ReadDir(in)
		if err != nil {
			m.Log.Warn("sim microphone: folder not readable", "path", in, "err", err)
			continue
		}
		for _, e := range entries {
			p := filepath.Join(in, e.Name())
			if e.IsDir() || !strings.EqualFold(filepath.Ext(e.Name()), ".wav") || m.seen[p] {
				continue
			}
			info, err := e.Info()
			if err != nil {
				continue
			}
			if last, ok := m.sizes[p]; !ok || last != info.Size() || info.Size() == 0 {
				m.sizes[p] = info.Size() // still being written, or new: look again next poll
				continue
			}
			ready = append(ready, p)
		}
	}
	sort.Strings(ready)
	added := false
	for _, p := range ready {
		m.seen[p] = true
		delete(m.sizes, p)
		b, err := os.ReadFile(p)
		if err != nil {
			m.Log.Warn("sim microphone: file not read", "file", p, "err", err)
			continue
		}
		clip, err := speech.DecodeWAV(b, 0)
		if err != nil {
			m.Log.Warn("sim microphone: not a WAV file the hub can hear; skipped", "file", p, "err", err)
			continue
		}
		m.Log.Info("sim microphone: hearing a file", "file", p, "seconds", fmt.Sprintf("%.1f", clip.Duration().Seconds()))
		m.buf = append(m.buf, make([]float32, speech.SampleRate/2)...)
		m.add(b, m.base+len(m.buf), m.base+len(m.buf)+len(clip.Samples))
		m.buf = append(m.buf, clip.Samples...)
		m.buf = append(m.buf, make([]float32, speech.SampleRate)...)
		added = true
	}
	return added
}
