package broker

import (
	"strings"
	"testing"
)

func TestExampleConfigLoads(t *testing.T) {
	cfg, table, err := LoadConfig("../deploy/broker/config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Listen.Tailnet.Port != 8092 || cfg.DeviceRoom("reachy-living-room") != "living room" || cfg.Listen.Loopback != "" {
		t.Fatalf("%+v", cfg.Listen)
	}
	if d := table.Route("hey jeeves good night", intentsContext()); d.Intent != "routine.good_night" {
		t.Fatalf("custom intent from the example: %s", d.Intent)
	}
}

func TestConfigIsStrict(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"state_dir: /x\nlisten:\n  tailnet:\n    hostnme: b\n", "c.yaml:4: field hostnme not found"},
		{"state_dir: /x\nturn:\n  budget: 100ms\n", "turn.budget"},
		{"state_dir: /x\nsynthesis:\n  engine: festival\n", "synthesis.engine"},
		{"listen:\n  admin: 127.0.0.1:1\n", "state_dir is required"},
		{"state_dir: /x\ndevices:\n  - {name: r, room: garage}\n", `room "garage"`},
		{"state_dir: /x\nhome:\n  rooms: []\n  colour: red\n", "c.yaml:4"},
	} {
		_, _, err := ParseConfig([]byte(tc.yaml), "c.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.yaml, err, tc.want)
		}
	}
}
