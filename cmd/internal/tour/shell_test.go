package tour

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// binDir holds the binaries TestMain built.
var binDir string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "reachy-tour-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "./cmd/reachy-broker", "./cmd/reachy-hub", "./cmd/reachy-call", "./cmd/reachyctl")
	cmd.Dir = repoRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the binaries: %v\n%s", err, out)
		return 1
	}
	binDir = dir
	return m.Run()
}

func repoRoot() string {
	wd, _ := os.Getwd()
	return filepath.Clean(filepath.Join(wd, "..", "..", ".."))
}

// readmeBlock returns the commands of the first ```sh block after the heading, as a shell
// reads them: continuation lines joined, comment-only and blank lines left out.
func readmeBlock(t *testing.T, heading string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) != heading {
		i++
	}
	for i < len(lines) && strings.TrimSpace(lines[i]) != "```sh" {
		i++
	}
	if i == len(lines) {
		t.Fatalf("README.md has no sh block under %q", heading)
	}
	var cmds []string
	cur := ""
	for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
		l := lines[i]
		if strings.HasSuffix(l, `\`) {
			cur += strings.TrimSuffix(l, `\`) + " "
			continue
		}
		l = strings.TrimSpace(cur + l)
		cur = ""
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		cmds = append(cmds, l)
	}
	return cmds
}

// stripComment drops a trailing shell comment (a # after a blank, outside quotes).
func stripComment(line string) string {
	var quote rune
	prev := ' '
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (prev == ' ' || prev == '\t'):
			return strings.TrimSpace(line[:i])
		}
		prev = r
	}
	return strings.TrimSpace(line)
}

// freePort is a loopback port free now, for a broker the test starts.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// shell is one bash reading the tour's lines one at a time, as a terminal would: exports
// and background jobs (%1, %2) carry from line to line. Each line's output goes to files.
type shell struct {
	t    *testing.T
	dir  string // where each line's output goes
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	n    int
	done chan struct{}
}

// step is what one line printed and how it exited.
type step struct {
	line        string
	out, stderr string
	rc          int
	outFile     string // its stdout file (a background job writes it as it runs)
	errFile     string
}

func newShell(t *testing.T, work string, env []string) *shell {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("bash", "--noprofile", "--norc")
	cmd.Dir = work
	cmd.Env = env
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &shell{t: t, dir: dir, cmd: cmd, in: in, out: bufio.NewScanner(out), done: make(chan struct{})}
	t.Cleanup(s.close)
	return s
}

// run runs one line and waits (at most limit) for it to end; a line ending in & is started
// in the background.
func (s *shell) run(line string, limit time.Duration) step {
	s.t.Helper()
	s.n++
	st := step{line: line, outFile: filepath.Join(s.dir, fmt.Sprintf("%02d.out", s.n)), errFile: filepath.Join(s.dir, fmt.Sprintf("%02d.err", s.n))}
	body := stripComment(line)
	redirect := fmt.Sprintf(" > %s 2> %s", st.outFile, st.errFile)
	if bg, ok := strings.CutSuffix(body, "&"); ok && !strings.HasSuffix(body, "&&") {
		fmt.Fprintf(s.in, "%s%s &\necho __RC__$?\n", strings.TrimSpace(bg), redirect)
	} else {
		fmt.Fprintf(s.in, "{ %s\n}%s\necho __RC__$?\n", body, redirect)
	}
	got := make(chan int, 1)
	go func() {
		for s.out.Scan() {
			if rc, ok := strings.CutPrefix(s.out.Text(), "__RC__"); ok {
				n, _ := strconv.Atoi(rc)
				got <- n
				return
			}
		}
		got <- -1
	}()
	select {
	case st.rc = <-got:
	case <-time.After(limit):
		s.t.Fatalf("%q did not end within %s", line, limit)
	}
	o, _ := os.ReadFile(st.outFile)
	e, _ := os.ReadFile(st.errFile)
	st.out, st.stderr = string(o), string(e)
	return st
}

// close ends the shell and every job it still has (bounded).
func (s *shell) close() {
	fmt.Fprintf(s.in, "kill $(jobs -p) 2>/dev/null; wait\nexit\n")
	s.in.Close()
	waited := make(chan error, 1)
	go func() { waited <- s.cmd.Wait() }()
	select {
	case <-waited:
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		<-waited
	}
}
