package whisper

/*
#cgo LDFLAGS: -lwhisper -lggml -lggml-base -lggml-cpu -lm -lstdc++
#cgo linux LDFLAGS: -fopenmp
#cgo darwin LDFLAGS: -lggml-metal -lggml-blas -framework Accelerate -framework Metal -framework Foundation -framework CoreGraphics
#include <stdlib.h>
#include <whisper.h>

extern void goWhisperLog(int level, char *text);

static void reachy_log_cb(enum ggml_log_level level, const char *text, void *user_data) {
	goWhisperLog((int)level, (char *)text);
}

static void reachy_install_log(void) {
	whisper_log_set(reachy_log_cb, NULL);
}

// The abort flag is plain C memory so whisper.cpp can poll it without touching Go memory.
static bool reachy_abort_cb(void *data) {
	return __atomic_load_n((int *)data, __ATOMIC_RELAXED) != 0;
}

static void reachy_set_abort(struct whisper_full_params *p, int *flag) {
	p->abort_callback = reachy_abort_cb;
	p->abort_callback_user_data = flag;
}

static void reachy_flag_set(int *flag, int v) {
	__atomic_store_n(flag, v, __ATOMIC_RELAXED);
}

// Encoder-begin is the other place whisper.cpp looks for a stop request.
static bool reachy_encoder_begin_cb(struct whisper_context *ctx, struct whisper_state *state, void *data) {
	return __atomic_load_n((int *)data, __ATOMIC_RELAXED) == 0;
}

static void reachy_set_encoder_begin(struct whisper_full_params *p, int *flag) {
	p->encoder_begin_callback = reachy_encoder_begin_cb;
	p->encoder_begin_callback_user_data = flag;
}
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// Version is the version of the whisper.cpp library linked into this binary.
func Version() string { return C.GoString(C.whisper_version()) }

// ErrBusy is returned when every worker is occupied and the queue is full.
var ErrBusy = errors.New("speech-to-text is busy")

// ErrClosed is returned after Close.
var ErrClosed = errors.New("speech-to-text engine is closed")

// Config describes how the engine is built.
type Config struct {
	ModelPath string
	Workers   int // inference states; default 1
	Queue     int // requests that may wait for a worker; default 2*Workers
	Logger    *slog.Logger
}

// Options are per call.
type Options struct {
	Language      string  // default "en"
	Threads       int     // default 1
	MaxTokens     int     // 0 = whisper's own limit
	InitialPrompt string  // vocabulary hint (room and device names)
	NoSpeechProb  float32 // segments above this are dropped; default 0.6
	// TemperatureFallback re-decodes at higher temperature when a decode looks bad. Off by
	// default: on a small CPU each fallback costs a full decode.
	TemperatureFallback bool
	// FullWindow disables sizing audio_ctx to the clip (for comparisons only).
	FullWindow bool
}

// Segment is one piece of a transcript.
type Segment struct {
	Text         string
	Start, End   time.Duration
	NoSpeechProb float32
}

// Result is what a transcription returns.
type Result struct {
	Text     string
	Segments []Segment // kept segments, in order
	Dropped  int       // segments dropped as probable non-speech
	AudioCtx int       // encoder context used
}

// Engine is a loaded model with a pool of workers. Safe for concurrent use.
type Engine struct {
	ctx      *C.struct_whisper_context
	jobs     chan *job
	wg       sync.WaitGroup
	log      *slog.Logger
	closeMu  sync.RWMutex
	closed   bool
	isTest   bool
	audioCtx int
}

type job struct {
	ctx     context.Context
	samples []float32
	opts    Options
	done    chan jobResult
}

type jobResult struct {
	res Result
	err error
}

var installLog sync.Once

// Load validates the model file, loads it once, and starts cfg.Workers workers.
func Load(cfg Config) (*Engine, error) {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	info, err := inspectModel(cfg.ModelPath)
	if err != nil {
		return nil, err
	}
	installLog.Do(func() { C.reachy_install_log() })
	if info.isTest {
		logger.Warn("LOADING A GENERATED TEST MODEL: its weights are random and its transcripts are meaningless; download a real model with 'make model'",
			"model", cfg.ModelPath)
	}
	workers := max(cfg.Workers, 1)
	queue := cfg.Queue
	if queue <= 0 {
		queue = 2 * workers
	}

	cpath := C.CString(cfg.ModelPath)
	defer C.free(unsafe.Pointer(cpath))
	cparams := C.whisper_context_default_params()
	cparams.use_gpu = false
	wctx := C.whisper_init_from_file_with_params_no_state(cpath, cparams)
	if wctx == nil {
		return nil, fmt.Errorf("load whisper model %s: whisper.cpp refused it (see debug log)", cfg.ModelPath)
	}
	e := &Engine{ctx: wctx, jobs: make(chan *job, queue), log: logger, isTest: info.isTest,
		audioCtx: int(C.whisper_model_n_audio_ctx(wctx))}
	states := make([]*C.struct_whisper_state, 0, workers)
	for i := 0; i < workers; i++ {
		st := C.whisper_init_state(wctx)
		if st == nil {
			for _, s := range states {
				C.whisper_free_state(s)
			}
			C.whisper_free(wctx)
			return nil, fmt.Errorf("load whisper model %s: cannot allocate worker state %d", cfg.ModelPath, i)
		}
		states = append(states, st)
	}
	for _, st := range states {
		e.wg.Add(1)
		go e.worker(st)
	}
	return e, nil
}

// IsTestModel reports whether the loaded model is a generated test model.
func (e *Engine) IsTestModel() bool { return e.isTest }

// Close stops accepting work, waits for running transcriptions, and frees the model.
func (e *Engine) Close() error {
	e.closeMu.Lock()
	if e.closed {
		e.closeMu.Unlock()
		return nil
	}
	e.closed = true
	close(e.jobs)
	e.closeMu.Unlock()
	e.wg.Wait()
	C.whisper_free(e.ctx)
	return nil
}

// Transcribe turns 16 kHz mono samples into text. It returns ErrBusy at once when the queue
// is full and ctx's error as soon as ctx ends, whatever whisper.cpp is doing.
func (e *Engine) Transcribe(ctx context.Context, samples []float32, opts Options) (Result, error) {
	if err := validateSamples(samples); err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	j := &job{ctx: ctx, samples: samples, opts: opts, done: make(chan jobResult, 1)}
	e.closeMu.RLock()
	if e.closed {
		e.closeMu.RUnlock()
		return Result{}, ErrClosed
	}
	select {
	case e.jobs <- j:
	default:
		e.closeMu.RUnlock()
		return Result{}, ErrBusy
	}
	e.closeMu.RUnlock()
	select {
	case r := <-j.done:
		return r.res, r.err
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}

const (
	sampleRate  = 16000
	maxSeconds  = 30
	minSamples  = sampleRate / 10 // whisper.cpp needs ~100 ms to produce a mel frame window
	framesPerS  = 50              // encoder positions per second of audio
	ctxHeadroom = 32
)

func validateSamples(s []float32) error {
	if len(s) == 0 {
		return errors.New("transcribe: no samples")
	}
	if len(s) > maxSeconds*sampleRate {
		return fmt.Errorf("transcribe: %.1f s of audio; the limit is %d s", float64(len(s))/sampleRate, maxSeconds)
	}
	for i, v := range s {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("transcribe: sample %d is not finite", i)
		}
	}
	return nil
}

// AudioCtxFor sizes whisper's encoder window to the clip: the main latency lever on a CPU.
func AudioCtxFor(nSamples, modelCtx int) int {
	n := int(math.Ceil(float64(nSamples)/sampleRate*framesPerS)) + ctxHeadroom
	return min(max(n, 2*ctxHeadroom), modelCtx)
}

func (e *Engine) worker(st *C.struct_whisper_state) {
	defer e.wg.Done()
	defer C.whisper_free_state(st)
	flag := (*C.int)(C.calloc(1, C.size_t(unsafe.Sizeof(C.int(0)))))
	defer C.free(unsafe.Pointer(flag))
	for j := range e.jobs {
		if j.ctx.Err() != nil {
			j.done <- jobResult{err: j.ctx.Err()}
			continue
		}
		res, err := e.run(st, flag, j)
		j.done <- jobResult{res: res, err: err}
	}
}

func (e *Engine) run(st *C.struct_whisper_state, flag *C.int, j *job) (Result, error) {
	o := j.opts
	params := C.whisper_full_default_params(C.WHISPER_SAMPLING_GREEDY)
	lang := o.Language
	if lang == "" {
		lang = "en"
	}
	clang := C.CString(lang)
	defer C.free(unsafe.Pointer(clang))
	params.language = clang
	params.n_threads = C.int(max(o.Threads, 1))
	params.print_progress = false
	params.print_realtime = false
	params.print_timestamps = false
	params.print_special = false
	params.no_context = true
	params.single_segment = true
	params.max_tokens = C.int(max(o.MaxTokens, 0))
	if !o.TemperatureFallback {
		params.temperature_inc = 0
	}
	ns := o.NoSpeechProb
	if ns <= 0 {
		ns = 0.6
	}
	params.no_speech_thold = C.float(ns)
	audioCtx := e.audioCtx
	if !o.FullWindow {
		audioCtx = AudioCtxFor(len(j.samples), e.audioCtx)
	}
	params.audio_ctx = C.int(audioCtx)
	if o.InitialPrompt != "" {
		cp := C.CString(o.InitialPrompt)
		defer C.free(unsafe.Pointer(cp))
		params.initial_prompt = cp
	}
	C.reachy_flag_set(flag, 0)
	C.reachy_set_abort(&params, flag)
	C.reachy_set_encoder_begin(&params, flag)

	// Raise the abort flag when the caller gives up, so the worker is free again soon.
	stop := make(chan struct{})
	watcherDone := make(chan struct{})
	go func() {
		defer close(watcherDone)
		select {
		case <-j.ctx.Done():
			C.reachy_flag_set(flag, 1)
		case <-stop:
		}
	}()

	samples := j.samples
	if len(samples) < minSamples { // pad very short clips with silence
		padded := make([]float32, minSamples)
		copy(padded, samples)
		samples = padded
	}
	rc := C.whisper_full_with_state(e.ctx, st, params, (*C.float)(unsafe.Pointer(&samples[0])), C.int(len(samples)))
	close(stop)
	<-watcherDone
	if err := j.ctx.Err(); err != nil {
		return Result{}, err
	}
	if rc != 0 {
		return Result{}, fmt.Errorf("transcribe: whisper.cpp failed (code %d)", int(rc))
	}
	res := Result{AudioCtx: audioCtx}
	n := int(C.whisper_full_n_segments_from_state(st))
	var texts []string
	for i := 0; i < n; i++ {
		seg := Segment{
			Text:         strings.TrimSpace(C.GoString(C.whisper_full_get_segment_text_from_state(st, C.int(i)))),
			Start:        time.Duration(C.whisper_full_get_segment_t0_from_state(st, C.int(i))) * 10 * time.Millisecond,
			End:          time.Duration(C.whisper_full_get_segment_t1_from_state(st, C.int(i))) * 10 * time.Millisecond,
			NoSpeechProb: float32(C.whisper_full_get_segment_no_speech_prob_from_state(st, C.int(i))),
		}
		// Random or confused weights can put timestamps outside the clip: clamp them to it.
		clipEnd := time.Duration(len(j.samples)) * time.Second / sampleRate
		seg.Start = min(max(seg.Start, 0), clipEnd)
		seg.End = min(max(seg.End, seg.Start), clipEnd)
		if seg.NoSpeechProb > ns {
			res.Dropped++
			continue
		}
		res.Segments = append(res.Segments, seg)
		if seg.Text != "" {
			texts = append(texts, seg.Text)
		}
	}
	res.Text = strings.Join(texts, " ")
	return res, nil
}

//export goWhisperLog
func goWhisperLog(level C.int, text *C.char) {
	msg := strings.TrimRight(C.GoString(text), "\n")
	if msg == "" || msg == "." {
		return
	}
	slog.Default().Debug(msg, "component", "whisper.cpp", "level", int(level))
}
