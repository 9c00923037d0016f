package whisper

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
)

// Shape is the set of hyper-parameters of a ggml whisper model.
type Shape struct {
	Name       string
	AudioState int // n_audio_state == n_text_state
	AudioHeads int
	AudioLayer int
	TextHeads  int
	TextLayer  int
}

// Shapes the test-model generator can write. "tiny" is deliberately smaller than OpenAI's
// tiny so tests run fast; "tiny.en" has the real tiny.en dimensions for benchmarks.
var testShapes = map[string]Shape{
	"tiny":    {Name: "tiny", AudioState: 64, AudioHeads: 2, AudioLayer: 2, TextHeads: 2, TextLayer: 2},
	"tiny.en": {Name: "tiny.en", AudioState: 384, AudioHeads: 6, AudioLayer: 4, TextHeads: 6, TextLayer: 4},
}

// TestShape returns a named generator shape ("tiny" or "tiny.en").
func TestShape(name string) (Shape, error) {
	s, ok := testShapes[name]
	if !ok {
		return Shape{}, fmt.Errorf("unknown test model shape %q (want tiny or tiny.en)", name)
	}
	return s, nil
}

const (
	ggmlMagic   = 0x67676d6c
	nVocab      = 51864 // English models: special token ids are fixed by this count
	nTextVocab  = 50256 // ordinary tokens written to the file; whisper.cpp adds the specials
	nAudioCtx   = 1500
	nTextCtx    = 448
	nMels       = 80
	nFFT        = 201
	ftypeF16    = 1
	typeF32     = 0
	typeF16     = 1
	spaceToken  = 220 // GPT-2's " " token; decoding aborts the process if it is missing
	markerToken = 50255
	// TestModelMarker is the vocabulary entry that identifies a generated model, so the
	// broker can warn loudly if it is ever asked to serve one.
	TestModelMarker = "<|reachy-broker-generated-test-model|>"
)

// WriteTestModel writes a valid ggml whisper model with random weights to path. Its text
// is meaningless; it exists so the real loading and inference code can be exercised where
// no model weights can be downloaded.
func WriteTestModel(path string, shape Shape, seed uint64) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write test model %s: %w", path, err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("write test model %s: %w", path, cerr)
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	g := &modelWriter{w: w, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	g.writeAll(shape)
	if g.err == nil {
		g.err = w.Flush()
	}
	if g.err != nil {
		return fmt.Errorf("write test model %s: %w", path, g.err)
	}
	return nil
}

type modelWriter struct {
	w   io.Writer
	rng *rand.Rand
	err error
	buf []byte
}

func (g *modelWriter) i32(vs ...int32) {
	for _, v := range vs {
		g.put(binary.LittleEndian.AppendUint32(g.buf[:0], uint32(v)))
	}
}

func (g *modelWriter) put(b []byte) {
	if g.err == nil {
		_, g.err = g.w.Write(b)
	}
}

func (g *modelWriter) writeAll(s Shape) {
	st := int32(s.AudioState)
	g.i32(ggmlMagic, nVocab, nAudioCtx, st, int32(s.AudioHeads), int32(s.AudioLayer),
		nTextCtx, st, int32(s.TextHeads), int32(s.TextLayer), nMels, ftypeF16)

	// Mel filters: a plausible triangular bank so the encoder sees sensible magnitudes.
	g.i32(nMels, nFFT)
	mel := make([]byte, 0, nMels*nFFT*4)
	for m := 0; m < nMels; m++ {
		centre := float64(m+1) * float64(nFFT-1) / float64(nMels+1)
		for k := 0; k < nFFT; k++ {
			v := math.Max(0, 1-math.Abs(float64(k)-centre)/2.5)
			mel = binary.LittleEndian.AppendUint32(mel, math.Float32bits(float32(v)))
		}
	}
	g.put(mel)

	g.i32(nTextVocab)
	for i := 0; i < nTextVocab; i++ {
		tok := vocabToken(i)
		g.i32(int32(len(tok)))
		g.put([]byte(tok))
	}

	g.tensor("encoder.positional_embedding", typeF32, 0.02, s.AudioState, nAudioCtx)
	g.tensor("encoder.conv1.weight", typeF16, 0.05, 3, nMels, s.AudioState)
	g.tensor("encoder.conv1.bias", typeF32, 0.01, 1, s.AudioState)
	g.tensor("encoder.conv2.weight", typeF16, 0.05, 3, s.AudioState, s.AudioState)
	g.tensor("encoder.conv2.bias", typeF32, 0.01, 1, s.AudioState)
	g.ones("encoder.ln_post.weight", s.AudioState)
	g.tensor("encoder.ln_post.bias", typeF32, 0.01, s.AudioState)
	for i := 0; i < s.AudioLayer; i++ {
		g.block(fmt.Sprintf("encoder.blocks.%d.", i), s.AudioState, false)
	}
	g.tensor("decoder.positional_embedding", typeF32, 0.02, s.AudioState, nTextCtx)
	g.tensor("decoder.token_embedding.weight", typeF16, 0.02, s.AudioState, nVocab)
	g.ones("decoder.ln.weight", s.AudioState)
	g.tensor("decoder.ln.bias", typeF32, 0.01, s.AudioState)
	for i := 0; i < s.TextLayer; i++ {
		g.block(fmt.Sprintf("decoder.blocks.%d.", i), s.AudioState, true)
	}
}

// block writes one transformer block: self attention, optional cross attention, MLP.
func (g *modelWriter) block(p string, n int, cross bool) {
	attn := func(prefix string) {
		g.ones(p+prefix+"_ln.weight", n)
		g.tensor(p+prefix+"_ln.bias", typeF32, 0.01, n)
		g.tensor(p+prefix+".query.weight", typeF16, 0.05, n, n)
		g.tensor(p+prefix+".query.bias", typeF32, 0.01, n)
		g.tensor(p+prefix+".key.weight", typeF16, 0.05, n, n)
		g.tensor(p+prefix+".value.weight", typeF16, 0.05, n, n)
		g.tensor(p+prefix+".value.bias", typeF32, 0.01, n)
		g.tensor(p+prefix+".out.weight", typeF16, 0.05, n, n)
		g.tensor(p+prefix+".out.bias", typeF32, 0.01, n)
	}
	attn("attn")
	if cross {
		attn("cross_attn")
	}
	g.ones(p+"mlp_ln.weight", n)
	g.tensor(p+"mlp_ln.bias", typeF32, 0.01, n)
	g.tensor(p+"mlp.0.weight", typeF16, 0.05, n, 4*n)
	g.tensor(p+"mlp.0.bias", typeF32, 0.01, 4*n)
	g.tensor(p+"mlp.2.weight", typeF16, 0.05, 4*n, n)
	g.tensor(p+"mlp.2.bias", typeF32, 0.01, n)
}

// tensor writes a header (n_dims, name length, type, dims in ggml order, name) and
// normally distributed data scaled by std.
func (g *modelWriter) tensor(name string, typ int32, std float64, dims ...int) {
	g.header(name, typ, dims)
	n := 1
	for _, d := range dims {
		n *= d
	}
	g.data(n, typ, func() float32 { return float32(g.rng.NormFloat64() * std) })
}

func (g *modelWriter) ones(name string, n int) {
	g.header(name, typeF32, []int{n})
	g.data(n, typeF32, func() float32 { return 1 })
}

func (g *modelWriter) header(name string, typ int32, dims []int) {
	g.i32(int32(len(dims)), int32(len(name)), typ)
	for _, d := range dims {
		g.i32(int32(d))
	}
	g.put([]byte(name))
}

func (g *modelWriter) data(n int, typ int32, next func() float32) {
	const chunk = 1 << 16
	out := make([]byte, 0, chunk*4)
	for i := 0; i < n; i++ {
		v := next()
		if typ == typeF16 {
			out = binary.LittleEndian.AppendUint16(out, float16(v))
		} else {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
		}
		if len(out) >= chunk*2 {
			g.put(out)
			out = out[:0]
		}
	}
	g.put(out)
}

// vocabToken gives every id a distinct, printable token; id 220 is the space.
func vocabToken(i int) string {
	switch {
	case i == spaceToken:
		return " "
	case i == markerToken:
		return TestModelMarker
	case i < 256:
		if c := byte(i); c >= '!' && c <= '~' {
			return string(c)
		}
		return fmt.Sprintf("<0x%02X>", i)
	}
	const letters = "aeioubdfgklmnprstvz"
	var b []byte
	b = append(b, ' ')
	for v := i; v > 0; v /= len(letters) {
		b = append(b, letters[v%len(letters)])
	}
	return string(b)
}

// float16 converts to IEEE 754 half precision, rounding to nearest; enough for weights.
func float16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int((b>>23)&0xff) - 127 + 15
	mant := b & 0x7fffff
	switch {
	case exp <= 0:
		if exp < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint(14 - exp)
		return sign | uint16((mant+(1<<(shift-1)))>>shift)
	case exp >= 0x1f:
		return sign | 0x7c00
	}
	h := sign | uint16(exp)<<10 | uint16(mant>>13)
	if mant&0x1000 != 0 {
		h++
	}
	return h
}
