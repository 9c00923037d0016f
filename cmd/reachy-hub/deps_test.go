package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestHubDoesNotLinkWebRTC: the hub, which listens all day, links no pion (WebRTC) package —
// a live call's media runs in reachy-call, for the length of the call — and in the whole
// module only reachy-call's media package (and the tests' browser) imports pion. With pion
// linked in, the hub's peak RSS went over its 40 MB budget with no call made
// (TestHubPeakRSSInLongNoisySpeech).
func TestHubDoesNotLinkWebRTC(t *testing.T) {
	goTool, err := exec.LookPath("go") // go test puts its own go first on PATH
	if err != nil {
		t.Skip("no go command to list the hub's packages with")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	list := func(args ...string) []string {
		t.Helper()
		cmd := exec.CommandContext(ctx, goTool, append([]string{"list"}, args...)...)
		cmd.Env = append(cmd.Environ(), "CGO_ENABLED=1")
		out, err := cmd.Output()
		if err != nil {
			stderr := ""
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("go list %v: %v\n%s", args, err, stderr)
		}
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	const pion = "github.com/pion/"
	hubDeps := list("-deps", ".")
	if len(hubDeps) < 50 {
		t.Fatalf("go list -deps found %d packages for the hub: the check is broken", len(hubDeps))
	}
	var linked []string
	for _, p := range hubDeps {
		if strings.HasPrefix(p, pion) {
			linked = append(linked, p)
		}
	}
	if len(linked) > 0 {
		t.Errorf("reachy-hub links %d pion packages (%s, ...): pion belongs in reachy-call (robot/call/media) only", len(linked), linked[0])
	}
	if deps := list("-deps", "../reachy-call"); !hasPrefix(deps, pion+"webrtc/") {
		t.Fatalf("reachy-call does not link pion/webrtc: the check is broken")
	}

	// The import rule: only the media package imports pion (and calltest, the tests' browser,
	// which no binary links).
	allowed := map[string]bool{
		"github.com/reachy-broker/reachy-broker/robot/call/media":    true,
		"github.com/reachy-broker/reachy-broker/robot/call/calltest": true,
	}
	for _, line := range list("-f", `{{.ImportPath}} {{join .Imports " "}}`, "../../...") {
		f := strings.Fields(line)
		if len(f) == 0 || allowed[f[0]] {
			continue
		}
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, pion) {
				t.Errorf("%s imports %s: only robot/call/media (reachy-call) may import pion (docs/architecture.md)", f[0], imp)
			}
		}
	}
}

func hasPrefix(l []string, prefix string) bool {
	for _, s := range l {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
