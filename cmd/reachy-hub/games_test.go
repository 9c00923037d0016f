package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/play"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
	"github.com/reachy-broker/reachy-broker/robot"
	"github.com/reachy-broker/reachy-broker/speech"
)

// firstChoice makes every random choice the first one: the robot always picks rock and
// always thinks of the first animal (a cat).
type firstChoice struct{}

func (firstChoice) Uint64() uint64 { return 1 }

// gameClock is the broker's clock: a line the transcriber hears as "+61s ..." comes a minute
// and a second after the one before it.
type gameClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *gameClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

type clockedTranscriber struct {
	scriptedTranscriber
	clock *gameClock
}

func (s *clockedTranscriber) Transcribe(ctx context.Context, samples []float32) (string, error) {
	l, err := s.scriptedTranscriber.Transcribe(ctx, samples)
	if rest, ok := strings.CutPrefix(l, "+61s "); ok {
		s.clock.mu.Lock()
		s.clock.t = s.clock.t.Add(61 * time.Second)
		s.clock.mu.Unlock()
		l = rest
	}
	return l, err
}

// TestSimPlaysWholeGames plays whole games in the simulator from a folder of utterances: a
// win and a loss at rock, paper, scissors, a give-up at guess the animal, "stop the game",
// and a game that times out. The robot's picks show as moves in daemon-calls.json, every
// reply is played, answers need no wake phrase, and the audit has each game's end.
func TestSimPlaysWholeGames(t *testing.T) {
	dir := t.TempDir()
	lines := []struct{ said, intent string }{
		{"hey reachy, let's play rock paper scissors", "play.rps"},
		{"paper", "play.answer"}, // robot rock: you win this one
		{"paper", "play.answer"}, // and the game
		{"hey reachy, let's play rock paper scissors", "play.rps"},
		{"scissors", "play.answer"},
		{"scissors", "play.answer"}, // the robot wins the game
		{"hey reachy, let's play guess the animal", "play.animal"},
		{"is it a dog", "play.answer"},
		{"i give up", "play.answer"},
		{"hey reachy, let's play guess the animal", "play.animal"},
		{"stop the game", "play.stop"},
		{"hey reachy, let's play rock paper scissors", "play.rps"},
		{"+61s rock", "none"}, // a minute later: the game is over and the follow-up closed
	}
	clock := &gameClock{t: time.Date(2026, 12, 1, 16, 0, 0, 0, time.UTC)}
	stt := &clockedTranscriber{clock: clock}
	mic := filepath.Join(dir, "utterances")
	os.MkdirAll(mic, 0o755)
	for i, l := range lines {
		stt.lines = append(stt.lines, l.said)
		writeSpeech(t, mic, fmt.Sprintf("%02d.wav", i), strings.TrimPrefix(l.said, "+61s "))
	}
	cfg, table, err := broker.DevConfig("127.0.0.1:0", filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	state, err := store.Init(cfg.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	defer state.Close()
	games, err := play.Default()
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	b, err := broker.New(broker.Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Now: clock.now,
		Transcriber: stt, Synthesizer: speech.Espeak{}, Handlers: basic.Handlers(clock.now), Logger: quiet,
		Games: play.New(play.Options{Table: games, Now: clock.now, Rand: rand.New(firstChoice{}), Audit: broker.GameAudit(state), Log: quiet})})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(b.Handler())
	defer srv.Close()
	tok, _, _ := state.CreateToken(context.Background(), "reachy", []string{"turn", "robot", "play"}, "")
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte(tok+"\n"), 0o600)
	out := filepath.Join(dir, "out")

	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	var stderr strings.Builder
	if code := run(ctx, []string{"--sim", "--broker", srv.URL, "--token-file", tokenFile, "--out", out, mic}, io.Discard, &stderr, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var turns []robot.Turn
	readJSON(t, filepath.Join(out, "turns.json"), &turns)
	if len(turns) != len(lines) {
		t.Fatalf("%d turns for %d utterances: %+v", len(turns), len(lines), turns)
	}
	for i, tr := range turns {
		if tr.Reply.Intent != lines[i].intent {
			t.Fatalf("utterance %d %q: %s %q, want %s", i, lines[i].said, tr.Reply.Intent, tr.Reply.Reply, lines[i].intent)
		}
		if lines[i].intent != "none" && tr.SoundPlayed == "" {
			t.Errorf("utterance %d: the reply was not played", i)
		}
	}
	for i, want := range map[int]string{2: "You win the game, 2 to 0", 5: "I win the game, 2 to 0", 8: "I was a cat", 10: "game over"} {
		if r := turns[i].Reply; !strings.Contains(r.Reply, want) || r.FollowUp {
			t.Errorf("turn %d: %q (follow-up %v), want %q and the game over", i, r.Reply, r.FollowUp, want)
		}
	}
	for _, i := range []int{0, 1, 3, 4, 6, 7, 9, 11} {
		if !turns[i].Reply.FollowUp {
			t.Errorf("turn %d: a game's turn closed the follow-up window", i)
		}
	}
	var calls []robot.Call
	readJSON(t, filepath.Join(out, "daemon-calls.json"), &calls)
	var paths []string
	for _, c := range calls {
		paths = append(paths, c.Path)
	}
	joined := strings.Join(paths, " ")
	for _, want := range []string{"reachy-mini-dances-library/simple_nod", "reachy-mini-emotions-library/celebrate", "/api/media/play_sound"} {
		if !strings.Contains(joined, want) {
			t.Errorf("daemon never got %s", want)
		}
	}
	recs, _ := state.TailAudit(ctx, 100)
	var ends []string
	for _, r := range recs {
		if r.Intent == "play.end" {
			ends = append(ends, r.Args["game"]+":"+r.Args["reason"])
		}
	}
	if got := strings.Join(ends, " "); got != "rps:finished rps:finished animal:gave_up animal:stopped rps:timeout" {
		t.Fatalf("game ends in the audit: %s", got)
	}
}

// TestSimHideAndSeekOverTheLink: "let's play hide and seek" in the simulator with the robot
// link: after its reply the robot puts its head down (a goto pitched down), counts out loud
// (a played sound), then looks left and right — all in daemon-calls.json.
func TestSimHideAndSeekOverTheLink(t *testing.T) {
	dir := t.TempDir()
	stt := &scriptedTranscriber{lines: []string{"hey reachy, let's play hide and seek"}}
	writeSpeech(t, dir, "hide.wav", "hey reachy, let's play hide and seek")
	cfg, table, err := broker.DevConfig("127.0.0.1:0", filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	state, err := store.Init(cfg.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	defer state.Close()
	games, err := play.Default()
	if err != nil {
		t.Fatal(err)
	}
	games.Hide.CountTo = 5 // a short count keeps the test short
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var b *broker.Broker
	link := linkOf(func() *broker.Broker { return b })
	b, err = broker.New(broker.Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state,
		Transcriber: stt, Synthesizer: speech.Espeak{}, Handlers: basic.Handlers(time.Now), Logger: quiet,
		Games: play.New(play.Options{Table: games, Robot: link, Say: speech.Espeak{}.Synthesize, Audit: broker.GameAudit(state), Log: quiet})})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(b.Handler())
	defer srv.Close()
	tok, _, _ := state.CreateToken(context.Background(), "reachy", []string{"turn", "link", "play"}, "")
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte(tok+"\n"), 0o600)
	out := filepath.Join(dir, "out")

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"--sim", "--link", "--broker", srv.URL, "--token-file", tokenFile, "--out", out, filepath.Join(dir, "hide.wav")}, io.Discard, io.Discard, nil)
	}()
	ended := func() bool {
		recs, _ := state.TailAudit(context.Background(), 20)
		for _, r := range recs {
			if r.Intent == "play.end" && r.Args["game"] == "hide" {
				return true
			}
		}
		return false
	}
	for i := 0; i < 600 && !ended(); i++ {
		select {
		case c := <-code:
			t.Fatalf("the sim exited (%d) before the game ended", c)
		case <-time.After(50 * time.Millisecond):
		}
	}
	if !ended() {
		t.Fatal("hide and seek never ended")
	}
	time.Sleep(300 * time.Millisecond) // the sim rewrites --out as calls happen
	stop()
	<-code
	var calls []robot.Call
	readJSON(t, filepath.Join(out, "daemon-calls.json"), &calls)
	var seq []string
	for _, c := range calls {
		switch {
		case c.Path == "/api/media/play_sound":
			seq = append(seq, "sound")
		case strings.HasPrefix(c.Path, "/api/move/goto"):
			var g struct {
				Head *struct {
					Pitch float64 `json:"pitch"`
					Yaw   float64 `json:"yaw"`
				} `json:"head_pose"`
			}
			json.Unmarshal(c.Body, &g)
			switch {
			case g.Head != nil && g.Head.Pitch > 0.3:
				seq = append(seq, "head-down")
			case g.Head != nil && g.Head.Yaw > 0.5:
				seq = append(seq, "look-left")
			case g.Head != nil && g.Head.Yaw < -0.5:
				seq = append(seq, "look-right")
			}
		}
	}
	got := strings.Join(seq, " ")
	if !strings.Contains(got, "sound head-down sound look-left look-right") {
		t.Fatalf("hide and seek on the daemon: %s\n%+v", got, calls)
	}
}

// linkOf hands the games the broker's link registry once the broker exists.
type linkOf func() *broker.Broker

func (l linkOf) Send(ctx context.Context, device string, m api.LinkMessage) (api.LinkAckBody, error) {
	return l().Link().Send(ctx, device, m)
}
