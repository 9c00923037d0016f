package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/speech"
)

// TestSimWritesEverySoundItPlays (#29.3): "reachy-hub --sim --link" starts with an empty
// microphone folder (named before the flags), waits for the link, writes every sound the
// robot plays to --out as it plays — a teleport join announcement, typed speech,
// push-to-talk, an announcement, a timer's chime and sentence, and the fallback of a turn
// heard from a file dropped into the folder mid-run — as numbered WAVs with sounds.json
// (kind, from where, when), and logs one line for each.
func TestSimWritesEverySoundItPlays(t *testing.T) {
	dir := t.TempDir()
	b, state := newDevBroker(t, dir)
	srv := httptest.NewServer(b.Handler())
	defer srv.Close()
	tok, _, _ := state.CreateToken(context.Background(), "reachy", []string{"turn", "link"}, "")
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte(tok+"\n"), 0o600)
	mic, out := filepath.Join(dir, "mic"), filepath.Join(dir, "out")
	os.MkdirAll(mic, 0o755)

	ctx, stop := context.WithCancel(context.Background())
	code := make(chan int, 1)
	logs := &lockedBuffer{}
	go func() {
		code <- run(ctx, []string{"--sim", mic, "--link", "--broker", srv.URL, "--token-file", tokenFile, "--out", out}, io.Discard, logs, nil)
	}()
	defer func() {
		stop()
		select {
		case <-code:
		case <-time.After(10 * time.Second):
			t.Error("the sim did not stop")
		}
	}()
	wait := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
			select {
			case c := <-code:
				t.Fatalf("the sim exited (%d) while waiting for %s: %s", c, what, logs.String())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s: %s", what, logs.String())
			}
		}
	}
	wait("the link", func() bool { return b.Link().Status("reachy").Online })

	clip := func(text string) []byte {
		wav, err := speech.Espeak{}.Synthesize(context.Background(), text)
		if err != nil {
			t.Fatalf("espeak-ng: %v", err)
		}
		return wav
	}
	send := func(m api.LinkMessage) {
		t.Helper()
		// The hub refuses a sound over its own (busy): offer it again, as the broker does.
		wait("the robot to play "+m.Type, func() bool {
			sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			ack, err := b.Link().Send(sctx, "reachy", m)
			if err != nil || (!ack.OK && ack.Code != api.LinkErrBusy) {
				t.Fatalf("%s: %+v %v", m.Type, ack, err)
			}
			return ack.OK
		})
	}
	send(api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: true, Who: "Dad"}})
	send(api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: clip("Dad is joining"), Chime: true, Join: true}})
	send(api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: clip("hello from the hotel"), Kind: api.PlayTeleportSay}})
	send(api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: clip("hi kids"), Kind: api.PlayTeleportTalk}})
	send(api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: clip("Dinner is ready"), Chime: true, Kind: api.PlayAnnouncement}})
	send(api.LinkMessage{Type: api.LinkRing, Ring: &api.LinkRingAction{TimerID: "t-1", WAV: clip("Your pasta timer is done."), Repeat: 1}})
	send(api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: false}})
	// A file dropped into the folder mid-run is heard (after the session: during one it would
	// go to the owner): the dev broker has no model, so the hub plays its fallback.
	os.WriteFile(filepath.Join(mic, ".1.tmp"), clip("hey reachy, what time is it"), 0o644)
	os.Rename(filepath.Join(mic, ".1.tmp"), filepath.Join(mic, "1.wav"))

	var index []playedSound
	wantKinds := "join_announcement teleport_say teleport_talk announcement timer_chime timer_ring fallback"
	wait("sounds.json to list every sound", func() bool {
		b, err := os.ReadFile(filepath.Join(out, soundsIndex))
		if err != nil || json.Unmarshal(b, &index) != nil {
			return false
		}
		var kinds []string
		for _, s := range index {
			kinds = append(kinds, s.Kind)
		}
		return strings.Join(kinds, " ") == wantKinds
	})
	wantFrom := map[string]string{"fallback": "hub"}
	for i, s := range index {
		if s.N != i+1 || s.At.IsZero() || s.Seconds <= 0 {
			t.Fatalf("entry %d: %+v", i, s)
		}
		if from := wantFrom[s.Kind]; (from == "" && s.From != "link") || (from != "" && s.From != from) {
			t.Fatalf("%s from %q", s.Kind, s.From)
		}
		wav, err := os.ReadFile(filepath.Join(out, s.File))
		if err != nil {
			t.Fatalf("%s: %v", s.Kind, err)
		}
		if c, err := speech.DecodeWAV(wav, time.Minute); err != nil || c.Duration() <= 0 {
			t.Fatalf("%s is not a WAV: %v", s.File, err)
		}
	}
	if index[0].File != "001-join_announcement.wav" {
		t.Fatalf("numbered files: %q", index[0].File)
	}
	log := logs.String()
	if n := strings.Count(log, `msg="sim: played"`); n != len(index) {
		t.Fatalf("%d 'played' log lines for %d sounds:\n%s", n, len(index), log)
	}
	// The microphone is read only once the link is up (whether the hub had to wait for it,
	// and so logged that it waits, depends on how fast the link came up).
	linked, reading := strings.Index(log, `msg="robot link up"`), strings.Index(log, "sim: the robot link is up; reading the microphone")
	if linked < 0 || reading < 0 || reading < linked {
		t.Fatalf("the microphone did not wait for the link:\n%s", log)
	}
}
