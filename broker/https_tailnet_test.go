package broker

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tailscale.com/tsnet"

	"github.com/reachy-broker/reachy-broker/broker/brokertest"
)

// tailnetGet asks the broker for path from node, over TLS to port 443 when roots is given
// (naming serverName, trusting cert's CA only), else over plain HTTP to the API port; it retries while the first
// packets race the DERP handshake, and follows no redirect.
func tailnetGet(t *testing.T, ctx context.Context, node *tsnet.Server, brokerIP, serverName string, cert *testCert, path string) (int, http.Header, string) {
	t.Helper()
	tr := &http.Transport{DialContext: node.Dial}
	url := fmt.Sprintf("http://%s:%d%s", brokerIP, TailnetPort, path)
	if cert != nil {
		tr.TLSClientConfig = &tls.Config{RootCAs: cert.roots, ServerName: serverName}
		url = fmt.Sprintf("https://%s%s", brokerIP, path)
	}
	c := &http.Client{Transport: tr, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	defer tr.CloseIdleConnections()
	var last error
	for attempt := 0; attempt < 60; attempt++ {
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		resp, err := c.Do(req)
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			return resp.StatusCode, resp.Header, string(b)
		}
		last = err
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("no answer over the tailnet from %s: %v", url, last)
	return 0, nil, ""
}

// TestConsoleHTTPSOnTailnet (#28.1) runs the tsnet certificate path for real on the
// in-process tailnet: the test control server gives the broker's node its certificate name
// (broker.tail-scale.ts.net); the test control server cannot issue a certificate (that is
// ACME, Let's Encrypt), so the test puts one from its own CA where tailscaled keeps the
// certificates it issued, and the node's local client serves it (GetCertificate). The
// owner's node then gets the console over HTTPS on port 443 at that name, and the console
// over plain HTTP on the API port — by the node's address — is redirected there, while the
// robots' API on that port stays.
func TestConsoleHTTPSOnTailnet(t *testing.T) {
	if testing.Short() {
		t.Skip("the in-process tailnet takes a few seconds")
	}
	// Certificates tailscaled did not get from Let's Encrypt are trusted from its store only
	// when it talks to another ACME server; this one (the test's own) answers nothing.
	acme := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(acme.Close)
	t.Setenv("TS_DEBUG_ACME_DIRECTORY_URL", acme.URL+"/directory")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	controlURL := brokertest.StartControl(t)
	owner := brokertest.StartNode(t, ctx, controlURL, "dads-laptop")
	const name = "broker.tail-scale.ts.net"
	cert := newTestCert(t, name)
	var logs bytes.Buffer
	var tlsL net.Listener
	tb := startTailnetBroker(t, ctx, controlURL, func(cfg *Config, d *Deps) {
		certs := filepath.Join(cfg.StateDir, "tailnet", "certs")
		if err := os.MkdirAll(certs, 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(certs, name+".crt"), cert.certPEM, 0o600)
		os.WriteFile(filepath.Join(certs, name+".key"), cert.keyPEM, 0o600)
		cfg.Teleport.Owners = []string{nodeLogin(t, ctx, owner)}
		var info ConsoleHTTPS
		var err error
		tlsL, info, err = d.Identifier.(*Tailnet).ConsoleListener(ctx, HTTPSPort, nil, nil, slog.New(slog.NewTextHandler(&logs, nil)))
		if err != nil || tlsL == nil {
			t.Fatalf("the console's HTTPS listener on a tailnet with certificates: %v (%s)", err, logs.String())
		}
		if len(info.Names) != 1 || info.Names[0] != name || info.Port != HTTPSPort {
			t.Fatalf("HTTPS: %+v", info)
		}
		d.ConsoleHTTPS = info
	})
	srv := NewHTTPServer(tb.b.Handler(), tb.b.d.Config.Turn.Budget)
	go srv.Serve(tlsL)
	t.Cleanup(func() { srv.Close() })
	ip := tb.ip.String()

	status, _, body := tailnetGet(t, ctx, owner, ip, name, &cert, "/")
	if status != http.StatusOK || !strings.Contains(body, nodeLogin(t, ctx, owner)) || !strings.Contains(body, "console-token") {
		t.Fatalf("the console over HTTPS with the node's certificate: %d %.300s", status, body)
	}
	if strings.Contains(logs.String(), "turned off") {
		t.Errorf("the broker says HTTPS is off on a tailnet that has it: %s", logs.String())
	}
	status, h, _ := tailnetGet(t, ctx, owner, ip, "", nil, "/")
	if status != http.StatusTemporaryRedirect || h.Get("Location") != "https://"+name+"/" {
		t.Errorf("the console over plain HTTP by address: %d → %q, want https://%s/", status, h.Get("Location"), name)
	}
	if status, _, body := tailnetGet(t, ctx, owner, ip, "", nil, "/v1/intents"); status != http.StatusUnauthorized {
		t.Errorf("the robots' API over plain HTTP moved: %d %s", status, body)
	}
}

// TestConsoleHTTPSOffOnTailnet (#28.1): on a tailnet with HTTPS certificates turned off the
// broker says so in one log line, opens no HTTPS listener and keeps serving the console
// over plain HTTP — no redirect — with the page carrying the reason, which it explains when
// the browser gives it no microphone.
func TestConsoleHTTPSOffOnTailnet(t *testing.T) {
	if testing.Short() {
		t.Skip("the in-process tailnet takes a few seconds")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	controlURL := brokertest.StartControlWithoutHTTPS(t)
	owner := brokertest.StartNode(t, ctx, controlURL, "dads-laptop")
	login := nodeLogin(t, ctx, owner)
	var logs bytes.Buffer
	tb := startTailnetBroker(t, ctx, controlURL, func(cfg *Config, d *Deps) {
		cfg.Teleport.Owners = []string{login}
		l, info, err := d.Identifier.(*Tailnet).ConsoleListener(ctx, HTTPSPort, nil, nil, slog.New(slog.NewTextHandler(&logs, nil)))
		if err != nil || l != nil || info.Off != HTTPSOffTailnet {
			t.Fatalf("HTTPS on a tailnet without certificates: listener %v, %+v, %v", l, info, err)
		}
		d.ConsoleHTTPS = info
	})
	if n := strings.Count(logs.String(), "HTTPS certificates turned off"); n != 1 {
		t.Errorf("the start-up log says HTTPS is off %d times, want once: %s", n, logs.String())
	}
	for _, want := range []string{"MagicDNS and HTTPS Certificates", "Tailscale admin console", "--tls-cert"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log line does not say %q: %s", want, logs.String())
		}
	}
	status, _, body := tailnetGet(t, ctx, owner, tb.ip.String(), "", nil, "/")
	if status != http.StatusOK || !strings.Contains(body, `data-https-off="tailnet-certs-off"`) {
		t.Fatalf("the console over plain HTTP: %d %.400s", status, body)
	}
}

// nodeLogin is the login of the user a test node belongs to.
func nodeLogin(t *testing.T, ctx context.Context, node *tsnet.Server) string {
	t.Helper()
	lc, err := node.LocalClient()
	if err != nil {
		t.Fatal(err)
	}
	st, err := lc.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return st.User[st.Self.UserID].LoginName
}
