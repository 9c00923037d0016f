package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func ctl(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestRouteJSON(t *testing.T) {
	code, out, errs := ctl(t, "route", "--json", "Hey Jeeves, turn on the kitchen light please")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var d struct {
		Intent string            `json:"intent"`
		Args   map[string]string `json:"args"`
		Kind   string            `json:"kind"`
		Rule   struct{ Intent string }
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if d.Intent != "house.light.set" || d.Args["room"] != "kitchen" || d.Args["state"] != "on" || d.Kind != "write" || d.Rule.Intent != "house.light.set" {
		t.Fatalf("%+v", d)
	}
	// Flags may follow the sentence too.
	if code, out, _ := ctl(t, "route", "is dad busy", "--json"); code != 0 || !strings.Contains(out, `"calendar.status"`) {
		t.Fatalf("exit %d: %s", code, out)
	}
}

func TestRouteExplains(t *testing.T) {
	_, out, _ := ctl(t, "route", "don't turn on the bedroom light")
	for _, want := range []string{"house.light.get", "a negated command", "builtin.yaml:"} {
		if !strings.Contains(out, want) {
			t.Errorf("explanation lacks %q:\n%s", want, out)
		}
	}
}

func TestIntentsTestExitCodes(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(good, []byte("# ok\nturn on the kitchen light => house.light.set {\"room\": \"kitchen\", \"state\": \"on\"}\nwhat time is it => time.now\n"), 0o600)
	os.WriteFile(bad, []byte("turn on the kitchen light => house.light.set {\"room\": \"bedroom\", \"state\": \"on\"}\n"), 0o600)
	if code, out, _ := ctl(t, "intents", "test", good); code != 0 || !strings.Contains(out, "2 passed, 0 failed") {
		t.Fatalf("good file: exit %d\n%s", code, out)
	}
	if code, out, _ := ctl(t, "intents", "test", bad); code != 1 || !strings.Contains(out, "1 failed") || !strings.Contains(out, "bad.txt:1") {
		t.Fatalf("bad file: exit %d\n%s", code, out)
	}
	if code, _, _ := ctl(t, "intents", "test", "../../intents/testdata/corpus.txt"); code != 0 {
		t.Fatal("the golden corpus fails through the CLI")
	}
}

func TestIntentsLintAndConfigErrors(t *testing.T) {
	if code, out, _ := ctl(t, "intents", "lint"); code != 0 || !strings.HasPrefix(out, "ok:") {
		t.Fatalf("lint of the demo home: exit %d\n%s", code, out)
	}
	cfg := filepath.Join(t.TempDir(), "home.yaml")
	os.WriteFile(cfg, []byte("intents:\n  - name: a.b\n    kind: read\n    handler: {type: reply, text: hi}\n    patterns: ['(oops']\n    examples: [oops]\n"), 0o600)
	code, _, errs := ctl(t, "intents", "list", "--config", cfg)
	if code != 1 || !strings.Contains(errs, "home.yaml:5") {
		t.Fatalf("broken config: exit %d, %s", code, errs)
	}
	if code, _, _ := ctl(t, "no-such-command"); code != 2 {
		t.Fatalf("unknown command exit %d", code)
	}
}

func TestGuideListsExamples(t *testing.T) {
	code, out, _ := ctl(t, "intents", "guide")
	if code != 0 || !strings.Contains(out, "turn on the kitchen light") || !strings.Contains(out, "what can you do: I can switch the lights") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestRedactCommand(t *testing.T) {
	stdin = strings.NewReader("Mail jane@example.com or call 555-123-4567 before 1969 ends.")
	defer func() { stdin = os.Stdin }()
	code, out, errs := ctl(t, "redact", "--kinds")
	if code != 0 || strings.Contains(out, "jane") || strings.Contains(out, "4567") || !strings.Contains(out, "1969") || !strings.Contains(errs, "email,phone") {
		t.Fatalf("exit %d: %q %q", code, out, errs)
	}
}
