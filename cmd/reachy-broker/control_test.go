package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReloadAndRouteOverTheControlSocket: `reachyctl reload` re-reads this broker's --intents
// file over its control socket (no signal, so no other broker on the machine is touched),
// and `reachyctl route` asks the running broker, whose table holds the home's own intents.
func TestReloadAndRouteOverTheControlSocket(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mine.yaml")
	if err := os.WriteFile(file, []byte(strings.Replace(porchIntent, "PORCH_TEXT", "Hello porch.", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state")
	startBroker(t, "--dev", "--intents", file, "--state-dir", state, "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := dialControl(ctx, state)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	d, err := c.Route(ctx, "say hi to the porch", "")
	if err != nil || d.Intent != "porch.hello" {
		t.Fatalf("the running broker's table: %q %v", d.Intent, err)
	}
	if d, _ := c.Route(ctx, "say hi to the garden", ""); d.Intent == "garden.hello" {
		t.Fatal("routed to an intent not yet in the file")
	}

	garden := strings.Replace(strings.Replace(porchIntent, "porch", "garden", -1), "PORCH_TEXT", "Hello garden.", 1)
	both := strings.Replace(porchIntent, "PORCH_TEXT", "Hello porch.", 1) + strings.SplitN(garden, "intents:\n", 2)[1]
	if err := os.WriteFile(file, []byte(both), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := c.Reload(ctx)
	if err != nil {
		t.Fatalf("reload: %v", err)
	}
	if res.Source != file || res.Intents == 0 {
		t.Fatalf("reload result: %+v", res)
	}
	if d, err := c.Route(ctx, "say hi to the garden", ""); err != nil || d.Intent != "garden.hello" {
		t.Fatalf("after reload: %q %v", d.Intent, err)
	}
	// A file that fails keeps the table and says why.
	if err := os.WriteFile(file, []byte("intents: [{name: broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Reload(ctx); err == nil {
		t.Fatal("a broken file reloaded")
	}
	if d, _ := c.Route(ctx, "say hi to the garden", ""); d.Intent != "garden.hello" {
		t.Fatal("a failed reload lost the table")
	}
}
