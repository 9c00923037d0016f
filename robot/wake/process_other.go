//go:build !linux

package wake

import "os/exec"

// dieWithParent has no portable equivalent outside Linux: the wake process stops when its
// stdin ends, which the hub's death also does.
func dieWithParent(*exec.Cmd) {}
