package main

// The --sim loop: runSim drives the hub on WAV files against a real broker and a fake (or
// named) daemon; with --link its microphone waits for the robot link and watches its folders
// (waitLinked, micUntil), and the --out files are rewritten as turns and calls happen
// (saveOnChange, writeSimOut); peakRSS is for its closing log line. The sounds the robot
// plays are logged in simsounds.go.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/robot"
	"github.com/reachy-broker/reachy-broker/robot/wake"
	"github.com/reachy-broker/reachy-broker/speech"
)

// runSim runs the loop on WAV files against a real broker, and the in-process fake daemon
// unless daemonURL names one to drive (an external fake or a real robot). With a link it
// stays up after the inputs are consumed, until ctx ends, and rewrites the --out files as
// calls and turns happen.
func runSim(ctx context.Context, cfg *robot.Config, client *robot.BrokerClient, l *robot.Link, spotter *wake.Guard, inputs []string, out, daemonURL string, stdout io.Writer, log *slog.Logger) error {
	var src robot.Source
	if l != nil {
		// With the link the microphone waits for it (a live session's state arrives first, so
		// the first words of a call are not routed as a turn) and keeps watching its folders.
		mic, err := robot.NewFolderMic(inputs, func(ctx context.Context) error { return waitLinked(ctx, l, log) }, log)
		if err != nil {
			return err
		}
		src = mic
	} else {
		fs, err := robot.NewFileSource(inputs, 1.0)
		if err != nil {
			return err
		}
		src = fs
	}
	sounds := &soundLog{dir: out, log: log}
	var fake *robot.FakeDaemon
	if daemonURL == "" {
		fake = robot.NewFakeDaemon()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		srv := &http.Server{Handler: fake, ReadHeaderTimeout: 5 * time.Second}
		go srv.Serve(ln)
		defer srv.Close()
		daemonURL = "http://" + ln.Addr().String()
	}
	d := robot.NewDaemon(daemonURL, 3*time.Second)
	var (
		mu    sync.Mutex
		turns []robot.Turn
	)
	h := &robot.Hub{Source: src, Broker: client, Daemon: d, Speaker: recordingSpeaker{inner: robot.DaemonSpeaker{D: d}, sounds: sounds},
		Motion: robot.NewMotion(d, cfg.Expressions, log), Fallback: robot.FallbackSpeech(ctx, cfg.FallbackWAV),
		MaxUtter: cfg.MaxUtter, Log: log, Wake: spotter, FollowUpWindow: cfg.FollowUpWindow,
		OnTurn: func(t robot.Turn) {
			mu.Lock()
			turns = append(turns, t)
			mu.Unlock()
			if t.Fallback {
				log.Info("turn", "n", t.Index, "fallback", true, "failure", t.Failure, "err", t.Err)
				return
			}
			log.Info("turn", "n", t.Index, "intent", t.Reply.Intent, "outcome", t.Reply.Outcome, "reply", t.Reply.Reply)
		}}
	if out != "" {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
	}
	save := func() ([]string, error) {
		if out == "" {
			return nil, nil
		}
		mu.Lock()
		ts := append([]robot.Turn(nil), turns...)
		mu.Unlock()
		return writeSimOut(out, fake, ts, h.Motion.Events())
	}
	progress := func() int {
		mu.Lock()
		n := len(turns)
		mu.Unlock()
		if fake != nil {
			n += len(fake.Calls())
		}
		return n
	}
	var wg sync.WaitGroup
	lctx, stopLink := context.WithCancel(ctx)
	defer func() { stopLink(); wg.Wait() }()
	if l != nil {
		mem := cfg.TimerMemory
		if mem == "" && out != "" {
			mem = filepath.Join(out, "timer-memory.json")
		}
		h.Timers = &robot.LocalTimers{Speaker: h.Speaker, After: cfg.TimerLocalAfter, Say: speech.Espeak{}.Synthesize, Log: log, Memory: mem}
		// Live calls answer with the simulator's test sources; what the owner says is written
		// to --out as call-owner-N.wav.
		h.Call = newCall(cfg.Call, out, log)
		defer h.Call.End("", api.CallEndRobotOffline) // the hub stops: so do the call's pipelines
		h.AttachLink(l)
		sounds.watchLink(l)
		wg.Add(3)
		go func() { defer wg.Done(); h.Timers.Run(lctx) }()
		go func() { defer wg.Done(); l.Run(lctx) }()
		go func() { defer wg.Done(); saveOnChange(lctx, progress, save, log) }()
	}
	hubCtx := ctx
	if l != nil {
		// SIGTERM ends the folder microphone (io.EOF), not the loop: the utterance being
		// spotted finishes before run closes the spotter (a spot cut off by its context
		// would still be running in C when the decoder is freed).
		h.Source, hubCtx = micUntil{src: h.Source, done: ctx}, context.WithoutCancel(ctx)
	}
	if err := h.Run(hubCtx); err != nil {
		return err
	}
	mu.Lock()
	ws := h.WakeStats()
	log.Info("sim finished", "turns", len(turns), "peak_rss_kb", peakRSS(), "heard", ws.Heard, "addressed", ws.Addressed,
		"bypassed", ws.Bypassed, "not_addressed", ws.NotAddressed, "second_listens", ws.Spotter.SecondListens)
	mu.Unlock()
	written, err := save()
	if err != nil || out == "" {
		return err
	}
	sounds.mu.Lock()
	if n := len(sounds.index); n > 0 {
		written = append(written, fmt.Sprintf("%s (the %d sounds the robot played, as numbered WAVs)", soundsIndex, n))
	}
	sounds.mu.Unlock()
	fmt.Fprintf(stdout, "wrote %s to %s\n", strings.Join(written, ", "), out)
	return nil
}

// micUntil is a microphone that ends when done does, whatever context its reader passes.
type micUntil struct {
	src  robot.Source
	done context.Context
}

func (m micUntil) Read(ctx context.Context) ([]float32, error) {
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(m.done, cancel)
	defer stop()
	return m.src.Read(rctx)
}

// TextFor passes on the words the sim microphone's files say (robot.SpokenTexts).
func (m micUntil) TextFor(start, end int) string {
	if st, ok := m.src.(robot.SpokenTexts); ok {
		return st.TextFor(start, end)
	}
	return ""
}

// waitLinked returns once the robot link is up and the broker's first messages (a live
// session's presence, the timers' copy) have had a moment to arrive, or when ctx ends.
func waitLinked(ctx context.Context, l *robot.Link, log *slog.Logger) error {
	if !l.Connected() {
		log.Info("sim: waiting for the robot link before reading the microphone")
	}
	for !l.Connected() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(300 * time.Millisecond):
	}
	log.Info("sim: the robot link is up; reading the microphone (new files in its folders are heard as they appear)")
	return nil
}

// saveOnChange rewrites the --out files whenever progress moved since the last write,
// polling every 50 ms, until ctx ends.
func saveOnChange(ctx context.Context, progress func() int, save func() ([]string, error), log *slog.Logger) {
	seen := -1
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if n := progress(); n != seen {
			if _, err := save(); err != nil {
				log.Warn("sim: writing --out", "err", err)
			}
			seen = n
		}
	}
}

// writeSimOut writes turns.json, motions.json, daemon-calls.json (with the built-in fake)
// and the played replies into out, each file replaced whole so a reader never sees half.
func writeSimOut(out string, fake *robot.FakeDaemon, turns []robot.Turn, motions []robot.MotionEvent) ([]string, error) {
	var written []string
	for i := range turns {
		if turns[i].SoundPlayed != "" && fake != nil {
			if b := fake.Sound(turns[i].SoundPlayed); b != nil {
				if err := os.WriteFile(filepath.Join(out, turns[i].SoundPlayed), b, 0o644); err != nil {
					return nil, err
				}
				written = append(written, turns[i].SoundPlayed)
			}
		}
		turns[i].Reply.Audio = ""
	}
	write := func(name string, v any) error {
		b, _ := json.MarshalIndent(v, "", "  ")
		written = append(written, name)
		tmp := filepath.Join(out, "."+name+".tmp")
		if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, filepath.Join(out, name))
	}
	if err := write("turns.json", turns); err != nil {
		return nil, err
	}
	if err := write("motions.json", motions); err != nil {
		return nil, err
	}
	if fake != nil {
		if err := write("daemon-calls.json", fake.Calls()); err != nil {
			return nil, err
		}
	}
	return written, nil
}

// peakRSS reads the process's peak resident set size (Linux), 0 elsewhere.
func peakRSS() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return kb
		}
	}
	return 0
}
