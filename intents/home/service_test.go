package home

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
)

const goodNight = `
intents:
  - name: routine.good_night
    kind: write
    scope: house:write
    handler: {type: home.service, service: script.good_night, reply: Good night. Sleep well.}
    patterns: ['good night']
    examples: [good night]
  - name: routine.movie
    kind: write
    scope: house:write
    handler: {type: webhook, url: "http://127.0.0.1:1/hook", timeout: 1s, reply: Enjoy the film.}
    patterns: ['movie time']
    examples: [movie time]
`

func TestHomeServiceCallsHomeAssistantOnce(t *testing.T) {
	f := newFakeHA()
	srv := httptest.NewServer(f)
	defer srv.Close()
	tb, err := intents.Parse([]byte(goodNight), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in, _ := tb.Lookup("routine.good_night")
	a, err := Service{HA: &HomeAssistant{BaseURL: srv.URL, Token: "ha-token"}}.Handle(context.Background(), intents.Call{Intent: in, Table: tb})
	if err != nil || a.Reply != "Good night. Sleep well." || f.count("POST /api/services/script/good_night") != 1 {
		t.Fatalf("%q %v %v", a.Reply, err, f.calls)
	}
}

func TestWebhookPostsTheCall(t *testing.T) {
	got := make(chan map[string]any, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		got <- body
	}))
	defer srv.Close()
	tb, _ := intents.Parse([]byte(goodNight), "c.yaml")
	in, _ := tb.Lookup("routine.movie")
	in.Handler.URL = srv.URL
	a, _ := Webhook{}.Handle(context.Background(), intents.Call{Intent: in, Args: map[string]string{}, Device: "robot", Table: tb})
	if a.Reply != "Enjoy the film." {
		t.Fatal(a.Reply)
	}
	if body := <-got; body["intent"] != "routine.movie" || body["device"] != "robot" {
		t.Fatalf("%v", body)
	}
	in.Handler.URL = "http://127.0.0.1:1/nothing"
	start := time.Now()
	if a, _ := (Webhook{}).Handle(context.Background(), intents.Call{Intent: in, Table: tb}); a.Reply != "Sorry, that didn't work." || time.Since(start) > 2*time.Second {
		t.Fatalf("dead webhook: %q", a.Reply)
	}
}
