package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// runBrokerToEnd runs `reachy-broker args...` as a subprocess that is expected to exit on
// its own, within a minute, and returns its exit code and what it wrote.
func runBrokerToEnd(t *testing.T, args ...string) (int, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childArgsEnv+"="+strings.Join(args, "\n"))
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("the broker did not exit within a minute:\n%s", out)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// TestASecondBrokerOnTheSameStateDirSaysWhoHasIt (#29.9): two brokers on one state directory
// (each on ports of its own) would each believe the tokens and the audit log are theirs. The
// second one exits at once, before it listens anywhere, saying which process holds the
// directory; reachyctl still reaches the running broker (it never takes the lock); once the
// first one stops, the directory is free again, whatever PID the lock file still holds.
func TestASecondBrokerOnTheSameStateDirSaysWhoHasIt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	first := startBrokerProcess(t, "--dev", "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0", "--state-dir", dir)
	pid := first.cmd.Process.Pid

	code, out := runBrokerToEnd(t, "--dev", "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0", "--state-dir", dir)
	want := "state directory " + dir + " is in use by PID " + strconv.Itoa(pid)
	if code == 0 || !strings.Contains(out, want) {
		t.Fatalf("the second broker: exit %d, want a failure saying %q:\n%s", code, want, out)
	}
	if strings.Contains(out, "reachy-broker ready") || strings.Contains(out, "database is locked") {
		t.Errorf("the second broker got as far as the database or its listeners:\n%s", out)
	}
	// --init on a held directory is refused the same way.
	if code, out := runBrokerToEnd(t, "--init", "--state-dir", dir); code == 0 || !strings.Contains(out, want) {
		t.Errorf("--init on a held state directory: exit %d:\n%s", code, out)
	}

	ctx := context.Background()
	ctl, err := dialControl(ctx, dir)
	if err != nil {
		t.Fatalf("reachyctl's way in while the broker holds the directory: %v", err)
	}
	if _, _, err := ctl.CreateToken(ctx, "laptop", []string{"text"}, ""); err != nil {
		t.Errorf("reachyctl token create through the control socket: %v", err)
	}
	ctl.Close()

	first.stop(t)
	again := startBrokerProcess(t, "--dev", "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0", "--state-dir", dir)
	again.stop(t)
}
