//go:build !linux

package call

import "os/exec"

// dieWithParent has no portable equivalent outside Linux: the media process stops when its
// stdin ends, which the hub's death also does.
func dieWithParent(*exec.Cmd) {}
