package main

import (
	"context"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/robot/call/calltest"
	"github.com/reachy-broker/reachy-broker/speech"
)

// TestSimCallOverTheLink drives `reachy-hub --sim --link` through a real broker's robot
// link: the session's join plays, the call's offer and answer travel the link, the room's
// media reaches the browser, the link dropping stops it within a second, the owner's voice
// is in --out as call-owner-1.wav, and a hub stopping mid-call leaves no pipeline behind.
func TestSimCallOverTheLink(t *testing.T) {
	calltest.NeedGst(t)
	dir := t.TempDir()
	b, state := newDevBroker(t, dir)
	srv := httptest.NewServer(b.Handler())
	defer srv.Close()
	link := calltest.NewCutProxy(t, srv.Listener.Addr().String()) // the hub's way to the broker, cut on demand
	tok, _, _ := state.CreateToken(context.Background(), "reachy", []string{"turn", "link"}, "")
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte(tok+"\n"), 0o600)
	quiet, _ := speech.EncodeWAV(make([]float32, speech.SampleRate/2), speech.SampleRate)
	os.MkdirAll(filepath.Join(dir, "mic"), 0o755)
	os.WriteFile(filepath.Join(dir, "mic", "quiet.wav"), quiet, 0o644)
	out := filepath.Join(dir, "out")
	cfgFile := hubConfigWithSelfAsMedia(t, dir, "http://"+link.Addr(), tokenFile)

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"--sim", "--link", "--config", cfgFile, "--broker", "http://" + link.Addr(), "--token-file", tokenFile, "--out", out, filepath.Join(dir, "mic")}, io.Discard, io.Discard, nil)
	}()
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(15 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
			select {
			case c := <-code:
				t.Fatalf("the sim exited (%d) while waiting for %s", c, what)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	send := func(m api.LinkMessage) api.LinkAckBody {
		t.Helper()
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		ack, err := b.Link().Send(sctx, "reachy", m)
		if err != nil {
			t.Fatalf("%s: %v", m.Type, err)
		}
		return ack
	}
	call := func(id string) *calltest.Browser {
		t.Helper()
		waitFor("the link", func() bool { return b.Link().Status("reachy").Online })
		send(api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: true, Who: "Dad"}})
		br := calltest.NewBrowser(t, false)
		offer := api.LinkMessage{Type: api.LinkCallOffer, CallOffer: &api.LinkCallOfferAction{CallID: id, SDP: br.Offer()}}
		if ack := send(offer); ack.Code != api.LinkErrNotLive {
			t.Fatalf("offer before the join played: %+v", ack)
		}
		wav, _ := speech.EncodeWAV(make([]float32, speech.SampleRate/5), speech.SampleRate)
		if ack := send(api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: wav, Chime: true, Join: true}}); !ack.OK {
			t.Fatalf("join: %+v", ack)
		}
		ack := send(offer)
		if !ack.OK || ack.Answer == nil {
			t.Fatalf("offer after the join: %+v", ack)
		}
		br.Accept(ack.Answer.SDP)
		waitFor("video", func() bool { return br.Stats().Keyframes >= 2 })
		return br
	}

	br := call("c1")
	time.Sleep(2 * time.Second)
	dropped := time.Now()
	link.Cut() // the robot link drops
	time.Sleep(1500 * time.Millisecond)
	if last := br.Stats().LastPacket; last.After(dropped.Add(time.Second)) {
		t.Errorf("media went on %s after the link dropped", last.Sub(dropped).Round(time.Millisecond))
	}
	pcm, err := calltest.ReadWAV(filepath.Join(out, "call-owner-1.wav"))
	if err != nil || len(pcm) < 48000 {
		t.Fatalf("the owner's voice is not in --out: %d samples, %v", len(pcm), err)
	}
	if db := calltest.ToneDB(pcm[len(pcm)-48000:], calltest.OwnerToneHz); db < -18.1 || db > -12.1 {
		t.Errorf("owner's tone in --out at %.1f dBFS, want -15.1 ± 3", db)
	}

	br.Close()

	// The hub stopping mid-call stops the media and every pipeline.
	br = call("c2")
	stopped := time.Now()
	stop()
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("exit %d", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the sim did not stop")
	}
	time.Sleep(time.Second)
	if last := br.Stats().LastPacket; last.After(stopped.Add(time.Second)) {
		t.Errorf("media went on %s after the hub was stopped", last.Sub(stopped).Round(time.Millisecond))
	}
	br.Close()
	if n := calltest.MediaProcesses(os.Getpid()); n != 0 {
		t.Errorf("%d media processes or GStreamer pipelines outlived the hub", n)
	}
}

// hubConfigWithSelfAsMedia writes a hub config (in dir) whose call.binary is this test
// binary: TestMain serves a call's media when the hub starts it.
func hubConfigWithSelfAsMedia(t *testing.T, dir, brokerURL, tokenFile string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfgFile := filepath.Join(dir, "hub.yaml")
	cfg := "broker_url: " + brokerURL + "\ntoken_file: " + tokenFile + "\ncall:\n  binary: " + self + "\n"
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfgFile
}

// TestHubWithoutReachyCall: a hub whose media program is missing says so when it starts
// (where it looked, how to build it), refuses a call no_media, and goes on: the link stays
// up and the next action is served.
func TestHubWithoutReachyCall(t *testing.T) {
	dir := t.TempDir()
	b, state := newDevBroker(t, dir)
	srv := httptest.NewServer(b.Handler())
	defer srv.Close()
	tok, _, _ := state.CreateToken(context.Background(), "reachy", []string{"turn", "link"}, "")
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte(tok+"\n"), 0o600)
	missing := filepath.Join(dir, "not-built", "reachy-call")
	cfgFile := filepath.Join(dir, "hub.yaml")
	os.WriteFile(cfgFile, []byte("broker_url: "+srv.URL+"\ntoken_file: "+tokenFile+"\ncall:\n  binary: "+missing+"\n"), 0o600)
	os.MkdirAll(filepath.Join(dir, "mic"), 0o755)

	ctx, stop := context.WithCancel(context.Background())
	var logs lockedBuffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"--sim", "--link", "--config", cfgFile, "--out", filepath.Join(dir, "out"), filepath.Join(dir, "mic")}, io.Discard, &logs, nil)
	}()
	defer func() {
		stop()
		select {
		case <-code:
		case <-time.After(10 * time.Second):
			t.Error("the sim did not stop")
		}
	}()
	for deadline := time.Now().Add(15 * time.Second); !b.Link().Status("reachy").Online; time.Sleep(20 * time.Millisecond) {
		select {
		case c := <-code:
			t.Fatalf("the hub exited (%d) without its media program:\n%s", c, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hub never linked:\n%s", logs.String())
		}
	}
	startLog := logs.String()
	if !strings.Contains(startLog, "live calls will be refused") || !strings.Contains(startLog, missing) || !strings.Contains(startLog, "make build") {
		t.Errorf("the hub did not say at start that %s is missing and how to build it:\n%s", missing, startLog)
	}
	send := func(m api.LinkMessage) api.LinkAckBody {
		t.Helper()
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		ack, err := b.Link().Send(sctx, "reachy", m)
		if err != nil {
			t.Fatalf("%s: %v", m.Type, err)
		}
		return ack
	}
	send(api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: true, Who: "Dad"}})
	wav, _ := speech.EncodeWAV(make([]float32, speech.SampleRate/5), speech.SampleRate)
	if ack := send(api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: wav, Chime: true, Join: true}}); !ack.OK {
		t.Fatalf("join: %+v", ack)
	}
	offer := "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 0.0.0.0\r\na=mid:0\r\na=rtpmap:111 opus/48000/2\r\n"
	for i := range 2 {
		ack := send(api.LinkMessage{Type: api.LinkCallOffer, CallOffer: &api.LinkCallOfferAction{CallID: "c" + string(rune('1'+i)), SDP: offer}})
		if ack.OK || ack.Code != api.LinkErrNoMedia {
			t.Fatalf("offer %d without reachy-call: %+v, want %s", i+1, ack, api.LinkErrNoMedia)
		}
	}
	// The hub goes on: still linked, and the next action is served.
	if ack := send(api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: wav}}); !ack.OK {
		t.Fatalf("the hub stopped serving after a refused call: %+v", ack)
	}
	if !b.Link().Status("reachy").Online {
		t.Fatal("the link dropped after a refused call")
	}
	select {
	case c := <-code:
		t.Fatalf("the hub exited (%d) after a refused call", c)
	default:
	}
}
