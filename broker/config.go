package broker

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/redact"
)

// Config is the broker's configuration file. Secrets are never inline: they come from files
// or the environment (the *_file and *_env keys).
type Config struct {
	Listen    ListenConfig    `yaml:"listen"`
	StateDir  string          `yaml:"state_dir"`
	Devices   []DeviceConfig  `yaml:"devices"`
	Turn      TurnConfig      `yaml:"turn"`
	Limits    LimitsConfig    `yaml:"limits"`
	Speech    SpeechConfig    `yaml:"speech"`
	Synthesis SynthesisConfig `yaml:"synthesis"`
	Audit     AuditConfig     `yaml:"audit"`
	Redact    RedactConfig    `yaml:"redact"`
	Agent     AgentConfig     `yaml:"agent"`
	Calendars CalendarsConfig `yaml:"calendars"`
	House     HouseConfig     `yaml:"house"`
	Timers    TimersConfig    `yaml:"timers"`
	Teleport  TeleportConfig  `yaml:"teleport"`
	Play      PlayConfig      `yaml:"play"`
	// Home and Intents are read by the intents package (see docs/intents.md).
	Home    yaml.Node `yaml:"home"`
	Intents yaml.Node `yaml:"intents"`

	path string
	demo bool // the embedded default: the demo home, devices simulated
	// devFile is the file a dev broker layers over the demo home (reachy-broker --dev
	// --intents FILE); "" otherwise.
	devFile string
	opts    LoadOptions // what the command line added when the file was loaded
}

// LoadOptions are what the command line adds to a config file.
type LoadOptions struct {
	// StateDir stands in for a state_dir the file does not name (--state-dir).
	StateDir string
}

// Whereabouts is the configured closed vocabulary of whereabouts words.
func (c *Config) Whereabouts() []string {
	if len(c.Calendars.Whereabouts) > 0 {
		return c.Calendars.Whereabouts
	}
	return redact.Whereabouts
}

// RedactTerms returns the configured terms, from the file too.
func (c *Config) RedactTerms() ([]string, error) {
	terms := append([]string(nil), c.Redact.Terms...)
	if c.Redact.TermsFile != "" {
		b, err := os.ReadFile(c.Redact.TermsFile)
		if err != nil {
			return nil, fmt.Errorf("redact terms file: %w", err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				terms = append(terms, l)
			}
		}
	}
	return terms, nil
}

// Defaults fills what the file left out.
func (c *Config) Defaults() {
	orDefault(&c.Listen.Admin, "127.0.0.1:9092")
	orDefault(&c.Listen.Tailnet.Port, TailnetPort)
	orDefault(&c.Listen.TLS.Port, HTTPSPort)
	orDefault(&c.Listen.TLS.Loopback, "127.0.0.1:8443")
	orDefault(&c.Listen.Tailnet.Hostname, "reachy-broker")
	orDefault(&c.Listen.Tailnet.AuthKeyEnv, "TS_AUTHKEY")
	orDefault(&c.Turn.Budget, 8*time.Second)
	orDefault(&c.Turn.FollowUpWindow, 8*time.Second)
	orDefault(&c.Turn.ClarifyTTL, 20*time.Second)
	if c.Turn.RequireWake == nil {
		t := true
		c.Turn.RequireWake = &t
	}
	orDefault(&c.Turn.MaxAudio, 30*time.Second)
	orDefault(&c.Limits.AudioBytes, 2<<20)
	orDefault(&c.Limits.JSONBytes, 16<<10)
	orDefault(&c.Limits.RatePerMinute, 30)
	orDefault(&c.Limits.Burst, 10)
	orDefault(&c.Speech.Threads, 2)
	orDefault(&c.Speech.Workers, 1)
	orDefault(&c.Speech.Queue, 2)
	orDefault(&c.Limits.Decodes, c.Speech.Workers+c.Speech.Queue)
	orDefault(&c.Limits.AuthFailuresPerMinute, 10)
	orDefault(&c.Speech.MaxTokens, 64)
	orDefault(&c.Speech.Language, "en")
	orDefault(&c.Speech.Prompt, PromptNames)
	orDefault(&c.Synthesis.Engine, "espeak")
	orDefault(&c.Synthesis.APIKeyEnv, "REACHY_TTS_API_KEY")
	orDefault(&c.House.HomeAssistant.TokenEnv, "HASS_TOKEN")
	orDefault(&c.Agent.APIKeyEnv, "REACHY_AGENT_API_KEY")
	orDefault(&c.Audit.Retention, 90*24*time.Hour)
	orDefault(&c.Timers.RepeatEvery, 30*time.Second)
	orDefault(&c.Timers.Rings, 3)
	orDefault(&c.Timers.Grace, 15*time.Minute)
	orDefault(&c.Timers.Expression, "surprised")
	orDefault(&c.Timers.MaxPerRoom, 20)
	orDefault(&c.Teleport.IdleTimeout, 10*time.Minute)
	orDefault(&c.Teleport.JoinTimeout, 20*time.Second)
	orDefault(&c.Teleport.MaxTalk, 30*time.Second)
	orDefault(&c.Teleport.Consent, "announce")
	orDefault(&c.Teleport.AskTimeout, 20*time.Second)
	orDefault(&c.Teleport.RingTimeout, time.Minute)
	orDefault(&c.Teleport.CallWebhookTimeout, 5*time.Second)
}

// orDefault sets *p to v when the file left it at its zero value.
func orDefault[T comparable](p *T, v T) {
	var zero T
	if *p == zero {
		*p = v
	}
}

// Validate checks the values the file gave.
func (c *Config) Validate() error {
	where := c.path
	if where == "" {
		where = "config"
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s", where, fmt.Sprintf(format, args...))
	}
	if c.StateDir == "" {
		return bad("state_dir is required (or pass --state-dir DIR)")
	}
	if c.Listen.Loopback != "" {
		if _, err := checkLoopback(c.Listen.Loopback); err != nil {
			return bad("listen.loopback: %v", err)
		}
	}
	if _, err := checkLoopback(c.Listen.Admin); err != nil {
		return bad("listen.admin: %v", err)
	}
	if _, err := checkLoopback(c.Listen.TLS.Loopback); err != nil {
		return bad("listen.tls.loopback: %v", err)
	}
	if (c.Listen.TLS.CertFile == "") != (c.Listen.TLS.KeyFile == "") {
		return bad("listen.tls: cert_file and key_file go together")
	}
	if c.Listen.TLS.Port < 1 || c.Listen.TLS.Port > 65535 || c.Listen.TLS.Port == c.Listen.Tailnet.Port {
		return bad("listen.tls.port %d: a port of its own, not the API's (%d)", c.Listen.TLS.Port, c.Listen.Tailnet.Port)
	}
	if c.Turn.Budget < time.Second || c.Turn.Budget > time.Minute {
		return bad("turn.budget %v is outside 1s..1m", c.Turn.Budget)
	}
	if c.Limits.AudioBytes < 1024 || c.Limits.JSONBytes < 256 {
		return bad("limits are too small")
	}
	switch c.Synthesis.Engine {
	case "espeak", "openai", "none":
	default:
		return bad("synthesis.engine %q is not espeak, openai or none", c.Synthesis.Engine)
	}
	if c.Timers.RepeatEvery < 5*time.Second || c.Timers.RepeatEvery > 10*time.Minute {
		return bad("timers.repeat_every %v is outside 5s..10m", c.Timers.RepeatEvery)
	}
	if c.Timers.Rings < 1 || c.Timers.Rings > 10 {
		return bad("timers.rings %d is outside 1..10", c.Timers.Rings)
	}
	if c.Timers.Grace < 0 || c.Timers.Grace > 24*time.Hour {
		return bad("timers.grace %v is outside 0..24h", c.Timers.Grace)
	}
	if c.Timers.MaxPerRoom < 1 || c.Timers.MaxPerRoom > 100 {
		return bad("timers.max_per_room %d is outside 1..100", c.Timers.MaxPerRoom)
	}
	seen := map[string]bool{}
	for _, d := range c.Devices {
		if !store.ValidDeviceName(d.Name) {
			return bad("device name %q: use letters, digits, dots, dashes", d.Name)
		}
		if seen[d.Name] {
			return bad("device %s listed twice", d.Name)
		}
		seen[d.Name] = true
	}
	return c.Teleport.validate(bad)
}

// LoadConfig reads a broker config file strictly: unknown keys are errors with file:line.
// It returns the config and the intent table built from its home and intents sections.
func LoadConfig(path string) (*Config, *intents.Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("load config %s: %w", path, err)
	}
	return ParseConfig(b, path)
}

// LoadConfigWith is LoadConfig with what the command line adds (a --state-dir for a file
// that names none).
func LoadConfigWith(path string, o LoadOptions) (*Config, *intents.Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("load config %s: %w", path, err)
	}
	return ParseConfigWith(b, path, o)
}

// ParseConfig is LoadConfig on bytes; name appears in errors.
func ParseConfig(b []byte, name string) (*Config, *intents.Table, error) {
	return ParseConfigWith(b, name, LoadOptions{})
}

// ParseConfigWith is LoadConfigWith on bytes.
func ParseConfigWith(b []byte, name string, o LoadOptions) (*Config, *intents.Table, error) {
	return parseConfig(b, name, o, nil)
}

// parseConfig decodes and checks a config file; dev, when set, turns it into a dev config
// (before it is validated) that layers the file over the demo home.
func parseConfig(b []byte, name string, o LoadOptions, dev func(*Config)) (*Config, *intents.Table, error) {
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, intents.YAMLError(name, err)
	}
	c.path, c.opts = name, o
	if c.StateDir == "" {
		c.StateDir = o.StateDir
	}
	if dev != nil {
		dev(&c)
	}
	c.Defaults()
	if err := c.Validate(); err != nil {
		return nil, nil, err
	}
	table, err := intents.Parse(b, name)
	if err != nil {
		return nil, nil, err
	}
	for _, d := range c.Devices {
		if d.Room != "" && !hasRoom(table, d.Room) {
			return nil, nil, fmt.Errorf("%s: device %s: room %q is not a room of the home", name, d.Name, d.Room)
		}
	}
	for person := range c.Teleport.People {
		if !slices.ContainsFunc(table.Home.People, func(p intents.Person) bool { return p.Name == person }) {
			return nil, nil, fmt.Errorf("%s: teleport.people: %q is not a person of the home", name, person)
		}
	}
	for person := range c.Calendars.People {
		if !slices.ContainsFunc(table.Home.People, func(p intents.Person) bool { return p.Name == person }) {
			return nil, nil, fmt.Errorf("%s: calendars.people: %q is not a person of the home", name, person)
		}
	}
	for _, d := range c.House.Devices {
		switch {
		case !hasRoom(table, d.Room):
			return nil, nil, fmt.Errorf("%s: house.devices: room %q is not a room of the home", name, d.Room)
		case d.Kind != "light" && d.Kind != "ac":
			return nil, nil, fmt.Errorf("%s: house.devices: kind %q is not light or ac", name, d.Kind)
		case d.Via == "home_assistant" && c.House.HomeAssistant.URL == "", d.Via == "mqtt" && c.House.MQTT.Broker == "":
			return nil, nil, fmt.Errorf("%s: house.devices: %s %s goes via %s, which is not configured", name, d.Room, d.Kind, d.Via)
		case d.Via != "home_assistant" && d.Via != "mqtt":
			return nil, nil, fmt.Errorf("%s: house.devices: via %q is not home_assistant or mqtt", name, d.Via)
		case d.Entity == "":
			return nil, nil, fmt.Errorf("%s: house.devices: %s %s needs an entity", name, d.Room, d.Kind)
		}
	}
	return &c, table, nil
}

func hasRoom(t *intents.Table, room string) bool {
	for _, r := range t.Home.Rooms {
		if strings.EqualFold(r.Name, room) {
			return true
		}
	}
	return false
}

// HasHouse reports whether the file connects any device (a house section with a hub).
func (c *Config) HasHouse() bool {
	return c.House.HomeAssistant.URL != "" || c.House.MQTT.Broker != "" || len(c.House.Devices) > 0
}

// HouseBackend names the backend the house's handlers reach, for the operator's health
// gauges: home_assistant, mqtt, house (both), or "" (the demo home's simulated devices).
func (c *Config) HouseBackend() string {
	ha, mq := c.House.HomeAssistant.URL != "", c.House.MQTT.Broker != ""
	switch {
	case ha && mq:
		return "house"
	case ha:
		return "home_assistant"
	case mq:
		return "mqtt"
	}
	return ""
}

// HasHome reports whether the file has a home section of its own (without one the intent
// table uses the demo home's rooms and people).
func (c *Config) HasHome() bool { return c.Home.Kind != 0 }

// Path is where the config came from.
func (c *Config) Path() string { return c.path }

// DeviceRoom returns the configured room of a device ("" when none is configured).
func (c *Config) DeviceRoom(device string) string {
	for _, d := range c.Devices {
		if d.Name == device {
			return d.Room
		}
	}
	return ""
}

func checkLoopback(addr string) (string, error) { return ListenLoopbackCheck(addr) }

// ReadSecret returns a secret from a file (trimmed) or, without a file, an environment variable.
func ReadSecret(file, env string) (string, error) {
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("read secret: %w", err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	if env != "" {
		return os.Getenv(env), nil
	}
	return "", nil
}
