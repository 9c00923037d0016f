package broker

// The per-section types of the broker's config file: one struct per top-level section
// (listen, devices, turn, limits, speech, synthesis, audit, timers, agent, teleport, house,
// calendars, redact, play) and the types nested in them, each field with its YAML key.
// Config in config.go gathers them; loading, defaults and validation stay there.

import (
	"time"
)

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

// RedactConfig lists what must never be spoken besides the built-in patterns.
type RedactConfig struct {
	Terms     []string `yaml:"terms"`      // family full names, employers, addresses ...
	TermsFile string   `yaml:"terms_file"` // one term per line, kept out of the main file
	MaxChars  int      `yaml:"max_chars"`  // length cap for speech
}

// PlayConfig configures the games (broker/play): the home's own game table (animals,
// riddles' clues, Simon-says moves), laid over the built-in one, and how long a game waits
// for an answer before it ends by itself.
type PlayConfig struct {
	Table   string        `yaml:"table"`
	Timeout time.Duration `yaml:"timeout"` // default 1m
}
