package robot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExampleHubConfigLoads(t *testing.T) {
	c, err := LoadConfig("../deploy/robot/config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.BrokerURL != "http://reachy-broker:8092" || c.Speak != "daemon" || c.Expressions["dance"].Move == "" {
		t.Fatalf("%+v", c)
	}
	c.Call.Defaults()
	if err := c.Call.Validate("example"); err != nil || c.Call.Interfaces[0] != "tailscale0" || c.Call.UDPPortMax != 40099 || c.Call.Video == "" {
		t.Fatalf("call section: %+v %v", c.Call, err)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("broker_url: x\nbroker_token: inline-secret\n"), 0o600)
	if _, err := LoadConfig(bad); err == nil || !strings.Contains(err.Error(), "broker_token") {
		t.Fatalf("unknown key (an inline secret) accepted: %v", err)
	}
}
