package speech

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/go-audio/audio"
	"github.com/go-audio/wav"
)

// SampleRate is the rate every decoded clip is resampled to: what whisper.cpp and the VAD expect.
const SampleRate = 16000

// DefaultMaxDuration caps an utterance; longer clips are refused before any decoding.
const DefaultMaxDuration = 30 * time.Second

const (
	minInputRate = 8000
	maxInputRate = 48000
	maxChannels  = 8

	formatPCM        = 1
	formatFloat      = 3
	formatExtensible = 0xFFFE
)

// Clip is decoded mono audio at SampleRate, samples in [-1, 1].
type Clip struct {
	Samples []float32
	// SourceRate, SourceChannels and SourceBits describe the WAV as it arrived.
	SourceRate     int
	SourceChannels int
	SourceBits     int
}

// Duration is the clip's length.
func (c Clip) Duration() time.Duration {
	return time.Duration(len(c.Samples)) * time.Second / SampleRate
}

// wavLayout is what the pre-validation pass learned from the RIFF chunks.
type wavLayout struct {
	format   uint16
	channels int
	rate     int
	bits     int
	dataOff  int // where the samples start
	dataLen  int
}

// inspectWAV walks the RIFF chunk headers without trusting any size it reads: every chunk
// must fit inside the body, so a lying header can never make us allocate or read past it.
func inspectWAV(b []byte) (wavLayout, error) {
	var l wavLayout
	if len(b) == 0 {
		return l, invalid("empty body")
	}
	if len(b) < 12 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		if len(b) >= 4 && (string(b[0:4]) == "OggS" || string(b[0:3]) == "ID3" || string(b[0:4]) == "fLaC") {
			return l, unsupported("body is not a WAV file (send audio/wav, PCM)")
		}
		return l, invalid("body is not a RIFF/WAVE file")
	}
	// Every chunk id may appear once: with two fmt chunks one reader could validate one
	// format and another decode the other. Chunks after the data are walked too (a
	// duplicate there is refused); trailing bytes that do not form a chunk are ignored.
	seen := map[string]bool{}
	var haveFmt, haveData bool
	for off := 12; off+8 <= len(b); {
		id := string(b[off : off+4])
		size := int(binary.LittleEndian.Uint32(b[off+4 : off+8]))
		body := off + 8
		if size < 0 || size > len(b)-body {
			if haveData && id != "fmt " && id != "data" {
				break // trailing bytes after the audio
			}
			return l, invalid("a chunk claims %d bytes but only %d remain (truncated or corrupt)", size, len(b)-body)
		}
		if seen[id] {
			return l, invalid("a chunk appears twice (duplicate %s chunk)", chunkWord(id))
		}
		seen[id] = true
		switch id {
		case "fmt ":
			if haveData {
				return l, invalid("fmt chunk after the data chunk")
			}
			if size < 16 {
				return l, invalid("fmt chunk too short (%d bytes)", size)
			}
			f := b[body : body+size]
			l.format = binary.LittleEndian.Uint16(f[0:2])
			l.channels = int(binary.LittleEndian.Uint16(f[2:4]))
			l.rate = int(binary.LittleEndian.Uint32(f[4:8]))
			l.bits = int(binary.LittleEndian.Uint16(f[14:16]))
			if l.format == formatExtensible {
				if size < 40 {
					return l, invalid("extensible fmt chunk too short (%d bytes)", size)
				}
				l.format = binary.LittleEndian.Uint16(f[24:26])
			}
			haveFmt = true
		case "data":
			if !haveFmt {
				return l, invalid("data chunk comes before the fmt chunk")
			}
			l.dataOff, l.dataLen = body, size
			haveData = true
		}
		off = body + size + size%2 // chunks are word aligned
	}
	if !haveFmt {
		return l, invalid("no fmt chunk")
	}
	if !haveData {
		return l, invalid("no data chunk (truncated)")
	}
	switch {
	case l.format != formatPCM && l.format != formatFloat:
		return l, unsupported("compressed WAV (format tag %d); send PCM or float32", l.format)
	case l.channels == 0:
		return l, invalid("zero channels")
	case l.channels > maxChannels:
		return l, invalid("%d channels; at most %d are accepted", l.channels, maxChannels)
	case l.rate == 0:
		return l, invalid("zero sample rate")
	case l.rate < minInputRate || l.rate > maxInputRate:
		return l, unsupported("sample rate %d Hz; accepted are %d to %d Hz", l.rate, minInputRate, maxInputRate)
	case l.format == formatPCM && l.bits != 8 && l.bits != 16 && l.bits != 24 && l.bits != 32:
		return l, unsupported("%d-bit PCM; accepted are 8, 16, 24 and 32 bits", l.bits)
	case l.format == formatFloat && l.bits != 32:
		return l, unsupported("%d-bit float; only 32-bit float is accepted", l.bits)
	}
	frame := l.channels * l.bits / 8
	if l.dataLen < frame {
		return l, invalid("no audio frames (zero-length data)")
	}
	return l, nil
}

// DecodeWAV validates a WAV body and returns it as mono 16 kHz float samples. Clips longer
// than maxDur (DefaultMaxDuration when zero) are refused before their samples are decoded.
func DecodeWAV(b []byte, maxDur time.Duration) (Clip, error) {
	if maxDur <= 0 {
		maxDur = DefaultMaxDuration
	}
	l, err := inspectWAV(b)
	if err != nil {
		return Clip{}, err
	}
	frameBytes := l.channels * l.bits / 8
	frames := l.dataLen / frameBytes
	if dur := time.Duration(frames) * time.Second / time.Duration(l.rate); dur > maxDur {
		return Clip{}, invalid("clip is %.1f s; the limit is %.0f s", dur.Seconds(), maxDur.Seconds())
	}
	// The samples are read straight from the data chunk inspectWAV validated, with the
	// format it validated: one reading of the header, no second parser to disagree with it.
	n := frames
	if n == 0 {
		return Clip{}, invalid("no audio frames (zero-length data)")
	}
	data := b[l.dataOff : l.dataOff+n*frameBytes]
	width := l.bits / 8
	scale := pcmScale(l)
	mono := make([]float32, n)
	if l.format != formatFloat && width == 2 && l.channels == 1 {
		// What the hub sends: 16-bit mono PCM, converted without the general loop's switch.
		for i := range mono {
			mono[i] = float32(float64(int16(binary.LittleEndian.Uint16(data[2*i:]))) / scale)
		}
		return finishDecode(mono, l, maxDur)
	}
	for i := 0; i < n; i++ {
		var sum float64
		for c := 0; c < l.channels; c++ {
			p := data[(i*l.channels+c)*width:]
			var s float64
			switch {
			case l.format == formatFloat:
				f := float64(math.Float32frombits(binary.LittleEndian.Uint32(p)))
				if math.IsNaN(f) || math.IsInf(f, 0) {
					return Clip{}, invalid("float sample %d is not a finite number", i)
				}
				s = math.Max(-1, math.Min(1, f))
			case width == 1:
				s = float64(int(p[0])-128) / 128
			case width == 2:
				s = float64(int16(binary.LittleEndian.Uint16(p))) / scale
			case width == 3:
				s = float64(int32(uint32(p[0])<<8|uint32(p[1])<<16|uint32(p[2])<<24)>>8) / scale
			default:
				s = float64(int32(binary.LittleEndian.Uint32(p))) / scale
			}
			sum += s
		}
		mono[i] = float32(sum / float64(l.channels))
	}
	return finishDecode(mono, l, maxDur)
}

// finishDecode brings decoded mono samples to SampleRate and checks the duration cap on them.
func finishDecode(mono []float32, l wavLayout, maxDur time.Duration) (Clip, error) {
	out := mono
	if l.rate != SampleRate {
		var err error
		if out, err = Resample(mono, l.rate, SampleRate); err != nil {
			return Clip{}, err
		}
	}
	clip := Clip{Samples: out, SourceRate: l.rate, SourceChannels: l.channels, SourceBits: l.bits}
	// The cap holds for what was decoded, not only for what the header said (resampling may
	// add a sample of rounding).
	if clip.Duration() > maxDur+time.Second/SampleRate {
		return Clip{}, invalid("clip is %.1f s; the limit is %.0f s", clip.Duration().Seconds(), maxDur.Seconds())
	}
	return clip, nil
}

// chunkWord names a chunk id for a message without echoing the caller's bytes.
func chunkWord(id string) string {
	switch id {
	case "fmt ":
		return "fmt"
	case "data", "LIST", "fact", "cue ", "bext", "JUNK":
		return id
	}
	return "unrecognised"
}

func pcmScale(l wavLayout) float64 {
	return float64(int64(1) << (l.bits - 1))
}

// EncodeWAV writes mono PCM16 WAV at the given rate: the format of every spoken reply.
func EncodeWAV(samples []float32, rate int) ([]byte, error) {
	if rate <= 0 {
		return nil, fmt.Errorf("encode wav: sample rate %d", rate)
	}
	ws := &memWriteSeeker{}
	enc := wav.NewEncoder(ws, rate, 16, 1, formatPCM)
	data := make([]int, len(samples))
	for i, s := range samples {
		v := math.Round(float64(s) * 32767)
		data[i] = int(math.Max(-32768, math.Min(32767, v)))
	}
	buf := &audio.IntBuffer{Data: data, Format: &audio.Format{NumChannels: 1, SampleRate: rate}, SourceBitDepth: 16}
	if err := enc.Write(buf); err != nil {
		return nil, fmt.Errorf("encode wav: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode wav: %w", err)
	}
	return ws.buf, nil
}

// memWriteSeeker is the in-memory io.WriteSeeker the WAV encoder needs to patch its header.
type memWriteSeeker struct {
	buf []byte
	pos int
}

func (m *memWriteSeeker) Write(p []byte) (int, error) {
	if need := m.pos + len(p); need > len(m.buf) {
		m.buf = append(m.buf, make([]byte, need-len(m.buf))...)
	}
	copy(m.buf[m.pos:], p)
	m.pos += len(p)
	return len(p), nil
}

func (m *memWriteSeeker) Seek(offset int64, whence int) (int64, error) {
	var base int
	switch whence {
	case 0:
		base = 0
	case 1:
		base = m.pos
	case 2:
		base = len(m.buf)
	default:
		return 0, fmt.Errorf("seek: bad whence %d", whence)
	}
	p := base + int(offset)
	if p < 0 {
		return 0, fmt.Errorf("seek: negative position")
	}
	m.pos = p
	return int64(p), nil
}
