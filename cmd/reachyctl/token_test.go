package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTokenScopes: "reachyctl token scopes" changes what a device's token may do, and the
// broker sees it on the very next request; an unknown scope is refused.
func TestTokenScopes(t *testing.T) {
	dir := t.TempDir()
	srv := startDevBroker(t, dir, nil).srv

	code, out, errs := ctl(t, "token", "create", "--state-dir", dir, "--device", "agent", "--scopes", "mcp,house:read", "--json")
	var tok struct{ Token string }
	if code != 0 || json.Unmarshal([]byte(out), &tok) != nil {
		t.Fatalf("token create: exit %d %q %q", code, out, errs)
	}
	if code, out, _ := ctl(t, "intents", "remote", "--broker", srv.URL, "--token", tok.Token); code != 0 || strings.Contains(out, "house.light.set") {
		t.Fatalf("before: exit %d\n%s", code, out)
	}
	if code, out, errs := ctl(t, "token", "scopes", "--state-dir", dir, "--device", "agent", "--scopes", "mcp,house:read,house:write"); code != 0 || !strings.Contains(out, "1 token(s)") {
		t.Fatalf("token scopes: exit %d %q %q", code, out, errs)
	}
	if code, out, _ := ctl(t, "intents", "remote", "--broker", srv.URL, "--token", tok.Token); code != 0 || !strings.Contains(out, "house.light.set") {
		t.Fatalf("after: exit %d\n%s", code, out)
	}
	if code, _, errs := ctl(t, "token", "scopes", "--state-dir", dir, "--device", "agent", "--scopes", "mcp,root"); code == 0 || !strings.Contains(errs, "unknown scope") {
		t.Fatalf("unknown scope: exit %d %q", code, errs)
	}
}
