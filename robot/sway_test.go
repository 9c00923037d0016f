package robot

import (
	"context"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/speech"
)

func TestSwayFollowsLoudness(t *testing.T) {
	rate := speech.SampleRate
	quiet := make([]float32, rate/2)
	loud := make([]float32, rate/2)
	for i := range loud {
		loud[i] = float32(0.3 * math.Sin(2*math.Pi*200*float64(i)/float64(rate)))
	}
	q, l := SwayOffsets(quiet, rate), SwayOffsets(loud, rate)
	if len(l) != 10 {
		t.Fatalf("%d frames for 0.5 s", len(l))
	}
	for i := range l {
		if q[i] != (Offsets{}) {
			t.Fatalf("silence moved the head: %v", q[i])
		}
		for _, v := range l[i] {
			if math.Abs(v) > maxSway+1e-9 {
				t.Fatalf("offset %v beyond the bound", v)
			}
		}
	}
	if l[3][4] < 0.05 {
		t.Fatalf("loud speech barely nods: %v", l[3])
	}
}

func TestSwayOverTheSDKChannel(t *testing.T) {
	f, d := fake(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	sdk, err := d.OpenSDK(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer sdk.Close()
	offs := SwayOffsets(make([]float32, speech.SampleRate/4), speech.SampleRate) // 5 frames
	if err := Sway(ctx, sdk, offs); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	var sent []Call
	for time.Now().Before(deadline) {
		sent = nil
		for _, c := range f.Calls() {
			if c.Path == "/ws/sdk" {
				sent = append(sent, c)
			}
		}
		if len(sent) == len(offs)+1 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(sent) != len(offs)+1 {
		t.Fatalf("%d messages, want %d and a final rest", len(sent), len(offs)+1)
	}
	var last struct {
		Type    string
		Offsets []float64
	}
	json.Unmarshal(sent[len(sent)-1].Body, &last)
	if last.Type != "set_speech_offsets" || len(last.Offsets) != 6 || last.Offsets[4] != 0 {
		t.Fatalf("last message %s", sent[len(sent)-1].Body)
	}
}
