package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// frozenFS is an ext4 image loop-mounted in a temporary directory, which the test can
// freeze (fsfreeze) the way a snapshotting backup or a stalled disk does.
type frozenFS struct {
	dir string
}

// mountImage makes and mounts a small ext4 image, or skips the test saying why it cannot.
func mountImage(t *testing.T) *frozenFS {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to loop-mount a filesystem and freeze it")
	}
	for _, tool := range []string{"mkfs.ext4", "mount", "umount", "fsfreeze"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	tmp := t.TempDir()
	img, dir := filepath.Join(tmp, "state.img"), filepath.Join(tmp, "mnt")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	run := func(name string, args ...string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
		if err != nil {
			return &exec.Error{Name: name + " " + strings.Join(args, " ") + ": " + strings.TrimSpace(string(out)), Err: err}
		}
		return nil
	}
	if err := run("truncate", "-s", "64M", img); err != nil {
		t.Fatal(err)
	}
	if err := run("mkfs.ext4", "-q", img); err != nil {
		t.Fatal(err)
	}
	if err := run("mount", "-o", "loop", img, dir); err != nil {
		t.Skipf("cannot loop-mount here: %v", err)
	}
	f := &frozenFS{dir: dir}
	t.Cleanup(func() {
		run("fsfreeze", "-u", dir) // in case the test stopped while frozen
		for i := 0; i < 50; i++ {
			if run("umount", dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Errorf("could not unmount %s", dir)
	})
	return f
}

func (f *frozenFS) freeze(t *testing.T) {
	t.Helper()
	if out, err := exec.Command("fsfreeze", "-f", f.dir).CombinedOutput(); err != nil {
		t.Skipf("fsfreeze is not possible here: %v %s", err, out)
	}
}

func (f *frozenFS) thaw(t *testing.T) {
	t.Helper()
	if out, err := exec.Command("fsfreeze", "-u", f.dir).CombinedOutput(); err != nil {
		t.Fatalf("fsfreeze -u: %v %s", err, out)
	}
}

// TestAFrozenStateDiskDoesNotFreezeTheBroker (#25.7): with the state filesystem frozen for
// 12 s (longer than a turn's 8 s budget), the broker process keeps running: /metrics
// answers, "what time is it" is answered with the time, and a light switched during the
// freeze is refused within the turn's budget and not switched after the disk thaws. Then
// everything works again. The broker is a real process on a real loop-mounted ext4.
func TestAFrozenStateDiskDoesNotFreezeTheBroker(t *testing.T) {
	fs := mountImage(t)
	dir := filepath.Join(fs.dir, "state")
	p := startBrokerProcess(t, "--dev", "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0", "--state-dir", dir)
	ctx := context.Background()
	ctl, err := dialControl(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	tok, _, err := ctl.CreateToken(ctx, "robot", []string{"text", "house:read", "house:write"}, "")
	ctl.Close()
	if err != nil {
		t.Fatal(err)
	}
	if status, reply, _ := p.say(ctx, tok, "turn off the kitchen light", "before"); status != http.StatusOK {
		t.Fatalf("before the freeze: %d %s", status, reply)
	}

	fs.freeze(t)
	frozenAt := time.Now()
	type answer struct {
		status int
		reply  string
		took   time.Duration
	}
	write := make(chan answer, 1)
	go func() {
		start := time.Now()
		status, reply, _ := p.say(ctx, tok, "turn on the kitchen light", "during")
		write <- answer{status, reply, time.Since(start)}
	}()
	time.Sleep(500 * time.Millisecond) // the write is committing its audit intent, on the frozen disk

	// The process is alive: its metrics and a read answer promptly.
	mctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	req, _ := http.NewRequestWithContext(mctx, http.MethodGet, "http://"+p.admin+"/metrics", nil)
	resp, err := http.DefaultClient.Do(req)
	cancel()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("/metrics during the freeze: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	start := time.Now()
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	status, reply, err := p.say(rctx, tok, "what time is it", "read-during")
	cancel()
	if took := time.Since(start); err != nil || status != http.StatusOK || !strings.HasPrefix(reply, "ok: ") || strings.Contains(reply, "record") {
		t.Errorf("a read during the freeze (after %v): %d %q %v", took, status, reply, err)
	}

	var w answer
	select {
	case w = <-write:
	case <-time.After(11 * time.Second):
		t.Fatal("a write during the freeze was not answered within the turn's budget")
	}
	if w.status == http.StatusOK || strings.Contains(w.reply, "Okay") {
		t.Errorf("a write during the freeze was answered as done: %d %q", w.status, w.reply)
	}
	if w.took > 9*time.Second {
		t.Errorf("the write's answer took %v (budget 8 s)", w.took)
	}
	time.Sleep(time.Until(frozenAt.Add(12 * time.Second)))
	fs.thaw(t)

	// The refused write is not done late, and the broker works again.
	time.Sleep(2 * time.Second)
	status, reply, _ = p.say(ctx, tok, "is the kitchen light on", "")
	if status != http.StatusOK || !strings.Contains(reply, "off") {
		t.Errorf("after the thaw the kitchen light is not off — the refused write happened late: %d %q", status, reply)
	}
	if status, reply, _ := p.say(ctx, tok, "turn on the kitchen light", "after"); status != http.StatusOK || !strings.Contains(reply, "on") {
		t.Errorf("after the thaw: %d %q", status, reply)
	}
	p.stop(t)
	if out, err := sqlite3(t, filepath.Join(dir, "broker.db"), "pragma integrity_check"); err != nil || out != "ok" {
		t.Errorf("broker.db after the freeze: %q %v", out, err)
	}
}
