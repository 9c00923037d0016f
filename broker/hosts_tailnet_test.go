package broker

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"tailscale.com/tsnet"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/brokertest"
)

// TestForeignHostRefusedOnTailnet: on the tailnet listener, a request from the owner's own
// node that names a foreign Host (a rebinding page in the owner's browser) is refused with
// unknown_host — the console page, its join call holding a valid page token, the API with a
// valid device token, the MCP metadata — and so are loopback names, which are not the
// broker's on the tailnet. Its MagicDNS name (any case, trailing dot, with or without the
// port), that name's short form, and its tailnet addresses (IPv6 bracketed) work.
func TestForeignHostRefusedOnTailnet(t *testing.T) {
	if testing.Short() {
		t.Skip("the in-process tailnet takes a few seconds")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	controlURL := brokertest.StartControl(t)
	owner := brokertest.StartNode(t, ctx, controlURL, "dads-laptop")
	lc, err := owner.LocalClient()
	if err != nil {
		t.Fatal(err)
	}
	st, err := lc.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ownerLogin := st.User[st.Self.UserID].LoginName
	tb := startTailnetBroker(t, ctx, controlURL, func(cfg *Config, d *Deps) {
		cfg.Devices = []DeviceConfig{{Name: "robot", Room: "living room"}}
		cfg.Teleport.Owners = []string{ownerLogin}
		d.Synthesizer = &toneSynth{}
	})
	bst, err := tb.tn.client.StatusWithoutPeers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dnsName := bst.Self.DNSName // "broker.tail-scale.ts.net."
	if !strings.HasSuffix(dnsName, ".") || !strings.Contains(dnsName, ".ts.net") {
		t.Fatalf("the broker node's MagicDNS name: %q", dnsName)
	}
	ip4, ip6 := tb.tn.IPs()
	base := fmt.Sprintf("http://%s:%d", ip4, TailnetPort)
	port := fmt.Sprintf(":%d", TailnetPort)
	dev, _, err := tb.state.CreateToken(ctx, "laptop", []string{"text", "mcp"}, "")
	if err != nil {
		t.Fatal(err)
	}

	// The owner gets a real page (and its token) under the broker's own name.
	page := tailnetDo(t, ctx, owner, "GET", base+"/", dnsName+port, nil)
	m := tokenMeta.FindSubmatch(page.body)
	if page.status != 200 || m == nil {
		t.Fatalf("owner at %s: %d %.300s", dnsName, page.status, page.body)
	}
	pageTok := string(m[1])

	for _, host := range []string{"evil.example" + port, "evil.example", "localhost" + port, "127.0.0.1" + port, "[::1]" + port,
		"broker.evil.example" + port, strings.TrimSuffix(dnsName, ".") + ".evil.example" + port} {
		origin := "http://" + host
		for _, c := range []struct {
			method, path string
			body         []byte
			hdr          []string
		}{
			{"GET", "/", nil, nil},
			{"GET", "/console/api/state", nil, nil},
			{"POST", "/console/api/robots/robot/join", []byte(`{}`),
				[]string{"Content-Type", "application/json", "Origin", origin, "Sec-Fetch-Site", "same-origin", "X-Console-Token", pageTok}},
			{"GET", "/v1/intents", nil, []string{"Authorization", "Bearer " + dev}},
			{"POST", "/v1/utterances", []byte(`{"text":"what time is it"}`), []string{"Authorization", "Bearer " + dev, "Content-Type", "application/json"}},
			{"GET", "/.well-known/oauth-protected-resource/mcp", nil, nil},
		} {
			resp := tailnetDo(t, ctx, owner, c.method, base+c.path, host, c.body, c.hdr...)
			if resp.status != http.StatusMisdirectedRequest || resp.code(t) != api.CodeUnknownHost {
				t.Errorf("Host %s, %s %s: %d %.200s", host, c.method, c.path, resp.status, resp.body)
			}
		}
	}
	recs, _ := tb.state.TailAudit(ctx, 50)
	for _, rec := range recs {
		if rec.Route == "console" {
			t.Fatalf("a request for a foreign host was audited as a console action: %+v", rec)
		}
	}

	// The broker's own names.
	short, _, _ := strings.Cut(dnsName, ".")
	own := map[string]string{ // Host -> URL dialled
		dnsName + port:                            base,
		strings.TrimSuffix(dnsName, "."):          base,
		strings.ToUpper(dnsName) + port:           base,
		short + port:                              base,
		ip4.String() + port:                       base,
		"[" + ip6.String() + "]" + port:           "http://" + net.JoinHostPort(ip6.String(), fmt.Sprint(TailnetPort)),
		strings.ToUpper("[" + ip6.String() + "]"): "http://" + net.JoinHostPort(ip6.String(), fmt.Sprint(TailnetPort)),
	}
	for host, u := range own {
		if resp := tailnetDo(t, ctx, owner, "GET", u+"/", host, nil); resp.status != 200 || !tokenMeta.Match(resp.body) {
			t.Errorf("owner at Host %s: %d %.200s", host, resp.status, resp.body)
		}
	}
	if resp := tailnetDo(t, ctx, owner, "GET", base+"/v1/intents", ip4.String()+port, nil, "Authorization", "Bearer "+dev); resp.status != 200 {
		t.Errorf("the API at its tailnet address: %d %.200s", resp.status, resp.body)
	}
	var md struct {
		Resource string `json:"resource"`
	}
	resp := tailnetDo(t, ctx, owner, "GET", base+"/.well-known/oauth-protected-resource/mcp", strings.ToUpper(dnsName)+port, nil)
	resp.json(t, &md)
	if want := "http://" + strings.TrimSuffix(dnsName, ".") + port + "/mcp"; md.Resource != want {
		t.Errorf("metadata resource %q, want %q", md.Resource, want)
	}
}

// tailnetDo sends one request from node with its Host header set to host, retrying while
// the first packets race the DERP handshake.
func tailnetDo(t *testing.T, ctx context.Context, node *tsnet.Server, method, url, host string, body []byte, hdr ...string) reply {
	t.Helper()
	var last error
	for attempt := 0; attempt < 60; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		c := node.HTTPClient()
		c.Timeout = 5 * time.Second
		resp, err := c.Do(req)
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			return reply{status: resp.StatusCode, header: resp.Header, body: b}
		}
		last = err
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("no answer over the tailnet: %v", last)
	return reply{}
}
