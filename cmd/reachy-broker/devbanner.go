package main

// What the dev-mode banner tells the developer to run: the scopes of the tour's token, how to
// reach reachyctl from the working directory, and shell quoting for the state directory the
// token command names.

import (
	"os"
	"path/filepath"
	"strings"
)

// tourScopes are the scopes of the token the dev banner offers: every scope the README's
// tour uses from the laptop (audio turns, games and announcements included).
const tourScopes = "turn,text,house:read,house:write,calendar:read,ask,robot,timer,announce,play"

// ctlPath is how to run reachyctl from here: the one built next to this binary when there is
// one (./bin/reachyctl after make build), else reachyctl on the PATH.
func ctlPath() string {
	exe, err := os.Executable()
	if err != nil {
		return "reachyctl"
	}
	p := filepath.Join(filepath.Dir(exe), "reachyctl")
	if _, err := os.Stat(p); err != nil {
		return "reachyctl"
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return "./" + rel
		}
	}
	return p
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
