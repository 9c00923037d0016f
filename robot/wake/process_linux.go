package wake

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill the wake process if the hub dies first, and puts it in
// a process group of its own, so a terminal's Ctrl-C reaches the hub, which closes it.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}
