package broker

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"tailscale.com/tsnet"

	"github.com/reachy-broker/reachy-broker/broker/brokertest"
	"github.com/reachy-broker/reachy-broker/robot"
)

// TestConsoleOnTailnet stands up a real tailnet in process: the owner's node gets the
// console and can join; another user's node gets a 403 page naming its login; the robot, a
// tagged node, is refused the console but holds its link over the tailnet, and the owner's
// join reaches it.
func TestConsoleOnTailnet(t *testing.T) {
	if testing.Short() {
		t.Skip("the in-process tailnet takes a few seconds")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	controlURL := brokertest.StartControlTags(t, map[string][]string{"tag:robot": nil})
	owner := brokertest.StartNode(t, ctx, controlURL, "dads-laptop")
	guest := brokertest.StartNode(t, ctx, controlURL, "guest-laptop")
	robotNode := brokertest.StartNode(t, ctx, controlURL, "robot", "tag:robot")
	login := func(s *tsnet.Server) string {
		lc, err := s.LocalClient()
		if err != nil {
			t.Fatal(err)
		}
		st, err := lc.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return st.User[st.Self.UserID].LoginName
	}
	ownerLogin, guestLogin := login(owner), login(guest)

	tb := startTailnetBroker(t, ctx, controlURL, func(cfg *Config, d *Deps) {
		cfg.Devices = []DeviceConfig{{Name: "robot", Room: "living room"}}
		cfg.Teleport.Owners = []string{ownerLogin}
		d.Synthesizer = &toneSynth{}
	})
	go tb.b.RunConsole(ctx)
	state, brokerIP := tb.state, tb.ip
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	base := fmt.Sprintf("http://%s:%d", brokerIP, TailnetPort)

	// The robot's hub links over the tailnet with a token bound to its node.
	tok, _, err := state.CreateToken(ctx, "robot", []string{"turn", "link"}, "robot")
	if err != nil {
		t.Fatal(err)
	}
	fake := robot.NewFakeDaemon()
	dsrv := httptestServer(t, fake)
	d := robot.NewDaemon(dsrv, time.Second)
	hub := &robot.Hub{Daemon: d, Speaker: robot.DaemonSpeaker{D: d}, Motion: robot.NewMotion(d, robot.DefaultExpressions(), quiet), Log: quiet}
	hl := &robot.Link{URL: base, Token: tok, HTTP: robotNode.HTTPClient(), Log: quiet, MinBackoff: 100 * time.Millisecond}
	hub.AttachLink(hl)
	lctx, stopLink := context.WithCancel(ctx)
	linkDone := make(chan struct{})
	go func() { hl.Run(lctx); close(linkDone) }()
	defer func() { stopLink(); <-linkDone }()

	get := func(node *tsnet.Server, path string, hdr ...string) (int, string, http.Header) {
		var last error
		for attempt := 0; attempt < 60; attempt++ { // the first packets may race the DERP handshake
			req, _ := http.NewRequestWithContext(ctx, "GET", base+path, nil)
			c := node.HTTPClient()
			c.Timeout = 5 * time.Second
			resp, err := c.Do(req)
			if err == nil {
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				return resp.StatusCode, string(body), resp.Header
			}
			last = err
			time.Sleep(250 * time.Millisecond)
		}
		t.Fatalf("no answer over the tailnet: %v", last)
		return 0, "", nil
	}
	status, page, hdr := get(owner, "/")
	if status != 200 || !strings.Contains(page, ownerLogin) {
		t.Fatalf("owner: %d %q, headers %v (broker at %s)", status, page, hdr, base)
	}
	if status, body, _ := get(guest, "/"); status != 403 || !strings.Contains(body, guestLogin) || !strings.Contains(body, "teleport.owners") {
		t.Fatalf("another user: %d %s", status, body)
	}
	if status, body, _ := get(robotNode, "/"); status != 403 || !strings.Contains(body, "tagged node") {
		t.Fatalf("tagged node: %d %s", status, body)
	}

	waitLinked(t, tb.b, "robot", 1, 30*time.Second)
	m := regexp.MustCompile(`name="console-token" content="([^"]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no page token")
	}
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/console/api/robots/robot/join", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", base)
	req.Header.Set("X-Console-Token", m[1])
	resp, err := owner.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !hub.SessionActive() {
		t.Fatalf("owner's join over the tailnet: %d %s; presence %v", resp.StatusCode, body, hub.SessionActive())
	}
}
