package broker

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tailscale.com/tsnet"

	"github.com/reachy-broker/reachy-broker/broker/brokertest"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
)

// TestTailnetOnly stands up a real tailnet in process: the robot reaches the broker on :8092,
// WhoIs names it, its token is refused from another node, and nothing listens on the host.
func TestTailnetOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("the in-process tailnet takes a few seconds")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	controlURL := brokertest.StartControl(t)

	dir := t.TempDir()
	cfg, table, err := DevConfig("127.0.0.1:0", dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Listen.Loopback = ""
	cfg.Devices = []DeviceConfig{{Name: "robot", Room: "living room"}}
	state, err := InitState(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer state.Close()
	tn, err := StartTailnet(ctx, TailnetConfig{Hostname: "broker", StateDir: filepath.Join(dir, "tailnet"), Ephemeral: true, ControlURL: controlURL})
	if err != nil {
		t.Fatal(err)
	}
	defer tn.Close()
	b, err := New(Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Identifier: tn,
		Handlers: basic.Handlers(time.Now), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	l, err := tn.Listen(TailnetPort)
	if err != nil {
		t.Fatal(err)
	}
	srv := NewHTTPServer(b.Handler(), cfg.Turn.Budget)
	go srv.Serve(l)
	defer srv.Close()
	brokerIP, _ := tn.IPs()

	robot := brokertest.StartNode(t, ctx, controlURL, "robot")
	thief := brokertest.StartNode(t, ctx, controlURL, "thief")
	tok, _, err := state.CreateToken(ctx, "robot", []string{"text"}, "robot")
	if err != nil {
		t.Fatal(err)
	}
	url := fmt.Sprintf("http://%s:%d/v1/utterances", brokerIP, TailnetPort)
	post := func(node *tsnet.Server) (int, string) {
		var last error
		for attempt := 0; attempt < 60; attempt++ { // the first packets may race the DERP handshake
			req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(`{"text":"what time is it"}`))
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Content-Type", "application/json")
			c := node.HTTPClient()
			c.Timeout = 5 * time.Second
			resp, err := c.Do(req)
			if err == nil {
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				return resp.StatusCode, string(body)
			}
			last = err
			time.Sleep(250 * time.Millisecond)
		}
		t.Fatalf("no answer over the tailnet: %v", last)
		return 0, ""
	}
	status, body := post(robot)
	if status != 200 || !strings.Contains(body, `"intent":"time.now"`) {
		t.Fatalf("robot over the tailnet: %d %s", status, body)
	}
	recs, _ := state.TailAudit(ctx, 1)
	if len(recs) != 1 || recs[0].Node != "robot" {
		t.Fatalf("WhoIs did not name the robot's node: %+v", recs)
	}
	if status, body := post(thief); status != 401 || !strings.Contains(body, "unauthenticated") {
		t.Fatalf("stolen token from another node: %d %s", status, body)
	}

	// Nothing listens on the host for the API: not on loopback, and no socket on the port.
	if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", TailnetPort), time.Second); err == nil {
		c.Close()
		t.Fatal("the broker API answers on 127.0.0.1")
	}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		port := fmt.Sprintf(":%04X ", TailnetPort)
		for _, line := range strings.Split(string(b), "\n")[1:] {
			fields := strings.Fields(line)
			if len(fields) > 3 && strings.Contains(fields[1]+" ", port) && fields[3] == "0A" { // 0A: LISTEN
				t.Fatalf("a host socket listens on port %d: %s", TailnetPort, line)
			}
		}
	}
}
