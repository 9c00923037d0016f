//go:build !linux

package media

import (
	"os/exec"
	"syscall"
)

// parentDeath has no portable equivalent outside Linux; the hub stops its pipelines itself.
func parentDeath(*exec.Cmd) {}

// signalGroup signals the pipeline process itself.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) { cmd.Process.Signal(sig) }
