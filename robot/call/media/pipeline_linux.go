package media

import (
	"os/exec"
	"syscall"
)

// parentDeath makes the kernel kill the pipeline if the hub dies first, and puts it in a
// process group of its own, so signals reach whatever it started too (a wrapper script's
// gst-launch).
func parentDeath(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}

// signalGroup sends sig to the pipeline's process group.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	syscall.Kill(-cmd.Process.Pid, sig)
}
