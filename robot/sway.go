package robot

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// SDK is a connection to the daemon's /ws/sdk channel, used to sway the head with audio the
// hub plays itself (the daemon's own wobbling only follows sound the daemon plays).
type SDK struct {
	mu   sync.Mutex
	conn *websocket.Conn
}

// OpenSDK connects to ws://<daemon>/ws/sdk.
func (d *Daemon) OpenSDK(ctx context.Context) (*SDK, error) {
	u := "ws" + strings.TrimPrefix(d.base, "http") + "/ws/sdk"
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	c, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		return nil, fmt.Errorf("daemon /ws/sdk: %w", err)
	}
	return &SDK{conn: c}, nil
}

// Offsets are speech-sway offsets: x, y, z (metres), roll, pitch, yaw (radians).
type Offsets [6]float64

// SetSpeechOffsets sends one set_speech_offsets command.
func (s *SDK) SetSpeechOffsets(ctx context.Context, o Offsets) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return wsjson.Write(ctx, s.conn, map[string]any{"type": "set_speech_offsets", "offsets": o[:]})
}

// Close closes the channel.
func (s *SDK) Close() error { return s.conn.Close(websocket.StatusNormalClosure, "bye") }

// swayFrame is how often the head follows the audio.
const swayFrame = 50 * time.Millisecond

// maxSway bounds the offsets: a nod and a tilt, never a move.
const maxSway = 0.12

// SwayOffsets turns audio loudness into head offsets, one per swayFrame: louder speech nods
// a little further and tilts side to side; silence is still.
func SwayOffsets(samples []float32, rate int) []Offsets {
	n := int(float64(rate) * swayFrame.Seconds())
	var out []Offsets
	for i, k := 0, 0; i < len(samples); i, k = i+n, k+1 {
		end := min(i+n, len(samples))
		var sum float64
		for _, s := range samples[i:end] {
			sum += float64(s) * float64(s)
		}
		rms := math.Sqrt(sum / float64(end-i))
		level := math.Min(1, rms*6) // speech around -15 dBFS reaches full sway
		t := float64(k) * swayFrame.Seconds()
		out = append(out, Offsets{0, 0, 0,
			maxSway * 0.5 * level * math.Sin(2*math.Pi*0.8*t), // roll: slow tilt
			maxSway * level, // pitch: nod with loudness
			maxSway * 0.3 * level * math.Sin(2*math.Pi*0.5*t), // yaw: a little turn
		})
	}
	return out
}

// Sway sends offsets in real time while audio plays and returns the head to rest at the end
// or when ctx ends (barge-in).
func Sway(ctx context.Context, sdk *SDK, offsets []Offsets) error {
	defer sdk.SetSpeechOffsets(context.WithoutCancel(ctx), Offsets{})
	tick := time.NewTicker(swayFrame)
	defer tick.Stop()
	for _, o := range offsets {
		if err := sdk.SetSpeechOffsets(ctx, o); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
	return nil
}
