package home

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
)

// fakeHA implements the REST subset the handlers use and can be made slow, failing or flapping.
type fakeHA struct {
	mu       sync.Mutex
	states   map[string]string
	temps    map[string]float64
	calls    []string
	mode     string // "", "slow-write", "fail", "flap", "forbidden"
	n        int
	slowness time.Duration
}

func (f *fakeHA) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer ha-token" {
		http.Error(w, "401", 401)
		return
	}
	f.n++
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	switch {
	case f.mode == "fail", f.mode == "flap" && f.n%2 == 1:
		http.Error(w, "boom", 502)
		return
	case f.mode == "forbidden":
		http.Error(w, "nope", 403)
		return
	case f.mode == "bad-office" && strings.Contains(r.URL.Path+r.Method, "POST") && f.lastBodyIsOffice(r):
		http.Error(w, "entity not found", 400)
		return
	case f.mode == "slow-all" && r.Method == http.MethodGet:
		d := f.slowness
		f.mu.Unlock()
		time.Sleep(d) // the read-back times out too
		f.mu.Lock()
	}
	if strings.HasPrefix(r.URL.Path, "/api/states/") {
		e := strings.TrimPrefix(r.URL.Path, "/api/states/")
		st, ok := f.states[e]
		if !ok {
			st = "off"
		}
		json.NewEncoder(w).Encode(map[string]any{"entity_id": e, "state": st, "attributes": map[string]any{"temperature": f.temps[e]}})
		return
	}
	var body map[string]any
	json.NewDecoder(r.Body).Decode(&body)
	e, _ := body["entity_id"].(string)
	switch {
	case strings.HasSuffix(r.URL.Path, "/turn_on"):
		f.states[e] = "on"
	case strings.HasSuffix(r.URL.Path, "/turn_off"):
		f.states[e] = "off"
	case strings.HasSuffix(r.URL.Path, "/set_temperature"):
		f.states[e] = "cool"
		f.temps[e] = body["temperature"].(float64)
	}
	if f.mode == "slow-write" || f.mode == "slow-all" {
		d := f.slowness
		f.mu.Unlock()
		time.Sleep(d) // the write happened; the answer is late
		f.mu.Lock()
	}
	w.Write([]byte("[]"))
}

// lastBodyIsOffice peeks at a service call's entity (and puts the body back).
func (f *fakeHA) lastBodyIsOffice(r *http.Request) bool {
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	return strings.Contains(string(b), "light.office")
}

func (f *fakeHA) count(prefix string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if strings.HasPrefix(c, prefix) {
			n++
		}
	}
	return n
}

func haHome(t *testing.T, f *fakeHA) (Handler, *Reliable) {
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	rel := &Reliable{Inner: &HomeAssistant{BaseURL: srv.URL, Token: "ha-token"}, Attempt: 200 * time.Millisecond, Backoff: 20 * time.Millisecond}
	m := Mapped{}
	for _, r := range []string{"kitchen", "living room", "bedroom", "office", "kids room"} {
		m[Device{r, "light"}] = Target{rel, "light." + strings.ReplaceAll(r, " ", "_")}
	}
	m[Device{"bedroom", "ac"}] = Target{rel, "climate.bedroom"}
	m[Device{"living room", "ac"}] = Target{rel, "climate.living_room"}
	return Handler{Backend: m, Kind: "light"}, rel
}

func run(t *testing.T, h Handler, sentence string, budget time.Duration) (intents.Answer, time.Duration) {
	t.Helper()
	tb, _ := intents.LoadDemo()
	d := tb.Route(sentence, intents.Context{})
	in, _ := tb.Lookup(d.Intent)
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	start := time.Now()
	a, err := h.Handle(ctx, intents.Call{Intent: in, Args: d.Args, Table: tb})
	if err != nil {
		t.Fatal(err)
	}
	return a, time.Since(start)
}

func newFakeHA() *fakeHA { return &fakeHA{states: map[string]string{}, temps: map[string]float64{}} }

func TestHomeAssistantSetsAndReads(t *testing.T) {
	f := newFakeHA()
	h, rel := haHome(t, f)
	// What is said and done, not how fast: a loaded machine gets the time it needs.
	rel.Attempt = 2 * time.Second
	if a, _ := run(t, h, "turn on the kitchen light", 5*time.Second); a.Reply != "Okay, the kitchen light is on." || f.count("POST /api/services/light/turn_on") != 1 {
		t.Fatalf("%q %v", a.Reply, f.calls)
	}
	if a, _ := run(t, h, "is the kitchen light on", 5*time.Second); a.Reply != "The kitchen light is on." {
		t.Fatal(a.Reply)
	}
	h.Kind = "ac"
	if a, _ := run(t, h, "set the bedroom ac to 21", 5*time.Second); a.Reply != "Okay, the bedroom AC is set to 21 degrees." || f.temps["climate.bedroom"] != 21 {
		t.Fatalf("%q %v", a.Reply, f.temps)
	}
	if a, _ := run(t, h, "is the bedroom ac on", 5*time.Second); a.Reply != "The bedroom AC is on, set to 21 degrees." {
		t.Fatal(a.Reply)
	}
}

func TestFlappingHubIsRetried(t *testing.T) {
	f := newFakeHA()
	f.mode = "flap"
	h, _ := haHome(t, f)
	if a, _ := run(t, h, "turn on the office light", 2*time.Second); a.Reply != "Okay, the office light is on." {
		t.Fatalf("%q %v", a.Reply, f.calls)
	}
}

func TestTimedOutWriteIsReadBackNotRepeated(t *testing.T) {
	f := newFakeHA()
	f.mode, f.slowness = "slow-write", 400*time.Millisecond
	h, _ := haHome(t, f)
	a, _ := run(t, h, "turn on the kitchen light", 3*time.Second)
	if a.Reply != "Okay, the kitchen light is on." {
		t.Fatalf("%q %v", a.Reply, f.calls)
	}
	if n := f.count("POST /api/services/light/turn_on"); n != 1 {
		t.Fatalf("the write was sent %d times: %v", n, f.calls)
	}
	if f.count("GET /api/states/light.kitchen") == 0 {
		t.Fatal("a timed-out write was not read back")
	}
}

func TestPermanentErrorsAreNotRetried(t *testing.T) {
	f := newFakeHA()
	f.mode = "forbidden"
	h, _ := haHome(t, f)
	run(t, h, "turn on the kitchen light", time.Second)
	if n := f.count("POST"); n != 1 {
		t.Fatalf("a 403 was retried %d times", n)
	}
}

func TestDeadHubOpensTheBreaker(t *testing.T) {
	f := newFakeHA()
	f.mode = "fail"
	h, rel := haHome(t, f)
	for range 3 {
		run(t, h, "turn on the kitchen light", 500*time.Millisecond)
	}
	before := len(f.calls)
	a, took := run(t, h, "turn on the kitchen light", 2*time.Second)
	if a.Reply != "The kitchen light isn't answering right now." || len(f.calls) != before || took > 20*time.Millisecond {
		t.Fatalf("open breaker: %q, %d calls, %v", a.Reply, len(f.calls)-before, took)
	}
	rel.Now = func() time.Time { return time.Now().Add(time.Minute) }
	f.mode = ""
	if a, _ := run(t, h, "turn on the kitchen light", time.Second); a.Reply != "Okay, the kitchen light is on." {
		t.Fatalf("after the cooldown: %q", a.Reply)
	}
}

func TestAllFansOutInParallel(t *testing.T) {
	f := newFakeHA()
	f.mode, f.slowness = "slow-write", 100*time.Millisecond
	h, _ := haHome(t, f)
	h.Backend.(Mapped)[Device{"office", "light"}].Backend.(*Reliable).Attempt = time.Second
	a, took := run(t, h, "turn off all the lights", 2*time.Second)
	if a.Reply != "Okay, all five lights are off." {
		t.Fatal(a.Reply)
	}
	if took > 400*time.Millisecond { // five sequential 100 ms writes would take 500 ms
		t.Fatalf("fan-out took %v", took)
	}
}

// TestSlowHubGetsTheWriteOnce: the write and its read-back both time out; the write is never
// sent again, and the answer says the outcome is unknown rather than "okay" or "failed".
func TestSlowHubGetsTheWriteOnce(t *testing.T) {
	f := newFakeHA()
	f.mode, f.slowness = "slow-all", 600*time.Millisecond
	h, _ := haHome(t, f)
	a, _ := run(t, h, "turn on the kitchen light", 3*time.Second)
	time.Sleep(700 * time.Millisecond) // late requests would land by now
	if n := f.count("POST /api/services/light/turn_on"); n != 1 {
		t.Fatalf("the write was sent %d times: %v", n, f.calls)
	}
	if a.Outcome != intents.OutcomeUnknown {
		t.Fatalf("outcome %q: %q", a.Outcome, a.Reply)
	}
}

// TestOneBadEntityDoesNotOpenTheBreaker: a 400 for one entity is that entity's problem; the
// rest of the hub keeps working.
func TestOneBadEntityDoesNotOpenTheBreaker(t *testing.T) {
	f := newFakeHA()
	f.mode = "bad-office"
	h, _ := haHome(t, f)
	for range 5 {
		if a, _ := run(t, h, "turn on the office light", time.Second); a.Outcome != intents.OutcomeFailed {
			t.Fatalf("office: %q %q", a.Outcome, a.Reply)
		}
	}
	if a, _ := run(t, h, "turn on the kitchen light", time.Second); a.Reply != "Okay, the kitchen light is on." {
		t.Fatalf("one bad entity silenced the hub: %q", a.Reply)
	}
}

// TestBreakerHalfOpenProbe: after the cooldown exactly one call probes the hub; while it is
// out the others still answer at once; a failed probe opens the breaker again.
func TestBreakerHalfOpenProbe(t *testing.T) {
	f := newFakeHA()
	f.mode = "fail"
	h, rel := haHome(t, f)
	for range 3 {
		run(t, h, "turn on the kitchen light", 500*time.Millisecond)
	}
	later := time.Now().Add(time.Minute)
	rel.Now = func() time.Time { return later }
	before := f.count("POST")
	run(t, h, "turn on the kitchen light", 500*time.Millisecond) // the probe fails
	if n := f.count("POST") - before; n < 1 {
		t.Fatalf("no probe went out after the cooldown")
	}
	before = f.count("POST")
	if a, took := run(t, h, "turn on the kitchen light", time.Second); f.count("POST") != before || took > 20*time.Millisecond || a.Outcome != intents.OutcomeFailed {
		t.Fatalf("after a failed probe the breaker must be open again: %q, %d calls, %v", a.Reply, f.count("POST")-before, took)
	}
}

func TestOutcomesAreHonest(t *testing.T) {
	f := newFakeHA()
	f.mode = "bad-office"
	h, _ := haHome(t, f)
	if a, _ := run(t, h, "turn on all the lights", 2*time.Second); a.Outcome != intents.OutcomePartial {
		t.Fatalf("%q %q", a.Outcome, a.Reply)
	}
	if a, _ := run(t, h, "turn on the office light", 2*time.Second); a.Outcome != intents.OutcomeFailed {
		t.Fatalf("%q %q", a.Outcome, a.Reply)
	}
	if a, _ := run(t, h, "turn on the kitchen light", 2*time.Second); a.Outcome != "" {
		t.Fatalf("%q %q", a.Outcome, a.Reply)
	}
}
