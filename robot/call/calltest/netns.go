package calltest

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Tailnet is a network namespace joined to the test's own by a veth pair whose two ends
// have addresses in Tailscale's 100.64.0.0/10, the way a robot and an owner's laptop reach
// each other on a tailnet: the test's side (the owner's browser, the broker) holds HostIP
// on HostIf; the namespace (the robot: its hub and its media) holds NSIP on NSIf, with a
// default route through HostIP, as a real machine has. Both are removed when the test ends.
type Tailnet struct {
	Name         string // the namespace, for `ip netns exec`
	HostIf, NSIf string
	HostIP, NSIP netip.Addr
	Prefix       netip.Prefix
}

// NewTailnet makes the namespace and its veth pair, on a /30 of 100.64.0.0/10 of its own
// (tests on a shared machine may run side by side). It skips the test, saying why, where a
// namespace cannot be made: not root, no `ip` (Debian iproute2), or a kernel or container
// that refuses.
func NewTailnet(t testing.TB) *Tailnet {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("the tailnet-like network test needs root to make a network namespace (ip netns add); run it as root, as CI does")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("the tailnet-like network test needs `ip` (Debian iproute2) to make a network namespace: run deploy/scripts/deps.sh")
	}
	b := make([]byte, 4)
	var n Tailnet
	for range 10 {
		rand.Read(b)
		// 100.64.0.0/10: the second octet 64..127; a /30 inside it.
		base := netip.AddrFrom4([4]byte{100, 64 + b[0]%64, b[1], b[2] &^ 3})
		n.Prefix = netip.PrefixFrom(base, 30)
		if out, _ := exec.Command("ip", "-o", "route", "show", "root", n.Prefix.String()).Output(); len(strings.TrimSpace(string(out))) == 0 {
			break
		}
	}
	n.HostIP = n.Prefix.Addr().Next()
	n.NSIP = n.HostIP.Next()
	id := hex.EncodeToString(b[:3])
	n.Name, n.HostIf, n.NSIf = "rbtest-"+id, "rbh"+id, "rbn"+id
	if out, err := exec.Command("ip", "netns", "add", n.Name).CombinedOutput(); err != nil {
		t.Skipf("cannot make a network namespace here (ip netns add: %v: %s): the tailnet-like network test needs root in a kernel that allows it", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		exec.Command("ip", "netns", "del", n.Name).Run() // takes the veth pair with it
		exec.Command("ip", "link", "del", n.HostIf).Run()
	})
	steps := [][]string{
		{"link", "add", n.HostIf, "type", "veth", "peer", "name", n.NSIf},
		{"link", "set", n.NSIf, "netns", n.Name},
		{"addr", "add", n.HostIP.String() + "/30", "dev", n.HostIf},
		{"link", "set", n.HostIf, "up"},
		{"-n", n.Name, "link", "set", "lo", "up"},
		{"-n", n.Name, "addr", "add", n.NSIP.String() + "/30", "dev", n.NSIf},
		{"-n", n.Name, "link", "set", n.NSIf, "up"},
		{"-n", n.Name, "route", "add", "default", "via", n.HostIP.String()},
	}
	for _, s := range steps {
		if out, err := exec.Command("ip", s...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v: %s", strings.Join(s, " "), err, out)
		}
	}
	// The veth comes up within milliseconds; wait until the namespace reaches the host side.
	if out, err := exec.Command("ip", "netns", "exec", n.Name, "ping", "-c1", "-W2", n.HostIP.String()).CombinedOutput(); err != nil {
		if _, lerr := exec.LookPath("ping"); lerr == nil {
			t.Fatalf("the namespace does not reach %s: %v: %s", n.HostIP, err, out)
		}
	}
	return &n
}

// Command runs name in the namespace.
func (n *Tailnet) Command(name string, args ...string) *exec.Cmd {
	return exec.Command("ip", append([]string{"netns", "exec", n.Name, name}, args...)...)
}

func (n *Tailnet) String() string {
	return fmt.Sprintf("namespace %s: %s %s <-> %s %s", n.Name, n.HostIf, n.HostIP, n.NSIf, n.NSIP)
}
