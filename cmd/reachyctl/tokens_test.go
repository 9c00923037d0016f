package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTokenCreateReplaceRevokesTheEarlierTokens (#39.5): re-creating a device's token with
// --replace leaves the device one live token — the earlier ones are refused at once by the
// running broker — and `token list` shows each token's creation and last use in columns that
// line up under their headings.
func TestTokenCreateReplaceRevokesTheEarlierTokens(t *testing.T) {
	dir := t.TempDir()
	srv := startDevBroker(t, dir, nil).srv
	create := func(extra ...string) string {
		t.Helper()
		args := append([]string{"token", "create", "--state-dir", dir, "--device", "reachy", "--scopes", "text", "--json"}, extra...)
		code, out, errs := ctl(t, args...)
		var tok struct{ Token string }
		if code != 0 || json.Unmarshal([]byte(out), &tok) != nil {
			t.Fatalf("token create %v: exit %d %q %q", extra, code, out, errs)
		}
		return tok.Token
	}
	says := func(tok string) bool {
		code, _, _ := ctl(t, "say", "--broker", srv.URL, "--token", tok, "what time is it")
		return code == 0
	}
	first, second := create(), create()
	if !says(first) || !says(second) {
		t.Fatal("two tokens made without --replace: both should work")
	}
	code, _, errs := ctl(t, "token", "create", "--state-dir", dir, "--device", "reachy", "--scopes", "text", "--replace")
	if code != 0 || !strings.Contains(errs, "revoked 2 earlier token(s) of reachy") {
		t.Fatalf("token create --replace: exit %d %q", code, errs)
	}
	third := create("--replace")
	if says(first) || says(second) {
		t.Fatal("a token made before --replace still works")
	}
	if !says(third) {
		t.Fatal("the token made with --replace does not work")
	}
	if code, _, _ := ctl(t, "token", "list", "--state-dir", dir, "--device", "laptop", "--replace"); code == 0 {
		t.Fatal("--replace was accepted with token list")
	}

	code, out, _ := ctl(t, "token", "list", "--state-dir", dir)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if code != 0 || len(lines) != 5 {
		t.Fatalf("token list: exit %d\n%s", code, out)
	}
	head := lines[0]
	for _, col := range []string{"CREATED", "LAST USED", "STATUS"} {
		at := strings.Index(head, col)
		if at < 0 {
			t.Fatalf("token list has no %s column:\n%s", col, out)
		}
		for _, l := range lines[1:] {
			if len(l) <= at || l[at-1] != ' ' || l[at] == ' ' {
				t.Fatalf("the %s column does not line up:\n%s", col, out)
			}
		}
	}
	used, never, live := 0, 0, 0
	for _, l := range lines[1:] {
		rest := l[strings.Index(head, "LAST USED"):]
		switch {
		case strings.HasPrefix(rest, "never"):
			never++
		case rest[4] == '-' && rest[13] == ':': // 2006-01-02 15:04
			used++
		}
		if strings.HasSuffix(l, "live") {
			live++
		}
	}
	if used != 3 || never != 1 || live != 1 {
		t.Fatalf("token list: %d used, %d never used, %d live; want 3, 1, 1:\n%s", used, never, live, out)
	}
}

// TestStateClockShowsAndTrusts (#38.2): `reachyctl state clock` shows how the running
// broker's store sees the clock, and --trust tells it the clock is right.
func TestStateClockShowsAndTrusts(t *testing.T) {
	dir := t.TempDir()
	startDevBroker(t, dir, nil)
	code, out, errs := ctl(t, "state", "clock", "--state-dir", dir)
	if code != 0 || !strings.Contains(out, "jumps seen:       0") || !strings.Contains(out, "agreed since:") {
		t.Fatalf("state clock: exit %d %q %q", code, out, errs)
	}
	code, out, errs = ctl(t, "state", "clock", "--trust", "--state-dir", dir)
	if code != 0 || !strings.Contains(out, "the operator trusts this clock") {
		t.Fatalf("state clock --trust: exit %d %q %q", code, out, errs)
	}
	code, out, _ = ctl(t, "state", "clock", "--json", "--state-dir", dir)
	var c struct {
		AgreedSince *string `json:"agreed_since"`
		Jumps       int     `json:"jumps"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &c) != nil || c.AgreedSince != nil {
		t.Fatalf("state clock --json after --trust: exit %d %s", code, out)
	}
	if code, _, _ := ctl(t, "state", "check", "--trust", "--state-dir", dir); code == 0 {
		t.Fatal("--trust was accepted with state check")
	}
}
