package media

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/reachy-broker/reachy-broker/robot/call"
)

// maxRequest bounds the hub's request line (the hub bounds an offer to 64 KB).
const maxRequest = 1 << 20

// statsEvery is how often the process tells the hub what it forwarded.
const statsEvery = time.Second

// Main is reachy-call's main (and a test binary's, when it finds call.MediaProcessEnv): it
// serves one call on stdin and stdout until stdin ends, SIGTERM, or the call fails, logging
// to stderr. It returns the exit status.
func Main() int {
	if os.Getenv(call.MediaProcessEnv) == "" {
		fmt.Fprintln(os.Stderr, "reachy-call is the live call's media process: reachy-hub starts it for the length of each call (docs/architecture.md); it is not run by hand")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := Serve(ctx, os.Stdin, os.Stdout, log); err != nil {
		log.Error("reachy-call", "err", err)
		return 1
	}
	return 0
}

// Serve runs one call: it reads the hub's call.MediaRequest from in, answers with
// call.MediaEvents on out, starts the media only after the hub's call.MediaStart, and stops
// it (every pipeline gone, the peer closed) when in ends or ctx is done, or when the media
// fails. A refused offer or a failed call is an event, not an error; the error is for a hub
// that cannot be read or written.
func Serve(ctx context.Context, in io.Reader, out io.Writer, log *slog.Logger) error {
	r := bufio.NewReaderSize(in, 64<<10)
	line, err := readLine(r, maxRequest)
	if err != nil {
		return fmt.Errorf("reading the hub's request: %w", err)
	}
	var req call.MediaRequest
	if err := json.Unmarshal(line, &req); err != nil {
		return fmt.Errorf("the hub's request: %w", err)
	}
	ev := &events{enc: json.NewEncoder(out)}
	log = log.With("call", req.CallID)
	s := newSession(req, log)
	defer s.stop()

	// The hub's further lines: a MediaStart, then nothing until stdin closes (the call ends).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := make(chan bool, 1)
	go func() {
		defer cancel()
		l, err := readLine(r, 4096)
		if err != nil {
			return
		}
		var m call.MediaStart
		json.Unmarshal(l, &m) // anything else is not a start
		start <- m.Start
		io.Copy(io.Discard, r)
	}()

	refuse := func(err error) error {
		if errors.Is(err, errStopped) || ctx.Err() != nil {
			return nil // the hub ended the call while it was set up
		}
		log.Warn("call refused", "err", err)
		return ev.send(call.MediaEvent{Kind: call.EventRefused, Why: err.Error(), Cause: causeOf(err)})
	}
	pc, tr, kept, err := s.prepare()
	if err != nil {
		return refuse(err)
	}
	if err := ev.send(call.MediaEvent{Kind: call.EventReady}); err != nil {
		return err
	}
	select {
	case ok := <-start:
		if !ok {
			return nil
		}
	case <-ctx.Done():
		return nil
	}
	answer, n, err := s.answer(ctx, pc, tr, func(video bool) {
		ev.send(call.MediaEvent{Kind: call.EventCapturing, Video: video})
	})
	if err != nil {
		return refuse(err)
	}
	if err := ev.send(call.MediaEvent{Kind: call.EventAnswer, SDP: answer, Candidates: n, RemoteCandidates: kept}); err != nil {
		return err
	}
	tick := time.NewTicker(statsEvery)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			if err := ev.send(s.stats()); err != nil {
				return err
			}
		case <-s.failed:
			log.Warn("call media failed", "why", s.why)
			ev.send(call.MediaEvent{Kind: call.EventFailed, Why: s.why, Cause: s.cause})
			s.stop()
			return ev.send(s.stats())
		case <-ctx.Done():
			s.stop()
			return ev.send(s.stats())
		}
	}
}

// events writes MediaEvents, one JSON line each.
type events struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (e *events) send(m call.MediaEvent) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.enc.Encode(m); err != nil {
		return fmt.Errorf("writing to the hub: %w", err)
	}
	return nil
}

// readLine reads one line of at most max bytes.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		line = append(line, frag...)
		if len(line) > max {
			return nil, fmt.Errorf("a line longer than %d bytes", max)
		}
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}
