package broker

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tailscale.com/tsnet"

	"github.com/reachy-broker/reachy-broker/broker/brokertest"
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

	tb := startTailnetBroker(t, ctx, controlURL, func(cfg *Config, _ *Deps) {
		cfg.Devices = []DeviceConfig{{Name: "robot", Room: "living room"}}
	})
	state, brokerIP := tb.state, tb.ip

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
	// The binding by name is now a pin to the node's stable ID, which a rename cannot move.
	if infos, _ := state.ListTokens(ctx, "robot"); len(infos) != 1 || infos[0].NodeID == "" || infos[0].NodeID == "robot" {
		t.Fatalf("the token was not pinned to the robot's stable node ID: %+v", infos)
	}
	if status, body := post(thief); status != 401 || !strings.Contains(body, "unauthenticated") {
		t.Fatalf("stolen token from another node: %d %s", status, body)
	}

	// Nothing of this process listens on a host socket for the API. The check looks only at
	// this process's own sockets, so a broker from 'make run' on 127.0.0.1:8092 (or anything
	// else on the host) neither fails nor hides it.
	if ls, ok := ownListeners(t); ok {
		for _, port := range ls {
			if port == TailnetPort {
				t.Fatalf("this process listens on host port %d: the API must be on the tailnet only", TailnetPort)
			}
		}
	}
}

// ownListeners returns the TCP ports this process listens on through host sockets (Linux:
// /proc/self/fd matched against /proc/net/tcp{,6}); ok is false where /proc is missing.
func ownListeners(t *testing.T) (ports []int, ok bool) {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil, false
	}
	mine := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if inode, found := strings.CutPrefix(link, "socket:["); err == nil && found {
			mine[strings.TrimSuffix(inode, "]")] = true
		}
	}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			fields := strings.Fields(line)
			// local_address is HEXIP:HEXPORT, st 0A is LISTEN, inode is the tenth field.
			if len(fields) < 10 || fields[3] != "0A" || !mine[fields[9]] {
				continue
			}
			_, hexPort, _ := strings.Cut(fields[1], ":")
			var port int
			fmt.Sscanf(hexPort, "%X", &port)
			ports = append(ports, port)
		}
	}
	return ports, true
}

// TestOwnListenersSeesOwnSocket proves the check above can fail: a host listener this process
// opens is found, and a port it does not own is not.
func TestOwnListenersSeesOwnSocket(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ports, ok := ownListeners(t)
	if !ok {
		t.Skip("no /proc on this system")
	}
	want := l.Addr().(*net.TCPAddr).Port
	if !slices.Contains(ports, want) {
		t.Fatalf("own listener on %d not found in %v", want, ports)
	}
}
