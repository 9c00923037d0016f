package broker

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/mcp"
	"github.com/reachy-broker/reachy-broker/broker/store"
)

// outsideResult is what testdata/mcp-outside-client.cjs prints.
type outsideResult struct {
	OK         bool           `json:"ok"`
	Status     int            `json:"status"`
	Message    string         `json:"message"`
	Tools      []string       `json:"tools"`
	IsError    bool           `json:"isError"`
	Text       string         `json:"text"`
	Structured map[string]any `json:"structured"`
}

// TestMCPOutsideClient drives the dev broker with a client nobody here wrote: the npm
// @modelcontextprotocol/sdk (installed by deploy/scripts/mcp-client.sh, which 'make test'
// runs first). It lists tools with a narrow and a full token, calls house.light.set, and
// gets a 403 for a tool whose scope the narrow token lacks.
func TestMCPOutsideClient(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node (installed by 'make deps'): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "../deploy/scripts/mcp-client.sh").Output()
	if err != nil {
		t.Fatalf("deploy/scripts/mcp-client.sh: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	modules := filepath.Join(lines[len(lines)-1], "node_modules")
	script, _ := filepath.Abs("testdata/mcp-outside-client.cjs")

	tb := newTestBroker(t)
	endpoint := tb.srv.URL + "/mcp"
	run := func(token string, args ...string) outsideResult {
		t.Helper()
		cctx, ccancel := context.WithTimeout(ctx, 60*time.Second)
		defer ccancel()
		cmd := exec.CommandContext(cctx, node, append([]string{script, endpoint}, args...)...)
		cmd.Env = append(os.Environ(), "NODE_PATH="+modules, "MCP_TOKEN="+token)
		cmd.Stderr = os.Stderr
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("node %v: %v (%s)", args, err, b)
		}
		var r outsideResult
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("node %v printed %q", args, b)
		}
		return r
	}

	narrow := tb.token(t, "agent", "mcp", "house:read")
	full := tb.token(t, "agent", "mcp", "house:read", "house:write", "calendar:read", "ask", "robot")
	r := run(narrow, "list")
	if !r.OK || !slices.Contains(r.Tools, "house.light.get") || slices.Contains(r.Tools, "house.light.set") {
		t.Fatalf("narrow list: %+v", r)
	}
	r = run(full, "list")
	if !r.OK || !slices.Contains(r.Tools, "house.light.set") || !slices.Contains(r.Tools, "general.ask") || len(r.Tools) <= 5 {
		t.Fatalf("full list: %+v", r)
	}
	r = run(full, "call", "house.light.set", `{"room":"kitchen","state":"on"}`)
	if !r.OK || r.IsError || !strings.Contains(r.Text, "kitchen light is on") || r.Structured["outcome"] != "ok" || tb.light.count() != 1 {
		t.Fatalf("call: %+v, %d actuations", r, tb.light.count())
	}
	r = run(narrow, "call", "house.light.set", `{"room":"kitchen","state":"off"}`)
	if r.OK || r.Status != 403 || tb.light.count() != 1 {
		t.Fatalf("narrow call: %+v, %d actuations", r, tb.light.count())
	}
	recs, _ := tb.state.TailAudit(ctx, 2)
	if len(recs) != 2 || recs[0].Route != "mcp" || recs[0].Intent != "house.light.set" || recs[0].Outcome != store.OutcomeOK ||
		recs[1].Route != "mcp" || recs[1].Outcome != store.OutcomeDenied || recs[1].Code != "insufficient_scope" {
		t.Fatalf("audit: %+v", recs)
	}

	// Each node run is a new agent process whose JSON-RPC ids start again: the same call
	// without a key acts again; with a key, the second run's retry is a replay and says so.
	if r = run(full, "call", "house.light.set", `{"room":"kitchen","state":"on"}`); !r.OK || r.Structured["replayed"] == true || tb.light.count() != 2 {
		t.Fatalf("a new run's call without a key: %+v, %d actuations", r, tb.light.count())
	}
	for i := range 2 {
		r = run(full, "call", "house.light.set", `{"room":"office","state":"on"}`, "outside-office-1")
		if replayed := r.Structured["replayed"] == true; !r.OK || replayed != (i == 1) || replayed != strings.HasPrefix(r.Text, mcp.ReplayNote) {
			t.Fatalf("keyed run %d: %+v", i, r)
		}
	}
	if tb.light.count() != 3 {
		t.Fatalf("a keyed retry acted: %d actuations", tb.light.count())
	}
}
