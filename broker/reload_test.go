package broker

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/store"
)

const reloadBase = `state_dir: /tmp/reload-test
turn:
  budget: 8s
home:
  timezone: Europe/London
  device_room: kitchen
  rooms:
    - {name: kitchen, devices: [light]}
  people:
    - {name: mom}
`

const reloadIntent = `intents:
  - name: routine.hello
    kind: read
    description: a friendly hello
    handler: {type: reply, text: Hello from the kitchen.}
    patterns: ['say hello to the kitchen']
    examples: [say hello to the kitchen]
`

// TestReloadValidatesWholeFile: a reload checks the file exactly as start-up does, applies a
// change to the intents, and refuses (keeping the table, saying so in its health) an empty
// file, a misspelt section, and a change to a section read only at start-up.
func TestReloadValidatesWholeFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(reloadBase)
	cfg, table, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tables := NewTables(cfg, table, func() time.Time { return now })
	has := func(name string) bool {
		_, ok := tables.Table().Lookup(name)
		return ok
	}

	write(reloadBase + reloadIntent)
	now = now.Add(time.Minute)
	if err := tables.Reload(); err != nil || !has("routine.hello") {
		t.Fatalf("a new intent did not reload: %v", err)
	}
	if h := tables.Health(); h.Stale || !h.LastSuccess.Equal(now) {
		t.Fatalf("health after a good reload: %+v", h)
	}
	good := tables.Table()

	for _, tc := range []struct{ name, file, want string }{
		{"empty file", "", "state_dir is required"},
		{"misspelt home", strings.Replace(reloadBase, "home:", "Home:", 1) + reloadIntent, "Home"},
		{"start-up section changed", strings.Replace(reloadBase, "budget: 8s", "budget: 9s", 1) + reloadIntent, "[turn] changed"},
		{"house device in a room that is gone", reloadBase + reloadIntent + "house:\n  home_assistant: {url: http://ha:8123}\n  devices:\n    - {room: attic, kind: light, via: home_assistant, entity: light.attic}\n", "attic"},
	} {
		write(tc.file)
		err := tables.Reload()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "kept the previous intent table") {
			t.Errorf("%s: reload error %v, want one naming %q", tc.name, err, tc.want)
		}
		if tables.Table() != good {
			t.Errorf("%s: the table in use changed", tc.name)
		}
		if h := tables.Health(); !h.Stale || h.Error == "" {
			t.Errorf("%s: health does not say the table is stale: %+v", tc.name, h)
		}
	}
	if h := tables.Health(); h.Failures != 4 {
		t.Fatalf("failures counted: %d", h.Failures)
	}
}

// TestHealthzSaysTableIsStale: after a failed reload /healthz says the table is stale and why,
// and /metrics counts the failure and keeps the time of the last success.
func TestHealthzSaysTableIsStale(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	os.WriteFile(path, []byte(reloadBase), 0o600)
	cfg, table, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	state, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer state.Close()
	tables := NewTables(cfg, table, nil)
	b, err := New(Deps{Config: cfg, Table: tables.Table, Reloads: tables, State: state, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(b.AdminHandler())
	defer srv.Close()
	health := func() map[string]any {
		resp, err := srv.Client().Get(srv.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		json.NewDecoder(resp.Body).Decode(&v)
		return v
	}
	if h := health(); h["status"] != "ok" {
		t.Fatalf("fresh broker: %v", h)
	}
	os.WriteFile(path, []byte("intents: [oops\n"), 0o600)
	if tables.Reload() == nil {
		t.Fatal("a broken file reloaded")
	}
	h := health()
	it, _ := h["intent_table"].(map[string]any)
	if h["status"] != "degraded" || it["stale"] != true || !strings.Contains(it["error"].(string), "config.yaml") {
		t.Fatalf("healthz after a failed reload: %v", h)
	}
	resp, err := srv.Client().Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"reachy_intent_reload_failures_total 1", "reachy_intent_table_stale 1", "reachy_intent_reload_last_success_timestamp_seconds 1."} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

// TestBadTimezoneRefusedAtLoad: the home's time zone is loaded once, when the file is, so a
// wrong one is an error at start-up (and on reload), not at the first "what time is it".
func TestBadTimezoneRefusedAtLoad(t *testing.T) {
	_, _, err := ParseConfig([]byte(strings.Replace(reloadBase, "Europe/London", "Mars/Olympus_Mons", 1)), "home.yaml")
	if err == nil || !strings.Contains(err.Error(), `home.timezone "Mars/Olympus_Mons" is not a time zone`) {
		t.Fatalf("a bad time zone: %v", err)
	}
	_, table, err := ParseConfig([]byte(reloadBase), "home.yaml")
	if err != nil || table.Location().String() != "Europe/London" {
		t.Fatalf("time zone: %v %v", table.Location(), err)
	}
}
