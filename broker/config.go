package broker

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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

// ListenConfig says where the API is served.
type ListenConfig struct {
	Tailnet  TailnetSection `yaml:"tailnet"`
	Loopback string         `yaml:"loopback"` // dev mode only: serve the API on this loopback address
	Admin    string         `yaml:"admin"`    // /healthz and /metrics, loopback only
	TLS      TLSSection     `yaml:"tls"`      // the console over HTTPS
}

// TLSSection configures the console over HTTPS (a browser gives a page its microphone only
// over https). On the tailnet the node's own Tailscale certificate is served unless
// cert_file and key_file name one of the operator's own.
type TLSSection struct {
	Port     int    `yaml:"port"`      // the console's HTTPS port on the tailnet (default 443)
	Loopback string `yaml:"loopback"`  // dev mode: its loopback address when a certificate is given (default 127.0.0.1:8443)
	CertFile string `yaml:"cert_file"` // PEM certificate chain, leaf first
	KeyFile  string `yaml:"key_file"`  // its PEM private key
}

// TailnetSection configures the embedded tailnet node.
type TailnetSection struct {
	Hostname    string `yaml:"hostname"`
	StateDir    string `yaml:"state_dir"`
	AuthKeyFile string `yaml:"auth_key_file"`
	AuthKeyEnv  string `yaml:"auth_key_env"`
	Ephemeral   bool   `yaml:"ephemeral"`
	ControlURL  string `yaml:"control_url"`
	Port        int    `yaml:"port"`
}

// DeviceConfig is what the broker knows of a device beyond its token.
type DeviceConfig struct {
	Name string `yaml:"name"`
	Room string `yaml:"room"`
}

// TurnConfig bounds a turn.
type TurnConfig struct {
	Budget         time.Duration `yaml:"budget"`
	FollowUpWindow time.Duration `yaml:"follow_up_window"`
	ClarifyTTL     time.Duration `yaml:"clarify_ttl"`
	RequireWake    *bool         `yaml:"require_wake"`
	MaxAudio       time.Duration `yaml:"max_audio"`
}

// LimitsConfig protects the broker from callers.
type LimitsConfig struct {
	AudioBytes    int64 `yaml:"audio_bytes"`
	JSONBytes     int64 `yaml:"json_bytes"`
	RatePerMinute int   `yaml:"rate_per_minute"`
	Burst         int   `yaml:"burst"`
	// Decodes is how many audio turns may read, decode and check their audio at once; the
	// rest wait briefly, then answer busy. Default: speech workers + queue, what
	// speech-to-text could take anyway.
	Decodes int `yaml:"decodes"`
	// AuthFailuresPerMinute is how many failed authentications one remote address may make
	// (with as many in a burst) before every request from it answers rate_limited.
	AuthFailuresPerMinute int `yaml:"auth_failures_per_minute"`
}

// SpeechConfig configures whisper.cpp.
type SpeechConfig struct {
	Model     string `yaml:"model"`
	Threads   int    `yaml:"threads"`
	Workers   int    `yaml:"workers"`
	Queue     int    `yaml:"queue"`
	MaxTokens int    `yaml:"max_tokens"`
	Language  string `yaml:"language"`
	// Prompt is whisper's initial prompt, decoded again on every audio turn (it costs time in
	// proportion to its length): "names" (the wake phrases and the people of the home, the
	// words whisper is least likely to know), "vocabulary" (every room, device and person,
	// with an example sentence), "none", or any other text, used as it is.
	Prompt string `yaml:"prompt"`
}

// SynthesisConfig picks the speech engine.
type SynthesisConfig struct {
	Engine     string `yaml:"engine"` // espeak (default) or openai
	Voice      string `yaml:"voice"`
	Rate       int    `yaml:"rate"`
	URL        string `yaml:"url"`
	Model      string `yaml:"model"`
	APIKeyFile string `yaml:"api_key_file"`
	APIKeyEnv  string `yaml:"api_key_env"`
}

// AuditConfig sets what is kept and for how long.
type AuditConfig struct {
	Retention time.Duration `yaml:"retention"`
}

// TimersConfig sets how a due timer rings (see docs/configuration.md).
type TimersConfig struct {
	RepeatEvery time.Duration `yaml:"repeat_every"` // between rings of one timer; default 30s
	Rings       int           `yaml:"rings"`        // rings at most, the first included; default 3
	Grace       time.Duration `yaml:"grace"`        // a timer due while the broker was down still rings this late; default 15m
	Expression  string        `yaml:"expression"`   // the robot's expression as it rings; default surprised
	MaxPerRoom  int           `yaml:"max_per_room"` // live timers per room; default 20
}

// AgentConfig points general.ask at an OpenAI-compatible chat endpoint (see docs/agent.md).
type AgentConfig struct {
	BaseURL        string        `yaml:"base_url"`
	FastModel      string        `yaml:"fast_model"`
	DeepModel      string        `yaml:"deep_model"`
	Fallbacks      []string      `yaml:"fallbacks"`
	APIKeyFile     string        `yaml:"api_key_file"`
	APIKeyEnv      string        `yaml:"api_key_env"`
	Persona        string        `yaml:"persona"`
	MaxTokens      int           `yaml:"max_tokens"`
	AttemptTimeout time.Duration `yaml:"attempt_timeout"`
}

// TeleportConfig says who may use the teleport console (README "Teleport").
type TeleportConfig struct {
	Owners      []string      `yaml:"owners"`       // tailnet login names allowed in; nobody when empty
	IdleTimeout time.Duration `yaml:"idle_timeout"` // a session with no action and nothing heard ends; default 10m
	JoinTimeout time.Duration `yaml:"join_timeout"` // the robot must play the join chime and announcement within this, or the join fails; default 20s
	MaxTalk     time.Duration `yaml:"max_talk"`     // longest push-to-talk clip; default 30s
	// Consent is how the room lets an owner in (docs/security.md): "announce" (default: the
	// join chime and "Dad is joining", then the call) or "ask" (the robot asks and someone in
	// the room must say yes or come in within AskTimeout). ConsentByOwner overrides it per
	// owner login.
	Consent        string            `yaml:"consent"`
	ConsentByOwner map[string]string `yaml:"consent_by_owner"`
	AskTimeout     time.Duration     `yaml:"ask_timeout"` // ask mode: how long the room has to say yes; default 20s
	// People maps a person of the home (home.people) to the owner login "call dad" rings;
	// without an entry, the owner whose login's name part is the person's name or alias.
	People map[string]string `yaml:"people"`
	// RingTimeout is how long an open console rings before the call-back is a missed call;
	// default 60s.
	RingTimeout time.Duration `yaml:"ring_timeout"`
	// CallWebhook, if set, is POSTed a JSON notice when a call-back request finds no console
	// of the owner open (robot, room, wanted, console_url); CallWebhookTimeout bounds it
	// (default 5s).
	CallWebhook        string        `yaml:"call_webhook"`
	CallWebhookTimeout time.Duration `yaml:"call_webhook_timeout"`
	// ConsoleURL is the console's address the webhook's notice links to (default: none).
	ConsoleURL string `yaml:"console_url"`
}

// HouseConfig connects the home's devices to Home Assistant and/or MQTT (see docs/home.md).
type HouseConfig struct {
	HomeAssistant struct {
		URL       string `yaml:"url"`
		TokenFile string `yaml:"token_file"`
		TokenEnv  string `yaml:"token_env"`
	} `yaml:"home_assistant"`
	MQTT struct {
		Broker       string `yaml:"broker"`
		Prefix       string `yaml:"prefix"`
		Username     string `yaml:"username"`
		PasswordFile string `yaml:"password_file"`
		PasswordEnv  string `yaml:"password_env"`
	} `yaml:"mqtt"`
	Devices []HouseDevice `yaml:"devices"`
}

// HouseDevice maps one device of the home to an entity on a hub.
type HouseDevice struct {
	Room   string `yaml:"room"`
	Kind   string `yaml:"kind"`   // light | ac
	Via    string `yaml:"via"`    // home_assistant | mqtt
	Entity string `yaml:"entity"` // light.kitchen, climate.bedroom, or a Zigbee2MQTT name
}

// CalendarsConfig maps people to calendars (see docs/calendar.md).
type CalendarsConfig struct {
	Whereabouts []string                  `yaml:"whereabouts"` // closed vocabulary; default home, work, school, out, travelling, unknown
	Rules       []CalendarRule            `yaml:"rules"`
	People      map[string]CalendarSource `yaml:"people"`
}

// CalendarRule maps a keyword in an event to a whereabouts word.
type CalendarRule struct {
	Keyword     string `yaml:"keyword"`
	Whereabouts string `yaml:"whereabouts"`
}

// CalendarSource is one person's calendar: an ICS file or URL, or a CalDAV collection.
type CalendarSource struct {
	ICS          string `yaml:"ics"`          // path or http(s) URL
	ICSURLFile   string `yaml:"ics_url_file"` // a secret feed URL kept in a file
	CalDAV       string `yaml:"caldav"`       // server URL
	Calendar     string `yaml:"calendar"`     // collection path on that server
	Username     string `yaml:"username"`
	PasswordFile string `yaml:"password_file"`
	PasswordEnv  string `yaml:"password_env"`
}

// Whereabouts is the configured closed vocabulary of whereabouts words.
func (c *Config) Whereabouts() []string {
	if len(c.Calendars.Whereabouts) > 0 {
		return c.Calendars.Whereabouts
	}
	return redact.Whereabouts
}

// RedactConfig lists what must never be spoken besides the built-in patterns.
type RedactConfig struct {
	Terms     []string `yaml:"terms"`      // family full names, employers, addresses ...
	TermsFile string   `yaml:"terms_file"` // one term per line, kept out of the main file
	MaxChars  int      `yaml:"max_chars"`  // length cap for speech
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

// PlayConfig configures the games (broker/play): the home's own game table (animals,
// riddles' clues, Simon-says moves), laid over the built-in one, and how long a game waits
// for an answer before it ends by itself.
type PlayConfig struct {
	Table   string        `yaml:"table"`
	Timeout time.Duration `yaml:"timeout"` // default 1m
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
