package tour

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runBin runs one of the built binaries (bounded) and returns its exit code and output.
func runBin(t *testing.T, env []string, name string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, name), args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, string(out)
	case errors.As(err, &ee):
		return ee.ExitCode(), string(out)
	}
	t.Fatalf("%s %v: %v", name, args, err)
	return -1, ""
}

// TestEveryHelpExitsZero (#29.4): --help and -h of every binary and every reachyctl command
// print a usage and exit 0. (reachyctl wake's help is rewritten with the wake engine.)
func TestEveryHelpExitsZero(t *testing.T) {
	env := os.Environ()
	code, out := runBin(t, env, "reachyctl", "help")
	if code != 0 {
		t.Fatalf("reachyctl help: exit %d", code)
	}
	var cmds []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if l := sc.Text(); strings.HasPrefix(l, "  ") {
			name, _, _ := strings.Cut(strings.TrimSpace(l), " ")
			cmds = append(cmds, strings.TrimSuffix(name, ":"))
		}
	}
	if len(cmds) < 15 {
		t.Fatalf("reachyctl help lists %d commands: %s", len(cmds), out)
	}
	for _, c := range cmds {
		if c == "wake" {
			continue
		}
		for _, h := range []string{"--help", "-h"} {
			if code, out := runBin(t, env, "reachyctl", c, h); code != 0 || !strings.Contains(out, "usage") && c != "version" {
				t.Errorf("reachyctl %s %s: exit %d\n%s", c, h, code, out)
			}
		}
	}
	for _, sub := range [][]string{{"token", "create"}, {"audit", "tail"}, {"state", "backup"}, {"intents", "test"}, {"status", "--json"}} {
		if code, out := runBin(t, env, "reachyctl", append(sub, "--help")...); code != 0 || !strings.Contains(out, "usage") {
			t.Errorf("reachyctl %v --help: exit %d\n%s", sub, code, out)
		}
	}
	for _, bin := range []string{"reachy-broker", "reachy-hub"} {
		for _, h := range []string{"--help", "-h"} {
			if code, out := runBin(t, env, bin, h); code != 0 || !strings.Contains(out, "usage") {
				t.Errorf("%s %s: exit %d\n%s", bin, h, code, out)
			}
		}
	}
}

// TestFlagsAfterArguments (#29.4): the README's "reachy-hub --sim DIR --daemon URL" reads the
// flags after the folder (it once tried to open "--daemon" as a WAV), and reachy-broker,
// which takes no arguments, says so and where its flags go.
func TestFlagsAfterArguments(t *testing.T) {
	te := newTourEnv(t)
	sh := newShell(t, te.work, te.env)
	b, d := te.ports["127.0.0.1:8093"], te.ports["127.0.0.1:9093"]
	for _, line := range []string{
		fmt.Sprintf("./bin/reachy-broker --dev --state-dir %s --listen %s --admin %s &", te.tmp("st"), b, d),
		fmt.Sprintf("./bin/reachyctl token create --state-dir %s --device reachy --scopes turn > %s", te.tmp("st"), te.tmp("tok")),
		"chmod 600 " + te.tmp("tok"),
		fmt.Sprintf("mkdir -p %s && ./bin/reachyctl speak 'hey reachy, what time is it' -o %s", te.tmp("mic"), te.tmp("mic/1.wav")),
		fmt.Sprintf("./bin/reachyctl fake-daemon --listen %s &", te.ports["127.0.0.1:8092"]),
	} {
		if s := sh.run(line, time.Minute); s.rc != 0 {
			t.Fatalf("%s: exit %d\n%s%s", line, s.rc, s.out, s.stderr)
		}
	}
	s := sh.run(fmt.Sprintf("./bin/reachy-hub --sim %s --daemon http://%s --broker http://%s --token-file %s --out %s",
		te.tmp("mic"), te.ports["127.0.0.1:8092"], b, te.tmp("tok"), te.tmp("sim")), 2*time.Minute)
	if s.rc != 0 || !strings.Contains(s.out, "wrote") {
		t.Fatalf("flags after the folder: exit %d\n%s%s", s.rc, s.out, s.stderr)
	}
	// No model, but a dev broker hears the words reachyctl speak put in the clip: a reply.
	if got := kinds(t, te.tmp("sim")); got != "reply/turn" {
		t.Fatalf("sounds.json with --daemon: %q", got)
	}
	code, out := runBin(t, te.env, "reachy-broker", "stray", "--dev")
	if code != 2 || !strings.Contains(out, `unexpected argument "stray"`) || !strings.Contains(out, "flags only") {
		t.Fatalf("reachy-broker stray --dev: exit %d\n%s", code, out)
	}
	code, out = runBin(t, te.env, "reachy-hub", "/tmp/mic", "--broker", "http://127.0.0.1:1", "--token-file", te.tmp("tok"))
	if code != 2 || !strings.Contains(out, "--sim only") {
		t.Fatalf("a WAV folder without --sim: exit %d\n%s", code, out)
	}
}
