// Package brokertest stands up a real tailnet in process for tests — a coordination server
// and DERP/STUN on loopback, the way tsnet's own tests do — and nodes on it. Only tests
// import it; it must never be linked into a binary.
package brokertest

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"tailscale.com/ipn/store/mem"
	"tailscale.com/net/netns"
	"tailscale.com/tailcfg"
	"tailscale.com/tsnet"
	"tailscale.com/tstest/integration"
	"tailscale.com/tstest/integration/testcontrol"
	"tailscale.com/types/logger"
)

// StartControl runs the coordination server and DERP/STUN and returns the control URL.
// Call envknob.Setenv("TS_DISABLE_PORTMAPPER", "1") in TestMain first.
func StartControl(t testing.TB) string {
	t.Helper()
	return StartControlTags(t, nil)
}

// StartControlTags is StartControl with tags modelled: a node may claim any tag that is a
// key of tagOwners (see testcontrol.Server.TagOwners).
func StartControlTags(t testing.TB, tagOwners map[string][]string) string {
	t.Helper()
	return startControl(t, tagOwners, "tail-scale.ts.net")
}

// StartControlWithoutHTTPS is StartControl for a tailnet whose HTTPS certificates are
// turned off: no MagicDNS domain, so the nodes get no certificate names (CertDomains).
func StartControlWithoutHTTPS(t testing.TB) string {
	t.Helper()
	return startControl(t, nil, "")
}

func startControl(t testing.TB, tagOwners map[string][]string, magicDNSDomain string) string {
	t.Helper()
	netns.SetEnabled(false)
	t.Cleanup(func() { netns.SetEnabled(true) })
	derpMap := integration.RunDERPAndSTUN(t, logger.Discard, "127.0.0.1")
	control := &testcontrol.Server{DERPMap: derpMap, DNSConfig: &tailcfg.DNSConfig{Proxied: true},
		MagicDNSDomain: magicDNSDomain, Logf: logger.Discard, TagOwners: tagOwners}
	control.HTTPTestServer = httptest.NewUnstartedServer(control)
	control.HTTPTestServer.Start()
	t.Cleanup(control.HTTPTestServer.Close)
	return control.HTTPTestServer.URL
}

// StartNode brings up an ephemeral node named hostname, tagged with tags if any (the
// control server must model them: StartControlTags); ctx bounds the wait.
func StartNode(t testing.TB, ctx context.Context, controlURL, hostname string, tags ...string) *tsnet.Server {
	t.Helper()
	s := &tsnet.Server{Dir: filepath.Join(t.TempDir(), hostname), ControlURL: controlURL, Hostname: hostname,
		Store: new(mem.Store), Ephemeral: true, Logf: logger.Discard, UserLogf: logger.Discard, AdvertiseTags: tags}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Up(ctx); err != nil {
		t.Fatalf("node %s up: %v", hostname, err)
	}
	return s
}
