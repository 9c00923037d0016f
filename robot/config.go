package robot

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/reachy-broker/reachy-broker/robot/ambient"
	"github.com/reachy-broker/reachy-broker/robot/call"
)

// Move is a recorded move of the vendor's libraries.
type Move struct {
	Dataset string `yaml:"dataset"`
	Move    string `yaml:"move"`
}

// Config is the hub's configuration file. The only secret on the robot is the token file.
type Config struct {
	BrokerURL   string   `yaml:"broker_url"`
	TokenFile   string   `yaml:"token_file"`
	DaemonURL   string   `yaml:"daemon_url"`
	InputDevice string   `yaml:"input_device"`
	OutputDev   string   `yaml:"output_device"`
	Speak       string   `yaml:"speak"` // daemon (default) or portaudio
	WakePhrases []string `yaml:"wake_phrases"`
	// The on-robot wake-phrase spotter (robot/wake): pocketsphinx (default), neural
	// (openWakeWord's feature models and the project's head, through ONNX Runtime), fused
	// (both engines, one calibrated decision from their evidence), either or both (the two
	// engines: either hears it, or both must), or off (every utterance goes up and only the
	// broker checks the phrase). Every engine but pocketsphinx runs in reachy-wake, a process
	// the hub starts beside it.
	WakeSpotter string `yaml:"wake_spotter"`
	// WakeRuntimeDir holds the neural engine's ONNX Runtime and feature models
	// (deploy/scripts/wake-neural.sh); default /usr/local/lib/reachy-wake, then the script's cache.
	WakeRuntimeDir string `yaml:"wake_runtime_dir"`
	// WakeHeads are head files (reachyctl wake train) by phrase, for phrases the build has
	// no committed head for.
	WakeHeads          map[string]string `yaml:"wake_heads"`
	WakeSensitivity    float64           `yaml:"wake_sensitivity"`    // 0..1; 0 = the tuned default
	WakeModelDir       string            `yaml:"wake_model_dir"`      // default: Debian's pocketsphinx-en-us
	WakePronunciations map[string]string `yaml:"wake_pronunciations"` // word -> ARPAbet, for words the dictionary lacks
	FollowUpWindow     time.Duration     `yaml:"follow_up_window"`    // no phrase needed this long after a follow-up reply
	Expressions        map[string]Move   `yaml:"expressions"`
	MaxUtter           time.Duration     `yaml:"max_utterance"`
	Deadline           time.Duration     `yaml:"broker_deadline"` // a whole turn, retries included; default 12s
	FallbackWAV        string            `yaml:"fallback_wav"`
	// Link keeps the robot link (GET /v1/link) open for teleport sessions and broker
	// actions; the token then needs the link scope. Default true.
	Link *bool `yaml:"link"`
	// TimerLocalAfter is how long past a timer's due time the hub waits for the broker's ring
	// before ringing the timer itself (the broker or the tailnet is not answering) — or past
	// the copy's arrival, for a timer already overdue when it arrived. Default 5s.
	TimerLocalAfter time.Duration `yaml:"timer_local_after"`
	// TimerMemory is the file the hub remembers who rang each timer in, so that a restarted
	// hub never plays a ring again (robot/timermemory.go). Default: systemd's
	// StateDirectory, else $XDG_STATE_HOME/reachy-hub/timers.json; with --sim, timer-memory.json
	// in --out (none without --out).
	TimerMemory string `yaml:"timer_memory"`
	// Call is the live call's media: interfaces, UDP ports and GStreamer pipelines
	// (robot/call; docs/configuration.md). Empty fields take the Reachy Mini's defaults, or
	// the simulator's with --sim.
	Call call.Config `yaml:"call"`
	// Ambient is the robot's ambient motion when nobody is talking (robot/ambient).
	Ambient ambient.Config `yaml:"ambient"`
}

// LinkOn reports whether the robot link is wanted.
func (c *Config) LinkOn() bool { return c.Link == nil || *c.Link }

const emotions = "pollen-robotics/reachy-mini-emotions-library"
const dances = "pollen-robotics/reachy-mini-dances-library"

// DefaultExpressions maps the broker's closed set of expressions to the vendor's moves.
func DefaultExpressions() map[string]Move {
	return map[string]Move{
		"dance": {dances, "groovy"}, "nod": {dances, "simple_nod"}, "celebrate": {emotions, "celebrate"},
		"happy": {emotions, "happy"}, "sad": {emotions, "sad"}, "surprised": {emotions, "surprised"},
		"curious": {emotions, "curious"}, "sleepy": {emotions, "sleepy"}, "confused": {emotions, "no"},
	}
}

// LoadConfig reads the config strictly and fills defaults.
func LoadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("hub config %s: %w", path, err)
	}
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	c.Defaults()
	return &c, c.Validate(path)
}

// Defaults fills what the file left out.
func (c *Config) Defaults() {
	if c.DaemonURL == "" {
		c.DaemonURL = "http://127.0.0.1:8000"
	}
	if c.InputDevice == "" {
		c.InputDevice = "reachymini_audio_src"
	}
	if c.OutputDev == "" {
		c.OutputDev = "reachymini_audio_sink"
	}
	if c.Speak == "" {
		c.Speak = "daemon"
	}
	if c.Deadline == 0 {
		c.Deadline = 12 * time.Second
	}
	if len(c.WakePhrases) == 0 {
		c.WakePhrases = []string{"hey reachy"}
	}
	if c.WakeSpotter == "" {
		c.WakeSpotter = "pocketsphinx"
	}
	if c.FollowUpWindow == 0 {
		c.FollowUpWindow = 8 * time.Second
	}
	if c.MaxUtter == 0 {
		c.MaxUtter = 12 * time.Second
	}
	if c.TimerLocalAfter == 0 {
		c.TimerLocalAfter = 5 * time.Second
	}
	c.Ambient.Defaults()
	exp := DefaultExpressions()
	for k, v := range c.Expressions {
		exp[k] = v
	}
	c.Expressions = exp
}

// Validate checks the values.
func (c *Config) Validate(where string) error {
	if c.BrokerURL == "" {
		return fmt.Errorf("%s: broker_url is required (the broker's tailnet name, e.g. http://reachy-broker:8092)", where)
	}
	if c.Speak != "daemon" && c.Speak != "portaudio" {
		return fmt.Errorf("%s: speak must be daemon or portaudio", where)
	}
	switch c.WakeSpotter {
	case "pocketsphinx", "neural", "fused", "either", "both", "off":
	default:
		return fmt.Errorf("%s: wake_spotter must be pocketsphinx, neural, fused, either, both or off", where)
	}
	if c.WakeSensitivity < 0 || c.WakeSensitivity > 1 {
		return fmt.Errorf("%s: wake_sensitivity must be between 0 and 1 (0 = the tuned default)", where)
	}
	if c.TimerLocalAfter < 0 || c.TimerLocalAfter > 5*time.Minute {
		return fmt.Errorf("%s: timer_local_after must be between 0 and 5m", where)
	}
	if err := c.Ambient.Validate(); err != nil {
		return fmt.Errorf("%s: %v", where, err)
	}
	return nil
}

// ReadToken reads the token file and refuses one that others can read: on a shared robot a
// world-readable token is a leaked token.
func ReadToken(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return "", fmt.Errorf("token file %s has mode %04o; it must be 0600 (chmod 600 %s)", path, perm, path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("token file %s is empty", path)
	}
	return tok, nil
}
