package call

import (
	"os/exec"
	"syscall"
)

// parentDeath makes the kernel kill the pipeline if the hub dies first.
func parentDeath(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
