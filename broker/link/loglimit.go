package link

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// LogLimit bounds the log lines a peer can cause: per key (a device and a kind of line), the
// first Burst lines of each Interval are written and the rest only counted; when that
// interval ends, one line says how many were suppressed. A hub that sends a flood of bad
// frames writes a few lines a minute, not one per frame. Safe for concurrent use; the zero
// value is not usable, create it with NewLogLimit.
type LogLimit struct {
	burst    int
	interval time.Duration

	mu   sync.Mutex
	keys map[logKey]*logWindow
}

type logKey struct{ device, msg string }

type logWindow struct {
	start      time.Time
	written    int
	suppressed int
}

// NewLogLimit lets burst lines per key through in each interval.
func NewLogLimit(burst int, interval time.Duration) *LogLimit {
	return &LogLimit{burst: max(burst, 1), interval: interval, keys: map[logKey]*logWindow{}}
}

// Log writes msg at level for device unless the key (device, msg) used up its lines in this
// interval; then it is counted, and a summary follows when the interval ends.
func (l *LogLimit) Log(log *slog.Logger, level slog.Level, device, msg string, args ...any) {
	k := logKey{device, msg}
	now := time.Now()
	l.mu.Lock()
	w := l.keys[k]
	if w == nil || now.Sub(w.start) >= l.interval {
		w = &logWindow{start: now}
		l.keys[k] = w
	}
	if w.written < l.burst {
		w.written++
		l.mu.Unlock()
		log.Log(context.Background(), level, msg, append([]any{"device", device}, args...)...)
		return
	}
	w.suppressed++
	first := w.suppressed == 1
	l.mu.Unlock()
	if first {
		time.AfterFunc(l.interval-now.Sub(w.start), func() { l.summarize(log, level, k, w) })
	}
}

// summarize writes how many lines of k's window were suppressed and forgets the window.
func (l *LogLimit) summarize(log *slog.Logger, level slog.Level, k logKey, w *logWindow) {
	l.mu.Lock()
	n := w.suppressed
	if l.keys[k] == w {
		delete(l.keys, k)
	}
	l.mu.Unlock()
	log.Log(context.Background(), level, k.msg+" (more lines like this suppressed)", "device", k.device, "suppressed", n, "within", l.interval)
}
