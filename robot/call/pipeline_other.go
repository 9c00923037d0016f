//go:build !linux

package call

import "os/exec"

// parentDeath has no portable equivalent outside Linux; the hub stops its pipelines itself.
func parentDeath(*exec.Cmd) {}
