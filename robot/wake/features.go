package wake

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// The neural engine's front end is openWakeWord's: a melspectrogram (32 bands, 10 ms hop)
// and a speech embedding (96 numbers for every 76 mel frames, one every 80 ms), two ONNX
// models run with ONNX Runtime. The runtime is a shared library loaded at run time (dlopen
// through onnxruntime_go), so the hub builds for any architecture without it and a hub
// configured for the neural engine without it refuses to start, saying how to install it.
const (
	// RuntimeVersion is the ONNX Runtime the pinned onnxruntime_go (v1.27.0) speaks to.
	RuntimeVersion = "1.24.1"
	// RuntimeLibrary, MelModel and EmbeddingModel are the files a runtime directory holds
	// (deploy/scripts/wake-neural.sh puts them there).
	RuntimeLibrary = "libonnxruntime.so." + RuntimeVersion
	MelModel       = "melspectrogram.onnx"
	EmbeddingModel = "embedding_model.onnx"

	melBands      = 32
	embeddingDims = 96
	embeddingMels = 76  // mel frames one embedding looks at (0.775 s)
	embeddingStep = 8   // mel frames between embeddings (80 ms)
	melHop        = 160 // samples per mel frame
	// embeddingBatch is how many windows one run of the embedding model takes: its
	// activations grow with it (32 at once took the hub to 152 MB peak RSS), its cost hardly.
	embeddingBatch = 2
)

// ErrRuntime means the neural engine's runtime directory is missing or incomplete: a
// configuration error, the hub refuses to start with the message.
var ErrRuntime = errors.New("wake neural runtime")

// InstallHint says how to get the runtime directory.
const InstallHint = "install it with deploy/scripts/wake-neural.sh (on the robot: deploy/scripts/wake-neural.sh arm64, then copy the printed directory to /usr/local/lib/reachy-wake), or set wake_runtime_dir; or use wake_engine: sphinx"

// DefaultRuntimeDirs are where a runtime directory is looked for when none is configured:
// the robot's install location, then the script's cache on a development machine.
func DefaultRuntimeDirs() []string {
	dirs := []string{"/usr/local/lib/reachy-wake"}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if home, err := os.UserHomeDir(); err == nil && arch != "" {
		cache := filepath.Join(home, ".cache")
		if x := os.Getenv("XDG_CACHE_HOME"); x != "" {
			cache = x
		}
		dirs = append(dirs, filepath.Join(cache, "reachy-broker", "wake-neural-ort"+RuntimeVersion+"-oww0.1.1-linux-"+arch))
	}
	return dirs
}

// findRuntimeDir returns dir if it holds the three files, or the first default that does.
func findRuntimeDir(dir string) (string, error) {
	cands := []string{dir}
	if dir == "" {
		cands = DefaultRuntimeDirs()
	}
	var missing []string
	for _, d := range cands {
		ok := true
		for _, f := range []string{RuntimeLibrary, MelModel, EmbeddingModel} {
			if _, err := os.Stat(filepath.Join(d, f)); err != nil {
				missing = append(missing, filepath.Join(d, f))
				ok = false
				break
			}
		}
		if ok {
			return d, nil
		}
	}
	return "", fmt.Errorf("%w: the neural wake engine needs ONNX Runtime %s and openWakeWord's feature models; not found (%v): %s",
		ErrRuntime, RuntimeVersion, missing, InstallHint)
}

// CheckRuntime says whether dir ("" looks in DefaultRuntimeDirs) holds the runtime and the
// feature models, without loading them: what a hub checks before it starts the wake process.
func CheckRuntime(dir string) error {
	_, err := findRuntimeDir(dir)
	return err
}

// ortEnvironment guards onnxruntime_go's environment, which is process-wide in the library
// (one shared library, one OrtEnv): the first engine loads it, later ones reuse it.
var ortEnvironment sync.Mutex

func loadRuntime(dir string) error {
	ortEnvironment.Lock()
	defer ortEnvironment.Unlock()
	if ort.IsInitialized() {
		return nil
	}
	ort.SetSharedLibraryPath(filepath.Join(dir, RuntimeLibrary))
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return fmt.Errorf("%w: loading %s: %v: %s", ErrRuntime, filepath.Join(dir, RuntimeLibrary), err, InstallHint)
	}
	return nil
}

// Features turns 16 kHz audio into openWakeWord's speech embeddings. One core, one call at
// a time (not safe for concurrent use).
type Features struct {
	mel, emb *ort.DynamicAdvancedSession
	pcm      []float32
	mels     []float32
}

// NewFeatures loads the runtime and the two feature models from dir ("" looks in
// DefaultRuntimeDirs). Every run uses one thread.
func NewFeatures(dir string) (*Features, error) {
	dir, err := findRuntimeDir(dir)
	if err != nil {
		return nil, err
	}
	if err := loadRuntime(dir); err != nil {
		return nil, err
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, fmt.Errorf("%w: session options: %v", ErrRuntime, err)
	}
	defer opts.Destroy()
	for _, set := range []func() error{
		func() error { return opts.SetIntraOpNumThreads(1) },
		func() error { return opts.SetInterOpNumThreads(1) },
		func() error { return opts.SetCpuMemArena(false) }, // the arena keeps peak memory: the hub's RSS budget
		func() error { return opts.SetMemPattern(false) },
	} {
		if err := set(); err != nil {
			return nil, fmt.Errorf("%w: session options: %v", ErrRuntime, err)
		}
	}
	f := &Features{}
	if f.mel, err = ort.NewDynamicAdvancedSession(filepath.Join(dir, MelModel), []string{"input"}, []string{"output"}, opts); err != nil {
		return nil, fmt.Errorf("%w: %s: %v (%s)", ErrRuntime, MelModel, err, InstallHint)
	}
	if f.emb, err = ort.NewDynamicAdvancedSession(filepath.Join(dir, EmbeddingModel), []string{"input_1"}, []string{"conv2d_19"}, opts); err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: %s: %v (%s)", ErrRuntime, EmbeddingModel, err, InstallHint)
	}
	return f, nil
}

// minFeatureSamples is the shortest audio that yields window embeddings.
func minFeatureSamples(window int) int {
	return (embeddingMels+embeddingStep*(window-1))*melHop + 400
}

// featureLead is how far into the audio the first window of embeddings ends: the audio is
// preceded by silence so that a phrase said right at the start of an utterance (the VAD
// cuts just before speech) still has a window that ends where the phrase does.
const featureLead = SampleRate / 2

// Embeddings returns the audio's embeddings, one every 80 ms (embeddingDims numbers each,
// flattened), and where each one's audio ends in samples (negative: in the silence before).
// The first window of embeddings ends featureLead into the audio.
func (f *Features) Embeddings(samples []float32, window int) (emb []float32, ends []int, err error) {
	if f.mel == nil {
		return nil, nil, fmt.Errorf("wake: features closed")
	}
	pad := minFeatureSamples(window) - featureLead
	pad += max(0, featureLead-len(samples))
	f.pcm = f.pcm[:0]
	for range pad {
		f.pcm = append(f.pcm, 0)
	}
	for _, v := range samples {
		// openWakeWord's models were trained on 16-bit sample values.
		f.pcm = append(f.pcm, max(-1, min(1, v))*32767)
	}
	in, err := ort.NewTensor(ort.NewShape(1, int64(len(f.pcm))), f.pcm)
	if err != nil {
		return nil, nil, fmt.Errorf("wake: mel input: %w", err)
	}
	defer in.Destroy()
	out := []ort.Value{nil}
	if err := f.mel.Run([]ort.Value{in}, out); err != nil {
		return nil, nil, fmt.Errorf("wake: melspectrogram: %w", err)
	}
	mt, ok := out[0].(*ort.Tensor[float32])
	if !ok {
		out[0].Destroy()
		return nil, nil, fmt.Errorf("wake: melspectrogram gave %T", out[0])
	}
	f.mels = append(f.mels[:0], mt.GetData()...)
	mt.Destroy()
	frames := len(f.mels) / melBands
	for i := range f.mels {
		f.mels[i] = f.mels[i]/10 + 2 // openWakeWord's scaling of the mel output
	}
	n := 0
	if frames >= embeddingMels {
		n = (frames-embeddingMels)/embeddingStep + 1
	}
	emb = make([]float32, 0, n*embeddingDims)
	for b := 0; b < n; b += embeddingBatch {
		k := min(embeddingBatch, n-b)
		x := make([]float32, 0, k*embeddingMels*melBands)
		for i := b; i < b+k; i++ {
			x = append(x, f.mels[i*embeddingStep*melBands:(i*embeddingStep+embeddingMels)*melBands]...)
		}
		t, err := ort.NewTensor(ort.NewShape(int64(k), embeddingMels, melBands, 1), x)
		if err != nil {
			return nil, nil, fmt.Errorf("wake: embedding input: %w", err)
		}
		eo := []ort.Value{nil}
		err = f.emb.Run([]ort.Value{t}, eo)
		t.Destroy()
		if err != nil {
			return nil, nil, fmt.Errorf("wake: embedding: %w", err)
		}
		et, ok := eo[0].(*ort.Tensor[float32])
		if !ok {
			eo[0].Destroy()
			return nil, nil, fmt.Errorf("wake: embedding gave %T", eo[0])
		}
		emb = append(emb, et.GetData()...)
		et.Destroy()
	}
	ends = make([]int, n)
	for i := range ends {
		ends[i] = (i*embeddingStep+embeddingMels)*melHop - pad
	}
	return emb, ends, nil
}

// Close frees the sessions (the runtime stays loaded for the process).
func (f *Features) Close() error {
	if f.mel != nil {
		f.mel.Destroy()
		f.mel = nil
	}
	if f.emb != nil {
		f.emb.Destroy()
		f.emb = nil
	}
	return nil
}
