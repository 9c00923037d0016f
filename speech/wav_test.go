package speech

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"time"
)

// makeWAV builds a WAV by hand so the tests do not depend on the encoder under test.
func makeWAV(format uint16, channels, rate, bits int, frames [][]float64) []byte {
	var data bytes.Buffer
	for _, fr := range frames {
		for c := 0; c < channels; c++ {
			v := fr[c%len(fr)]
			switch {
			case format == formatFloat:
				binary.Write(&data, binary.LittleEndian, math.Float32bits(float32(v)))
			case bits == 8:
				data.WriteByte(byte(int(math.Round(v*127)) + 128))
			case bits == 16:
				binary.Write(&data, binary.LittleEndian, int16(math.Round(v*32767)))
			case bits == 24:
				x := int32(math.Round(v * 8388607))
				data.Write([]byte{byte(x), byte(x >> 8), byte(x >> 16)})
			case bits == 32:
				binary.Write(&data, binary.LittleEndian, int32(math.Round(v*2147483647)))
			}
		}
	}
	return wrapWAV(format, channels, rate, bits, data.Bytes())
}

func wrapWAV(format uint16, channels, rate, bits int, data []byte) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(36+len(data)))
	b.WriteString("WAVEfmt ")
	binary.Write(&b, binary.LittleEndian, uint32(16))
	binary.Write(&b, binary.LittleEndian, format)
	binary.Write(&b, binary.LittleEndian, uint16(channels))
	binary.Write(&b, binary.LittleEndian, uint32(rate))
	binary.Write(&b, binary.LittleEndian, uint32(rate*channels*bits/8))
	binary.Write(&b, binary.LittleEndian, uint16(channels*bits/8))
	binary.Write(&b, binary.LittleEndian, uint16(bits))
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(len(data)))
	b.Write(data)
	return b.Bytes()
}

func tone(freq float64, rate int, dur time.Duration, amp float64) []float64 {
	n := int(dur.Seconds() * float64(rate))
	out := make([]float64, n)
	for i := range out {
		out[i] = amp * math.Sin(2*math.Pi*freq*float64(i)/float64(rate))
	}
	return out
}

func monoFrames(x []float64) [][]float64 {
	fr := make([][]float64, len(x))
	for i, v := range x {
		fr[i] = []float64{v}
	}
	return fr
}

// toneLevel measures the amplitude of freq in x (rate Hz) by correlation, skipping edges.
func toneLevel(x []float32, rate int, freq float64) float64 {
	skip := len(x) / 10
	var re, im float64
	n := 0
	for i := skip; i < len(x)-skip; i++ {
		ph := 2 * math.Pi * freq * float64(i) / float64(rate)
		re += float64(x[i]) * math.Cos(ph)
		im += float64(x[i]) * math.Sin(ph)
		n++
	}
	return 2 * math.Hypot(re, im) / float64(n)
}

func TestDecodeAcrossFormatsAndRates(t *testing.T) {
	for _, tc := range []struct {
		name     string
		format   uint16
		channels int
		rate     int
		bits     int
	}{
		{"pcm8 mono 8k", formatPCM, 1, 8000, 8},
		{"pcm16 mono 16k", formatPCM, 1, 16000, 16},
		{"pcm16 stereo 44.1k", formatPCM, 2, 44100, 16},
		{"pcm24 mono 48k", formatPCM, 1, 48000, 24},
		{"pcm32 stereo 22.05k", formatPCM, 2, 22050, 32},
		{"float32 mono 32k", formatFloat, 1, 32000, 32},
		{"float32 stereo 48k", formatFloat, 2, 48000, 32},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := tone(440, tc.rate, 500*time.Millisecond, 0.5)
			clip, err := DecodeWAV(makeWAV(tc.format, tc.channels, tc.rate, tc.bits, monoFrames(x)), 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := clip.Duration(); got < 490*time.Millisecond || got > 510*time.Millisecond {
				t.Fatalf("duration %v, want 500 ms", got)
			}
			if lvl := toneLevel(clip.Samples, SampleRate, 440); math.Abs(lvl-0.5) > 0.03 {
				t.Fatalf("440 Hz level %.3f after decode, want 0.5", lvl)
			}
			if clip.SourceRate != tc.rate || clip.SourceChannels != tc.channels || clip.SourceBits != tc.bits {
				t.Fatalf("source description %+v", clip)
			}
		})
	}
}

func TestStereoIsDownmixed(t *testing.T) {
	frames := make([][]float64, 1600)
	for i := range frames {
		frames[i] = []float64{0.8, -0.8} // opposite channels cancel
	}
	clip, err := DecodeWAV(makeWAV(formatPCM, 2, 16000, 16, frames), 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range clip.Samples {
		if math.Abs(float64(s)) > 1e-3 {
			t.Fatalf("sample %d = %v, want the channel average 0", i, s)
		}
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	x := tone(1000, SampleRate, 300*time.Millisecond, 0.7)
	in := make([]float32, len(x))
	for i, v := range x {
		in[i] = float32(v)
	}
	b, err := EncodeWAV(in, SampleRate)
	if err != nil {
		t.Fatal(err)
	}
	clip, err := DecodeWAV(b, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(clip.Samples) != len(in) || clip.SourceBits != 16 || clip.SourceChannels != 1 {
		t.Fatalf("round trip: %d samples (%d bits, %d ch), want %d 16-bit mono", len(clip.Samples), clip.SourceBits, clip.SourceChannels, len(in))
	}
	for i := range in {
		if d := math.Abs(float64(in[i] - clip.Samples[i])); d > 1.0/32767+1e-6 {
			t.Fatalf("sample %d differs by %g", i, d)
		}
	}
}

func TestResamplerKeeps1kHzAndRejects7kHz(t *testing.T) {
	for _, freq := range []float64{1000, 7000, 10000} {
		x := tone(freq, 48000, time.Second, 0.5)
		in := make([]float32, len(x))
		for i, v := range x {
			in[i] = float32(v)
		}
		out, err := Resample(in, 48000, 16000)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != 16000 {
			t.Fatalf("%d samples out, want 16000", len(out))
		}
		lvl := toneLevel(out, 16000, math.Mod(freq, 16000))
		if freq > 8000 { // would alias to 16000-freq
			lvl = toneLevel(out, 16000, 16000-freq)
		}
		db := 20 * math.Log10(lvl/0.5)
		switch freq {
		case 1000:
			if math.Abs(db) > 0.1 {
				t.Errorf("1 kHz changed by %.2f dB", db)
			}
			if got := dominantFreq(out, 16000); math.Abs(got-1000) > 5 {
				t.Errorf("1 kHz came out at %.0f Hz", got)
			}
		default:
			if db > -40 {
				t.Errorf("%.0f Hz attenuated only %.1f dB, want at least 40", freq, -db)
			}
		}
	}
}

// dominantFreq finds the strongest frequency by scanning correlations in 5 Hz steps.
func dominantFreq(x []float32, rate int) float64 {
	best, bestF := 0.0, 0.0
	for f := 900.0; f <= 1100; f += 5 {
		if l := toneLevel(x, rate, f); l > best {
			best, bestF = l, f
		}
	}
	return bestF
}

func TestUpsampling8kTo16k(t *testing.T) {
	x := tone(1000, 8000, time.Second, 0.5)
	in := make([]float32, len(x))
	for i, v := range x {
		in[i] = float32(v)
	}
	out, err := Resample(in, 8000, 16000)
	if err != nil {
		t.Fatal(err)
	}
	if lvl := toneLevel(out, 16000, 1000); math.Abs(20*math.Log10(lvl/0.5)) > 0.1 {
		t.Fatalf("1 kHz level %.3f after 8k->16k", lvl)
	}
	if img := toneLevel(out, 16000, 7000); img > 0.005 { // the spectral image of 1 kHz
		t.Fatalf("7 kHz image level %.4f, want removed", img)
	}
}

func TestMalformedWAV(t *testing.T) {
	good := makeWAV(formatPCM, 1, 16000, 16, monoFrames(tone(440, 16000, 100*time.Millisecond, 0.3)))
	lying := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(lying[40:44], 0x7ffffff0) // data chunk claims 2 GiB
	compressed := wrapWAV(0x55, 1, 16000, 16, make([]byte, 320))
	extensibleMP3 := append([]byte(nil), compressed...)
	for _, tc := range []struct {
		name string
		body []byte
		code string
	}{
		{"empty", nil, CodeInvalidAudio},
		{"text", []byte("hello, this is not audio"), CodeInvalidAudio},
		{"ogg", []byte("OggS\x00\x02 and more bytes"), CodeUnsupportedMediaType},
		{"riff not wave", append([]byte("RIFF\x10\x00\x00\x00AVI "), make([]byte, 16)...), CodeInvalidAudio},
		{"header only", good[:12], CodeInvalidAudio},
		{"truncated in fmt", good[:30], CodeInvalidAudio},
		{"truncated data", good[:len(good)-100], CodeInvalidAudio},
		{"chunk larger than body", lying, CodeInvalidAudio},
		{"zero-length data", wrapWAV(formatPCM, 1, 16000, 16, nil), CodeInvalidAudio},
		{"compressed codec", extensibleMP3, CodeUnsupportedMediaType},
		{"zero channels", wrapWAV(formatPCM, 0, 16000, 16, make([]byte, 320)), CodeInvalidAudio},
		{"zero rate", wrapWAV(formatPCM, 1, 0, 16, make([]byte, 320)), CodeInvalidAudio},
		{"96 kHz", wrapWAV(formatPCM, 1, 96000, 16, make([]byte, 320)), CodeUnsupportedMediaType},
		{"12-bit", wrapWAV(formatPCM, 1, 16000, 12, make([]byte, 320)), CodeUnsupportedMediaType},
		{"64-bit float", wrapWAV(formatFloat, 1, 16000, 64, make([]byte, 320)), CodeUnsupportedMediaType},
		{"too many channels", wrapWAV(formatPCM, 200, 16000, 16, make([]byte, 4000)), CodeInvalidAudio},
		{"NaN samples", wrapWAV(formatFloat, 1, 16000, 32, bytes.Repeat([]byte{0, 0, 0xc0, 0x7f}, 100)), CodeInvalidAudio},
		{"too long", wrapWAV(formatPCM, 1, 8000, 8, make([]byte, 31*8000)), CodeInvalidAudio},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeWAV(tc.body, 0)
			var ae *AudioError
			if !errors.As(err, &ae) {
				t.Fatalf("err = %v, want *AudioError", err)
			}
			if ae.Code != tc.code {
				t.Fatalf("code %q (%s), want %q", ae.Code, ae.Reason, tc.code)
			}
		})
	}
}

func TestDurationCapIsConfigurable(t *testing.T) {
	b := makeWAV(formatPCM, 1, 16000, 16, monoFrames(tone(440, 16000, 2*time.Second, 0.3)))
	if _, err := DecodeWAV(b, time.Second); err == nil {
		t.Fatal("2 s clip accepted with a 1 s cap")
	}
	if _, err := DecodeWAV(b, 3*time.Second); err != nil {
		t.Fatal(err)
	}
}

func FuzzDecodeWAV(f *testing.F) {
	f.Add(makeWAV(formatPCM, 1, 16000, 16, monoFrames(tone(440, 16000, 20*time.Millisecond, 0.3))))
	f.Add(makeWAV(formatFloat, 2, 48000, 32, monoFrames(tone(440, 48000, 10*time.Millisecond, 0.3))))
	f.Add(makeWAV(formatPCM, 1, 8000, 8, monoFrames(tone(440, 8000, 10*time.Millisecond, 0.3))))
	f.Add([]byte("RIFF\x00\x00\x00\x00WAVE"))
	f.Add([]byte{})
	// testdata/fuzz/FuzzDecodeWAV holds the review's two-fmt-chunks file: its fmt chunks
	// disagree on the sample width, so one reading is 0.3 s and the other 1.1 s.
	const cap = time.Second
	f.Fuzz(func(t *testing.T, b []byte) {
		clip, err := DecodeWAV(b, cap)
		if err != nil {
			var ae *AudioError
			if !errors.As(err, &ae) {
				t.Fatalf("error without a closed code: %v", err)
			}
			return
		}
		// Output can never be larger than the input allows: 1 byte per sample at 8 kHz
		// upsampled x2 is the worst case.
		if len(clip.Samples) > 2*len(b)+2 {
			t.Fatalf("%d samples from %d bytes", len(clip.Samples), len(b))
		}
		if clip.Duration() > cap+time.Second/SampleRate {
			t.Fatalf("decoded %v past the %v cap", clip.Duration(), cap)
		}
	})
}

// twoFmtWAV is the review's attack: two fmt chunks, one that makes the data look short
// (32-bit samples) and one that makes it decode long (8-bit samples), in either order.
func twoFmtWAV(rate int, dataBytes int, firstBits, secondBits int) []byte {
	fmtChunk := func(bits int) []byte {
		var b bytes.Buffer
		b.WriteString("fmt ")
		binary.Write(&b, binary.LittleEndian, uint32(16))
		binary.Write(&b, binary.LittleEndian, uint16(formatPCM))
		binary.Write(&b, binary.LittleEndian, uint16(1))
		binary.Write(&b, binary.LittleEndian, uint32(rate))
		binary.Write(&b, binary.LittleEndian, uint32(rate*bits/8))
		binary.Write(&b, binary.LittleEndian, uint16(bits/8))
		binary.Write(&b, binary.LittleEndian, uint16(bits))
		return b.Bytes()
	}
	var body bytes.Buffer
	body.WriteString("WAVE")
	body.Write(fmtChunk(firstBits))
	body.Write(fmtChunk(secondBits))
	body.WriteString("data")
	binary.Write(&body, binary.LittleEndian, uint32(dataBytes))
	body.Write(bytes.Repeat([]byte("A"), dataBytes))
	var out bytes.Buffer
	out.WriteString("RIFF")
	binary.Write(&out, binary.LittleEndian, uint32(body.Len()))
	out.Write(body.Bytes())
	return out.Bytes()
}

// TestTwoFmtChunksAreRefused: a WAV whose second fmt chunk would decode it four times longer
// than the first one says is refused, and no decoded clip is ever longer than the cap.
func TestTwoFmtChunksAreRefused(t *testing.T) {
	for _, bits := range [][2]int{{8, 32}, {32, 8}} {
		b := twoFmtWAV(8000, 250_000, bits[0], bits[1]) // 7.8 s as 32-bit, 31.3 s as 8-bit
		clip, err := DecodeWAV(b, 30*time.Second)
		var ae *AudioError
		if !errors.As(err, &ae) || ae.Code != CodeInvalidAudio {
			t.Errorf("fmt %d-bit then %d-bit: decoded %v of audio (err %v); want invalid_audio", bits[0], bits[1], clip.Duration(), err)
		}
	}
}

// TestDuplicateChunksAreRefused: any chunk id twice (fmt or data, before or after the data)
// is refused rather than one of them silently chosen.
func TestDuplicateChunksAreRefused(t *testing.T) {
	good := makeWAV(formatPCM, 1, 16000, 16, monoFrames(tone(440, 16000, 100*time.Millisecond, 0.3)))
	fmtChunk := good[12:36]
	dataChunk := good[36:]
	build := func(chunks ...[]byte) []byte {
		var body bytes.Buffer
		body.WriteString("WAVE")
		for _, c := range chunks {
			body.Write(c)
		}
		var out bytes.Buffer
		out.WriteString("RIFF")
		binary.Write(&out, binary.LittleEndian, uint32(body.Len()))
		out.Write(body.Bytes())
		return out.Bytes()
	}
	list := []byte("LIST\x04\x00\x00\x00INFO")
	if _, err := DecodeWAV(build(fmtChunk, list, dataChunk, list[:0]), 0); err != nil {
		t.Fatalf("a well-formed WAV with a LIST chunk: %v", err)
	}
	for name, b := range map[string][]byte{
		"fmt twice":      build(fmtChunk, fmtChunk, dataChunk),
		"data twice":     build(fmtChunk, dataChunk, dataChunk),
		"fmt after data": build(fmtChunk, dataChunk, fmtChunk),
		"LIST twice":     build(fmtChunk, list, list, dataChunk),
	} {
		var ae *AudioError
		if _, err := DecodeWAV(b, 0); !errors.As(err, &ae) || ae.Code != CodeInvalidAudio {
			t.Errorf("%s: err %v, want invalid_audio", name, err)
		}
	}
}
