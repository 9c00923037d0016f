package robot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/gordonklaus/portaudio"

	"github.com/reachy-broker/reachy-broker/speech"
)

// AudioDevice is one PortAudio device.
type AudioDevice struct {
	Name          string
	HostAPI       string
	MaxInputs     int
	MaxOutputs    int
	DefaultRateHz float64
}

// OpenAudio initializes PortAudio; call the returned function when done.
func OpenAudio() (func(), error) {
	if err := portaudio.Initialize(); err != nil {
		return nil, fmt.Errorf("portaudio: %w", err)
	}
	return func() { portaudio.Terminate() }, nil
}

// ListDevices enumerates audio devices (after OpenAudio).
func ListDevices() ([]AudioDevice, error) {
	devs, err := portaudio.Devices()
	if err != nil {
		return nil, fmt.Errorf("portaudio devices: %w", err)
	}
	out := make([]AudioDevice, 0, len(devs))
	for _, d := range devs {
		api := ""
		if d.HostApi != nil {
			api = d.HostApi.Name
		}
		out = append(out, AudioDevice{Name: d.Name, HostAPI: api, MaxInputs: d.MaxInputChannels, MaxOutputs: d.MaxOutputChannels, DefaultRateHz: d.DefaultSampleRate})
	}
	return out, nil
}

// ErrNoDevice is returned when a named device does not exist.
var ErrNoDevice = errors.New("no such audio device")

func findDevice(name string, input bool) (*portaudio.DeviceInfo, error) {
	devs, err := portaudio.Devices()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, d := range devs {
		ok := (input && d.MaxInputChannels > 0) || (!input && d.MaxOutputChannels > 0)
		if ok && (d.Name == name || strings.Contains(d.Name, name)) {
			return d, nil
		}
		names = append(names, d.Name)
	}
	return nil, fmt.Errorf("%w %q (have: %s)", ErrNoDevice, name, strings.Join(names, ", "))
}

// streamParams builds 16 kHz parameters for a device: captureParams for the robot's
// 2-channel mic board, playbackParams for its speaker.
func streamParams(dev *portaudio.DeviceInfo, channels int, input bool) portaudio.StreamParameters {
	var p portaudio.StreamParameters
	if input {
		p = portaudio.LowLatencyParameters(dev, nil)
		p.Input.Channels = min(channels, dev.MaxInputChannels)
	} else {
		p = portaudio.LowLatencyParameters(nil, dev)
		p.Output.Channels = min(channels, dev.MaxOutputChannels)
	}
	p.SampleRate = speech.SampleRate
	p.FramesPerBuffer = speech.SampleRate / 50 // 20 ms
	return p
}

// Capture is the microphone: a PortAudio input stream at 16 kHz, downmixed to mono.
type Capture struct {
	stream   *portaudio.Stream
	buf      []float32
	channels int
}

// OpenCapture opens the named input device (on the robot: reachymini_audio_src, 2 channels).
func OpenCapture(name string, channels int) (*Capture, error) {
	dev, err := findDevice(name, true)
	if err != nil {
		return nil, err
	}
	p := streamParams(dev, channels, true)
	c := &Capture{buf: make([]float32, p.FramesPerBuffer*p.Input.Channels), channels: p.Input.Channels}
	if c.stream, err = portaudio.OpenStream(p, c.buf); err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	if err := c.stream.Start(); err != nil {
		c.stream.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	return c, nil
}

// Read blocks for the next 20 ms of audio.
func (c *Capture) Read(ctx context.Context) ([]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := c.stream.Read(); err != nil && !errors.Is(err, portaudio.InputOverflowed) {
		return nil, fmt.Errorf("capture: %w", err)
	}
	return Downmix(append([]float32(nil), c.buf...), c.channels), nil
}

// Close stops the stream.
func (c *Capture) Close() error {
	c.stream.Stop()
	return c.stream.Close()
}

// PortAudioSpeaker plays replies on a local output device (on the robot:
// reachymini_audio_sink) instead of through the daemon.
type PortAudioSpeaker struct {
	Device string
	SDK    *SDK // when set, the head sways with the audio over /ws/sdk
	mu     sync.Mutex
	stop   chan struct{}
}

// Play decodes the WAV and writes it to the device, returning when it has been queued.
func (s *PortAudioSpeaker) Play(ctx context.Context, name string, wav []byte) error {
	clip, err := speech.DecodeWAV(wav, 0)
	if err != nil {
		return err
	}
	dev, err := findDevice(s.Device, false)
	if err != nil {
		return err
	}
	p := streamParams(dev, 1, false)
	out := make([]float32, p.FramesPerBuffer)
	st, err := portaudio.OpenStream(p, out)
	if err != nil {
		return err
	}
	stop := make(chan struct{})
	s.mu.Lock()
	s.stop = stop
	s.mu.Unlock()
	if s.SDK != nil {
		swayCtx, cancel := context.WithCancel(context.Background())
		go func() { <-stop; cancel() }()
		go Sway(swayCtx, s.SDK, SwayOffsets(clip.Samples, speech.SampleRate))
	}
	go func() {
		defer st.Close()
		st.Start()
		defer st.Stop()
		for i := 0; i < len(clip.Samples); i += len(out) {
			select {
			case <-stop:
				return
			default:
			}
			n := copy(out, clip.Samples[i:])
			clear(out[n:])
			if st.Write() != nil {
				return
			}
		}
	}()
	return nil
}

// Stop interrupts playback.
func (s *PortAudioSpeaker) Stop(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		close(s.stop)
		s.stop = nil
	}
	return nil
}
