package media

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/robot/call"
)

// TestServeRefusesABadOfferAndABadRequest: an offer with nothing to carry (no media section)
// is refused with an event (the hub answers no_media) and nothing starts; a request that is not the hub's is
// an error; an over-long line is refused without reading it whole.
func TestServeRefusesABadOfferAndABadRequest(t *testing.T) {
	cfg := call.Sim()
	cfg.Defaults()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	req, _ := json.Marshal(call.MediaRequest{Config: cfg, CallID: "c1", N: 1, Offer: "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"})
	var out bytes.Buffer
	in, hub := io.Pipe() // the hub keeps stdin open: a closed one ends the call
	defer hub.Close()
	go hub.Write(append(req, '\n'))
	if err := Serve(ctx, in, &out, log); err != nil {
		t.Fatalf("a refused offer is an event, not an error: %v", err)
	}
	var ev call.MediaEvent
	if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &ev); err != nil || ev.Kind != call.EventRefused || ev.Why == "" {
		t.Fatalf("media process said %q (%v), want one refused event with a reason", out.String(), err)
	}

	for name, in := range map[string]string{
		"not JSON":   "hello\n",
		"too long":   "{\"offer\":\"" + strings.Repeat("x", maxRequest+10) + "\"}\n",
		"no request": "",
	} {
		out.Reset()
		if err := Serve(ctx, strings.NewReader(in), &out, log); err == nil {
			t.Errorf("%s: served", name)
		}
		if out.Len() != 0 {
			t.Errorf("%s: the media process said %q", name, out.String())
		}
	}
}
