package robot

import (
	"context"
	"encoding/base64"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/robot/wake"
	"github.com/reachy-broker/reachy-broker/speech"
)

// scriptedSpotter hears the phrase in the utterances listed (by call number, from 1), at at.
type scriptedSpotter struct {
	mu    sync.Mutex
	calls int
	hear  map[int]bool
	at    int
}

func (s *scriptedSpotter) Spot(ctx context.Context, x []float32) (wake.Detection, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.hear[s.calls] {
		return wake.Detection{Phrase: "hey reachy", Start: s.at, End: s.at + speech.SampleRate/2}, true, nil
	}
	return wake.Detection{}, false, nil
}
func (s *scriptedSpotter) Close() error { return nil }

// bursts is a microphone: one-second tones ("utterances") separated by the given gaps.
func bursts(gaps ...time.Duration) *memSource {
	var x []float32
	for i, g := range gaps {
		x = append(x, make([]float32, int(g.Seconds()*speech.SampleRate))...)
		for k := 0; k < speech.SampleRate; k++ {
			x = append(x, float32(0.3*math.Sin(2*math.Pi*float64(200+50*i)*float64(k)/speech.SampleRate)))
		}
	}
	x = append(x, make([]float32, speech.SampleRate)...)
	return &memSource{x: x}
}

type memSource struct{ x []float32 }

func (m *memSource) Read(ctx context.Context) ([]float32, error) {
	if len(m.x) == 0 {
		return nil, io.EOF
	}
	n := min(320, len(m.x))
	c := m.x[:n]
	m.x = m.x[n:]
	return c, nil
}

// gateHub runs a hub over src against a broker answering replies in order; it returns the
// turns (what was uploaded).
func gateHub(t *testing.T, src Source, sp wake.Spotter, replies []string, tune func(*Hub)) (*Hub, []Turn) {
	t.Helper()
	var mu sync.Mutex
	n := 0
	brokerSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		body := replies[min(n, len(replies)-1)]
		n++
		mu.Unlock()
		w.Write([]byte(body))
	}))
	t.Cleanup(brokerSrv.Close)
	fake := NewFakeDaemon()
	daemonSrv := httptest.NewServer(fake)
	t.Cleanup(daemonSrv.Close)
	d := NewDaemon(daemonSrv.URL, time.Second)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var turns []Turn
	h := &Hub{Source: src, Broker: &BrokerClient{URL: brokerSrv.URL, Token: "t"}, Daemon: d, Speaker: DaemonSpeaker{D: d},
		Motion: NewMotion(d, DefaultExpressions(), log), Log: log, Wake: wake.NewGuard(sp, log),
		OnTurn: func(tn Turn) { turns = append(turns, tn) }}
	if tune != nil {
		tune(h)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return h, turns
}

func clarifyReply() string {
	wav, _ := speech.EncodeWAV(make([]float32, speech.SampleRate/2), speech.SampleRate)
	return `{"turn_id":"t","intent":"clarify","outcome":"ok","reply":"Which room?","follow_up":true,"audio":"` + base64.StdEncoding.EncodeToString(wav) + `"}`
}

const plainReply = `{"turn_id":"t","intent":"time.now","outcome":"ok","reply":"It is noon."}`

// TestFollowUpWindowNeedsNoPhrase: after "Which room?" the answer goes up without the phrase;
// the window is for one utterance, and speech after it stays on the robot again.
func TestFollowUpWindowNeedsNoPhrase(t *testing.T) {
	sp := &scriptedSpotter{hear: map[int]bool{1: true}}
	h, turns := gateHub(t, bursts(time.Second, time.Second, time.Second), sp, []string{clarifyReply(), plainReply}, nil)
	if len(turns) != 2 || turns[0].Wake != WakePhrase || turns[1].Wake != WakeFollowUp {
		t.Fatalf("turns %+v", turns)
	}
	if st := h.WakeStats(); st.Heard != 3 || st.Addressed != 1 || st.Bypassed != 1 || st.NotAddressed != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// TestFollowUpWindowCloses: an answer that comes after the window needs the phrase again.
func TestFollowUpWindowCloses(t *testing.T) {
	sp := &scriptedSpotter{hear: map[int]bool{1: true}}
	_, turns := gateHub(t, bursts(time.Second, 4*time.Second), sp, []string{clarifyReply()}, func(h *Hub) { h.FollowUpWindow = time.Second })
	if len(turns) != 1 {
		t.Fatalf("turns %+v", turns)
	}
}

// TestGameKeepsTheWakePhraseOff: while a game is in play, every answer goes up without the
// phrase, however long the child thinks (within a minute), not just one per follow-up window;
// once a game's reply ends the game, the phrase is needed again.
func TestGameKeepsTheWakePhraseOff(t *testing.T) {
	game := `{"turn_id":"t","intent":"play.rps","outcome":"ok","reply":"Rock, paper, scissors... shoot!","follow_up":true}`
	answer := `{"turn_id":"t","intent":"play.answer","outcome":"ok","reply":"It's a tie.","follow_up":true}`
	over := `{"turn_id":"t","intent":"play.answer","outcome":"ok","reply":"You win the game!","follow_up":false}`
	sp := &scriptedSpotter{hear: map[int]bool{1: true}}
	_, turns := gateHub(t, bursts(time.Second, 5*time.Second, 20*time.Second, time.Second, time.Second), sp,
		[]string{game, answer, over, plainReply}, func(h *Hub) { h.FollowUpWindow = time.Second })
	var why []string
	for _, tn := range turns {
		why = append(why, tn.Wake)
	}
	if got := strings.Join(why, ","); got != "phrase,game,game" {
		t.Fatalf("uploads %s, want phrase,game,game (and nothing after the game ended)", got)
	}
}

// TestBypassStateNeedsNoPhrase: while a named state is active (a ringing timer), speech goes
// up without the phrase and the turn says why; once it is over, nothing does.
func TestBypassStateNeedsNoPhrase(t *testing.T) {
	ringing := true
	sp := &scriptedSpotter{}
	_, turns := gateHub(t, bursts(time.Second, time.Second), sp, []string{plainReply}, func(h *Hub) {
		h.Bypasses = []Bypass{{Name: "timer", Active: func() bool { r := ringing; ringing = false; return r }}}
	})
	if len(turns) != 1 || turns[0].Wake != "timer" {
		t.Fatalf("turns %+v", turns)
	}
}

// TestUploadStartsJustBeforeThePhrase: a phrase spotted 0.8 s into the utterance is
// uploaded from 0.5 s (0.3 s pre-roll), so what came before it never leaves the robot.
func TestUploadStartsJustBeforeThePhrase(t *testing.T) {
	at := speech.SampleRate * 8 / 10
	_, all := gateHub(t, bursts(time.Second), &scriptedSpotter{hear: map[int]bool{}}, []string{plainReply}, func(h *Hub) { h.Wake = nil })
	_, cut := gateHub(t, bursts(time.Second), &scriptedSpotter{hear: map[int]bool{1: true}, at: at}, []string{plainReply}, nil)
	if len(all) != 1 || len(cut) != 1 {
		t.Fatalf("turns %d %d", len(all), len(cut))
	}
	if want := all[0].Samples - (at - speech.SampleRate*3/10); cut[0].Samples != want {
		t.Fatalf("uploaded %d samples, want %d (of %d)", cut[0].Samples, want, all[0].Samples)
	}
}

// TestStalledSpotterKeepsTheHubListening: an engine that never returns costs each utterance
// at most the deadline; nothing is uploaded and the loop finishes.
func TestStalledSpotterKeepsTheHubListening(t *testing.T) {
	rel := make(chan struct{})
	defer close(rel)
	h, turns := gateHub(t, bursts(time.Second, time.Second, time.Second), blocked{rel}, []string{plainReply}, func(h *Hub) {
		h.Wake.Timeout = 50 * time.Millisecond
	})
	st := h.WakeStats()
	if len(turns) != 0 || st.NotAddressed != 3 || st.Spotter.Stalls != 1 || st.Spotter.Busy != 2 {
		t.Fatalf("turns %d stats %+v", len(turns), st)
	}
}

type blocked struct{ c chan struct{} }

func (b blocked) Spot(ctx context.Context, x []float32) (wake.Detection, bool, error) {
	<-b.c
	return wake.Detection{}, true, nil
}
func (blocked) Close() error { return nil }

// TestExampleConfigWakePhrasesLoad: the example config's phrases are spelled and load into
// the real spotter; a sensitivity out of range is refused.
func TestExampleConfigWakePhrasesLoad(t *testing.T) {
	c, err := LoadConfig("../deploy/robot/config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewWakeGuard(c, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil || g == nil {
		t.Fatalf("%v", err)
	}
	g.Spotter.Close()
	c.WakeSensitivity = 3
	if err := c.Validate("x"); err == nil {
		t.Fatal("sensitivity 3 accepted")
	}
}
