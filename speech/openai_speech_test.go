package speech

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestOpenAISpeechEngine(t *testing.T) {
	reply := espeak(t, "It is three o'clock.")
	var got struct {
		Model, Input, Voice string
		Format              string `json:"response_format"`
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/audio/speech" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		json.NewDecoder(r.Body).Decode(&got)
		switch got.Input {
		case "broken":
			w.Write([]byte("not audio"))
		case "slow":
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
		default:
			w.Header().Set("Content-Type", "audio/wav")
			w.Write(reply)
		}
	}))
	defer srv.Close()
	eng := NewOpenAISpeech(srv.URL+"/v1", "k", "kokoro", "af_heart")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b, err := eng.Synthesize(ctx, "It is three o'clock.")
	if err != nil {
		t.Fatal(err)
	}
	if got.Model != "kokoro" || got.Voice != "af_heart" || got.Format != "wav" {
		t.Fatalf("request %+v", got)
	}
	if _, err := DecodeWAV(b, 0); err != nil {
		t.Fatalf("reply is not valid WAV: %v", err)
	}
	if _, err := eng.Synthesize(ctx, "broken"); err == nil {
		t.Fatal("non-audio reply accepted")
	}
	short, cancel2 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel2()
	start := time.Now()
	if _, err := eng.Synthesize(short, "slow"); err == nil || time.Since(start) > time.Second {
		t.Fatalf("slow server: err %v after %v", err, time.Since(start))
	}
}
