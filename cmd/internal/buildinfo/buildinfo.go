// Package buildinfo owns the one-line version the project's binaries print for --version:
// the module version and the commit they were built from, read from the build itself. It
// must never do I/O beyond reading the binary's embedded build information.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// String returns "NAME VERSION (commit C[, modified], GOVERSION)" for this binary.
func String(name string) string {
	version, commit, modified := "(devel)", "unknown", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
				if len(commit) > 12 {
					commit = commit[:12]
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if modified {
		commit += ", modified"
	}
	return fmt.Sprintf("%s %s (commit %s, %s)", name, version, commit, runtime.Version())
}
