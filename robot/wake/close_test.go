package wake

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

// A spot the Guard gave up on (it stalled past its timeout) is still inside PocketSphinx
// when the hub stops and closes the spotter: the decoder must not be freed under it. Before
// the fix this crashed the hub with SIGSEGV in ps_process_raw (seen under load in
// cmd/reachy-hub's tests).
func TestClosingTheSpotterWaitsForAStalledSpot(t *testing.T) {
	s, err := NewSphinx(Options{Phrases: []string{"hey reachy"}})
	if err != nil {
		t.Skipf("no PocketSphinx model here: %v", err)
	}
	// 60 s of noise: long enough that the engine is still decoding when the Guard, with a
	// timeout of a millisecond, has given up on it.
	r := rand.New(rand.NewPCG(1, 2))
	samples := make([]float32, 60*SampleRate)
	for i := range samples {
		samples[i] = float32(r.NormFloat64() * 0.1)
	}
	g := NewGuard(s, nil)
	g.Timeout = time.Millisecond
	if _, ok := g.Addressed(context.Background(), samples); ok {
		t.Fatal("noise was heard as the wake phrase")
	}
	if st := g.Stats(); st.Stalls != 1 {
		t.Fatalf("the spot did not stall (stats %+v): the test no longer closes under a running spot", st)
	}
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(60 * time.Second):
		t.Fatal("Close did not return within 60 s")
	}
	if _, _, err := s.Spot(context.Background(), samples[:SampleRate]); err == nil {
		t.Fatal("a closed spotter spotted")
	}
}
