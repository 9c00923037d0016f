package main

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

var stateLineRE = regexp.MustCompile(`State in (\S+)`)

// Two dev brokers on their default state directories (no --state-dir) on two ports do not
// share one: each prints its own, keyed by its port, and neither is refused as "in use".
func TestDevDefaultStateDirBelongsToItsAddress(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	var dirs []string
	for range 2 {
		listen := freeAddr(t)
		_, _, out := startBroker(t, "--listen", listen, "--admin", "127.0.0.1:0")
		m := stateLineRE.FindStringSubmatch(out.String())
		if m == nil {
			t.Fatalf("the banner names no state dir:\n%s", out)
		}
		_, port, _ := net.SplitHostPort(listen)
		if !strings.HasSuffix(m[1], "-"+port) || !strings.HasPrefix(filepath.Base(m[1]), "reachy-broker-dev-") {
			t.Fatalf("state dir %s is not the dev broker's own for port %s", m[1], port)
		}
		if _, err := os.Stat(filepath.Join(m[1], "broker.db")); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, m[1])
	}
	if dirs[0] == dirs[1] {
		t.Fatalf("two dev brokers share %s", dirs[0])
	}
}

// The token command the dev banner prints holds every scope the README's tour gives the
// laptop: audio turns and games included, so the tour's game is not refused with it.
func TestDevBannerTokenHoldsTheToursScopes(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`--device laptop --scopes ([a-z:,]+)`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("no laptop token command in the README")
	}
	_, _, out := startBroker(t, "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0", "--state-dir", filepath.Join(t.TempDir(), "s"))
	b := regexp.MustCompile(`--device laptop --scopes ([a-z:,]+)`).FindStringSubmatch(out.String())
	if b == nil {
		t.Fatalf("the banner prints no token command:\n%s", out)
	}
	have := strings.Split(b[1], ",")
	for _, s := range strings.Split(string(m[1]), ",") {
		if !slices.Contains(have, s) {
			t.Errorf("the banner's token lacks %q, which the README's tour uses (banner: %s)", s, b[1])
		}
	}
}
