package call

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill the media process if the hub dies first (its own
// pipelines then die with it: theirs is set the same way), and puts it in a process group of
// its own, so a terminal's Ctrl-C reaches the hub, which ends the call itself.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}
