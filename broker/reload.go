package broker

import (
	"fmt"
	"os"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
)

// Tables holds the live intent table and reloads it from the config file. A reload reads and
// validates the whole file exactly as start-up does; it applies only what can change while the
// broker runs (the home and intents sections). A file that does not load, or that changes a
// section read only at start-up, is an error that keeps the current table, and /healthz says
// the table is stale until a reload succeeds. Safe for concurrent use.
type Tables struct {
	path  string // "" : the embedded default (dev mode); a reload re-reads the demo home
	base  Config // the file as loaded at start-up, before command-line overrides
	now   func() time.Time
	table atomic.Pointer[intents.Table]

	mu     sync.Mutex
	health ReloadHealth
}

// ReloadHealth is what /healthz reports about the intent table.
type ReloadHealth struct {
	// Stale is true when the last reload failed: the broker still serves the previous table.
	Stale       bool      `json:"stale"`
	Error       string    `json:"error,omitempty"` // why the last reload failed
	LastSuccess time.Time `json:"last_success"`    // start-up or the last good reload
	LastFailure time.Time `json:"last_failure,omitzero"`
	Failures    int       `json:"failures"` // failed reloads since start-up
}

// NewTables serves table, loaded from cfg. Call it before command-line flags change cfg: a
// reload compares the file against cfg as the file gave it.
func NewTables(cfg *Config, table *intents.Table, now func() time.Time) *Tables {
	if now == nil {
		now = time.Now
	}
	t := &Tables{base: *cfg, now: now}
	if !cfg.demo || cfg.devFile != "" {
		t.path = cfg.path
	}
	t.table.Store(table)
	t.health.LastSuccess = now()
	return t
}

// Table returns the table in use.
func (t *Tables) Table() *intents.Table { return t.table.Load() }

// Health reports the state of the last reload.
func (t *Tables) Health() ReloadHealth {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.health
}

// Reload re-reads the config file. On any error the table in use stays.
func (t *Tables) Reload() error {
	next, table, err := t.load()
	if err == nil {
		err = t.base.reloadable(next)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		err = fmt.Errorf("reload kept the previous intent table: %w", err)
		t.health.Stale, t.health.Error, t.health.LastFailure = true, err.Error(), t.now()
		t.health.Failures++
		return err
	}
	t.table.Store(table)
	t.health.Stale, t.health.Error, t.health.LastSuccess = false, "", t.now()
	return nil
}

func (t *Tables) load() (*Config, *intents.Table, error) {
	if t.path == "" {
		return DevConfig(t.base.Listen.Loopback, t.base.StateDir)
	}
	if t.base.devFile != "" {
		return DevIntentsConfig(t.base.Listen.Loopback, t.base.StateDir, t.base.devFile)
	}
	b, err := os.ReadFile(t.path)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", t.path, err)
	}
	return ParseConfigWith(b, t.path, t.base.opts)
}

// reloadable says whether next differs from c only in what a reload can apply: the home and
// intents sections. Anything else needs a restart.
func (c *Config) reloadable(next *Config) error {
	if (c.Home.Kind == 0) != (next.Home.Kind == 0) {
		return fmt.Errorf("%s: the home section was added or removed; restart the broker to switch between a home of your own and the demo home", next.path)
	}
	cv, nv := reflect.ValueOf(c).Elem(), reflect.ValueOf(next).Elem()
	var changed []string
	for i := range cv.NumField() {
		f := cv.Type().Field(i)
		name := f.Tag.Get("yaml")
		if !f.IsExported() || name == "home" || name == "intents" {
			continue
		}
		if !reflect.DeepEqual(cv.Field(i).Interface(), nv.Field(i).Interface()) {
			changed = append(changed, name)
		}
	}
	if len(changed) > 0 {
		return fmt.Errorf("%s: %v changed, and is read only at start-up: restart the broker to apply it (a reload applies the home and intents sections only)", next.path, changed)
	}
	return nil
}
