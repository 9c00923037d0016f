package wake

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
)

// Serve is the wake process's side of the protocol in process.go: it reads the Options, builds
// the engine they name in this process, says it is ready (or why not, and returns), then
// answers one utterance after another until its input ends. Every engine call runs on one OS
// thread, so ONNX Runtime's C heap lives in one malloc arena.
// build makes the engine from the Options (New; the tests' fakes).
func Serve(ctx context.Context, in io.Reader, out io.Writer, log *slog.Logger, build func(Options) (Spotter, error)) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	answer := func(v any) error {
		b, _ := json.Marshal(v)
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
		return w.Flush()
	}
	line, err := readLine(r, 16<<20)
	if err != nil {
		return fmt.Errorf("reading the options: %w", err)
	}
	var o Options
	if err := json.Unmarshal(line, &o); err != nil {
		answer(map[string]any{"ready": false, "error": "unreadable options: " + err.Error()})
		return fmt.Errorf("unreadable options: %w", err)
	}
	sp, err := build(o)
	if err != nil {
		answer(map[string]any{"ready": false, "error": err.Error()})
		return err
	}
	defer sp.Close()
	defer func() {
		if kb := peakRSSKB(); kb > 0 {
			log.Info("wake process done", "peak_rss_kb", kb)
		}
	}()
	if err := answer(map[string]any{"ready": true}); err != nil {
		return err
	}
	log.Info("wake process ready", "engine", o.Engine, "phrases", o.Phrases)
	var buf []byte
	samples := make([]float32, 0, 16*SampleRate)
	for {
		line, err := readLine(r, 1024)
		if errors.Is(err, io.ErrUnexpectedEOF) && len(line) == 0 {
			return nil // the hub closed our input (or is gone): done
		}
		if err != nil {
			return fmt.Errorf("reading a request: %w", err)
		}
		var req struct {
			Samples int `json:"samples"`
		}
		if err := json.Unmarshal(line, &req); err != nil || req.Samples < 0 || req.Samples > MaxProcessSamples {
			return fmt.Errorf("a bad request %q: want {\"samples\":N} with N at most %d", line, MaxProcessSamples)
		}
		buf = append(buf[:0], make([]byte, 4*req.Samples)...)
		if _, err := io.ReadFull(r, buf); err != nil {
			return fmt.Errorf("reading %d samples: %w", req.Samples, err)
		}
		samples = samples[:0]
		for i := 0; i < req.Samples; i++ {
			samples = append(samples, math.Float32frombits(binary.LittleEndian.Uint32(buf[4*i:])))
		}
		d, ok, err := sp.Spot(ctx, samples)
		a := processAnswer{Heard: ok, Detection: d}
		if err != nil {
			a = processAnswer{Error: err.Error()}
		}
		if err := answer(a); err != nil {
			return err
		}
	}
}

// ServeMain is reachy-wake's main: Serve on stdin and stdout, logging to stderr; the exit
// code is 0 when the hub closed its input, 1 otherwise.
func ServeMain() int {
	return ServeWith(New)
}

// ServeWith is ServeMain with another engine builder (the tests' fakes).
func ServeWith(build func(Options) (Spotter, error)) int {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if os.Getenv("GOGC") == "" {
		// The Go heap holds an utterance's copies (samples, the noise floor, the denoised
		// listen, embeddings): collected sooner, it stays near what is live, not twice it.
		debug.SetGCPercent(25)
	}
	if err := Serve(context.Background(), os.Stdin, os.Stdout, log, build); err != nil {
		log.Error("wake process", "err", err)
		return 1
	}
	return 0
}

// peakRSSKB is this process's peak resident memory (VmHWM, Linux), 0 where it cannot be read.
func peakRSSKB() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb
		}
	}
	return 0
}
