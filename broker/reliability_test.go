package broker

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/speech"
)

// failWrites makes every write to the state store fail like a full disk, until undone.
func failWrites(st *store.Store) (undo func()) {
	f := func(ctx context.Context, op string) error {
		switch op {
		case "verify token", "idempotency lookup", "audit tail", "state size", "ping":
			return nil
		}
		return errors.New("database or disk is full (SQLITE_FULL)")
	}
	st.SetFault(f)
	return func() { st.SetFault(nil) }
}

func (tb *testBroker) admin(t *testing.T, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	tb.b.AdminHandler().ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1"+path, nil))
	return rec.Code, rec.Body.String()
}

// TestFullDiskRefusesToActuate (#11.4): when the audit intent cannot be written nothing is
// switched, the robot hears `unavailable` (503), the metric counts it, /healthz says the
// state store is failing — and all of it recovers by itself once writes succeed again.
func TestFullDiskRefusesToActuate(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "text", "house:write")
	undo := failWrites(tb.state)

	r := tb.say(t, tok, "turn on the kitchen light", "Idempotency-Key", "full-1")
	if r.status != http.StatusServiceUnavailable || r.code(t) != api.CodeUnavailable {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var eb api.ErrorBody
	r.json(t, &eb)
	if eb.Error.Message != replyUnavailable {
		t.Fatalf("the refusal must be a sentence the robot can say: %q", eb.Error.Message)
	}
	if n := tb.light.count(); n != 0 {
		t.Fatalf("the light was switched %d times without an audit record", n)
	}
	// A read still answers.
	if r := tb.say(t, tok, "what time is it"); r.status != 200 || r.turn(t).Intent != "time.now" {
		t.Fatalf("read: %d %s", r.status, r.body)
	}
	if code, body := tb.admin(t, "/healthz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "failing") {
		t.Fatalf("healthz with a full disk: %d %s", code, body)
	}
	if _, body := tb.admin(t, "/metrics"); !strings.Contains(body, `reachy_failures_total{code="unavailable"} 1`) ||
		!strings.Contains(body, `reachy_turns_total{outcome="failed",route="utterance"} 1`) {
		t.Fatalf("metrics do not count the refusal:\n%s", grepLines(body, "reachy_"))
	}

	undo() // space is back
	if code, body := tb.admin(t, "/healthz"); code != 200 {
		t.Fatalf("healthz after recovery: %d %s", code, body)
	}
	// The refused key was not stored: the retry runs, once.
	tr := tb.say(t, tok, "turn on the kitchen light", "Idempotency-Key", "full-1").turn(t)
	if tr.Outcome != store.OutcomeOK || tb.light.count() != 1 {
		t.Fatalf("after recovery: %+v, %d switches", tr, tb.light.count())
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestStalledDiskHoldsTheDeadline (#11.5): a state store that stops answering cannot hold a
// turn past its budget, and the light is not switched late. (A token is checked against the
// State's in-memory copy: authentication does not wait for the disk at all.)
func TestStalledDiskHoldsTheDeadline(t *testing.T) {
	for _, stalled := range []string{"idempotency lookup", "audit and idempotency"} {
		t.Run(stalled, func(t *testing.T) {
			tb := newTestBroker(t, func(c *Config, d *Deps) { c.Turn.Budget = time.Second })
			tok := tb.token(t, "robot", "text", "house:write")
			release := make(chan struct{})
			f := func(ctx context.Context, op string) error {
				if op == stalled {
					<-release // a disk that does not answer, whatever the context says
				}
				return nil
			}
			tb.state.SetFault(f)
			start := time.Now()
			r := tb.say(t, tok, "turn on the kitchen light", "Idempotency-Key", "stall-1")
			took := time.Since(start)
			close(release)
			if took > 1500*time.Millisecond {
				t.Fatalf("a stalled store held the turn %v past a 1 s budget", took)
			}
			if r.status != http.StatusServiceUnavailable || r.code(t) != api.CodeUnavailable {
				t.Fatalf("%d %s", r.status, r.body)
			}
			time.Sleep(100 * time.Millisecond)
			if n := tb.light.count(); n != 0 {
				t.Fatalf("the light was switched %d times after the turn gave up", n)
			}
		})
	}
}

// TestIdempotencyKeyIsBoundToItsRequest (#10.5): a key reused with another body or route is
// a conflict, and the second command is refused loudly rather than silently dropped.
func TestIdempotencyKeyIsBoundToItsRequest(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "text", "intent", "house:write")
	if tr := tb.say(t, tok, "turn on the kitchen light", "Idempotency-Key", "k1").turn(t); tr.Outcome != store.OutcomeOK {
		t.Fatalf("%+v", tr)
	}
	r := tb.say(t, tok, "turn off the kitchen light", "Idempotency-Key", "k1")
	if r.status != http.StatusConflict || r.code(t) != api.CodeIdempotencyConflict {
		t.Fatalf("another body: %d %s", r.status, r.body)
	}
	r = tb.do(t, "POST", "/v1/intents/house.light.set", tok, "application/json", []byte(`{"room":"kitchen","state":"on"}`), "Idempotency-Key", "k1")
	if r.status != http.StatusConflict || r.code(t) != api.CodeIdempotencyConflict {
		t.Fatalf("another route: %d %s", r.status, r.body)
	}
	if n := tb.light.count(); n != 1 {
		t.Fatalf("%d switches", n)
	}
}

// TestReplayRechecksScopesAndIsAudited (#10.5): a token of the same device with fewer scopes
// cannot replay an answer it could not get itself; a replay is audited as "replayed".
func TestReplayRechecksScopesAndIsAudited(t *testing.T) {
	tb := newTestBroker(t)
	full := tb.token(t, "robot", "text", "house:write")
	weak := tb.token(t, "robot", "text")
	first := tb.say(t, full, "turn on the kitchen light", "Idempotency-Key", "k2").turn(t)
	r := tb.say(t, weak, "turn on the kitchen light", "Idempotency-Key", "k2")
	if r.status != http.StatusForbidden || r.code(t) != api.CodeInsufficientScope {
		t.Fatalf("a weaker token replayed: %d %s", r.status, r.body)
	}
	r = tb.say(t, full, "turn on the kitchen light", "Idempotency-Key", "k2")
	tr := r.turn(t)
	if r.header.Get("Idempotent-Replayed") != "true" || tr.TurnID != first.TurnID || tr.Reply != first.Reply || tb.light.count() != 1 {
		t.Fatalf("replay: %+v %v, %d switches", tr, r.header, tb.light.count())
	}
	recs, _ := tb.state.TailAudit(context.Background(), 10)
	last := recs[len(recs)-1]
	if last.Outcome != store.OutcomeReplayed || last.TurnID != first.TurnID || last.Code != store.OutcomeOK {
		t.Fatalf("the replay is not audited as one: %+v", last)
	}
}

// TestStoredKeysHoldNoAnswers (#10.2): idempotency records keep what a replay needs and no
// more — no agent answer, no clarification, no audio.
func TestStoredKeysHoldNoAnswers(t *testing.T) {
	agentSaid := "The secret diary says hunter2."
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		d.Handlers["agent"] = intents.HandlerFunc(func(ctx context.Context, c intents.Call) (intents.Answer, error) {
			return intents.Answer{Reply: agentSaid}, nil
		})
		d.Synthesizer = fixedSynth{}
	})
	tok := tb.token(t, "robot", "text", "house:write", "ask")
	tb.say(t, tok, "turn on the light", "Idempotency-Key", "c1")
	tb.say(t, tok, "what rhymes with orange", "Idempotency-Key", "a1")
	body, _ := json.Marshal(map[string]any{"text": "turn on the kitchen light", "audio": true})
	r := tb.do(t, "POST", "/v1/utterances", tok, "application/json", body, "Idempotency-Key", "w1")
	if tr := r.turn(t); tr.Audio == "" {
		t.Fatalf("no audio: %+v", tr)
	}
	rows, err := tb.state.DB().Query(`SELECT key, reply, length(body_hash) FROM idempotency`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var key, reply string
		var hl int
		rows.Scan(&key, &reply, &hl)
		n++
		if key != "w1" && reply != "" {
			t.Errorf("key %s stores its answer %q", key, reply)
		}
		if key == "w1" && reply != "Okay, the kitchen light is on." {
			t.Errorf("the actuation's reply is what a replay needs: %q", reply)
		}
	}
	if n != 3 {
		t.Fatalf("%d records", n)
	}
	// A replay of the actuation re-synthesizes its audio.
	r = tb.do(t, "POST", "/v1/utterances", tok, "application/json", body, "Idempotency-Key", "w1")
	if tr := r.turn(t); tr.Audio == "" || r.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay without audio: %+v", tr)
	}
}

// fixedSynth returns a large WAV for any text, like a real voice answer (~600 KB).
type fixedSynth struct{}

var bigWAV = sync.OnceValue(func() []byte {
	samples := make([]float32, 16000*18)
	for i := range samples {
		samples[i] = float32(0.3 * math.Sin(float64(i)/7))
	}
	b, _ := speech.EncodeWAV(samples, 16000)
	return b
})

func (fixedSynth) Synthesize(ctx context.Context, text string) ([]byte, error) { return bigWAV(), nil }

// TestDatabaseSizeAfter500AudioTurns (#10.6): audio answers are not stored, so 500 keyed
// turns with ~600 KB of audio each leave a small database; expired records give their space
// back to the filesystem.
func TestDatabaseSizeAfter500AudioTurns(t *testing.T) {
	tb := newTestBroker(t, func(c *Config, d *Deps) { d.Synthesizer = fixedSynth{} })
	tok := tb.token(t, "robot", "text", "house:write")
	for i := range 500 {
		text := "turn on the kitchen light"
		if i%2 == 1 {
			text = "what time is it"
		}
		body, _ := json.Marshal(map[string]any{"text": text, "audio": true})
		r := tb.do(t, "POST", "/v1/utterances", tok, "application/json", body, "Idempotency-Key", "size-"+strconv.Itoa(i))
		if r.status != 200 {
			t.Fatalf("turn %d: %d %s", i, r.status, r.body[:min(200, len(r.body))])
		}
	}
	size := func() int64 {
		var total int64
		for _, f := range []string{"broker.db", "broker.db-wal"} {
			if fi, err := os.Stat(filepath.Join(tb.cfg.StateDir, f)); err == nil {
				total += fi.Size()
			}
		}
		return total
	}
	if err := tb.state.Vacuum(context.Background()); err != nil {
		t.Fatal(err)
	}
	full := size()
	t.Logf("state after 500 audio-answer turns: %d KB", full/1024)
	if full > 2<<20 {
		t.Fatalf("the state database is %d KB after 500 turns", full/1024)
	}
	// Expire every key: the purge gives the pages back.
	tb.state.DB().Exec(`UPDATE idempotency SET created = 0`)
	if _, err := tb.state.TrustClock(context.Background()); err != nil { // a fresh store's clock agrees only from now
		t.Fatal(err)
	}
	if _, err := tb.state.Purge(context.Background(), 90*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	var free int
	tb.state.DB().QueryRow(`PRAGMA freelist_count`).Scan(&free)
	if free != 0 || size() > full {
		t.Fatalf("after the purge: %d free pages kept, %d KB (was %d KB)", free, size()/1024, full/1024)
	}
}

// TestCallerGoneDoesNotPoisonTheKey (#11.3): a connection dropped during speech-to-text
// leaves nothing stored under the key; the retry runs.
func TestCallerGoneDoesNotPoisonTheKey(t *testing.T) {
	tb := newTestBroker(t)
	tok := tb.token(t, "robot", "turn", "house:write")
	tb.stt.say("Hey Reachy, turn on the kitchen light.")
	tb.stt.mu.Lock()
	tb.stt.delay = 400 * time.Millisecond
	tb.stt.mu.Unlock()
	req, _ := http.NewRequest("POST", tb.srv.URL+"/v1/turns?audio=none", strings.NewReader(string(speechWAV(t))))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "audio/wav")
	req.Header.Set("Idempotency-Key", "gone-1")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	if resp, err := http.DefaultClient.Do(req.WithContext(ctx)); err == nil {
		resp.Body.Close()
	}
	cancel()
	time.Sleep(500 * time.Millisecond)
	tb.stt.mu.Lock()
	tb.stt.delay = 0
	tb.stt.mu.Unlock()
	r := tb.turnAudio(t, tok, "Idempotency-Key", "gone-1")
	if r.status != 200 || r.turn(t).Outcome != store.OutcomeOK || tb.light.count() != 1 {
		t.Fatalf("retry after the caller went away: %d %s", r.status, r.body)
	}
}

// TestKeysPerDeviceAreCapped (#10.6): one device cannot hold more than the cap of keys; the
// oldest settled ones give way, and other devices keep theirs.
func TestKeysPerDeviceAreCapped(t *testing.T) {
	tb := newTestBroker(t)
	tb.state.SetKeyCap(5)
	robot := tb.token(t, "robot", "text", "house:write")
	other := tb.token(t, "bedside", "text", "house:write")
	tb.say(t, other, "turn on the bedroom light", "Idempotency-Key", "other-1")
	for i := range 12 {
		tb.say(t, robot, "turn on the kitchen light", "Idempotency-Key", "cap-"+strconv.Itoa(i))
	}
	count := func(device string) (n int) {
		tb.state.DB().QueryRow(`SELECT count(*) FROM idempotency WHERE device = ?`, device).Scan(&n)
		return n
	}
	if n := count("robot"); n != 5 {
		t.Fatalf("robot holds %d keys with a cap of 5", n)
	}
	if n := count("bedside"); n != 1 {
		t.Fatalf("another device lost its key: %d", n)
	}
	// The newest key still replays.
	if r := tb.say(t, robot, "turn on the kitchen light", "Idempotency-Key", "cap-11"); r.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("the newest key was dropped: %s", r.body)
	}
}

// TestAReadAnswersWhileTheStoreStalls (#25.7): with every access to the state store stalled
// (a frozen disk), "what time is it" is still answered within the turn's budget — with the
// time, not "I can't keep a record of that" — while a write is refused as unavailable and
// never happens, not even after the store comes back.
func TestAReadAnswersWhileTheStoreStalls(t *testing.T) {
	tb := newTestBroker(t, func(c *Config, d *Deps) { c.Turn.Budget = 2 * time.Second })
	tok := tb.token(t, "robot", "text", "house:write", "house:read")
	release := make(chan struct{})
	f := func(ctx context.Context, op string) error {
		<-release // a disk that answers nothing, whatever the context says
		return nil
	}
	tb.state.SetFault(f)
	start := time.Now()
	r := tb.say(t, tok, "what time is it", "Idempotency-Key", "frozen-read")
	if took := time.Since(start); took > 2500*time.Millisecond {
		t.Fatalf("a read took %v on a stalled store (budget 2 s)", took)
	}
	if r.status != http.StatusOK || r.turn(t).Intent != "time.now" || strings.Contains(r.turn(t).Reply, "record") {
		t.Fatalf("a read during a stall: %d %s", r.status, r.body)
	}
	w := tb.say(t, tok, "turn on the kitchen light", "Idempotency-Key", "frozen-write")
	if w.status != http.StatusServiceUnavailable || w.code(t) != api.CodeUnavailable {
		t.Fatalf("a write during a stall: %d %s", w.status, w.body)
	}
	close(release)
	time.Sleep(200 * time.Millisecond)
	if n := tb.light.count(); n != 0 {
		t.Fatalf("the light was switched %d times by a turn that was refused", n)
	}
}
