package calltest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// Firefox is Debian's Firefox ESR (firefox-esr), headless, driven over WebDriver BiDi, its
// own remote protocol (--remote-debugging-port; chromedp speaks only Chromium's, and Debian
// ships no geckodriver). It does what a test of the console needs: open a page, run
// JavaScript in it (with a user's gesture when asked: a click), and poll an expression.
type Firefox struct {
	t    testing.TB
	cmd  *exec.Cmd
	conn *websocket.Conn
	ctx  context.Context // the connection's: ends with the test

	mu              sync.Mutex
	next            int
	pending         map[int]chan bidiReply
	console         []string // the page's console messages, for a failing test's log
	browsingContext string
}

type bidiReply struct {
	Type    string          `json:"type"` // success | error
	Result  json.RawMessage `json:"result"`
	Error   string          `json:"error"`
	Message string          `json:"message"`
}

// NeedFirefox skips a test when Debian's firefox-esr is not installed.
func NeedFirefox(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("firefox-esr")
	if err != nil {
		t.Skip("firefox-esr is not installed: run deploy/scripts/deps.sh")
	}
	return p
}

// NewFirefox starts Firefox ESR headless with a fresh profile holding prefs (user.js) and
// connects to it; it is closed when the test ends.
func NewFirefox(t testing.TB, prefs map[string]any) *Firefox {
	t.Helper()
	bin := NeedFirefox(t)
	profile := t.TempDir()
	var user strings.Builder
	for k, v := range prefs {
		b, _ := json.Marshal(v)
		fmt.Fprintf(&user, "user_pref(%q, %s);\n", k, b)
	}
	if err := os.WriteFile(filepath.Join(profile, "user.js"), []byte(user.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless", "--no-remote", "--profile", profile, "--remote-debugging-port", "0", "about:blank")
	cmd.Env = append(os.Environ(), "MOZ_HEADLESS=1", "HOME="+profile)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	var logMu sync.Mutex
	var logs strings.Builder
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			logMu.Lock()
			if logs.Len() < 64<<10 {
				logs.WriteString(line + "\n")
			}
			logMu.Unlock()
			if _, u, ok := strings.Cut(line, "WebDriver BiDi listening on "); ok {
				select {
				case urlc <- strings.TrimSpace(u):
				default:
				}
			}
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	f := &Firefox{t: t, cmd: cmd, ctx: ctx, pending: map[int]chan bidiReply{}}
	t.Cleanup(func() {
		cctx, ccancel := context.WithTimeout(context.Background(), 3*time.Second)
		f.call(cctx, "browser.close", map[string]any{})
		ccancel()
		cancel()
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			logMu.Lock()
			t.Logf("firefox-esr's output:\n%s\nthe page's console:\n%s", logs.String(), strings.Join(f.consoleLines(), "\n"))
			logMu.Unlock()
		}
	})
	var url string
	select {
	case url = <-urlc:
	case <-exited:
		t.Fatalf("firefox-esr exited at start:\n%s", logs.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("firefox-esr did not open its remote protocol in 60 s:\n%s", logs.String())
	}
	dctx, dcancel := context.WithTimeout(ctx, 30*time.Second) // a loaded machine starts Firefox slowly
	defer dcancel()
	conn, _, err := websocket.Dial(dctx, url+"/session", nil)
	if err != nil {
		t.Fatalf("connecting to firefox-esr's WebDriver BiDi at %s: %v", url, err)
	}
	conn.SetReadLimit(8 << 20)
	f.conn = conn
	go f.read()
	if _, err := f.call(dctx, "session.new", map[string]any{"capabilities": map[string]any{}}); err != nil {
		t.Fatalf("firefox-esr: session.new: %v", err)
	}
	f.call(dctx, "session.subscribe", map[string]any{"events": []string{"log.entryAdded"}})
	tree, err := f.call(dctx, "browsingContext.getTree", map[string]any{})
	if err != nil {
		t.Fatalf("firefox-esr: %v", err)
	}
	var tr struct {
		Contexts []struct {
			Context string `json:"context"`
		} `json:"contexts"`
	}
	if json.Unmarshal(tree, &tr) != nil || len(tr.Contexts) == 0 {
		t.Fatalf("firefox-esr: no browsing context in %s", tree)
	}
	f.browsingContext = tr.Contexts[0].Context
	return f
}

func (f *Firefox) read() {
	for {
		_, b, err := f.conn.Read(f.ctx)
		if err != nil {
			f.mu.Lock()
			for id, c := range f.pending {
				c <- bidiReply{Type: "error", Error: "closed", Message: err.Error()}
				delete(f.pending, id)
			}
			f.mu.Unlock()
			return
		}
		var m struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			bidiReply
		}
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		if m.ID == nil {
			if m.Method == "log.entryAdded" {
				var e struct {
					Level string `json:"level"`
					Text  string `json:"text"`
				}
				json.Unmarshal(m.Params, &e)
				f.mu.Lock()
				if len(f.console) < 500 {
					f.console = append(f.console, e.Level+": "+e.Text)
				}
				f.mu.Unlock()
			}
			continue
		}
		f.mu.Lock()
		c := f.pending[*m.ID]
		delete(f.pending, *m.ID)
		f.mu.Unlock()
		if c != nil {
			c <- m.bidiReply
		}
	}
}

func (f *Firefox) consoleLines() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.console...)
}

// call sends one command and waits (bounded by ctx) for its reply.
func (f *Firefox) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if f.conn == nil {
		return nil, fmt.Errorf("not connected")
	}
	c := make(chan bidiReply, 1)
	f.mu.Lock()
	f.next++
	id := f.next
	f.pending[id] = c
	f.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err := f.conn.Write(ctx, websocket.MessageText, b); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	select {
	case r := <-c:
		if r.Type == "error" {
			return nil, fmt.Errorf("%s: %s: %s", method, r.Error, r.Message)
		}
		return r.Result, nil
	case <-ctx.Done():
		f.mu.Lock()
		delete(f.pending, id)
		f.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Navigate opens url and waits for it to load.
func (f *Firefox) Navigate(url string) {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(f.ctx, 30*time.Second)
	defer cancel()
	if _, err := f.call(ctx, "browsingContext.navigate", map[string]any{"context": f.browsingContext, "url": url, "wait": "complete"}); err != nil {
		f.t.Fatalf("firefox-esr: open %s: %v", url, err)
	}
}

// Eval runs expr in the page (awaiting a promise) and returns its value as a string:
// expressions return strings (JSON.stringify for anything else). gesture runs it as a
// user's action (a click may start what needs one: the microphone, playback).
func (f *Firefox) Eval(expr string, gesture bool) (string, error) {
	ctx, cancel := context.WithTimeout(f.ctx, 20*time.Second)
	defer cancel()
	res, err := f.call(ctx, "script.evaluate", map[string]any{
		"expression": expr, "target": map[string]any{"context": f.browsingContext},
		"awaitPromise": true, "resultOwnership": "none", "userActivation": gesture,
	})
	if err != nil {
		return "", err
	}
	var r struct {
		Type   string `json:"type"`
		Result struct {
			Type  string `json:"type"`
			Value any    `json:"value"`
		} `json:"result"`
		ExceptionDetails struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return "", err
	}
	if r.Type == "exception" {
		return "", fmt.Errorf("%s: %s", expr, r.ExceptionDetails.Text)
	}
	if s, ok := r.Result.Value.(string); ok {
		return s, nil
	}
	return fmt.Sprint(r.Result.Value), nil
}

// MustEval is Eval that fails the test on an error.
func (f *Firefox) MustEval(expr string, gesture bool) string {
	f.t.Helper()
	s, err := f.Eval(expr, gesture)
	if err != nil {
		f.t.Fatalf("firefox-esr: %v", err)
	}
	return s
}

// Poll waits (at most within) until expr is "true"; false if it never was.
func (f *Firefox) Poll(expr string, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if s, err := f.Eval("String("+expr+")", false); err == nil && s == "true" {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}
