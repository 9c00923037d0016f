package broker

// Dev-mode configuration: the embedded default a dev broker runs on (DevConfig, the demo home
// on loopback), the intent author's dev broker that layers a file over it (DevIntentsConfig),
// where a dev broker keeps its state when not told (DevStateDirFor, one directory per clone
// and port), and the accessors that say whether a config is one of these (Demo, DevFile).

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reachy-broker/reachy-broker/intents"
)

// DevListen is a dev broker's API address when not told otherwise.
const DevListen = "127.0.0.1:8092"

// DevStateDir is where a dev broker on DevListen keeps its state when not told otherwise
// (DevStateDirFor).
func DevStateDir() string { return DevStateDirFor(DevListen) }

// DevStateDirFor is where a dev broker serving addr (host:port, or a URL) keeps its state
// when not told otherwise: one directory per clone and port,
// $XDG_STATE_HOME/reachy-broker-dev-<clone>-<hash of its path>-<port> (else under
// ~/.local/state), or reachy-broker-dev-<port> for a binary outside a clone. So another
// clone's tokens, audit and timers never appear, and a second dev broker on its own port has
// its own. reachyctl computes the same from REACHY_BROKER, so the tour works against the
// broker 'make run' started.
func DevStateDirFor(addr string) string {
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			base = os.TempDir()
		} else {
			base = filepath.Join(home, ".local", "state")
		}
	}
	addr = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(addr, "http://"), "https://"), "/")
	port := "8092"
	if i := strings.LastIndexByte(addr, ':'); i >= 0 && i+1 < len(addr) {
		port = addr[i+1:]
	}
	name := "reachy-broker-dev-" + port
	if clone := devClone(); clone != "" {
		sum := sha256.Sum256([]byte(clone))
		name = "reachy-broker-dev-" + filepath.Base(clone) + "-" + hex.EncodeToString(sum[:3]) + "-" + port
	}
	return filepath.Join(base, name)
}

// devClone is the clone the running binary was built in: the folder above its bin/ when that
// holds this project's go.mod, else the clone the working directory is in; "" for neither.
func devClone() string {
	isClone := func(dir string) bool {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		return err == nil && bytes.HasPrefix(b, []byte("module github.com/reachy-broker/reachy-broker\n"))
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil && filepath.Base(filepath.Dir(exe)) == "bin" {
			if dir := filepath.Dir(filepath.Dir(exe)); isClone(dir) {
				return dir
			}
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if isClone(dir) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// DevConfig is the embedded default: loopback dev mode, the demo home, state in stateDir.
func DevConfig(listen, stateDir string) (*Config, *intents.Table, error) {
	c := &Config{StateDir: stateDir, path: "dev defaults", demo: true}
	c.Listen.Loopback = listen
	// Loopback only: a relaxed rate limit lets reachyctl bench drive it.
	c.Limits.RatePerMinute, c.Limits.Burst = 600000, 10000
	c.Synthesis.Engine = "espeak"
	c.Defaults()
	if err := c.Validate(); err != nil {
		return nil, nil, err
	}
	t, err := intents.LoadDemo()
	return c, t, err
}

// DevIntentsConfig is a dev broker for an intent author (reachy-broker --dev --intents FILE):
// loopback dev mode as DevConfig, with file layered over it — its intents, its home if it
// has one (else the demo home), and the devices its house section connects; every other
// device of the home stays simulated in memory. The file's state_dir and listen sections are
// not used: state lives in stateDir, so a production config can be tried without touching
// the production state. Any other section (agent, calendars, ...) is used as it is.
func DevIntentsConfig(listen, stateDir, file string) (*Config, *intents.Table, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, fmt.Errorf("load intents %s: %w", file, err)
	}
	return parseConfig(b, file, LoadOptions{StateDir: stateDir}, func(c *Config) {
		c.StateDir, c.Listen = stateDir, ListenConfig{Loopback: listen}
		c.demo, c.devFile = true, file
		// Loopback only: a relaxed rate limit lets reachyctl bench drive it.
		c.Limits.RatePerMinute, c.Limits.Burst = 600000, 10000
	})
}

// DevFile is the file a dev broker layers over the demo home ("" when there is none).
func (c *Config) DevFile() string { return c.devFile }

// Demo reports whether the demo's simulated devices serve this broker: the embedded default
// (the demo home), or a dev broker layering a file over it (DevIntentsConfig), where they
// serve whatever the file's house section does not connect.
func (c *Config) Demo() bool { return c.demo }
